package table_test

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"
	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates/noticetest"
)

// entry is the calendar entry a mail carries.
type entry struct {
	method, uid, summary, attendee string
	seq                            int
	stamp, end                     time.Time // end: zero in a cancel
}

// calendarOf reads the text/calendar part of a received mail, nil if it
// has none. The part's method= parameter must say the METHOD inside, and
// the object must read back strictly (noticetest.ParseICS).
func calendarOf(t *testing.T, m client.Message) *entry {
	t.Helper()
	r, err := mail.CreateReader(bytes.NewReader(m.Raw))
	if err != nil {
		t.Fatalf("%s: %v", m.MessageID, err)
	}
	defer r.Close()
	var found *entry
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", m.MessageID, err)
		}
		ct, params, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if ct != "text/calendar" {
			continue
		}
		if found != nil {
			t.Fatalf("%s: two calendar parts", m.MessageID)
		}
		body, err := io.ReadAll(p.Body)
		if err != nil {
			t.Fatal(err)
		}
		c, err := noticetest.ParseICS(body)
		if err != nil {
			t.Fatalf("%s: %v in\n%s", m.MessageID, err, body)
		}
		ev := c.Sub("VEVENT")
		if ev == nil {
			t.Fatalf("%s: no VEVENT in\n%s", m.MessageID, body)
		}
		e := &entry{method: c.Get("METHOD"), uid: ev.Get("UID"), summary: ev.Get("SUMMARY"), attendee: ev.Get("ATTENDEE")}
		if !strings.EqualFold(params["method"], e.method) {
			t.Errorf("%s: Content-Type method=%q, METHOD:%s", m.MessageID, params["method"], e.method)
		}
		if e.seq, err = strconv.Atoi(ev.Get("SEQUENCE")); err != nil {
			t.Errorf("%s: SEQUENCE %q", m.MessageID, ev.Get("SEQUENCE"))
		}
		const stamp = "20060102T150405Z"
		if e.stamp, err = time.Parse(stamp, ev.Get("DTSTAMP")); err != nil {
			t.Errorf("%s: DTSTAMP: %v", m.MessageID, err)
		}
		if ev.Get("ORGANIZER") != "mailto:lexio@localhost" {
			t.Errorf("%s: ORGANIZER %q", m.MessageID, ev.Get("ORGANIZER"))
		}
		switch e.method {
		case "REQUEST":
			if e.end, err = time.Parse(stamp, ev.Get("DTEND")); err != nil {
				t.Errorf("%s: DTEND: %v", m.MessageID, err)
			}
		case "CANCEL":
			if ev.Get("STATUS") != "CANCELLED" {
				t.Errorf("%s: a cancel with STATUS %q", m.MessageID, ev.Get("STATUS"))
			}
		default:
			t.Errorf("%s: METHOD %q", m.MessageID, e.method)
		}
		found = e
	}
	return found
}

// checkCalendars checks the calendar entries who (seat p) received in a
// whole game: in each notice and in the end of the game, a REQUEST if
// the turn was theirs, a CANCEL if the turn that just ended was, nothing
// else; one UID per turn, every request cancelled later with a higher
// SEQUENCE.
func (h *harness) checkCalendars(who string, p int, msgs []client.Message, cfg engine.Config, acts []engine.Action) {
	h.t.Helper()
	requested := map[string]int{} // UID → highest SEQUENCE requested
	cancelled := map[string]bool{}
	for _, m := range msgs {
		k := kind(m)
		if k != "turn-notice" && k != "game-over" {
			continue
		}
		seq := seqOf(m)
		past, err := engine.Rebuild(cfg, acts[:seq])
		if err != nil {
			h.t.Fatal(err)
		}
		ended := -1 // the player whose turn just ended
		for _, a := range acts[:seq] {
			if a.Kind == engine.ActPlace || a.Kind == engine.ActExchange || a.Kind == engine.ActPass || a.Kind == engine.ActExpire {
				ended = a.Player
			}
		}
		e := calendarOf(h.t, m)
		switch {
		case ended == p:
			if e == nil || e.method != "CANCEL" {
				h.t.Errorf("%s: %s after their turn carries %+v, want a cancel", who, m.MessageID, e)
				continue
			}
			if prev, ok := requested[e.uid]; !ok || e.seq <= prev || cancelled[e.uid] {
				h.t.Errorf("%s: %s cancels %s (SEQUENCE %d): requested %v at %d, cancelled before %v", who, m.MessageID, e.uid, e.seq, ok, prev, cancelled[e.uid])
			}
			cancelled[e.uid] = true
		case !past.Over() && past.Turn() == p:
			if e == nil || e.method != "REQUEST" {
				h.t.Errorf("%s: %s of their turn carries %+v, want a request", who, m.MessageID, e)
				continue
			}
			if _, ok := requested[e.uid]; ok {
				h.t.Errorf("%s: %s requests %s again for a new turn", who, m.MessageID, e.uid)
			}
			requested[e.uid] = e.seq
			if !e.end.Equal(past.TurnStart().Add(72*time.Hour)) && !e.end.Equal(past.TurnStart().Add(2*time.Hour)) {
				h.t.Errorf("%s: %s ends %v, the turn began %v", who, m.MessageID, e.end, past.TurnStart())
			}
		default:
			if e != nil {
				h.t.Errorf("%s: %s (another's turn) carries %+v", who, m.MessageID, e)
			}
			continue
		}
		if e.attendee != "mailto:"+who+"@localhost" {
			h.t.Errorf("%s: %s ATTENDEE %q", who, m.MessageID, e.attendee)
		}
	}
	for uid := range requested {
		if !cancelled[uid] {
			h.t.Errorf("%s: %s requested and never cancelled", who, uid)
		}
	}
}

// last is name's newest message of kind k with its calendar entry.
func (h *harness) lastEntry(name, k string) (client.Message, *entry) {
	h.t.Helper()
	m := h.lastOf(name, k)
	return m, calendarOf(h.t, m)
}

// TestCalendarEntries follows the calendar entries of a game of two
// (issue #13): only the player to move gets a REQUEST, the same UID for
// the turn's notice, its reminder and its BOARD answer, a higher SEQUENCE
// when the away grace gives way to the whole turn, a CANCEL once the
// turn is over, a new UID for the next turn; DTSTAMP is when the mail
// was written.
func TestCalendarEntries(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{})
	t0 := h.clock.Now()
	const name = "cal"
	if err := h.lobby.CreateTable(h.ctx, name, "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 1)

	// Turn 1, alice's.
	m, first := h.lastEntry("alice", "turn-notice")
	if first == nil || first.method != "REQUEST" {
		t.Fatalf("alice's first notice carries %+v", first)
	}
	if !first.end.Equal(t0.Add(72*time.Hour)) || !first.stamp.Equal(t0) {
		t.Errorf("first request ends %v, stamped %v", first.end, first.stamp)
	}
	// The title names the table and the turn's end.
	mustName(t, "summary", first.summary, "cal")
	mustTell(t, "summary", first.summary, first.end)
	if m.Attachments[0] != "deadline.ics" {
		t.Errorf("attachments %v", m.Attachments)
	}
	if _, e := h.lastEntry("bob", "turn-notice"); e != nil {
		t.Errorf("bob's notice of alice's turn carries %+v", e)
	}

	// Her reminder: the same event, the same version, stamped later.
	h.tickAt(t0.Add(48 * time.Hour))
	_, rem := h.lastEntry("alice", "reminder")
	if rem == nil || rem.method != "REQUEST" || rem.uid != first.uid || rem.seq != first.seq || !rem.end.Equal(first.end) {
		t.Fatalf("reminder carries %+v, the notice %+v", rem, first)
	}
	if !rem.stamp.Equal(t0.Add(48 * time.Hour)) {
		t.Errorf("reminder stamped %v", rem.stamp)
	}
	// BOARD: hers carries the event, bob's nothing.
	h.expect(h.send("alice", "BOARD"), table.OutcomeApplied, "BOARD")
	if _, e := h.lastEntry("alice", "board-reply"); e == nil || e.uid != first.uid || e.method != "REQUEST" {
		t.Errorf("alice's BOARD answer carries %+v", e)
	}
	h.expect(h.send("bob", "BOARD"), table.OutcomeApplied, "BOARD")
	if _, e := h.lastEntry("bob", "board-reply"); e != nil {
		t.Errorf("bob's BOARD answer carries %+v", e)
	}

	// Her turn expires: her next notice cancels it; bob's turn is a new
	// event.
	h.tickAt(t0.Add(72 * time.Hour))
	if _, e := h.lastEntry("alice", "expired"); e != nil {
		t.Errorf("the expiry mail carries %+v", e)
	}
	_, cancel := h.lastEntry("alice", "turn-notice")
	if cancel == nil || cancel.method != "CANCEL" || cancel.uid != first.uid || cancel.seq <= first.seq {
		t.Fatalf("alice's notice after her turn carries %+v, the request %+v", cancel, first)
	}
	mustName(t, "cancel summary", cancel.summary, "cal")
	mustNotContain(t, "cancel summary", cancel.summary, day(first.end))
	_, bobs := h.lastEntry("bob", "turn-notice")
	if bobs == nil || bobs.method != "REQUEST" || bobs.uid == first.uid {
		t.Fatalf("bob's turn carries %+v", bobs)
	}

	// Bob passes; alice, away, has the grace; bob's event is cancelled.
	h.clock.Add(time.Hour)
	start := h.clock.Now()
	h.expect(h.send("bob", "PASS"), table.OutcomeApplied, "PASS")
	if _, e := h.lastEntry("bob", "turn-notice"); e == nil || e.method != "CANCEL" || e.uid != bobs.uid || e.seq <= bobs.seq {
		t.Errorf("bob's notice after his pass carries %+v, his request %+v", e, bobs)
	}
	_, grace := h.lastEntry("alice", "turn-notice")
	if grace == nil || grace.method != "REQUEST" || grace.uid == first.uid || !grace.end.Equal(start.Add(2*time.Hour)) {
		t.Fatalf("alice's away turn carries %+v", grace)
	}

	// She writes (LOG, which otherwise carries nothing): present again,
	// her deadline moves to the whole turn; the same event, a higher
	// SEQUENCE. A second LOG moves nothing and carries nothing.
	h.clock.Add(10 * time.Minute)
	h.expect(h.send("alice", "LOG"), table.OutcomeApplied, "LOG")
	_, moved := h.lastEntry("alice", "log-reply")
	if moved == nil || moved.method != "REQUEST" || moved.uid != grace.uid || moved.seq <= grace.seq || !moved.end.Equal(start.Add(72*time.Hour)) {
		t.Fatalf("the answer once present carries %+v, the grace %+v", moved, grace)
	}
	if !moved.stamp.Equal(h.clock.Now()) {
		t.Errorf("stamped %v, sent %v", moved.stamp, h.clock.Now())
	}
	h.expect(h.send("alice", "LOG"), table.OutcomeApplied, "LOG")
	if _, e := h.lastEntry("alice", "log-reply"); e != nil {
		t.Errorf("a second LOG carries %+v", e)
	}
	// Its reminder keeps the moved event.
	h.tickAt(start.Add(48 * time.Hour))
	if _, e := h.lastEntry("alice", "reminder"); e == nil || e.uid != grace.uid || e.seq != moved.seq || !e.end.Equal(moved.end) {
		t.Errorf("the reminder carries %+v, the moved event %+v", e, moved)
	}

	// She plays: her event is cancelled with a higher SEQUENCE.
	h.expect(h.send("alice", findMove(h.game(name), 0)), table.OutcomeApplied, "PLACE")
	if _, e := h.lastEntry("alice", "turn-notice"); e == nil || e.method != "CANCEL" || e.uid != grace.uid || e.seq <= moved.seq {
		t.Errorf("alice's notice after her play carries %+v, the request %+v", e, moved)
	}
	if _, e := h.lastEntry("bob", "turn-notice"); e == nil || e.method != "REQUEST" || e.uid == bobs.uid {
		t.Errorf("bob's second turn carries %+v", e)
	}
}
