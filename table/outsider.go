package table

import (
	"time"

	"github.com/lexio-mail/lexio/store"
)

// playedHere reports whether addr has a seat at any table, or ever
// answered a confirmation (EMAIL §1.7): someone who plays here or showed
// that they read their mail. Everyone else is an outsider, whose mail is
// bounded (mail.outsider_mails_per_day).
func playedHere(tx *store.Tx, addr string) (bool, error) {
	refs, err := tx.TableRefsOfPlayer(addr)
	if err != nil || len(refs) > 0 {
		return len(refs) > 0, err
	}
	return tx.HasConfirmed(addr)
}

// mayMailOutsider counts one mail to addr against the day's allowance of
// mail to outsiders and reports whether it may go; mail to a player who
// played here is not counted and always may.
func (s *Service) mayMailOutsider(tx *store.Tx, addr string, now time.Time) (bool, error) {
	played, err := playedHere(tx, addr)
	if err != nil || played {
		return played, err
	}
	return tx.TakeRate(outsiderKey, s.cfg.Mail.OutsiderMails, outsiderWindow, now)
}

// outsiderRoom is how many more mails to outsiders the day's bound lets
// go now: what mayMailOutsider would still allow, without counting any.
func (s *Service) outsiderRoom(tx *store.Tx, now time.Time) (int, error) {
	_, n, err := tx.RateWindow(outsiderKey, outsiderWindow, now)
	return s.cfg.Mail.OutsiderMails - n, err
}

// The rate counter of mail to outsiders, in all.
const (
	outsiderKey    = "outsider-mail"
	outsiderWindow = 24 * time.Hour
)
