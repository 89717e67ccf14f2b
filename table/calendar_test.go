package table_test

import (
	"testing"
	"time"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// checkCalendars checks the calendar entries who (seat p) received in a
// whole game: in each notice and in the end of the game, a REQUEST if
// the turn was theirs, a CANCEL if the turn that just ended was, nothing
// else; one UID per turn, every request cancelled later with a higher
// SEQUENCE.
func checkCalendars(h *lexiotest.Harness, who string, p int, msgs []client.Message, cfg engine.Config, acts []engine.Action) {
	h.T.Helper()
	requested := map[string]int{} // UID → highest SEQUENCE requested
	cancelled := map[string]bool{}
	for _, m := range msgs {
		k := lexiotest.Kind(m)
		if k != "turn-notice" && k != "game-over" {
			continue
		}
		seq := lexiotest.Seq(m)
		past, err := engine.Rebuild(cfg, acts[:seq])
		if err != nil {
			h.T.Fatal(err)
		}
		ended := -1 // the player whose turn just ended
		for _, a := range acts[:seq] {
			if a.Kind == engine.ActPlace || a.Kind == engine.ActExchange || a.Kind == engine.ActPass || a.Kind == engine.ActExpire {
				ended = a.Player
			}
		}
		e := lexiotest.CalendarOf(h.T, m)
		switch {
		case ended == p:
			if e == nil || e.Method != "CANCEL" {
				h.T.Errorf("%s: %s after their turn carries %+v, want a cancel", who, m.MessageID, e)
				continue
			}
			if prev, ok := requested[e.UID]; !ok || e.Seq <= prev || cancelled[e.UID] {
				h.T.Errorf("%s: %s cancels %s (SEQUENCE %d): requested %v at %d, cancelled before %v", who, m.MessageID, e.UID, e.Seq, ok, prev, cancelled[e.UID])
			}
			cancelled[e.UID] = true
		case !past.Over() && past.Turn() == p:
			if e == nil || e.Method != "REQUEST" {
				h.T.Errorf("%s: %s of their turn carries %+v, want a request", who, m.MessageID, e)
				continue
			}
			if _, ok := requested[e.UID]; ok {
				h.T.Errorf("%s: %s requests %s again for a new turn", who, m.MessageID, e.UID)
			}
			requested[e.UID] = e.Seq
			if !e.End.Equal(past.TurnStart().Add(72*time.Hour)) && !e.End.Equal(past.TurnStart().Add(2*time.Hour)) {
				h.T.Errorf("%s: %s ends %v, the turn began %v", who, m.MessageID, e.End, past.TurnStart())
			}
		default:
			if e != nil {
				h.T.Errorf("%s: %s (another's turn) carries %+v", who, m.MessageID, e)
			}
			continue
		}
		if e.Attendee != "mailto:"+who+"@localhost" {
			h.T.Errorf("%s: %s ATTENDEE %q", who, m.MessageID, e.Attendee)
		}
	}
	for uid := range requested {
		if !cancelled[uid] {
			h.T.Errorf("%s: %s requested and never cancelled", who, uid)
		}
	}
}

// TestCalendarEntries follows the calendar entries of a game of two
// (issue #13): only the player to move gets a REQUEST, the same UID for
// the turn's notice, its reminder and its BOARD answer, a higher SEQUENCE
// when the away grace gives way to the whole turn, a CANCEL once the
// turn is over, a new UID for the next turn; DTSTAMP is when the mail
// was written.
func TestCalendarEntries(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	t0 := h.Clock.Now()
	const name = "cal"
	if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)

	// Turn 1, alice's.
	m, first := h.LastEntry("alice", "turn-notice")
	if first == nil || first.Method != "REQUEST" {
		t.Fatalf("alice's first notice carries %+v", first)
	}
	if !first.End.Equal(t0.Add(72*time.Hour)) || !first.Stamp.Equal(t0) {
		t.Errorf("first request ends %v, stamped %v", first.End, first.Stamp)
	}
	// The title names the table and the turn's end.
	lexiotest.MustName(t, "summary", first.Summary, "cal")
	lexiotest.MustTell(t, "summary", first.Summary, first.End)
	if m.Attachments[0] != "deadline.ics" {
		t.Errorf("attachments %v", m.Attachments)
	}
	if _, e := h.LastEntry("bob", "turn-notice"); e != nil {
		t.Errorf("bob's notice of alice's turn carries %+v", e)
	}

	// Her reminder: the same event, the same version, stamped later.
	h.TickAt(t0.Add(48 * time.Hour))
	_, rem := h.LastEntry("alice", "reminder")
	if rem == nil || rem.Method != "REQUEST" || rem.UID != first.UID || rem.Seq != first.Seq || !rem.End.Equal(first.End) {
		t.Fatalf("reminder carries %+v, the notice %+v", rem, first)
	}
	if !rem.Stamp.Equal(t0.Add(48 * time.Hour)) {
		t.Errorf("reminder stamped %v", rem.Stamp)
	}
	// BOARD: hers carries the event, bob's nothing.
	h.Expect(h.Send("alice", "BOARD"), table.OutcomeApplied, "BOARD")
	if _, e := h.LastEntry("alice", "board-reply"); e == nil || e.UID != first.UID || e.Method != "REQUEST" {
		t.Errorf("alice's BOARD answer carries %+v", e)
	}
	h.Expect(h.Send("bob", "BOARD"), table.OutcomeApplied, "BOARD")
	if _, e := h.LastEntry("bob", "board-reply"); e != nil {
		t.Errorf("bob's BOARD answer carries %+v", e)
	}

	// Her turn expires: her next notice cancels it; bob's turn is a new
	// event.
	h.TickAt(t0.Add(72 * time.Hour))
	if _, e := h.LastEntry("alice", "expired"); e != nil {
		t.Errorf("the expiry mail carries %+v", e)
	}
	_, cancel := h.LastEntry("alice", "turn-notice")
	if cancel == nil || cancel.Method != "CANCEL" || cancel.UID != first.UID || cancel.Seq <= first.Seq {
		t.Fatalf("alice's notice after her turn carries %+v, the request %+v", cancel, first)
	}
	lexiotest.MustName(t, "cancel summary", cancel.Summary, "cal")
	lexiotest.MustNotContain(t, "cancel summary", cancel.Summary, lexiotest.Day(first.End))
	_, bobs := h.LastEntry("bob", "turn-notice")
	if bobs == nil || bobs.Method != "REQUEST" || bobs.UID == first.UID {
		t.Fatalf("bob's turn carries %+v", bobs)
	}

	// Bob passes; alice, away, has the grace; bob's event is cancelled.
	h.Clock.Add(time.Hour)
	start := h.Clock.Now()
	h.Expect(h.Send("bob", "PASS"), table.OutcomeApplied, "PASS")
	if _, e := h.LastEntry("bob", "turn-notice"); e == nil || e.Method != "CANCEL" || e.UID != bobs.UID || e.Seq <= bobs.Seq {
		t.Errorf("bob's notice after his pass carries %+v, his request %+v", e, bobs)
	}
	_, grace := h.LastEntry("alice", "turn-notice")
	if grace == nil || grace.Method != "REQUEST" || grace.UID == first.UID || !grace.End.Equal(start.Add(2*time.Hour)) {
		t.Fatalf("alice's away turn carries %+v", grace)
	}

	// She writes (LOG, which otherwise carries nothing): present again,
	// her deadline moves to the whole turn; the same event, a higher
	// SEQUENCE. A second LOG moves nothing and carries nothing.
	h.Clock.Add(10 * time.Minute)
	h.Expect(h.Send("alice", "LOG"), table.OutcomeApplied, "LOG")
	_, moved := h.LastEntry("alice", "log-reply")
	if moved == nil || moved.Method != "REQUEST" || moved.UID != grace.UID || moved.Seq <= grace.Seq || !moved.End.Equal(start.Add(72*time.Hour)) {
		t.Fatalf("the answer once present carries %+v, the grace %+v", moved, grace)
	}
	if !moved.Stamp.Equal(h.Clock.Now()) {
		t.Errorf("stamped %v, sent %v", moved.Stamp, h.Clock.Now())
	}
	h.Expect(h.Send("alice", "LOG"), table.OutcomeApplied, "LOG")
	if _, e := h.LastEntry("alice", "log-reply"); e != nil {
		t.Errorf("a second LOG carries %+v", e)
	}
	// Its reminder keeps the moved event.
	h.TickAt(start.Add(48 * time.Hour))
	if _, e := h.LastEntry("alice", "reminder"); e == nil || e.UID != grace.UID || e.Seq != moved.Seq || !e.End.Equal(moved.End) {
		t.Errorf("the reminder carries %+v, the moved event %+v", e, moved)
	}

	// She plays: her event is cancelled with a higher SEQUENCE.
	h.Expect(h.Send("alice", lexiotest.FindMove(h.Game(name), 0)), table.OutcomeApplied, "PLACE")
	if _, e := h.LastEntry("alice", "turn-notice"); e == nil || e.Method != "CANCEL" || e.UID != grace.UID || e.Seq <= moved.Seq {
		t.Errorf("alice's notice after her play carries %+v, the request %+v", e, moved)
	}
	if _, e := h.LastEntry("bob", "turn-notice"); e == nil || e.Method != "REQUEST" || e.UID == bobs.UID {
		t.Errorf("bob's second turn carries %+v", e)
	}
}
