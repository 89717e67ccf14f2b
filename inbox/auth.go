package inbox

import (
	"strings"

	"github.com/emersion/go-msgauth/authres"
)

// authenticated reports whether the trusted receiving server (authserv-id
// servID) says that the message passed DKIM or DMARC for the From
// address's domain (EMAIL §1.3). headers are the raw Authentication-Results
// values, topmost first.
//
// Only the topmost header with servID counts (RFC 8601 §5): the receiving
// server adds its own above the ones that came with the message, and a
// sender can write any header, with our authserv-id too, below it. Headers
// of other servers are ignored. The one header passes with dkim=pass for
// the domain (header.d, or header.i's domain) or dmarc=pass for it
// (header.from); a dmarc result other than pass for the domain fails,
// whatever DKIM said.
func authenticated(headers []string, servID, from string) bool {
	domain := domainOf(from)
	if domain == "" || servID == "" {
		return false
	}
	for _, h := range headers {
		v, ok := uncomment(h)
		if strings.EqualFold(authservID(v), servID) {
			return ok && passes(v, domain)
		}
	}
	return false
}

// passes reads one comment-free Authentication-Results value.
func passes(v, domain string) bool {
	_, results, err := authres.Parse(v)
	if err != nil {
		return false
	}
	pass := false
	for _, r := range results {
		switch r := r.(type) {
		case *authres.DMARCResult:
			if sameDomain(r.From, domain) {
				if r.Value != authres.ResultPass {
					return false
				}
				pass = true
			}
		case *authres.DKIMResult:
			if r.Value == authres.ResultPass &&
				(sameDomain(r.Domain, domain) || sameDomain(domainOf(r.Identifier), domain)) {
				pass = true
			}
		}
	}
	return pass
}

// authservID is the first word of a comment-free value, before its
// first ';'.
func authservID(v string) string {
	id, _, _ := strings.Cut(v, ";")
	if f := strings.Fields(id); len(f) > 0 {
		return strings.Trim(f[0], `"`)
	}
	return ""
}

// domainOf is the domain of an address ("user@d" or DKIM's "@d"),
// lowercase; "" without one.
func domainOf(addr string) string {
	addr = strings.Trim(addr, `"`)
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return ""
	}
	return strings.ToLower(addr[at+1:])
}

// sameDomain compares a property value (maybe quoted) with a lowercase
// domain.
func sameDomain(v, domain string) bool {
	v = strings.Trim(v, `"`)
	return v != "" && strings.EqualFold(v, domain)
}

// uncomment removes the comments of a header value, which nest and may
// hold quoted pairs: authres does not read comments, and servers write
// semicolons in them, as opendkim's "dkim=pass (2048-bit key; unprotected)
// header.d=…" does. Quoted strings are kept; ok is false when one holds a
// ';' (authres would split it into results a sender may have chosen, as
// in a quoted local part of smtp.mailfrom) or is not closed. The whole
// value is returned either way, so that its authserv-id can be read.
func uncomment(v string) (out string, ok bool) {
	var b strings.Builder
	depth, quoted := 0, false
	ok = true
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case depth > 0:
			switch c {
			case '\\':
				i++
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					b.WriteByte(' ')
				}
			}
		case quoted:
			b.WriteByte(c)
			switch c {
			case '\\':
				if i+1 < len(v) {
					i++
					b.WriteByte(v[i])
				}
			case '"':
				quoted = false
			case ';':
				ok = false
			}
		case c == '(':
			depth = 1
		case c == '"':
			quoted = true
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ok && !quoted
}
