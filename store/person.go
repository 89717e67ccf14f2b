package store

import "strings"

// PersonKey returns the key under which every bound on mail to or from an
// address, STOP and the addresses that refuse invitations compare it
// (EMAIL §1.8): the spellings of one mailbox give one key. It folds what
// NormalizeAddress folds (spaces around, case), quotes around the local
// part, a subaddress (from the local part's first '+', when something
// comes before it) and, at gmail.com and googlemail.com alone, the dots of
// the local part and the domain's two names. It folds no other
// provider's rule: elsewhere a dot or a '-' may tell two people apart.
//
// A key is for comparing, never an address to write to or to show, and
// never for the service's own addresses, whose '+' part is a reply token.
func PersonKey(addr string) string {
	a := NormalizeAddress(addr)
	at := strings.LastIndexByte(a, '@')
	if at < 0 {
		return a
	}
	local, domain := a[:at], a[at+1:]
	if len(local) >= 2 && local[0] == '"' && local[len(local)-1] == '"' {
		local = unquote(local[1 : len(local)-1])
	}
	if base, _, ok := strings.Cut(local, "+"); ok && base != "" {
		local = base
	}
	if domain == "gmail.com" || domain == "googlemail.com" {
		// Google's rule for its own mailboxes: dots are not read, and the
		// two domains are one.
		local, domain = strings.ReplaceAll(local, ".", ""), "gmail.com"
	}
	return local + "@" + domain
}

// PersonDomain is the domain of addr's PersonKey: what the bounds per
// domain count by, gmail.com and googlemail.com as one.
func PersonDomain(addr string) string {
	k := PersonKey(addr)
	return k[strings.LastIndexByte(k, '@')+1:]
}

// unquote is the content of an RFC 5322 quoted string, its quotes gone:
// each backslash stands for the character after it.
func unquote(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
