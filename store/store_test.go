package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
)

func TestOpenRejectsBadOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"unknown driver", Options{Driver: "mysql"}, "unknown driver"},
		{"sqlite without path", Options{Driver: DriverSQLite}, "no path"},
		{"postgres without dsn", Options{Driver: DriverPostgres}, "no DSN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(context.Background(), tc.opts)
			if err == nil {
				s.Close()
				t.Fatalf("Open succeeded, want error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "store: ") {
				t.Errorf("error %q, want prefix store: and %q", err, tc.want)
			}
		})
	}
}

func TestMigrationsIdempotent(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		newTable(t, s, "first", 2)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		// Open again: AutoMigrate and the versioned steps run again on the
		// existing schema and must change nothing.
		s2 := open(t)
		s3 := open(t) // and a concurrent open of a migrated database
		_ = s3
		v, err := s2.schemaVersion(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if v != SchemaVersion() {
			t.Errorf("schema version %d, want %d", v, SchemaVersion())
		}
		var rows int64
		if err := s2.db.Model(&schemaVersion{}).Count(&rows).Error; err != nil {
			t.Fatal(err)
		}
		if rows != int64(len(migrations())) {
			t.Errorf("%d schema_version rows, want %d", rows, len(migrations()))
		}
		err = s2.View(context.Background(), func(tx *Tx) error {
			tab, err := tx.TableByName("first")
			if err != nil {
				return err
			}
			seats, err := tx.Seats(tab.ID)
			if len(seats) != 2 {
				return fmt.Errorf("%d seats after reopen, want 2", len(seats))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestPlayers(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		mustTx(t, s, func(tx *Tx) error {
			p, err := tx.EnsurePlayer("  Alice@Example.ORG ", "fr")
			if err != nil {
				return err
			}
			if p.Address != "alice@example.org" || p.Lang != "fr" || p.ID == 0 {
				t.Errorf("created %+v", p)
			}
			again, err := tx.EnsurePlayer("alice@example.org", "es")
			if err != nil {
				return err
			}
			if again.ID != p.ID || again.Lang != "fr" {
				t.Errorf("EnsurePlayer again = %+v, want the same player, language kept", again)
			}
			if err := tx.SetPlayerLang("ALICE@example.org", "es"); err != nil {
				return err
			}
			got, err := tx.PlayerByAddress("alice@example.org")
			if err != nil {
				return err
			}
			if got.Lang != "es" || !got.CreatedAt.Equal(t0) {
				t.Errorf("after SetPlayerLang: %+v", got)
			}
			if _, err := tx.PlayerByAddress("bob@example.org"); !errors.Is(err, ErrNotFound) {
				t.Errorf("unknown player: %v, want ErrNotFound", err)
			}
			if err := tx.SetPlayerLang("bob@example.org", "en"); !errors.Is(err, ErrNotFound) {
				t.Errorf("SetPlayerLang unknown: %v, want ErrNotFound", err)
			}
			if got.TimeZone != "" {
				t.Errorf("a new player's zone is %q, want \"\" (the configuration's)", got.TimeZone)
			}
			if err := tx.SetPlayerZone("Alice@example.org", "Europe/Paris"); err != nil {
				return err
			}
			if got, err = tx.PlayerByAddress("alice@example.org"); err != nil || got.TimeZone != "Europe/Paris" || got.Lang != "es" {
				t.Errorf("after SetPlayerZone: %+v, %v", got, err)
			}
			if err := tx.SetPlayerZone("bob@example.org", "UTC"); !errors.Is(err, ErrNotFound) {
				t.Errorf("SetPlayerZone unknown: %v, want ErrNotFound", err)
			}
			return nil
		})
	})
}

func TestTableRoundTrip(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		deadline := t0.Add(72 * time.Hour)
		in := &Table{
			Name: "plain-1", League: "classic", Variant: "lexico", Multipliers: false,
			Seed:     -6917529027641081856, // int64(uint64(0xa000000000000000)): a uint64 seed with its top bit set
			TurnTime: 48 * time.Hour, Reminders: []time.Duration{12 * time.Hour, time.Hour},
			AwayGrace: 2 * time.Hour, ReserveSize: 10, ReserveRefill: 15 * time.Second,
			Status: "playing", StartedAt: ptr(t0.Add(-time.Hour)), Seq: 0,
			TurnStarted: ptr(t0.In(time.FixedZone("CET", 3600))), Deadline: &deadline,
			NextReminder: ptr(deadline.Add(-12 * time.Hour)),
		}
		mustTx(t, s, func(tx *Tx) error { return tx.CreateTable(in) })
		if in.ID == 0 {
			t.Fatal("CreateTable did not set ID")
		}
		err := s.View(context.Background(), func(tx *Tx) error {
			got, err := tx.TableByID(in.ID)
			if err != nil {
				return err
			}
			if got.Name != in.Name || got.League != "classic" || got.Variant != "lexico" || got.Multipliers ||
				got.Seed != in.Seed || got.TurnTime != 48*time.Hour || len(got.Reminders) != 2 ||
				got.Reminders[1] != time.Hour || got.AwayGrace != 2*time.Hour || got.ReserveSize != 10 ||
				got.ReserveRefill != 15*time.Second || got.Status != "playing" ||
				got.StartedAt == nil || !got.StartedAt.Equal(t0.Add(-time.Hour)) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, in)
			}
			if got.TurnStarted == nil || !got.TurnStarted.Equal(t0) {
				t.Errorf("TurnStarted %v, want %v", got.TurnStarted, t0)
			}
			if got.DueAt == nil || !got.DueAt.Equal(deadline.Add(-12*time.Hour)) {
				t.Errorf("DueAt %v, want the reminder %v", got.DueAt, deadline.Add(-12*time.Hour))
			}
			if _, err := tx.TableByName("nope"); !errors.Is(err, ErrNotFound) {
				t.Errorf("TableByName(nope): %v, want ErrNotFound", err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The game's seed and start are written when it starts.
		started := *in
		started.Seed, started.StartedAt = 42, ptr(t0.Add(time.Minute))
		mustTx(t, s, func(tx *Tx) error { return tx.SaveTable(&started, 0) })
		err = s.View(context.Background(), func(tx *Tx) error {
			got, err := tx.TableByID(in.ID)
			if err == nil && (got.Seed != 42 || got.StartedAt == nil || !got.StartedAt.Equal(t0.Add(time.Minute))) {
				t.Errorf("after SaveTable: seed %d, started %v; want 42, %v", got.Seed, got.StartedAt, t0.Add(time.Minute))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		err = s.Tx(context.Background(), func(tx *Tx) error { return tx.CreateTable(&Table{Name: "plain-1"}) })
		if !errors.Is(err, ErrDuplicate) {
			t.Errorf("second table named plain-1: %v, want ErrDuplicate", err)
		}
	})
}

func TestMessageUniqueness(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		msg := func(id string, uv, uid uint32) *Message {
			m := &Message{MessageID: id, From: "p0@example.org", Outcome: "applied", At: t0}
			if uv != 0 {
				m.Mailbox, m.UIDValidity, m.UID = "INBOX", &uv, &uid
			}
			return m
		}
		mustTx(t, s, func(tx *Tx) error { return tx.RecordMessage(msg("<a@x>", 7, 1)) })

		tests := []struct {
			name string
			m    *Message
			want error
		}{
			{"same Message-ID", msg("<a@x>", 0, 0), ErrDuplicate},
			{"same Message-ID, other UID", msg("<a@x>", 7, 2), ErrDuplicate},
			{"same UID, other Message-ID", msg("<b@x>", 7, 1), ErrDuplicate},
			{"same UID, new UIDVALIDITY", msg("<c@x>", 8, 1), nil},
			{"no UID", msg("<d@x>", 0, 0), nil},
			{"no UID again", msg("<e@x>", 0, 0), nil},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				err := s.Tx(ctx, func(tx *Tx) error { return tx.RecordMessage(tc.m) })
				if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
					t.Errorf("RecordMessage: %v, want %v", err, tc.want)
				}
			})
		}

		// A duplicate inside a transaction leaves it usable: the service can
		// record the duplicate's outcome elsewhere and still commit.
		mustTx(t, s, func(tx *Tx) error {
			if err := tx.RecordMessage(msg("<a@x>", 0, 0)); !errors.Is(err, ErrDuplicate) {
				t.Errorf("duplicate in tx: %v", err)
			}
			return tx.RecordMessage(msg("<f@x>", 0, 0))
		})
		err := s.View(ctx, func(tx *Tx) error {
			for id, want := range map[string]bool{"<a@x>": true, "<f@x>": true, "<b@x>": false} {
				seen, err := tx.MessageSeen(id)
				if err != nil {
					return err
				}
				if seen != want {
					t.Errorf("MessageSeen(%s) = %v, want %v", id, seen, want)
				}
			}
			m, err := tx.MessageByID("<a@x>")
			if err != nil {
				return err
			}
			if m.Outcome != "applied" || !m.At.Equal(t0) || *m.UID != 1 {
				t.Errorf("MessageByID = %+v", m)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestSeats(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		tab := newTable(t, s, "seats", 2) // p0 at 0, p1 at 1
		other := newTable(t, s, "other", 1)
		var p0, p2 *Player
		mustTx(t, s, func(tx *Tx) (err error) {
			if p0, err = tx.PlayerByAddress("p0@example.org"); err != nil {
				return err
			}
			p2, err = tx.EnsurePlayer("p2@example.org", "es")
			return err
		})
		tests := []struct {
			name string
			seat Seat
			want error // nil: success
		}{
			{"position taken", Seat{TableID: tab.ID, Position: 1, PlayerID: p2.ID}, ErrConflict},
			{"player already seated", Seat{TableID: tab.ID, Position: 2, PlayerID: p0.ID}, ErrDuplicate},
			{"position out of range", Seat{TableID: tab.ID, Position: 4, PlayerID: p2.ID}, errors.New("out of 0-3")},
			{"no such table", Seat{TableID: 999999, Position: 0, PlayerID: p2.ID}, errors.New("foreign key")},
			{"new player, next position", Seat{TableID: tab.ID, Position: 2, PlayerID: p2.ID}, nil},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				err := s.Tx(context.Background(), func(tx *Tx) error { return tx.AddSeat(&tc.seat) })
				switch {
				case tc.want == nil && err != nil:
					t.Errorf("AddSeat: %v", err)
				case tc.want == nil:
				case errors.Is(tc.want, ErrDuplicate) && (!errors.Is(err, ErrDuplicate) || errors.Is(err, ErrConflict)):
					t.Errorf("AddSeat: %v, want ErrDuplicate", err)
				case errors.Is(tc.want, ErrConflict) && (!errors.Is(err, ErrConflict) || errors.Is(err, ErrDuplicate)):
					t.Errorf("AddSeat: %v, want ErrConflict (not ErrDuplicate)", err)
				case err == nil:
					t.Errorf("AddSeat succeeded, want %v", tc.want)
				}
			})
		}
		err := s.View(context.Background(), func(tx *Tx) error {
			seats, err := tx.Seats(tab.ID)
			if err != nil {
				return err
			}
			var got []string
			for _, st := range seats {
				got = append(got, fmt.Sprintf("%d:%s", st.Position, st.Player.Address))
			}
			if want := "0:p0@example.org 1:p1@example.org 2:p2@example.org"; strings.Join(got, " ") != want {
				t.Errorf("Seats = %q, want %q", strings.Join(got, " "), want)
			}
			ts, err := tx.TablesOfPlayer("P0@example.org")
			if err != nil {
				return err
			}
			if len(ts) != 2 || ts[0].ID != other.ID || ts[1].ID != tab.ID {
				t.Errorf("TablesOfPlayer(p0) = %d tables, want other, seats", len(ts))
			}
			ts, err = tx.TablesOfPlayer("nobody@example.org")
			if err != nil || len(ts) != 0 {
				t.Errorf("TablesOfPlayer(nobody) = %v, %v", ts, err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// applyMove does what the table service does for one accepted move.
func applyMove(tx *Tx, tab *Table, msgID string, at time.Time, mails int) error {
	if err := tx.RecordMessage(&Message{MessageID: msgID, From: "p0@example.org", TableID: &tab.ID, Outcome: "applied", At: at}); err != nil {
		return err
	}
	if _, err := tx.AppendAction(tab.ID, tab.Seq+1, "place", `{"word":"CHAT"}`, at); err != nil {
		return err
	}
	prev := tab.Seq
	next := *tab
	next.Seq = prev + 1
	next.TurnStarted, next.Deadline = &at, ptr(at.Add(72*time.Hour))
	if err := tx.SaveTable(&next, prev); err != nil {
		return err
	}
	for i := range mails {
		m := &OutboxMail{TableID: &tab.ID, MessageID: fmt.Sprintf("<%s.%d@lexio>", msgID, i), From: "lexio@example.org",
			To: []string{fmt.Sprintf("p%d@example.org", i)}, Raw: []byte("Subject: move\r\n\r\nboard\r\n"), CreatedAt: at}
		if err := enqueue(tx, []*OutboxMail{m}); err != nil {
			return err
		}
	}
	*tab = next
	return nil
}

func TestTxRollsBackEverything(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		tab := newTable(t, s, "atomic", 2)
		errBoom := errors.New("boom")

		check := func(t *testing.T) {
			t.Helper()
			err := s.View(ctx, func(tx *Tx) error {
				seen, err := tx.MessageSeen("<m1@x>")
				if err != nil {
					return err
				}
				acts, err := tx.Actions(tab.ID)
				if err != nil {
					return err
				}
				got, err := tx.TableByID(tab.ID)
				if err != nil {
					return err
				}
				if seen || len(acts) != 0 || got.Seq != 0 || got.Deadline != nil {
					t.Errorf("half-applied move: message seen %v, %d actions, table seq %d deadline %v",
						seen, len(acts), got.Seq, got.Deadline)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			due, err := outboxRows(s)
			if err != nil {
				t.Fatal(err)
			}
			if len(due) != 0 {
				t.Errorf("%d outbox rows after rollback", len(due))
			}
		}

		t.Run("error", func(t *testing.T) {
			local := *tab
			err := s.Tx(ctx, func(tx *Tx) error {
				if err := applyMove(tx, &local, "<m1@x>", t0, 2); err != nil {
					return err
				}
				return fmt.Errorf("render: %w", errBoom)
			})
			if !errors.Is(err, errBoom) {
				t.Fatalf("Tx returned %v, want fn's error", err)
			}
			check(t)
		})
		t.Run("panic", func(t *testing.T) {
			local := *tab
			func() {
				defer func() {
					if r := recover(); r != "engine bug" {
						t.Errorf("recovered %v, want the panic to go on", r)
					}
				}()
				_ = s.Tx(ctx, func(tx *Tx) error {
					if err := applyMove(tx, &local, "<m1@x>", t0, 2); err != nil {
						return err
					}
					panic("engine bug")
				})
			}()
			check(t)
		})
		t.Run("then commit", func(t *testing.T) {
			// The writer's slot was given back: the same move now commits.
			local := *tab
			mustTx(t, s, func(tx *Tx) error { return applyMove(tx, &local, "<m1@x>", t0, 2) })
			due, err := outboxRows(s)
			if err != nil || len(due) != 2 {
				t.Fatalf("Due after commit = %d rows, %v; want 2", len(due), err)
			}
		})
	})
}

func TestOptimisticSeq(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		tab := newTable(t, s, "seq", 2)
		stale := *tab
		mustTx(t, s, func(tx *Tx) error { return applyMove(tx, tab, "<m1@x>", t0, 0) })

		// A second writer that read the table before the first move.
		err := s.Tx(ctx, func(tx *Tx) error {
			next := stale
			next.Seq = 1
			return tx.SaveTable(&next, stale.Seq)
		})
		if !errors.Is(err, ErrConflict) {
			t.Errorf("SaveTable with a stale seq: %v, want ErrConflict", err)
		}
		err = s.Tx(ctx, func(tx *Tx) error {
			_, err := tx.AppendAction(tab.ID, 1, "pass", `{}`, t0)
			return err
		})
		// A conflict, not a duplicate: nothing says this writer's change
		// was made (the table service retries conflicts and takes only a
		// recorded Message-ID for "already handled").
		if !errors.Is(err, ErrConflict) || errors.Is(err, ErrDuplicate) {
			t.Errorf("AppendAction on a taken seq: %v, want ErrConflict and not ErrDuplicate", err)
		}
		err = s.Tx(ctx, func(tx *Tx) error {
			return tx.SaveTable(&Table{ID: 987654, Seq: 1}, 0)
		})
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("SaveTable of a missing table: %v, want ErrNotFound", err)
		}
		mustTx(t, s, func(tx *Tx) error { return applyMove(tx, tab, "<m2@x>", t0.Add(time.Minute), 0) })
		err = s.View(ctx, func(tx *Tx) error {
			got, err := tx.TableByID(tab.ID)
			if err != nil {
				return err
			}
			if got.Seq != 2 {
				t.Errorf("table seq %d, want 2", got.Seq)
			}
			acts, err := tx.Actions(tab.ID)
			if err != nil {
				return err
			}
			if len(acts) != 2 || acts[0].Seq != 1 || acts[1].Seq != 2 || !acts[1].At.Equal(t0.Add(time.Minute)) {
				t.Errorf("actions %+v", acts)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

func TestTakeRate(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		const limit, window = 3, time.Hour
		steps := []struct {
			key  string
			at   time.Duration // after t0
			want bool
		}{
			{"a", 0, true},
			{"a", time.Millisecond, true},
			{"a", time.Minute, true},
			{"a", 2 * time.Minute, false}, // the 4th in the window
			{"b", 2 * time.Minute, true},  // keys are independent
			{"a", 59*time.Minute + 59*time.Second, false},
			{"a", time.Hour, true}, // the window that opened at t0 closed
			{"a", time.Hour + time.Second, true},
			{"a", time.Hour + 2*time.Second, true},
			{"a", time.Hour + 3*time.Second, false},
			{"b", time.Hour + time.Minute, true},
			{"a", 5 * time.Hour, true},
		}
		for i, st := range steps {
			var got bool
			mustTx(t, s, func(tx *Tx) (err error) {
				got, err = tx.TakeRate(st.key, limit, window, t0.Add(st.at))
				return err
			})
			if got != st.want {
				t.Errorf("step %d: TakeRate(%s, +%v) = %v, want %v", i, st.key, st.at, got, st.want)
			}
		}
		mustTx(t, s, func(tx *Tx) error {
			if ok, err := tx.TakeRate("c", 0, window, t0); ok || err != nil {
				t.Errorf("limit 0: %v, %v; want false", ok, err)
			}
			return nil
		})
	})
}

func TestDueTables(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		at := func(d time.Duration) *time.Time { return ptr(t0.Add(d)) }
		tables := []struct {
			name     string
			status   string
			deadline *time.Time
			reminder *time.Time
		}{
			{"deadline-late", "playing", at(-time.Second), nil},
			{"reminder-first", "playing", at(time.Hour), at(-3 * time.Hour)},
			{"deadline-first", "playing", at(-2 * time.Hour), at(-time.Hour)},
			{"half-second", "playing", at(-1500 * time.Millisecond), nil},
			{"tenth-second", "playing", at(-1100 * time.Millisecond), nil}, // fractional seconds order
			{"future", "playing", at(time.Hour), at(time.Second)},
			{"over", "over", at(-5 * time.Hour), nil},
			{"open", "open", at(-5 * time.Hour), nil},
			{"no-deadline", "playing", nil, nil},
		}
		for _, tc := range tables {
			tab := &Table{Name: tc.name, Status: "open"}
			mustTx(t, s, func(tx *Tx) error {
				if err := tx.CreateTable(tab); err != nil {
					return err
				}
				// Deadlines are set by SaveTable, as the service does.
				tab.Status, tab.Deadline, tab.NextReminder, tab.Seq = TableStatus(tc.status), tc.deadline, tc.reminder, 1
				return tx.SaveTable(tab, 0)
			})
		}
		names := func(limit int) string {
			var got []string
			err := s.View(ctx, func(tx *Tx) error {
				ts, err := tx.DueTables(t0, limit)
				for _, tab := range ts {
					got = append(got, tab.Name)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			return strings.Join(got, " ")
		}
		if got, want := names(10), "reminder-first deadline-first half-second tenth-second deadline-late"; got != want {
			t.Errorf("DueTables = %q, want %q", got, want)
		}
		if got, want := names(2), "reminder-first deadline-first"; got != want {
			t.Errorf("DueTables limit 2 = %q, want %q", got, want)
		}
		// Clearing the reminder moves the table to its deadline.
		mustTx(t, s, func(tx *Tx) error {
			tab, err := tx.TableByName("reminder-first")
			if err != nil {
				return err
			}
			tab.NextReminder = nil
			tab.Seq = 2
			return tx.SaveTable(tab, 1)
		})
		if got, want := names(10), "deadline-first half-second tenth-second deadline-late"; got != want {
			t.Errorf("DueTables after clearing a reminder = %q, want %q", got, want)
		}
		// NextDue: the earliest due after a time, of a playing table
		// (reminder-first's is now its deadline).
		for _, tc := range []struct {
			after time.Time
			want  *time.Time
		}{
			{t0, at(time.Second)},
			{t0.Add(-1200 * time.Millisecond), at(-1100 * time.Millisecond)},
			{t0.Add(-6 * time.Hour), at(-2 * time.Hour)}, // not the tables over or open
			{t0.Add(time.Second), at(time.Hour)},
			{t0.Add(time.Hour), nil},
		} {
			var got time.Time
			var ok bool
			err := s.View(ctx, func(tx *Tx) (err error) {
				got, ok, err = tx.NextDue(tc.after)
				return err
			})
			switch {
			case err != nil:
				t.Fatal(err)
			case tc.want == nil && ok:
				t.Errorf("NextDue(%v) = %v, want none", tc.after, got)
			case tc.want != nil && (!ok || !got.Equal(*tc.want)):
				t.Errorf("NextDue(%v) = %v, %v; want %v", tc.after, got, ok, *tc.want)
			}
		}
	})
}

// TestConcurrentWriters has goroutines play moves on shared tables through
// Tx at the same time: on SQLite no "database is locked", on both no lost
// or doubled move (conflicts, where the database reports them, are retried
// as the table service will).
func TestConcurrentWriters(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := context.Background()
		const workers, moves = 8, 25
		tabs := []*Table{newTable(t, s, "c0", 2), newTable(t, s, "c1", 2)}
		var wg sync.WaitGroup
		errs := make(chan error, workers*moves)
		var conflicts sync.Map
		for w := range workers {
			wg.Go(func() {
				for i := range moves {
					tabID := tabs[(w+i)%len(tabs)].ID
					msgID := fmt.Sprintf("<w%d.%d@x>", w, i)
					for {
						err := s.Tx(ctx, func(tx *Tx) error {
							if ok, err := tx.TakeRate("p0@example.org/errors", 1000000, time.Hour, t0); err != nil || !ok {
								return fmt.Errorf("rate: %v %v", ok, err)
							}
							tab, err := tx.TableByID(tabID)
							if err != nil {
								return err
							}
							return applyMove(tx, tab, msgID, t0.Add(time.Duration(i)*time.Second), 1)
						})
						if errors.Is(err, ErrConflict) {
							conflicts.Store(msgID, true)
							continue
						}
						if err != nil {
							errs <- fmt.Errorf("worker %d move %d: %w", w, i, err)
						}
						break
					}
					// A reader alongside the writers.
					if err := s.View(ctx, func(tx *Tx) error { _, err := tx.Actions(tabID); return err }); err != nil {
						errs <- fmt.Errorf("worker %d read: %w", w, err)
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		n := 0
		conflicts.Range(func(any, any) bool { n++; return true })
		if s.Driver() == DriverSQLite && n > 0 {
			t.Errorf("%d conflicts on SQLite, whose writers are serialised", n)
		}
		total := 0
		err := s.View(ctx, func(tx *Tx) error {
			for _, tab := range tabs {
				got, err := tx.TableByID(tab.ID)
				if err != nil {
					return err
				}
				acts, err := tx.Actions(tab.ID)
				if err != nil {
					return err
				}
				for i, a := range acts {
					if a.Seq != int64(i+1) {
						t.Errorf("table %s: action %d has seq %d", tab.Name, i, a.Seq)
					}
				}
				if got.Seq != int64(len(acts)) {
					t.Errorf("table %s: seq %d, %d actions", tab.Name, got.Seq, len(acts))
				}
				total += len(acts)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if total != workers*moves {
			t.Errorf("%d actions, want %d", total, workers*moves)
		}
		due, err := outboxRows(s)
		if err != nil || len(due) != workers*moves {
			t.Errorf("%d outbox rows (%v), want %d", len(due), err, workers*moves)
		}
	})
}

func TestTxHonoursContextWhileWaiting(t *testing.T) {
	s := sqliteOpener(t)(t)
	hold := make(chan struct{})
	started := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- s.Tx(context.Background(), func(tx *Tx) error {
			close(started)
			<-hold
			return nil
		})
	}()
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Tx(ctx, func(tx *Tx) error { return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Tx with a cancelled context while another writes: %v, want context.Canceled", err)
	}
	close(hold)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestTwoStoresOneFile: two Stores on one SQLite file stand for two
// processes (the daemon and a CLI command). Their writers do not share the
// in-process slot; BEGIN IMMEDIATE and busy_timeout must still keep them
// from "database is locked".
func TestTwoStoresOneFile(t *testing.T) {
	open := sqliteOpener(t)
	a, b := open(t), open(t)
	tab := newTable(t, a, "shared", 2)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for k, s := range []*Store{a, b} {
		wg.Go(func() {
			for i := range 40 {
				err := s.Tx(ctx, func(tx *Tx) error {
					cur, err := tx.TableByID(tab.ID)
					if err != nil {
						return err
					}
					return applyMove(tx, cur, fmt.Sprintf("<s%d.%d@x>", k, i), t0, 1)
				})
				if err != nil {
					errs <- fmt.Errorf("store %d move %d: %w", k, i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	err := a.View(ctx, func(tx *Tx) error {
		got, err := tx.TableByID(tab.ID)
		if err == nil && got.Seq != 80 {
			t.Errorf("seq %d after 80 moves", got.Seq)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMapErr(t *testing.T) {
	other := errors.New("disk full")
	tests := []struct {
		name string
		in   error
		want error
	}{
		{"gorm duplicate", gorm.ErrDuplicatedKey, ErrDuplicate},
		{"sqlite text", errors.New("constraint failed: UNIQUE constraint failed: players.address (2067)"), ErrDuplicate},
		{"postgres text", errors.New(`ERROR: duplicate key value violates unique constraint "idx_players_address" (SQLSTATE 23505)`), ErrDuplicate},
		{"not found", fmt.Errorf("take: %w", gorm.ErrRecordNotFound), ErrNotFound},
		{"serialization failure", &pgconn.PgError{Code: "40001"}, ErrConflict},
		{"deadlock", fmt.Errorf("exec: %w", &pgconn.PgError{Code: "40P01"}), ErrConflict},
		{"other", other, other},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := MapErr(tc.in); !errors.Is(got, tc.want) {
				t.Errorf("MapErr(%v) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
	if MapErr(nil) != nil {
		t.Error("MapErr(nil) != nil")
	}
}

// TestTakeRateConcurrent: goroutines racing for the same key get exactly
// limit slots in one window, on the first event (no row yet) included.
func TestTakeRateConcurrent(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		const workers, tries, limit = 6, 10, 25
		var mu sync.Mutex
		taken := 0
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for range tries {
					var ok bool
					err := s.Tx(context.Background(), func(tx *Tx) (err error) {
						ok, err = tx.TakeRate("race@example.org/replies", limit, time.Hour, t0)
						return err
					})
					if err != nil {
						t.Error(err)
						return
					}
					if ok {
						mu.Lock()
						taken++
						mu.Unlock()
					}
				}
			})
		}
		wg.Wait()
		if taken != limit {
			t.Errorf("%d slots taken, want %d", taken, limit)
		}
	})
}

// Migration 2: an outbox written by version 1, with the messages in its
// rows, keeps every message once they move to outbox_bodies.
func TestMigrationMovesOutboxBodies(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		// Make the database look like version 1: a raw column holding the
		// message, no bodies, no step 2.
		blob := "BLOB"
		if s.Driver() == DriverPostgres {
			blob = "BYTEA"
		}
		for _, q := range []string{
			"ALTER TABLE outbox ADD COLUMN raw " + blob,
			"INSERT INTO outbox (message_id, env_from, env_to, raw, created_at, attempts, next_attempt, last_error) " +
				"VALUES ('<v1@x>', 'lexio@x', '[\"a@x\"]', 'Subject: v1', '2026-03-01 12:00:00', 0, '2026-03-01 12:00:00', '')",
			"DELETE FROM schema_version WHERE version >= 2",
		} {
			if err := s.db.Exec(q).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = open(t)
		if s.db.Migrator().HasColumn("outbox", "raw") {
			t.Error("the raw column is still there")
		}
		due, err := outboxRows(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) != 1 || string(due[0].Raw) != "Subject: v1" || due[0].To[0] != "a@x" {
			t.Fatalf("after migration: %+v", due)
		}
		if v, _ := s.schemaVersion(ctx); v != SchemaVersion() {
			t.Errorf("schema version %d", v)
		}
	})
}

// Migration 3: a version 2 database, whose tables kept a snapshot (the
// engine's configuration and every action again), keeps each game's seed
// and start and loses the column.
func TestMigrationDropsSnapshots(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		playing := newTable(t, s, "playing", 2)
		open2 := newTable(t, s, "open", 1)
		start := time.Date(2026, 2, 27, 8, 30, 0, 123456000, time.UTC)
		// As the engine wrote it: only the snapshot held the seed and the
		// start (the row's seed stayed 0).
		snapshot := `{"config":{"variant":"lexico","plain":true,"players":2,"seed":18446744073709551557,` +
			`"reserve_size":7,"reserve_refill":20000000000,"start":"` + start.In(time.FixedZone("CET", 3600)).Format(time.RFC3339Nano) +
			`"},"actions":[{"kind":"pass","player":0,"at":"2026-02-27T09:00:00Z"}]}`
		for _, q := range []string{
			"ALTER TABLE tables ADD COLUMN state TEXT NOT NULL DEFAULT ''",
			"UPDATE tables SET state = '" + snapshot + "' WHERE name = 'playing'",
			"DELETE FROM schema_version WHERE version >= 3",
		} {
			if err := s.db.Exec(q).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = open(t)
		if s.db.Migrator().HasColumn("tables", "state") {
			t.Error("the state column is still there")
		}
		err := s.View(ctx, func(tx *Tx) error {
			got, err := tx.TableByID(playing.ID)
			if err != nil {
				return err
			}
			if got.StartedAt == nil || !got.StartedAt.Equal(start) {
				t.Errorf("started_at %v, want %v", got.StartedAt, start)
			}
			if uint64(got.Seed) != 18446744073709551557 || got.Variant != "lexico" || got.Multipliers ||
				got.ReserveSize != 7 || got.ReserveRefill != 20*time.Second {
				t.Errorf("the snapshot's configuration not on the row: %+v", got)
			}
			if got, err = tx.TableByID(open2.ID); err != nil || got.StartedAt != nil {
				t.Errorf("open table: started_at %v, %v; want none", got.StartedAt, err)
			}
			seats, err := tx.Seats(playing.ID)
			if err != nil || len(seats) != 2 {
				t.Errorf("seats after migration: %d, %v", len(seats), err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := s.schemaVersion(ctx); v != SchemaVersion() {
			t.Errorf("schema version %d, want %d", v, SchemaVersion())
		}
	})
}

// Migration 4: the seats of a version 3 database lose their language
// column, which nothing wrote; the seats stay.
func TestMigrationDropsSeatLang(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		tab := newTable(t, s, "langs", 2)
		for _, q := range []string{
			"ALTER TABLE seats ADD COLUMN lang VARCHAR(8) NOT NULL DEFAULT ''",
			"UPDATE seats SET lang = 'fr'",
			"DELETE FROM schema_version WHERE version >= 4",
		} {
			if err := s.db.Exec(q).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = open(t)
		if s.db.Migrator().HasColumn("seats", "lang") {
			t.Error("the lang column is still there")
		}
		mustTx(t, s, func(tx *Tx) error {
			seats, err := tx.Seats(tab.ID)
			if err == nil && (len(seats) != 2 || seats[1].Player.Address != "p1@example.org") {
				t.Errorf("seats after migration: %+v", seats)
			}
			return err
		})
		if v, _ := s.schemaVersion(ctx); v != SchemaVersion() {
			t.Errorf("schema version %d, want %d", v, SchemaVersion())
		}
	})
}

// Migration 5: the players of a version 4 database get a time zone, ""
// (the configuration's) for everyone; their other columns stay.
func TestMigrationAddsPlayerZone(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		newTable(t, s, "zones", 2)
		for _, q := range []string{
			"UPDATE players SET lang = 'fr'",
			"ALTER TABLE players DROP COLUMN time_zone",
			"DELETE FROM schema_version WHERE version >= 5",
		} {
			if err := s.db.Exec(q).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = open(t)
		if !s.db.Migrator().HasColumn(&Player{}, "TimeZone") {
			t.Fatal("no time_zone column")
		}
		mustTx(t, s, func(tx *Tx) error {
			p, err := tx.PlayerByAddress("p1@example.org")
			if err == nil && (p.TimeZone != "" || p.Lang != "fr") {
				t.Errorf("player after migration: %+v", p)
			}
			if err != nil {
				return err
			}
			return tx.SetPlayerZone("p1@example.org", "America/Sao_Paulo")
		})
		if v, _ := s.schemaVersion(ctx); v != SchemaVersion() {
			t.Errorf("schema version %d, want %d", v, SchemaVersion())
		}
	})
}

// TestMoveSeat: a seat changes hands in place (LEAGUES §4.1); a player
// already seated, or a seat that does not exist, is refused and nothing
// changes.
func TestMoveSeat(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		s := open(t)
		tab := newTable(t, s, "subst", 2) // p0 at 0, p1 at 1
		var p1, p2 *Player
		mustTx(t, s, func(tx *Tx) (err error) {
			if p1, err = tx.PlayerByAddress("p1@example.org"); err != nil {
				return err
			}
			p2, err = tx.EnsurePlayer("p2@example.org", "fr")
			return err
		})
		ctx := context.Background()
		if err := s.Tx(ctx, func(tx *Tx) error { return tx.MoveSeat(tab.ID, 0, p1.ID) }); !errors.Is(err, ErrDuplicate) {
			t.Errorf("to a player already seated: %v, want ErrDuplicate", err)
		}
		if err := s.Tx(ctx, func(tx *Tx) error { return tx.MoveSeat(tab.ID, 3, p2.ID) }); !errors.Is(err, ErrNotFound) {
			t.Errorf("an empty seat: %v, want ErrNotFound", err)
		}
		mustTx(t, s, func(tx *Tx) error { return tx.MoveSeat(tab.ID, 0, p2.ID) })
		err := s.View(ctx, func(tx *Tx) error {
			seats, err := tx.Seats(tab.ID)
			if err != nil {
				return err
			}
			var got []string
			for _, st := range seats {
				got = append(got, fmt.Sprintf("%d:%s", st.Position, st.Player.Address))
			}
			if want := "0:p2@example.org 1:p1@example.org"; strings.Join(got, " ") != want {
				t.Errorf("Seats = %q, want %q", strings.Join(got, " "), want)
			}
			ts, err := tx.TablesOfPlayer("p0@example.org")
			if err != nil || len(ts) != 0 {
				t.Errorf("the old holder still sits at %d tables (%v)", len(ts), err)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// Migration 8: the rate counters of a version 7 database, which had no
// window end, get the end of a day's window, and the prune deletes them
// once it passed.
func TestMigrationSetsRateWindowEnds(t *testing.T) {
	eachDriver(t, func(t *testing.T, open opener) {
		ctx := context.Background()
		s := open(t)
		start := t0.Add(1500 * time.Millisecond) // a fraction of a second kept
		mustTx(t, s, func(tx *Tx) error {
			_, err := tx.TakeRate("old", 5, time.Hour, start)
			return err
		})
		for _, q := range []string{
			"UPDATE rate_counters SET window_end = NULL",
			"DELETE FROM schema_version WHERE version >= 8",
		} {
			if err := s.db.Exec(q).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = open(t)
		var rc RateCounter
		if err := s.db.Where("rate_key = ?", "old").Take(&rc).Error; err != nil {
			t.Fatal(err)
		}
		if want := start.Add(24 * time.Hour); !rc.WindowEnd.Equal(want) {
			t.Errorf("window end %v, want %v", rc.WindowEnd, want)
		}
		for _, c := range []struct {
			at   time.Duration
			want int
		}{{23 * time.Hour, 0}, {24 * time.Hour, 1}} {
			mustTx(t, s, func(tx *Tx) error {
				n, err := tx.PruneRates(start.Add(c.at), 10)
				if err == nil && n != c.want {
					t.Errorf("prune at +%v: %d deleted, want %d", c.at, n, c.want)
				}
				return err
			})
		}
		if v, _ := s.schemaVersion(ctx); v != SchemaVersion() {
			t.Errorf("schema version %d, want %d", v, SchemaVersion())
		}
	})
}
