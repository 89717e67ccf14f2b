package notice

import (
	"strings"
	"time"

	"github.com/lexio-mail/lexio/store"
)

// This file bounds the mail to outsiders: people who never played here
// (mail.outsider_mails_per_day), and writes only to plain addresses.

// PlayedHere reports whether addr has a seat at any table, or ever
// answered a confirmation (EMAIL §1.7): someone who plays here or showed
// that they read their mail. Everyone else is an outsider, whose mail is
// bounded (mail.outsider_mails_per_day).
func PlayedHere(tx *store.Tx, addr string) (bool, error) {
	refs, err := tx.TableRefsOfPlayer(addr)
	if err != nil || len(refs) > 0 {
		return len(refs) > 0, err
	}
	return tx.HasConfirmed(addr)
}

// MayMailOutsider counts one mail to addr against the day's bounds on
// mail to outsiders (OutsiderRates: its domain's share and the total, both
// or neither) and reports whether it may go; mail to a player who played
// here is not counted and always may. It is for a mail under no other
// bound (an invitation, its own bounds checked before); an answer counts
// OutsiderRates with its others.
func (w *Writer) MayMailOutsider(tx *store.Tx, addr string, now time.Time) (bool, error) {
	rates, err := w.OutsiderRates(tx, addr)
	if err != nil || rates == nil {
		return err == nil, err
	}
	refused, err := tx.TakeRates(now, rates...)
	return err == nil && refused == nil, err
}

// OutsiderRates are the bounds that an answer to addr counts against
// (store.TakeRates): none when addr played here; else the day's mail to
// outsiders in all, and the share of it that the answers to addr's
// domain may spend (DomainShare), so that mail forged from one domain
// cannot spend the day's.
func (w *Writer) OutsiderRates(tx *store.Tx, addr string) ([]store.Rate, error) {
	played, err := PlayedHere(tx, addr)
	if err != nil || played {
		return nil, err
	}
	total := w.cfg.Mail.OutsiderMails
	return []store.Rate{
		{Key: outsiderDomainKey(addr), Limit: DomainShare(total), Window: outsiderWindow},
		{Key: outsiderKey, Limit: total, Window: outsiderWindow},
	}, nil
}

// outsiderDomainKey is the rate counter of the mail to outsiders at
// addr's domain.
func outsiderDomainKey(addr string) string {
	return outsiderKey + "-domain:" + store.PersonDomain(addr)
}

// DomainShare is how much of a day's total the mail of one domain may
// spend: a tenth, at least one (EMAIL §2.6).
func DomainShare(total int) int {
	return max(1, total/10)
}

// Room is what the day's bounds on mail to outsiders still let go, in
// all and to each domain: what MayMailOutsider would still allow, taken
// place by place as a batch of mail is planned (the invitations of one
// NEW) without counting any.
type Room struct {
	tx      *store.Tx
	now     time.Time
	total   int            // left in all
	share   int            // a domain's share of the day's total
	domains map[string]int // left to each domain asked, read once
}

// OutsiderRoom is the room the day's bounds on mail to outsiders leave
// now.
func (w *Writer) OutsiderRoom(tx *store.Tx, now time.Time) (*Room, error) {
	_, n, err := tx.RateWindow(outsiderKey, outsiderWindow, now)
	if err != nil {
		return nil, err
	}
	total := w.cfg.Mail.OutsiderMails
	return &Room{tx: tx, now: now, total: total - n, share: DomainShare(total), domains: map[string]int{}}, nil
}

// Take takes the place of one more mail to addr, an outsider, if the
// room has it. Else it takes none and reports which bound is spent:
// domain when the day's total still has room but addr's domain has spent
// its share.
func (r *Room) Take(addr string) (ok, domain bool, err error) {
	d := store.PersonDomain(addr)
	left, seen := r.domains[d]
	if !seen {
		_, n, err := r.tx.RateWindow(outsiderDomainKey(addr), outsiderWindow, r.now)
		if err != nil {
			return false, false, err
		}
		left = r.share - n
	}
	r.domains[d] = left
	if r.total <= 0 || left <= 0 {
		return false, r.total > 0, nil
	}
	r.total--
	r.domains[d] = left - 1
	return true, false, nil
}

// The rate counter of mail to outsiders, in all.
const (
	outsiderKey    = "outsider-mail"
	outsiderWindow = 24 * time.Hour
)

// PlainAddress reports whether addr (lowercase, as the parser returns it)
// is one the service may write to: a dot-atom local part of at most 64
// octets, and a host name of labels of letters, digits and hyphens (1 to
// 63 each, no hyphen first or last, at most 253 in all) with a dot, but
// for the service's own domain (localhost in the demo).
func (w *Writer) PlainAddress(addr string) bool {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || !dotAtom(local) || len(local) > maxLocal {
		return false
	}
	if !hostName(domain) {
		return false
	}
	return strings.Contains(domain, ".") || strings.EqualFold(domain, w.domain)
}

// dotAtom reports whether s is atoms of RFC 5322's atext joined by dots.
func dotAtom(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || strings.IndexByte("!#$%&'*+-/=?^_`{|}~", c) >= 0) {
			return false
		}
	}
	return true
}

// hostName reports whether s is a host name by RFC 1123 §2.1.
func hostName(s string) bool {
	if s == "" || len(s) > maxDomain {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// maxLocal and maxDomain are the longest local part and domain of an
// address the service writes to (RFC 5321 §4.5.3.1; RFC 1123 §2.1).
const (
	maxLocal  = 64
	maxDomain = 253
)
