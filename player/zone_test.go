package player_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// TestZone: TZ sets a player's time zone for every table. Their mail then
// writes times in it, with its abbreviation (CET in winter, CEST in
// summer), beside the relative form; the other players' stay UTC. A name
// the tz database does not know is refused and changes nothing.
func TestZone(t *testing.T) { lexiotest.EachDriver(t, testZone) }

func testZone(t *testing.T, driver string) {
	// A winter morning; the "long" league's deadline falls in summer.
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Clock: lexiotest.NewClock(time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC)),
		Config: "[[league]]\nname = \"long\"\nturn_time = \"4000h\"\nreminders = [\"24h\"]\naway_grace = \"24h\"\n"})
	if err := h.Lobby.CreateTable(h.Ctx, "winter", "main", lexiotest.Emails("alice", "bob"), 3); err != nil {
		t.Fatal(err)
	}
	if err := h.Lobby.CreateTable(h.Ctx, "summer", "long", lexiotest.Emails("bob", "carol"), 3); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 2)
	h.WaitMail("carol", 1)
	notice := func(name, table string) *client.Message {
		t.Helper()
		for _, m := range h.Inbox(name) {
			if lexiotest.Kind(m) == "turn-notice" && strings.HasPrefix(m.MessageID, "lexio."+table+".") {
				return &m
			}
		}
		t.Fatalf("%s has no notice of %s", name, table)
		return nil
	}
	board := func(name, tableName string) client.Message {
		t.Helper()
		id := h.ReplyTo(name, notice(name, tableName), "BOARD")
		h.Expect(id, table.OutcomeApplied, "BOARD")
		var answer client.Message
		h.WaitFor(name+"'s answer to BOARD at "+tableName, func() bool {
			for _, m := range h.Inbox(name) {
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
	winter, summer := h.Clock.Now().Add(72*time.Hour), h.Clock.Now().Add(4000*time.Hour)
	// tells checks that text gives the turn's end at, and how far it is.
	tells := func(what, text string, at time.Time, rel ...int) {
		t.Helper()
		lexiotest.MustTell(t, what, text, at)
		lexiotest.MustHaveNumbers(t, what, lexiotest.Intro(text), rel...)
	}
	// Before TZ, everyone's times are UTC (the configuration's default).
	tells("bob's winter board before TZ", board("bob", "winter").Text, winter, 3)

	// TZ in French, from bob's winter notice: confirmed from that table's
	// reply address, with the time now in Paris.
	wn := notice("bob", "winter")
	h.Expect(h.ReplyTo("bob", wn, "fuseau europe/paris"), table.OutcomeApplied, "TZ Europe/Paris")
	zc := h.LastOf("bob", "zone-changed")
	lexiotest.MustContain(t, "zone-changed", zc.Text, "Europe/Paris")
	lexiotest.MustTell(t, "zone-changed", zc.Text, h.Clock.Now().In(paris))
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
		p := h.Game(table).Turn()
		if e := lexiotest.CalendarOf(t, board(names[p], table)); e == nil || !strings.HasSuffix(e.Summary, lexiotest.ClockTime(times[p])) || !strings.Contains(e.Summary, lexiotest.Day(times[p])) {
			t.Errorf("%s's calendar entry at %s: %+v, want its title to end with %s, %s", names[p], table, e, lexiotest.Day(times[p]), lexiotest.ClockTime(times[p]))
		}
	}
	calendarTitle("winter", [2]string{"alice", "bob"}, [2]time.Time{winter, winter.In(paris)})

	// Summer, at bob's other table: CEST, two hours ahead; carol's UTC.
	tells("bob's summer board", board("bob", "summer").Text, summer.In(paris), 166, 16)
	tells("carol's summer board", board("carol", "summer").Text, summer, 166, 16)
	calendarTitle("summer", [2]string{"bob", "carol"}, [2]time.Time{summer.In(paris), summer})

	// A zone that does not exist: a clear refusal; bob's zone stays.
	// The refusal shows how to write one (a TZ command).
	h.Expect(h.ReplyTo("bob", wn, "TZ Mars/Olympus"), table.OutcomeRejected, "bad-zone")
	lexiotest.MustContain(t, "bad zone", h.LastOf("bob", "rejected").Text, "TZ Europe/Paris")
	lexiotest.MustTell(t, "bob's winter board after a bad TZ", board("bob", "winter").Text, winter.In(paris))

	// TZ UTC brings UTC back.
	h.Expect(h.ReplyTo("bob", wn, "TZ UTC"), table.OutcomeApplied, "TZ UTC")
	lexiotest.MustTell(t, "bob's winter board after TZ UTC", board("bob", "winter").Text, winter)
}
