package season_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/season"
	"github.com/lexio-mail/lexio/table"
)

// standingsOrder checks that the names of the standings' rows come in
// that order in text, each once at least.
func standingsOrder(t *testing.T, what, text string, rows []season.Standing) {
	t.Helper()
	at := 0
	for _, r := range rows {
		i := strings.Index(text[at:], r.Name)
		if i < 0 {
			t.Errorf("%s: %s missing or out of order (rank %d)\n%s", what, r.Name, r.Rank, text)
			return
		}
		at += i + len(r.Name)
	}
}

// TestStandingsByMail: LEAGUES §9.4. STANDINGS to the service address
// answers with the standings of the sender's division, in §9.1 order, in
// both parts: of their one running league, or of the league named
// (without case); a sender in two running leagues must name one; a
// league that does not exist and a sender in no season of it are told
// so. Nothing changes.
func TestStandingsByMail(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, seasonLeagues)
	s, err := h.Seasons.StartSeason(h.Ctx, "club")
	if err != nil {
		t.Fatal(err)
	}
	st := s.Tables[0]
	h.AnswerAt(st.Name, strings.TrimSuffix(st.Players[0], "@localhost"), "RESIGN "+st.Name)
	_, rows, err := h.Seasons.Standings(h.Ctx, "club", 0)
	if err != nil {
		t.Fatal(err)
	}
	check := func(who, cmd string) client.Message {
		t.Helper()
		id := h.SendMail(who, lexiotest.MailSpec{Body: cmd})
		h.Expect(id, table.OutcomeApplied, "STANDINGS club")
		a := h.Answer(who, id)
		if lexiotest.Kind(a) != "standings" {
			t.Fatalf("%s: answered with %s", cmd, lexiotest.Kind(a))
		}
		standingsOrder(t, cmd+" (text)", a.Text, rows)
		standingsOrder(t, cmd+" (html)", a.HTML, rows)
		if !strings.Contains(a.HTML, "<table") || strings.Count(a.HTML, "<tr") < len(rows)+1 {
			t.Errorf("%s: the HTML part has no table of %d rows\n%s", cmd, len(rows), a.HTML)
		}
		return a
	}
	check("bob", "STANDINGS")
	check("eve", "classement CLUB")

	for _, tc := range []struct{ who, cmd, reason string }{
		{"bob", "STANDINGS nosuch", "no-such-league"},
		{"frank", "STANDINGS club", "not-in-league"},
		{"frank", "STANDINGS", "not-in-league"},
	} {
		id := h.SendMail(tc.who, lexiotest.MailSpec{Body: tc.cmd})
		h.Expect(id, table.OutcomeRejected, tc.reason)
		if a := h.Answer(tc.who, id); lexiotest.Kind(a) != "rejected" {
			t.Errorf("%s from %s: answered with %s", tc.cmd, tc.who, lexiotest.Kind(a))
		}
	}
	if _, err := h.Seasons.StartSeason(h.Ctx, "Trio Club!"); err != nil {
		t.Fatal(err)
	}
	id := h.SendMail("alice", lexiotest.MailSpec{Body: "STANDINGS"})
	h.Expect(id, table.OutcomeRejected, "which-league")
	if a := h.Answer("alice", id); !strings.Contains(a.Text, "club") || !strings.Contains(a.Text, "Trio Club!") {
		t.Errorf("which league: the answer names neither league\n%s", a.Text)
	}
	id = h.SendMail("alice", lexiotest.MailSpec{Body: "STANDINGS club"})
	h.Expect(id, table.OutcomeApplied, "STANDINGS club")
}

// TestSignupByMail: LEAGUES §7.4. SIGNUP and WITHDRAW by mail are
// recorded for the next season and confirmed: a league without signup =
// true takes no sign-up; signing up twice, or withdrawing when not in,
// is refused; the latest of a player's counts when the season starts.
func TestSignupByMail(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, seasonLeagues+`
[[league]]
name = "open"
signup = true
[[league.division]]
name = "first"
players = ["alice@localhost", "bob@localhost"]
`)
	steps := []struct {
		who, cmd string
		outcome  string
		reason   string
	}{
		{"frank", "SIGNUP open", table.OutcomeApplied, "SIGNUP open"},
		{"frank", "inscrire OPEN", table.OutcomeRejected, "already-signed-up"},
		{"alice", "SIGNUP open", table.OutcomeRejected, "already-signed-up"}, // in the first season's division
		{"frank", "SIGNUP club", table.OutcomeRejected, "no-signup"},
		{"frank", "SIGNUP nosuch", table.OutcomeRejected, "no-such-league"},
		{"gina", "WITHDRAW open", table.OutcomeRejected, "not-in-league"},
		{"gina", "SIGNUP open", table.OutcomeApplied, "SIGNUP open"},
		{"gina", "retirar open", table.OutcomeApplied, "WITHDRAW open"},
		{"bob", "WITHDRAW open", table.OutcomeApplied, "WITHDRAW open"},
	}
	for _, st := range steps {
		id := h.SendMail(st.who, lexiotest.MailSpec{Body: st.cmd})
		h.Expect(id, st.outcome, st.reason)
		a := h.Answer(st.who, id)
		want := "signup"
		if st.outcome == table.OutcomeRejected {
			want = "rejected"
		}
		if lexiotest.Kind(a) != want {
			t.Errorf("%s from %s: answered with %s, want %s", st.cmd, st.who, lexiotest.Kind(a), want)
		}
	}
	_, next, err := h.Seasons.Show(h.Ctx, "open")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(next); got != "[{first [alice@localhost frank@localhost]}]" {
		t.Errorf("next season's divisions %s: bob withdrew, frank signed up, gina withdrew after signing up", got)
	}
	s, err := h.Seasons.StartSeason(h.Ctx, "open")
	if err != nil {
		t.Fatal(err)
	}
	// Once the season runs, the confirmation says a withdrawal counts
	// after it; frank, in it, cannot sign up again.
	id := h.SendMail("frank", lexiotest.MailSpec{Body: "SIGNUP open"})
	h.Expect(id, table.OutcomeRejected, "already-signed-up")
	id = h.SendMail("frank", lexiotest.MailSpec{Body: "WITHDRAW open"})
	h.Expect(id, table.OutcomeApplied, "WITHDRAW open")
	if a := h.Answer("frank", id); !strings.Contains(a.Text, fmt.Sprint("season ", s.Number)) {
		t.Errorf("the confirmation names no season %d\n%s", s.Number, a.Text)
	}
	// gina signs up and withdraws during the season: she leaves nothing
	// under way, and is told she will not be in the next one.
	h.Expect(h.SendMail("gina", lexiotest.MailSpec{Body: "SIGNUP open"}), table.OutcomeApplied, "SIGNUP open")
	id = h.SendMail("gina", lexiotest.MailSpec{Body: "WITHDRAW open"})
	h.Expect(id, table.OutcomeApplied, "WITHDRAW open")
	if a := h.Answer("gina", id); strings.Contains(a.Text, fmt.Sprint("season ", s.Number)) {
		t.Errorf("gina, not in season %d, is told she leaves after it\n%s", s.Number, a.Text)
	}
}

// TestGameOverStandings: LEAGUES §9.2. The game-over mail of a season
// table shows its division's standings with that game counted, in both
// parts; a table of no season shows none.
func TestGameOverStandings(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, seasonLeagues)
	s, err := h.Seasons.StartSeason(h.Ctx, "club")
	if err != nil {
		t.Fatal(err)
	}
	st := s.Tables[0]
	h.AnswerAt(st.Name, strings.TrimSuffix(st.Players[1], "@localhost"), "RESIGN "+st.Name)
	_, rows, err := h.Seasons.Standings(h.Ctx, "club", 0)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Played != 1 || rows[0].Won != 1 {
		t.Fatalf("the leader %+v has not won the game", rows[0])
	}
	for _, p := range st.Players {
		who := strings.TrimSuffix(p, "@localhost")
		m := h.MailOf(who, "game-over", st.Name)
		at := strings.Index(m.Text, "top")
		if at < 0 {
			t.Fatalf("%s: the game-over mail names no division\n%s", who, m.Text)
		}
		standingsOrder(t, who+"'s game-over mail (text)", m.Text[at:], rows)
		if !strings.Contains(m.HTML, "<table") {
			t.Errorf("%s: no standings table in the HTML part", who)
		}
	}
	if err := h.Lobby.CreateTable(h.Ctx, "loose", "club", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.AnswerAt("loose", "bob", "RESIGN loose")
	if m := h.MailOf("alice", "game-over", "loose"); strings.Contains(m.Text, "Carol") {
		t.Errorf("a table of no season shows standings\n%s", m.Text)
	}
}

// TestWeeklyStandings: LEAGUES §9.2. Each player of a running season
// gets their division's standings on Monday from 08:00 in their zone,
// once a week (a second tick sends nothing), never for the week the
// season began after its Monday 08:00, late in the week after downtime;
// standings_digest = "off" sends none, and a closed season none.
func TestWeeklyStandings(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, `
[[league]]
name = "club"
turn_time = "2000h"
[[league.division]]
name = "top"
players = ["alice@localhost", "bob@localhost", "carol@localhost"]
[[league]]
name = "quiet"
turn_time = "2000h"
standings_digest = "off"
[[league.division]]
name = "top"
players = ["dave@localhost", "eve@localhost"]
`)
	// The harness starts on Monday 2 March 2026, 09:00 UTC.
	if _, err := h.Seasons.StartSeason(h.Ctx, "club"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Seasons.StartSeason(h.Ctx, "quiet"); err != nil {
		t.Fatal(err)
	}
	h.OutboxEmpty()
	tz := h.SendMail("carol", lexiotest.MailSpec{Body: "TZ America/New_York"})
	h.Expect(tz, table.OutcomeApplied, "TZ America/New_York")
	weekly := func(who string) int { h.OutboxEmpty(); return len(lexiotest.OfKind(h.Inbox(who), "standings")) }
	h.TickAt(h.Clock.Now().Add(time.Hour))
	if n := weekly("alice"); n != 0 {
		t.Fatalf("%d weekly mails in the season's first week", n)
	}
	monday := time.Date(2026, 3, 9, 8, 0, 0, 0, time.UTC)
	h.TickAt(monday.Add(-time.Minute))
	if n := weekly("alice"); n != 0 {
		t.Fatalf("%d weekly mails before 08:00", n)
	}
	h.TickAt(monday)
	h.TickAt(monday.Add(time.Minute))
	if a, b, c, d := weekly("alice"), weekly("bob"), weekly("carol"), weekly("dave"); a != 1 || b != 1 || c != 0 || d != 0 {
		t.Fatalf("weekly mails at 08:00 UTC: alice %d, bob %d, carol %d (New York), dave %d (off); want 1, 1, 0, 0", a, b, c, d)
	}
	h.TickAt(monday.Add(5 * time.Hour)) // 08:00 in New York
	if c := weekly("carol"); c != 1 {
		t.Fatalf("carol: %d weekly mails at 08:00 her time", c)
	}
	m := lexiotest.OfKind(h.Inbox("alice"), "standings")[0]
	if !strings.Contains(m.Text, "Alice") || !strings.Contains(m.Text, "Carol") {
		t.Errorf("the weekly mail has no standings\n%s", m.Text)
	}
	// Down all of the next Monday: sent on Wednesday, once.
	h.TickAt(monday.Add(9 * 24 * time.Hour))
	h.TickAt(monday.Add(9*24*time.Hour + time.Hour))
	if a := weekly("alice"); a != 2 {
		t.Errorf("alice: %d weekly mails after a missed Monday, want 2", a)
	}
	if _, err := h.Seasons.CloseSeason(h.Ctx, "club"); err != nil {
		t.Fatal(err)
	}
	h.TickAt(monday.Add(14 * 24 * time.Hour))
	if a := weekly("alice"); a != 2 {
		t.Errorf("alice: %d weekly mails after the season closed, want 2", a)
	}
}
