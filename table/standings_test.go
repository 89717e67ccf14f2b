package table_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

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
	s, err := h.seasons.StartSeason(h.ctx, "club")
	if err != nil {
		t.Fatal(err)
	}
	st := s.Tables[0]
	h.answerAt(st.Name, strings.TrimSuffix(st.Players[0], "@localhost"), "RESIGN "+st.Name)
	_, rows, err := h.seasons.Standings(h.ctx, "club", 0)
	if err != nil {
		t.Fatal(err)
	}
	check := func(who, cmd string) client.Message {
		t.Helper()
		id := h.sendMail(who, mailSpec{Body: cmd})
		h.expect(id, table.OutcomeApplied, "STANDINGS club")
		a := h.answer(who, id)
		if kind(a) != "standings" {
			t.Fatalf("%s: answered with %s", cmd, kind(a))
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
		id := h.sendMail(tc.who, mailSpec{Body: tc.cmd})
		h.expect(id, table.OutcomeRejected, tc.reason)
		if a := h.answer(tc.who, id); kind(a) != "rejected" {
			t.Errorf("%s from %s: answered with %s", tc.cmd, tc.who, kind(a))
		}
	}
	if _, err := h.seasons.StartSeason(h.ctx, "Trio Club!"); err != nil {
		t.Fatal(err)
	}
	id := h.sendMail("alice", mailSpec{Body: "STANDINGS"})
	h.expect(id, table.OutcomeRejected, "which-league")
	if a := h.answer("alice", id); !strings.Contains(a.Text, "club") || !strings.Contains(a.Text, "Trio Club!") {
		t.Errorf("which league: the answer names neither league\n%s", a.Text)
	}
	id = h.sendMail("alice", mailSpec{Body: "STANDINGS club"})
	h.expect(id, table.OutcomeApplied, "STANDINGS club")
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
		id := h.sendMail(st.who, mailSpec{Body: st.cmd})
		h.expect(id, st.outcome, st.reason)
		a := h.answer(st.who, id)
		want := "signup"
		if st.outcome == table.OutcomeRejected {
			want = "rejected"
		}
		if kind(a) != want {
			t.Errorf("%s from %s: answered with %s, want %s", st.cmd, st.who, kind(a), want)
		}
	}
	_, next, err := h.seasons.Show(h.ctx, "open")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(next); got != "[{first [alice@localhost frank@localhost]}]" {
		t.Errorf("next season's divisions %s: bob withdrew, frank signed up, gina withdrew after signing up", got)
	}
	s, err := h.seasons.StartSeason(h.ctx, "open")
	if err != nil {
		t.Fatal(err)
	}
	// Once the season runs, the confirmation says a withdrawal counts
	// after it; frank, in it, cannot sign up again.
	id := h.sendMail("frank", mailSpec{Body: "SIGNUP open"})
	h.expect(id, table.OutcomeRejected, "already-signed-up")
	id = h.sendMail("frank", mailSpec{Body: "WITHDRAW open"})
	h.expect(id, table.OutcomeApplied, "WITHDRAW open")
	if a := h.answer("frank", id); !strings.Contains(a.Text, fmt.Sprint("season ", s.Number)) {
		t.Errorf("the confirmation names no season %d\n%s", s.Number, a.Text)
	}
	// gina signs up and withdraws during the season: she leaves nothing
	// under way, and is told she will not be in the next one.
	h.expect(h.sendMail("gina", mailSpec{Body: "SIGNUP open"}), table.OutcomeApplied, "SIGNUP open")
	id = h.sendMail("gina", mailSpec{Body: "WITHDRAW open"})
	h.expect(id, table.OutcomeApplied, "WITHDRAW open")
	if a := h.answer("gina", id); strings.Contains(a.Text, fmt.Sprint("season ", s.Number)) {
		t.Errorf("gina, not in season %d, is told she leaves after it\n%s", s.Number, a.Text)
	}
}

// TestGameOverStandings: LEAGUES §9.2. The game-over mail of a season
// table shows its division's standings with that game counted, in both
// parts; a table of no season shows none.
func TestGameOverStandings(t *testing.T) {
	t.Parallel()
	h := seasonHarness(t, seasonLeagues)
	s, err := h.seasons.StartSeason(h.ctx, "club")
	if err != nil {
		t.Fatal(err)
	}
	st := s.Tables[0]
	h.answerAt(st.Name, strings.TrimSuffix(st.Players[1], "@localhost"), "RESIGN "+st.Name)
	_, rows, err := h.seasons.Standings(h.ctx, "club", 0)
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Played != 1 || rows[0].Won != 1 {
		t.Fatalf("the leader %+v has not won the game", rows[0])
	}
	for _, p := range st.Players {
		who := strings.TrimSuffix(p, "@localhost")
		m := h.mailOf(who, "game-over", st.Name)
		at := strings.Index(m.Text, "top")
		if at < 0 {
			t.Fatalf("%s: the game-over mail names no division\n%s", who, m.Text)
		}
		standingsOrder(t, who+"'s game-over mail (text)", m.Text[at:], rows)
		if !strings.Contains(m.HTML, "<table") {
			t.Errorf("%s: no standings table in the HTML part", who)
		}
	}
	if err := h.lobby.CreateTable(h.ctx, "loose", "club", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.answerAt("loose", "bob", "RESIGN loose")
	if m := h.mailOf("alice", "game-over", "loose"); strings.Contains(m.Text, "Carol") {
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
	if _, err := h.seasons.StartSeason(h.ctx, "club"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.seasons.StartSeason(h.ctx, "quiet"); err != nil {
		t.Fatal(err)
	}
	h.outboxEmpty()
	tz := h.sendMail("carol", mailSpec{Body: "TZ America/New_York"})
	h.expect(tz, table.OutcomeApplied, "TZ America/New_York")
	weekly := func(who string) int { h.outboxEmpty(); return len(ofKind(h.inbox(who), "standings")) }
	h.tickAt(h.clock.Now().Add(time.Hour))
	if n := weekly("alice"); n != 0 {
		t.Fatalf("%d weekly mails in the season's first week", n)
	}
	monday := time.Date(2026, 3, 9, 8, 0, 0, 0, time.UTC)
	h.tickAt(monday.Add(-time.Minute))
	if n := weekly("alice"); n != 0 {
		t.Fatalf("%d weekly mails before 08:00", n)
	}
	h.tickAt(monday)
	h.tickAt(monday.Add(time.Minute))
	if a, b, c, d := weekly("alice"), weekly("bob"), weekly("carol"), weekly("dave"); a != 1 || b != 1 || c != 0 || d != 0 {
		t.Fatalf("weekly mails at 08:00 UTC: alice %d, bob %d, carol %d (New York), dave %d (off); want 1, 1, 0, 0", a, b, c, d)
	}
	h.tickAt(monday.Add(5 * time.Hour)) // 08:00 in New York
	if c := weekly("carol"); c != 1 {
		t.Fatalf("carol: %d weekly mails at 08:00 her time", c)
	}
	m := ofKind(h.inbox("alice"), "standings")[0]
	if !strings.Contains(m.Text, "Alice") || !strings.Contains(m.Text, "Carol") {
		t.Errorf("the weekly mail has no standings\n%s", m.Text)
	}
	// Down all of the next Monday: sent on Wednesday, once.
	h.tickAt(monday.Add(9 * 24 * time.Hour))
	h.tickAt(monday.Add(9*24*time.Hour + time.Hour))
	if a := weekly("alice"); a != 2 {
		t.Errorf("alice: %d weekly mails after a missed Monday, want 2", a)
	}
	if _, err := h.seasons.CloseSeason(h.ctx, "club"); err != nil {
		t.Fatal(err)
	}
	h.tickAt(monday.Add(14 * 24 * time.Hour))
	if a := weekly("alice"); a != 2 {
		t.Errorf("alice: %d weekly mails after the season closed, want 2", a)
	}
}
