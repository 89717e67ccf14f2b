package player

import (
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// Lang answers LANG: the sender's language, for every table, confirmed
// in the new language from the table it came through or the sender's one
// table (ReplyTable).
func (s *Service) Lang(h *table.Request, t *table.Table, lang string) error {
	h.Outcome(table.OutcomeApplied, "LANG "+lang)
	if _, err := h.Tx.EnsurePlayer(h.Msg.From, lang); err != nil {
		return err
	}
	if err := h.Tx.SetPlayerLang(h.Msg.From, lang); err != nil {
		return err
	}
	t, err := h.ReplyTable(t)
	if err != nil {
		return err
	}
	if t != nil {
		if p := t.SeatOf(h.Msg.From); p >= 0 {
			t.Langs[p] = lang
		}
	}
	to := h.Sender(t)
	to.Lang = lang
	return h.ReplyAs(t, to, templates.LangMsg{Head: s.Notices.Head(table.TableName(t), to, h.Now)})
}

// Zone answers TZ: the sender's time zone, for every table, and a
// confirmation showing the time now in it, from the table it came through
// or the sender's one table (ReplyTable), as LANG.
func (s *Service) Zone(h *table.Request, t *table.Table, name string) error {
	h.Outcome(table.OutcomeApplied, "TZ "+name)
	if _, err := h.Tx.EnsurePlayer(h.Msg.From, h.SenderLang(t)); err != nil {
		return err
	}
	if err := h.Tx.SetPlayerZone(h.Msg.From, name); err != nil {
		return err
	}
	t, err := h.ReplyTable(t)
	if err != nil {
		return err
	}
	tz := s.Tables.ZoneOf(name)
	if t != nil {
		if p := t.SeatOf(h.Msg.From); p >= 0 {
			t.Zones[p] = tz
		}
	}
	to := h.Sender(t)
	to.TZ = tz
	return h.ReplyAs(t, to, templates.ZoneMsg{Head: s.Notices.Head(table.TableName(t), to, h.Now), Zone: name})
}
