package table

import (
	"strings"
)

// authenticated reports whether one of the Authentication-Results headers
// added by the trusted receiving server (authserv-id servID) says that the
// message passed DKIM or DMARC for the From address's domain (EMAIL §1.3).
// Headers from any other server are ignored: a sender can write its own.
// An explicit dmarc=fail for the domain overrules a dkim pass.
func authenticated(headers []string, servID, from string) bool {
	_, domain, ok := strings.Cut(strings.ToLower(from), "@")
	if !ok || servID == "" {
		return false
	}
	pass := false
	for _, h := range headers {
		parts := strings.Split(h, ";")
		id := strings.Fields(strings.ToLower(parts[0]))
		if len(id) == 0 || id[0] != strings.ToLower(servID) {
			continue
		}
		for _, res := range parts[1:] {
			method, result, props := resultOf(res)
			switch {
			case method == "dmarc" && props["header.from"] == domain:
				if result != "pass" {
					return false
				}
				pass = true
			case method == "dkim" && result == "pass" &&
				(props["header.d"] == domain || strings.HasSuffix(props["header.i"], "@"+domain)):
				pass = true
			}
		}
	}
	return pass
}

// resultOf reads one resinfo of RFC 8601: "dkim=pass (comment)
// header.d=example.org header.s=sel".
func resultOf(s string) (method, result string, props map[string]string) {
	props = map[string]string{}
	s = stripComments(strings.ToLower(s))
	for i, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		v = strings.Trim(v, `"`)
		if i == 0 {
			method, result = k, v
			continue
		}
		props[k] = v
	}
	return method, result, props
}

// stripComments drops (parenthesised) comments, which may nest.
func stripComments(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
