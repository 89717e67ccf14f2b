package lobby_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/store/leagues"
	"github.com/lexio-mail/lexio/table"
)

// seatsAt are the local parts of the addresses seated at a table, in
// seat order (the computer's seat as it is named).
func seatsAt(h *lexiotest.Harness, name string) []string {
	h.T.Helper()
	var out []string
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		row, err := tx.TableByName(name)
		if err != nil {
			return err
		}
		seats, err := tx.Seats(row.ID)
		for _, st := range seats {
			out = append(out, strings.TrimSuffix(st.Player.Address, "@"+h.Domain))
		}
		return err
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return out
}

// tableRow reads a table's row.
func tableRow(h *lexiotest.Harness, name string) *store.Table {
	h.T.Helper()
	var row *store.Table
	err := h.Store.View(h.Ctx, func(tx *store.Tx) (err error) {
		row, err = tx.TableByName(name)
		return err
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return row
}

// tableCount is how many tables there are.
func tableCount(h *lexiotest.Harness) int {
	h.T.Helper()
	var n int
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		rows, err := tx.Tables("")
		n = len(rows)
		return err
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return n
}

// rematched sends REMATCH of old from who through old's latest mail
// and returns the new table's name.
func rematched(h *lexiotest.Harness, who, old, command string) string {
	h.T.Helper()
	rec := h.Expect(h.ReplyTo(who, h.LatestAt(who, old), command), table.OutcomeApplied, "REMATCH "+old+" ")
	return strings.TrimPrefix(rec.Reason, "REMATCH "+old+" ")
}

// resign has each player resign the game at name, through its reply
// address.
func resign(h *lexiotest.Harness, name string, players ...string) {
	h.T.Helper()
	for _, p := range players {
		h.Command(p, name, "RESIGN "+name, table.OutcomeApplied, "RESIGN")
	}
	if st := tableRow(h, name).Status; st != store.StatusOver {
		h.T.Fatalf("%s is %s after the resignations", name, st)
	}
}

// TestRematchTwo: REMATCH of an ended 2-player game, by either player
// (LEAGUES §6.2): refused while the game runs; then a new table under the
// same rules, the sender seated, the other invited with a reply address
// of their own; a second REMATCH, by anyone, is answered with that table
// and opens nothing; the invitee's JOIN starts the game with the seats
// turned by one, so that the other player opens.
func TestRematchTwo(t *testing.T) { lexiotest.EachDriver(t, testRematchTwo) }

func testRematchTwo(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	old := h.Open("alice", "NEW lexico "+addrs(h, "bob"))
	h.Expect(h.AnswerInvite("bob", old, "JOIN"), table.OutcomeApplied, "JOIN "+old)
	if got := seatsAt(h, old); !slices.Equal(got, []string{"alice", "bob"}) {
		t.Fatalf("seats of %s: %v", old, got)
	}

	// Before the end: refused, told why, nothing opened.
	id := h.ReplyTo("bob", h.LatestAt("bob", old), "REMATCH "+old)
	h.Expect(id, table.OutcomeRejected, "still-running")
	lexiotest.MustContain(t, "the refusal before the end", h.Answer("bob", id).Text, "REMATCH "+old, old)
	if n := tableCount(h); n != 1 {
		t.Fatalf("%d tables after a refused REMATCH", n)
	}

	resign(h, old, "alice")
	// Bob asks, in Spanish, through the game-over mail.
	again := rematched(h, "bob", old, "REVANCHA "+old)
	row, was := tableRow(h, again), tableRow(h, old)
	if row.RematchOf == nil || *row.RematchOf != was.ID || row.Status != store.StatusOpen {
		t.Errorf("%s: rematch of %v, status %s", again, row.RematchOf, row.Status)
	}
	// The same rules: league, variant, time.
	if row.League != was.League || row.Variant != "lexico" || row.TurnTime != was.TurnTime || row.AwayGrace != was.AwayGrace ||
		!slices.Equal(row.Reminders, was.Reminders) || row.Multipliers != was.Multipliers || row.ReserveSize != was.ReserveSize {
		t.Errorf("the rematch's rules %+v, the old table's %+v", row, was)
	}
	if got := seatsAt(h, again); !slices.Equal(got, []string{"bob"}) {
		t.Errorf("seated at %s before the answer: %v", again, got)
	}
	opened := h.MailOf("bob", "table-opened", again)
	lexiotest.MustContain(t, "bob's confirmation", opened.Text, again, old, "Alice")
	inv := h.MailOf("alice", "invitation", again)
	if want := "lexio+" + h.Token(again, "alice") + "@" + h.Domain; inv.ReplyTo != want {
		t.Errorf("alice's invitation replies to %q, want her own %q", inv.ReplyTo, want)
	}
	lexiotest.MustContain(t, "alice's invitation", inv.Text, "bob@"+h.Domain, again, old, "JOIN", "DECLINE")
	if st := invitationState(h, again, "alice"); st != store.InvitePending {
		t.Errorf("alice's invitation is %s", st)
	}

	// A second REMATCH, by either player and in any language: the same
	// table, nothing more opened, nobody invited again.
	for _, c := range []struct{ who, cmd string }{{"alice", "REMATCH " + old}, {"bob", "REVANCHE " + old}} {
		id := h.ReplyTo(c.who, h.LatestAt(c.who, old), c.cmd)
		h.Expect(id, table.OutcomeRejected, "rematch-exists")
		lexiotest.MustContain(t, c.who+"'s second REMATCH", h.Answer(c.who, id).Text, again)
	}
	if n := tableCount(h); n != 2 {
		t.Errorf("%d tables after three REMATCHes of one game", n)
	}
	if n := h.CountOf("alice", "invitation", again); n != 1 {
		t.Errorf("alice got %d invitations", n)
	}

	// Alice's JOIN through her invitation begins the game; Bob, second
	// at the old table, opens.
	h.Expect(h.AnswerInvite("alice", again, "JOIN"), table.OutcomeApplied, "JOIN "+again)
	g := h.Game(again)
	if g == nil || g.Players() != 2 || g.Turn() != 0 {
		t.Fatalf("the rematch's game: %v", g)
	}
	if got := seatsAt(h, again); !slices.Equal(got, []string{"bob", "alice"}) {
		t.Errorf("seats of the rematch %v, want bob first", got)
	}
	h.Expect(h.Send("bob", lexiotest.FindMove(g, 0)), table.OutcomeApplied, "PLACE")
	// The rematch of the rematch is another table.
	resign(h, again, "alice")
	third := rematched(h, "alice", again, "REMATCH "+again)
	if third == again || third == old {
		t.Errorf("the rematch of %s is %s", again, third)
	}
}

// TestRematchThree: a 3-player game played again (LEAGUES §6.2): asked
// through the plain address (confirmed) by a player who resigned; the
// two others each get an invitation with their own reply address; the
// last JOIN starts the game with the seats turned by one.
func TestRematchThree(t *testing.T) { lexiotest.EachDriver(t, testRematchThree) }

func testRematchThree(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	old := h.Open("alice", "NEW lexio "+addrs(h, "bob", "carol"))
	h.Expect(h.AnswerInvite("bob", old, "JOIN"), table.OutcomeApplied, "JOIN")
	h.Expect(h.AnswerInvite("carol", old, "JOIN"), table.OutcomeApplied, "JOIN")
	resign(h, old, "carol", "bob")

	rec := h.Expect(h.SendMail("carol", lexiotest.MailSpec{Body: "REMATCH " + old}), table.OutcomeApplied, "REMATCH "+old+" ")
	again := strings.TrimPrefix(rec.Reason, "REMATCH "+old+" ")
	replyTo := map[string]bool{}
	for _, p := range []string{"alice", "bob"} {
		inv := h.MailOf(p, "invitation", again)
		if want := "lexio+" + h.Token(again, p) + "@" + h.Domain; inv.ReplyTo != want {
			t.Errorf("%s's invitation replies to %q, want %q", p, inv.ReplyTo, want)
		}
		replyTo[inv.ReplyTo] = true
	}
	if len(replyTo) != 2 {
		t.Errorf("the invitations share a reply address: %v", replyTo)
	}
	// One answer is not all: the game waits for the other.
	h.Expect(h.AnswerInvite("alice", again, "REJOINDRE"), table.OutcomeApplied, "JOIN "+again)
	if h.Game(again) != nil {
		t.Fatal("the rematch began with an invitation pending")
	}
	h.Expect(h.AnswerInvite("bob", again, "JOIN"), table.OutcomeApplied, "JOIN "+again)
	g := h.Game(again)
	if g == nil || g.Players() != 3 {
		t.Fatalf("the rematch's game: %v", g)
	}
	// The old order alice, bob, carol turned by one.
	if got := seatsAt(h, again); !slices.Equal(got, []string{"bob", "carol", "alice"}) {
		t.Errorf("seats of the rematch %v, want bob carol alice", got)
	}
	// The last join's mail gives that order too.
	lexiotest.MustContain(t, "bob's join", h.MailOf("bob", "table-joined", again).Text, "1. Bob", "2. Carol", "3. Alice")
	for _, p := range []string{"alice", "bob", "carol"} {
		if n := lexiotest.Seq(h.MailOf(p, "turn-notice", again)); n != 0 {
			t.Errorf("%s: first notice of turn %d", p, n)
		}
	}
	h.Expect(h.Send("bob", lexiotest.FindMove(g, 0)), table.OutcomeApplied, "PLACE")

	// The rematch played again, begun by its opener's START before
	// Carol answers: the seated take the order turned by one (from bob,
	// carol, alice: carol, alice, bob), without Carol.
	resign(h, again, "bob", "carol")
	third := rematched(h, "bob", again, "REMATCH "+again)
	h.Expect(h.AnswerInvite("alice", third, "JOIN"), table.OutcomeApplied, "JOIN "+third)
	if got := seatsAt(h, third); !slices.Equal(got, []string{"bob", "alice"}) {
		t.Errorf("seats before START %v, want bob alice", got)
	}
	h.Command("bob", third, "START", table.OutcomeApplied, "START")
	if got := seatsAt(h, third); !slices.Equal(got, []string{"alice", "bob"}) {
		t.Errorf("seats of the rematch begun early %v, want alice bob", got)
	}
	if st := invitationState(h, third, "carol"); st != store.InviteWithdrawn {
		t.Errorf("carol's invitation is %s", st)
	}
}

// TestRematchRefusals: REMATCH of a table that does not exist, or of
// another's game, is answered alike (not-at-table: no stranger learns
// which tables exist), of a game still running with why; none opens a
// table. A player who asked never to be invited (STOP) is left out, the
// opener told; with nobody else left, nothing opens.
func TestRematchRefusals(t *testing.T) { lexiotest.EachDriver(t, testRematchRefusals) }

func testRematchRefusals(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	old := h.Open("alice", "NEW lexio "+addrs(h, "bob", "carol"))
	h.Expect(h.AnswerInvite("bob", old, "JOIN"), table.OutcomeApplied, "JOIN")
	h.Expect(h.AnswerInvite("carol", old, "JOIN"), table.OutcomeApplied, "JOIN")
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "REMATCH " + old}), table.OutcomeRejected, "still-running")
	resign(h, old, "bob", "carol")

	for _, c := range []struct{ who, cmd, why string }{
		{"dave", "REMATCH " + old, "not-a-player"},
		{"dave", "REMATCH tnone", "no-such-table"},
		{"alice", "REMATCH tnone", "no-such-table"},
	} {
		rec := h.Expect(h.SendMail(c.who, lexiotest.MailSpec{Body: c.cmd}), table.OutcomeRejected, c.why)
		if !strings.Contains(rec.Reason, "answered not-at-table") {
			t.Errorf("%s %q: %q, want answered not-at-table", c.who, c.cmd, rec.Reason)
		}
	}
	if n := tableCount(h); n != 1 {
		t.Fatalf("%d tables after refused REMATCHes", n)
	}

	// Carol refuses invitations: Bob's rematch invites Alice alone, and
	// Bob hears that Carol was left out.
	h.Expect(h.SendMail("carol", lexiotest.MailSpec{Body: "STOP"}), table.OutcomeApplied, "STOP")
	again := rematched(h, "bob", old, "REMATCH "+old)
	opened := h.MailOf("bob", "table-opened", again).Text
	lexiotest.MustContain(t, "bob's confirmation", opened, again, old, "Alice", "Carol")
	if n := h.CountOf("carol", "invitation", again); n != 0 {
		t.Errorf("carol, who refuses invitations, got %d", n)
	}
	h.Expect(h.AnswerInvite("alice", again, "JOIN"), table.OutcomeApplied, "JOIN "+again)
	// The old order alice, bob, carol turned by one, without carol.
	if got := seatsAt(h, again); !slices.Equal(got, []string{"bob", "alice"}) {
		t.Errorf("seats of the rematch %v, want bob alice", got)
	}

	// A 2-player game whose other player refuses invitations: nobody
	// to play with, nothing opens.
	two := h.Open("alice", "NEW lexico "+addrs(h, "dave"))
	h.Expect(h.AnswerInvite("dave", two, "JOIN"), table.OutcomeApplied, "JOIN")
	resign(h, two, "dave")
	h.Expect(h.SendMail("dave", lexiotest.MailSpec{Body: "STOP"}), table.OutcomeApplied, "STOP")
	before := tableCount(h)
	id := h.ReplyTo("alice", h.LatestAt("alice", two), "REMATCH "+two)
	h.Expect(id, table.OutcomeRejected, "refuses-invitations")
	lexiotest.MustContain(t, "alice's refused rematch", h.Answer("alice", id).Text, "Dave")
	if n := tableCount(h); n != before {
		t.Errorf("%d tables, want %d", n, before)
	}
}

// TestRematchComputer: the computer's seat accepts at once: a rematch
// against it begins when asked, the computer opening (the seats turned
// by one), its first notice the answer.
func TestRematchComputer(t *testing.T) {
	d, _, err := dict.Build(strings.NewReader("CHAT\nCHATS\nEAU\nEAUX\nRIRE\nLIRE\nTIRE\nSOIR\nNOTE\nTON\nTONS\nSEL\nLES\n"))
	if err != nil {
		t.Fatal(err)
	}
	gd, err := dict.BuildGaddag(d)
	if err != nil {
		t.Fatal(err)
	}
	h := lexiotest.New(t, lexiotest.Options{Domain: lexiotest.InviteDomain, Gaddag: gd, Config: lexiotest.OpenTablesConfig})
	rec := h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "NEW lexio bot:easy"}), table.OutcomeApplied, "NEW ")
	old := strings.TrimPrefix(rec.Reason, "NEW ")
	resign(h, old, "alice")
	again := rematched(h, "alice", old, "REMATCH "+old)
	g := h.Game(again)
	if g == nil || g.Players() != 2 {
		t.Fatalf("the rematch against the computer did not begin: %v", g)
	}
	if got := seatsAt(h, again); !slices.Equal(got, []string{"bot:easy", "alice"}) {
		t.Errorf("seats of the rematch %v, want the computer first", got)
	}
	h.MailOf("alice", "turn-notice", again)
	if n := h.CountOf("alice", "table-opened", again); n != 0 {
		t.Errorf("alice was sent %d table-opened mails: the game began", n)
	}
	err = h.Store.View(h.Ctx, func(tx *store.Tx) error {
		invs, err := invites.OfTable(tx, tableRow(h, again).ID)
		if len(invs) != 0 {
			t.Errorf("the computer was invited: %v", invs)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	// Beside a person who now refuses invitations: the computer alone
	// is left, so the game begins at once, and the opener hears who was
	// left out.
	rec = h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "NEW lexio bot " + addrs(h, "carol")}), table.OutcomeApplied, "NEW ")
	trio := strings.TrimPrefix(rec.Reason, "NEW ")
	h.Expect(h.AnswerInvite("carol", trio, "JOIN"), table.OutcomeApplied, "JOIN")
	resign(h, trio, "carol", "alice")
	h.Expect(h.SendMail("carol", lexiotest.MailSpec{Body: "STOP"}), table.OutcomeApplied, "STOP")
	again = rematched(h, "alice", trio, "REMATCH "+trio)
	if g := h.Game(again); g == nil || g.Players() != 2 {
		t.Fatalf("the rematch against the computer did not begin: %v", g)
	}
	if got := seatsAt(h, again); !slices.Equal(got, []string{"bot:medium", "alice"}) {
		t.Errorf("seats of the rematch %v, want the computer first", got)
	}
	lexiotest.MustContain(t, "alice's confirmation", h.MailOf("alice", "table-opened", again).Text, trio, "Carol")
	h.MailOf("alice", "turn-notice", again)
}

// TestRematchRace: two players' REMATCHes of one game at once (on
// PostgreSQL their transactions meet): one opens the table, the other is
// answered with it.
func TestRematchRace(t *testing.T) { lexiotest.EachDriver(t, testRematchRace) }

func testRematchRace(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	// New pairs each round: an address gets at most 3 invitations a week.
	for round, pair := range [][2]string{{"alice", "bob"}, {"carol", "dave"}, {"eve", "alice"}} {
		old := h.Open(pair[0], "NEW lexico "+addrs(h, pair[1]))
		h.Expect(h.AnswerInvite(pair[1], old, "JOIN"), table.OutcomeApplied, "JOIN")
		resign(h, old, pair[1])
		a := h.ReplyTo(pair[0], h.LatestAt(pair[0], old), "REMATCH "+old)
		b := h.ReplyTo(pair[1], h.LatestAt(pair[1], old), "REMATCH "+old)
		ra, rb := h.Handled(a), h.Handled(b)
		applied := 0
		for _, r := range []store.Message{ra, rb} {
			switch {
			case r.Outcome == table.OutcomeApplied:
				applied++
			case !strings.Contains(r.Reason, "rematch-exists"):
				t.Errorf("round %d: %s %q", round, r.Outcome, r.Reason)
			}
		}
		if applied != 1 {
			t.Errorf("round %d: %d REMATCHes applied", round, applied)
		}
	}
	if n := tableCount(h); n != 6 {
		t.Errorf("%d tables, want 3 games and 3 rematches", n)
	}
}

// TestRematchLeague: the rematch of a league table is a friendly game
// under the league's rules: it belongs to no season, and its end changes
// neither the season's results nor the ratings (LEAGUES §6.2, §8, §10).
func TestRematchLeague(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig + `
[[league]]
name = "pair"
turn_time = "48h"
[[league.division]]
name = "only"
players = ["alice@` + lexiotest.InviteDomain + `", "bob@` + lexiotest.InviteDomain + `"]
`})
	s, err := h.Seasons.StartSeason(h.Ctx, "pair")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tables) != 1 {
		t.Fatalf("%d season tables", len(s.Tables))
	}
	old := s.Tables[0].Name
	first := strings.TrimSuffix(s.Tables[0].Players[0], "@"+h.Domain)
	second := strings.TrimSuffix(s.Tables[0].Players[1], "@"+h.Domain)
	resign(h, old, first)

	type facts struct {
		results int
		ratings map[int64]store.PlayerRating
	}
	read := func() facts {
		var f facts
		err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
			lt, err := leagues.TableOf(tx, tableRow(h, old).ID)
			if err != nil {
				return err
			}
			rs, err := leagues.Results(tx, lt.SeasonID, lt.DivisionOrder)
			f.results = len(rs)
			if err != nil {
				return err
			}
			var ids []int64
			for _, p := range []string{"alice", "bob"} {
				pl, err := tx.PlayerByAddress(p + "@" + h.Domain)
				if err != nil {
					return err
				}
				ids = append(ids, pl.ID)
			}
			f.ratings, err = leagues.Ratings(tx, tableRow(h, old).Variant, ids...)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	before := read()
	if before.results == 0 || len(before.ratings) != 2 {
		t.Fatalf("the season table's end left %d results, %d ratings", before.results, len(before.ratings))
	}

	again := rematched(h, first, old, "REMATCH "+old)
	if row := tableRow(h, again); row.League != "pair" || row.TurnTime != tableRow(h, old).TurnTime {
		t.Errorf("the rematch's league %q, turn %v", row.League, row.TurnTime)
	}
	lexiotest.MustContain(t, "the opener's confirmation", h.MailOf(first, "table-opened", again).Text, old)
	h.Expect(h.AnswerInvite(second, again, "JOIN"), table.OutcomeApplied, "JOIN "+again)
	if got := seatsAt(h, again); !slices.Equal(got, []string{second, first}) {
		t.Errorf("seats of the rematch %v, want %s first", got, second)
	}
	resign(h, again, second)
	err = h.Store.View(h.Ctx, func(tx *store.Tx) error {
		_, err := leagues.TableOf(tx, tableRow(h, again).ID)
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("the rematch belongs to a season: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	after := read()
	if after.results != before.results {
		t.Errorf("the season's results went from %d to %d rows", before.results, after.results)
	}
	for id, r := range before.ratings {
		if a := after.ratings[id]; a.Rating != r.Rating || a.RD != r.RD {
			t.Errorf("player %d's rating went from %v to %v", id, r, a)
		}
	}
}

// TestRematchInReply: REMATCH alone, in reply to a mail of the ended
// table, plays that table again (#34); at the plain address it guesses
// no table, and is answered at once with the sender's tables.
func TestRematchInReply(t *testing.T) {
	t.Parallel()
	h := newInviteHarness(t, "")
	old := h.Open("alice", "NEW lexico "+addrs(h, "bob"))
	h.Expect(h.AnswerInvite("bob", old, "JOIN"), table.OutcomeApplied, "JOIN "+old)
	resign(h, old, "alice")
	id := h.SendMail("bob", lexiotest.MailSpec{Body: "REMATCH", NoConfirm: true})
	h.Expect(id, table.OutcomeRejected, "which-table")
	lexiotest.MustContain(t, "REMATCH at the plain address", h.Answer("bob", id).Text, old)
	if n := tableCount(h); n != 1 {
		t.Fatalf("%d tables after REMATCH at the plain address", n)
	}
	again := rematched(h, "bob", old, "revanche")
	if row := tableRow(h, again); row.RematchOf == nil || *row.RematchOf != tableRow(h, old).ID {
		t.Errorf("%s plays again %v, want %s", again, row.RematchOf, old)
	}
}
