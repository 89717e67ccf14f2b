package table

import (
	"time"

	"github.com/lexio-mail/lexio/store"
)

// withinUnprovenBound counts one answer to mail that proved nothing of
// its sender against the day's bounds, for its address and in all; past
// them nothing is answered, not even a notice (answering would serve
// whoever forged the From).
func (h *Request) withinUnprovenBound(addr string) (bool, error) {
	cfg := h.s.cfg.Mail
	bounds := []struct {
		key   string
		limit int
	}{{"unproven:" + store.NormalizeAddress(addr), cfg.UnprovenAnswers}, {"unproven-all", cfg.UnprovenAnswersTotal}}
	for _, b := range bounds {
		ok, err := h.Tx.TakeRate(b.key, b.limit, 24*time.Hour, h.Now)
		if err != nil {
			return false, err
		}
		if !ok {
			h.Log.Info("bound on answers to unproven mail reached: not answered", "bound", b.key)
			return false, nil
		}
	}
	if !h.s.notices.PlainAddress(addr) {
		// Not an address we write to (LEAGUES §6): its owner cannot have
		// sent anything worth answering.
		h.Log.Info("the sender's address is not plain: not answered")
		return false, nil
	}
	return true, nil
}
