package tableview

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/gcg"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
	"github.com/lexio-mail/lexio/web/view"
)

// This file is what the web side reads (EMAIL §7, web.Source): a table
// as one player or a spectator sees it, a finished game's record, a
// seated player's language. Each read goes through the store and
// rebuilds the game as the other read paths do; a player's page is
// filled from engine.View for that player alone, a spectator's from no
// player's view, so that no page holds a rack it must not before the end.

// WatchURL is the spectators' link of table name of league (EMAIL
// §7.1), for the admin to hand out: "" unless the web side is on and the
// league allows spectators.
func (s *Service) WatchURL(name, leagueName string) string {
	if l := s.Cfg.League(leagueName); s.Links == nil || l == nil || !l.Spectators {
		return ""
	}
	return s.Links.Spectator(name)
}

// WebTable reads table name as the player whose id is player sees it, or
// as a spectator for player 0. It returns nil, and no error, when the
// table does not exist or the player holds none of its seats.
func (s *Service) WebTable(ctx context.Context, name string, player int64) (*view.Table, error) {
	now := s.Now()
	var out *view.Table
	err := s.Store.View(ctx, func(tx *store.Tx) error {
		t, err := s.Tables.Load(tx, name)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		p := -1
		if player != 0 {
			if p = t.SeatOfID(player); p < 0 {
				return nil
			}
		}
		out, err = s.webTable(t, p, now)
		return err
	})
	return out, err
}

// webTable fills the page of t for seat p, or for a spectator (p < 0).
func (s *Service) webTable(t *table.Table, p int, now time.Time) (*view.Table, error) {
	zone := s.Tables.ZoneOf("") // the configuration's
	w := &view.Table{Name: t.Row.Name, League: t.Row.League, Variant: t.Row.Variant, Lang: s.Cfg.Language, TZ: zone, Now: now}
	if l := s.Cfg.League(t.Row.League); l != nil {
		w.Spectators, w.Seasons = l.Spectators, l.Seasons()
	}
	to := notice.Recipient{Pos: -1, TZ: zone, Lang: s.Cfg.Language}
	if p >= 0 {
		to = t.Recipient(p)
		to.ID = 0 // the page links to nothing of the mail's
		w.Lang, w.TZ, w.Viewer = to.Lang, to.TZ, table.Names(t.Seats)[p]
	}
	head := s.Notices.Head(t.Row.Name, to, now)
	head.To = w.Viewer
	if t.Game == nil {
		w.Notice = templates.NoticeMsg{Head: head, State: templates.Table{Variant: t.Row.Variant}}
		if p >= 0 {
			w.Notice.Note = t.Seats[p].Note
		}
		for _, n := range table.Names(t.Seats) {
			w.Notice.State.Players = append(w.Notice.State.Players, templates.PlayerLine{Name: n})
		}
		return w, nil
	}
	w.Started, w.Over = true, t.Game.Over()
	// A spectator's state is drawn from seat 0's view, then stripped of
	// all that is seat 0's own: the rack, the "you", the private log.
	seat := max(p, 0)
	msg, err := s.Tables.NoticeData(t, seat, now)
	if err != nil {
		return nil, err
	}
	msg.Head = head
	v, err := t.Game.View(seat, now)
	if err != nil {
		return nil, store.Permanent(err)
	}
	b := v.Board
	entries := v.Log
	if p < 0 {
		// Seat 0's rack shows through the unseen; its note is its own.
		msg.Rack, msg.Unseen, msg.Note = nil, templates.Unseen{}, ""
		entries = slices.DeleteFunc(slices.Clone(entries), func(e engine.LogEntry) bool { return e.Private })
		for i := range msg.State.Players {
			msg.State.Players[i].You = false
		}
	}
	for i := range msg.State.Players {
		msg.State.Players[i].Address = "" // a page names no address
	}
	msg.Log = notice.LogLines(entries, table.Names(t.Seats), &b)
	w.Notice = msg
	if w.Over {
		over, err := s.Tables.GameOverData(t, seat, now)
		if err != nil {
			return nil, err
		}
		over.Head = head
		over.Missed = s.Tables.Missed(t, table.Names(t.Seats))
		if p < 0 {
			for i := range over.Final {
				over.Final[i].You = false
			}
		}
		over.Log = msg.Log
		w.GameOver = over
	}
	return w, nil
}

// WebGCG returns the record of a finished game (the GCG `lexio table show
// --gcg` writes, the players named as the table names them, without
// their addresses); nil when the table does not exist or its game is not
// over.
func (s *Service) WebGCG(ctx context.Context, name string) ([]byte, error) {
	var out []byte
	err := s.Store.View(ctx, func(tx *store.Tx) error {
		t, err := s.Tables.Load(tx, name)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil || t.Game == nil || !t.Game.Over() {
			return err
		}
		rec, err := gcg.FromGame(t.Game.Config(), t.Game.Actions(), table.Names(t.Seats))
		if err != nil {
			return store.Permanent(err)
		}
		rec.Title = "Lexio " + t.Row.Name
		var b bytes.Buffer
		if _, err := rec.WriteTo(&b); err != nil {
			return err
		}
		out = b.Bytes()
		return nil
	})
	return out, err
}

// WebPlayerLang is the language of the player whose id is player at
// table name, for the words of a page about them; "" when they hold no
// seat there.
func (s *Service) WebPlayerLang(ctx context.Context, name string, player int64) (string, error) {
	lang := ""
	err := s.Store.View(ctx, func(tx *store.Tx) error {
		row, err := tx.TableByName(name)
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		seats, err := tx.Seats(row.ID)
		if err != nil {
			return err
		}
		for _, st := range seats {
			if st.PlayerID == player {
				lang = st.Player.Lang
			}
		}
		return nil
	})
	return lang, err
}
