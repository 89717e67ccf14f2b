package player

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

// digestHour is when the digest goes, in each player's zone (LEAGUES §5.1).
const digestHour = 8

// digestDue reports whether the digest of the local day of now is due in
// loc, last being the day last decided: from 08:00, once per day.
func digestDue(now time.Time, loc *time.Location, last string) (day string, due bool) {
	local := now.In(loc)
	day = local.Format(time.DateOnly)
	return day, local.Hour() >= digestHour && day > last
}

// nextDigest is the first 08:00 in loc after now.
func nextDigest(now time.Time, loc *time.Location) time.Time {
	local := now.In(loc)
	at := time.Date(local.Year(), local.Month(), local.Day(), digestHour, 0, 0, 0, loc)
	if !at.After(now) {
		at = time.Date(local.Year(), local.Month(), local.Day()+1, digestHour, 0, 0, 0, loc)
	}
	return at
}

// SendDigests sends the digests due at now (NOTIFY digest, LEAGUES §5.1): to
// each player who chose it, once per local day from 08:00 in their zone,
// whose turn it is and until when at each of their tables in play where
// they chose it; nothing when no such table is in play. The day is recorded
// in the transaction that queues the mail, so that a restart, a second
// tick or a day missed while the daemon was down never gives two digests
// for one day: after downtime the day's digest goes at the first tick. It
// returns how many it sent.
func (s *Service) SendDigests(ctx context.Context, now time.Time) (int, error) {
	var players []store.Player
	err := s.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		players, err = tx.PlayersChoosing(table.NotifyDigest)
		return err
	})
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, pl := range players {
		day, due := digestDue(now, s.Tables.ZoneOf(pl.TimeZone), pl.DigestDay)
		if !due {
			continue
		}
		n, err := s.Notices.Commit(ctx, s.Store, now, func(tx *store.Tx, out *notice.Batch) error {
			if err := s.digest(tx, &pl, day, now, out); err != nil {
				return err
			}
			return tx.SetDigestDay(pl.ID, pl.DigestDay, day)
		})
		switch {
		case err == nil:
			sent += n
			if n > 0 {
				s.Log.Info("digest sent", "player", pl.Address, "day", day)
			}
		case ctx.Err() != nil:
			return sent, err
		case errors.Is(err, store.ErrConflict):
			// Another writer decided the day first (a NOTIFY digest, or a
			// concurrent tick): nothing more to do.
			s.Log.Info("digest decided elsewhere", "player", pl.Address, "day", day, "err", err)
		case store.Temporary(err):
			return sent, err
		default:
			s.Log.Error("digest failed; tried again at the next tick", "player", pl.Address, "err", err)
		}
	}
	return sent, nil
}

// digest queues pl's digest of day, if a table of theirs in play has the
// digest as its choice.
func (s *Service) digest(tx *store.Tx, pl *store.Player, day string, now time.Time, out *notice.Batch) error {
	rows, err := tx.TablesOfPlayer(pl.Address)
	if err != nil {
		return err
	}
	var games []templates.GameLine
	yours := 0
	for i := range rows {
		if rows[i].Status != store.StatusPlaying {
			continue
		}
		t, err := s.Tables.LoadRow(tx, &rows[i])
		if err != nil {
			return err
		}
		p := t.SeatOf(pl.Address)
		if p < 0 || t.Game == nil || t.Game.Over() || t.NotifyMode(p) != table.NotifyDigest {
			continue
		}
		ns := table.Names(t.Seats)
		line := templates.GameLine{Table: t.Row.Name, Variant: t.Row.Variant, Status: templates.StatusPlaying,
			Players: ns, Turn: ns[t.Game.Turn()], YourTurn: t.Game.Turn() == p, Score: t.Game.Score(p)}
		if t.Row.Deadline != nil {
			line.Deadline = *t.Row.Deadline
		}
		if line.YourTurn {
			yours++
		}
		games = append(games, line)
	}
	if len(games) == 0 {
		return nil // nothing to say today
	}
	// The tables waiting for their move first, each group by name.
	slices.SortStableFunc(games, func(a, b templates.GameLine) int {
		switch {
		case a.YourTurn == b.YourTurn:
			return 0
		case a.YourTurn:
			return -1
		}
		return 1
	})
	to := notice.Recipient{Addr: pl.Address, Lang: pl.Lang, TZ: s.Tables.ZoneOf(pl.TimeZone), Pos: -1}
	e := notice.Envelope{To: to, Extra: day + "." + notice.ShortHash(pl.Address)}
	out.Add(e, templates.DigestMsg{Head: s.Notices.Head("", to, now), Games: games, Yours: yours})
	return nil
}
