package table_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// TestZone: TZ sets a player's time zone for every table. Their mail then
// writes times in it, with its abbreviation (CET in winter, CEST in
// summer), beside the relative form; the other players' stay UTC. A name
// the tz database does not know is refused and changes nothing.
func TestZone(t *testing.T) { eachDriver(t, testZone) }

func testZone(t *testing.T, driver string) {
	// A winter morning; the "long" league's deadline falls in summer.
	h := newHarness(t, harnessOpts{driver: driver, clock: &clock{t: time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)},
		config: "[[league]]\nname = \"long\"\nturn_time = \"4000h\"\nreminders = [\"24h\"]\naway_grace = \"24h\"\n"})
	if err := h.lobby.CreateTable(h.ctx, "winter", "main", emails("alice", "bob"), 3); err != nil {
		t.Fatal(err)
	}
	if err := h.lobby.CreateTable(h.ctx, "summer", "long", emails("bob", "carol"), 3); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 2)
	h.waitMail("carol", 1)
	notice := func(name, table string) *client.Message {
		t.Helper()
		for _, m := range h.inbox(name) {
			if kind(m) == "turn-notice" && strings.HasPrefix(m.MessageID, "lexio."+table+".") {
				return &m
			}
		}
		t.Fatalf("%s has no notice of %s", name, table)
		return nil
	}
	board := func(name, tableName string) client.Message {
		t.Helper()
		id := h.replyTo(name, notice(name, tableName), "BOARD")
		h.expect(id, table.OutcomeApplied, "BOARD")
		var answer client.Message
		h.waitFor(name+"'s answer to BOARD at "+tableName, func() bool {
			for _, m := range h.inbox(name) {
				if strings.Trim(m.InReplyTo, "<>") == id {
					answer = m
					return true
				}
			}
			return false
		})
		return answer
	}

	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	// The turns end 72 h and 4000 h from now (166 days 16 h).
	winter, summer := h.clock.Now().Add(72*time.Hour), h.clock.Now().Add(4000*time.Hour)
	// tells checks that text gives the turn's end at, and how far it is.
	tells := func(what, text string, at time.Time, rel ...int) {
		t.Helper()
		mustTell(t, what, text, at)
		mustHaveNumbers(t, what, intro(text), rel...)
	}
	// Before TZ, everyone's times are UTC (the configuration's default).
	tells("bob's winter board before TZ", board("bob", "winter").Text, winter, 3)

	// TZ in French, from bob's winter notice: confirmed from that table's
	// reply address, with the time now in Paris.
	wn := notice("bob", "winter")
	h.expect(h.replyTo("bob", wn, "fuseau europe/paris"), table.OutcomeApplied, "TZ Europe/Paris")
	zc := h.lastOf("bob", "zone-changed")
	mustContain(t, "zone-changed", zc.Text, "Europe/Paris")
	mustTell(t, "zone-changed", zc.Text, h.clock.Now().In(paris))
	if zc.ReplyTo != wn.ReplyTo || !strings.Contains(zc.Subject, "[Lexio winter]") {
		t.Errorf("zone-changed from %q, subject %q; want the winter table's reply address %q", zc.ReplyTo, zc.Subject, wn.ReplyTo)
	}

	// Winter: CET, an hour ahead of UTC; alice's stays UTC.
	b := board("bob", "winter")
	tells("bob's winter board", b.Text, winter.In(paris), 3)
	tells("alice's winter board", board("alice", "winter").Text, winter, 3)
	// The calendar entry of the player to move is titled in their zone.
	calendarTitle := func(table string, names [2]string, times [2]time.Time) {
		t.Helper()
		p := h.game(table).Turn()
		if e := calendarOf(t, board(names[p], table)); e == nil || !strings.HasSuffix(e.summary, clockTime(times[p])) || !strings.Contains(e.summary, day(times[p])) {
			t.Errorf("%s's calendar entry at %s: %+v, want its title to end with %s, %s", names[p], table, e, day(times[p]), clockTime(times[p]))
		}
	}
	calendarTitle("winter", [2]string{"alice", "bob"}, [2]time.Time{winter, winter.In(paris)})

	// Summer, at bob's other table: CEST, two hours ahead; carol's UTC.
	tells("bob's summer board", board("bob", "summer").Text, summer.In(paris), 166, 16)
	tells("carol's summer board", board("carol", "summer").Text, summer, 166, 16)
	calendarTitle("summer", [2]string{"bob", "carol"}, [2]time.Time{summer.In(paris), summer})

	// A zone that does not exist: a clear refusal; bob's zone stays.
	// The refusal shows how to write one (a TZ command).
	h.expect(h.replyTo("bob", wn, "TZ Mars/Olympus"), table.OutcomeRejected, "bad-zone")
	mustContain(t, "bad zone", h.lastOf("bob", "rejected").Text, "TZ Europe/Paris")
	mustTell(t, "bob's winter board after a bad TZ", board("bob", "winter").Text, winter.In(paris))

	// TZ UTC brings UTC back.
	h.expect(h.replyTo("bob", wn, "TZ UTC"), table.OutcomeApplied, "TZ UTC")
	mustTell(t, "bob's winter board after TZ UTC", board("bob", "winter").Text, winter)
}
