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
	return tx.TakeRate("outsider-mail", s.cfg.Mail.OutsiderMails, 24*time.Hour, now)
}
