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

// MayMailOutsider counts one mail to addr against the day's allowance of
// mail to outsiders and reports whether it may go; mail to a player who
// played here is not counted and always may. It is for a mail under no
// other bound (an invitation, its own bounds checked before); an answer
// counts OutsiderRates with its others.
func (w *Writer) MayMailOutsider(tx *store.Tx, addr string, now time.Time) (bool, error) {
	played, err := PlayedHere(tx, addr)
	if err != nil || played {
		return played, err
	}
	return tx.TakeRate(outsiderKey, w.cfg.Mail.OutsiderMails, outsiderWindow, now)
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
		{Key: outsiderKey + "-domain:" + Domain(addr), Limit: DomainShare(total), Window: outsiderWindow},
		{Key: outsiderKey, Limit: total, Window: outsiderWindow},
	}, nil
}

// Domain is addr's domain, lowercased: what the bounds per sending domain
// count by.
func Domain(addr string) string {
	return strings.ToLower(addr[strings.LastIndexByte(addr, '@')+1:])
}

// DomainShare is how much of a day's total the mail of one domain may
// spend: a tenth, at least one (EMAIL §2.6).
func DomainShare(total int) int {
	return max(1, total/10)
}

// OutsiderRoom is how many more mails to outsiders the day's bound lets
// go now: what MayMailOutsider would still allow, without counting any.
func (w *Writer) OutsiderRoom(tx *store.Tx, now time.Time) (int, error) {
	_, n, err := tx.RateWindow(outsiderKey, outsiderWindow, now)
	return w.cfg.Mail.OutsiderMails - n, err
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
