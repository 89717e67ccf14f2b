package inbox_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/invites"
	"github.com/lexio-mail/lexio/store/leagues"
	"github.com/lexio-mail/lexio/table"
)

const confirmConfig = lexiotest.OpenTablesConfig + `
[[league]]
name = "club"
signup = true
[[league.division]]
name = "first"
players = ["carol@lexio.test", "dave@lexio.test"]
`

// fingerprint is what alice's commands may change, read from the store:
// her player row, her tables with their state, the invitations waiting
// for bob, her vacations and the club's sign-ups.
func fingerprint(h *lexiotest.Harness) string {
	h.T.Helper()
	var b strings.Builder
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		alice := "alice@" + h.Domain
		p, err := tx.PlayerByAddress(alice)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "lang=%s tz=%s notify=%s;", p.Lang, p.TimeZone, p.Notify)
		tables, err := tx.TablesOfPlayer(alice)
		if err != nil {
			return err
		}
		for _, t := range tables {
			fmt.Fprintf(&b, " %s:%s:%d", t.Name, t.Status, t.Seq)
		}
		for _, status := range []store.TableStatus{store.StatusOpen, store.StatusPlaying, store.StatusOver} {
			all, err := tx.Tables(status)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "; %s=%d", status, len(all))
		}
		invs, err := invites.PendingOf(tx, "bob@"+h.Domain)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "; bob invited %d", len(invs))
		vacs, err := tx.Vacations(p.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "; vacations %d", len(vacs))
		sgs, err := leagues.PendingSignups(tx, "club")
		if err != nil {
			return err
		}
		for _, sg := range sgs {
			fmt.Fprintf(&b, "; %s %s", sg.Kind, sg.Player.Address)
		}
		return nil
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return b.String()
}

// TestForgedFromConfirms: EMAIL §1.7. A stranger who writes the service's
// plain address with a player's address as From changes nothing, for
// every command that changes state: the player is asked, and only their
// answer to that mail does it, once, within 24 hours. The stranger gets
// no mail; nobody else does either.
func TestForgedFromConfirms(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Domain: lexiotest.InviteDomain, Config: confirmConfig})
	addr := func(n string) string { return n + "@" + h.Domain }
	if err := h.Lobby.CreateTable(h.Ctx, "cf", "main", []string{addr("alice"), addr("bob")}, 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	// Tables for JOIN, DECLINE and START, opened by their owners.
	daves := h.Open("dave", "NEW lexio")
	carols := h.Open("carol", "NEW lexio "+addr("alice"))

	// bobJoins seats bob at the table alice opened with his invitation,
	// so that she may START it.
	bobJoins := func() {
		var open string
		err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
			rows, err := tx.TablesOfPlayer(addr("alice"))
			for _, r := range rows {
				if r.Status == store.StatusOpen && r.Name != daves {
					open = r.Name
				}
			}
			return err
		})
		if err != nil || open == "" {
			t.Fatalf("alice's open table: %q, %v", open, err)
		}
		h.Expect(h.AnswerInvite("bob", open, "JOIN"), table.OutcomeApplied, "JOIN")
	}
	steps := []struct {
		command string
		reason  string // what the confirmed command's record says
		setup   func()
	}{
		{"LANG fr", "LANG fr", nil},
		{"TZ Europe/Paris", "TZ Europe/Paris", nil},
		{"NOTIFY turn", "NOTIFY turn", nil},
		{"VACATION 7", "VACATION 7", nil},
		{"SAY bonjour", "SAY", nil},
		{"SIGNUP club", "SIGNUP club", nil},
		{"WITHDRAW club", "WITHDRAW club", nil},
		{"DECLINE", "DECLINE " + carols, nil},
		{"JOIN " + daves, "JOIN " + daves, nil},
		{"NEW lexio " + addr("bob") + " " + addr("carol"), "NEW ", nil},
		{"START", "START", bobJoins},
		{"NEW lexio", "NEW ", nil},
		{"RESIGN cf", "RESIGN cf", nil},
	}
	for _, st := range steps {
		if st.setup != nil {
			st.setup()
		}
		h.OutboxEmpty()
		before := fingerprint(h)
		inbox := map[string]int{}
		for _, n := range []string{"alice", "bob", "carol", "dave", "eve"} {
			inbox[n] = len(h.Inbox(n))
		}
		id := h.SendMail("eve", lexiotest.MailSpec{From: addr("alice"), Body: st.command})
		h.Expect(id, table.OutcomePending, "confirm")
		h.OutboxEmpty()
		if got := fingerprint(h); got != before {
			t.Fatalf("forged %q changed the state:\n%s\nto\n%s", st.command, before, got)
		}
		conf := h.Confirmation("alice", id)
		for n, had := range inbox {
			want := had
			if n == "alice" {
				want++
			}
			if got := len(h.Inbox(n)); got != want {
				t.Errorf("forged %q: %s has %d mails, want %d", st.command, n, got, want)
			}
		}
		lexiotest.MustContain(t, st.command, conf.Text, st.command)
		if strings.Contains(conf.Subject, st.command) {
			t.Errorf("the confirmation's subject holds the command: %q", conf.Subject)
		}

		// The stranger cannot answer it: the address is alice's.
		h.Expect(h.ReplyTo("eve", &conf, "CONFIRM"), table.OutcomeRejected, "bad-token")
		// An auto-responder that sends the mail back unquoted does not
		// confirm it.
		h.Expect(h.ReplyTo("alice", &conf, conf.Text), table.OutcomeRejected, "")
		if got := fingerprint(h); got != before {
			t.Fatalf("%q was done without CONFIRM:\n%s\nto\n%s", st.command, before, got)
		}

		done := h.ReplyTo("alice", &conf, "CONFIRM")
		h.Expect(done, table.OutcomeApplied, st.reason)
		after := fingerprint(h)
		if st.command != "SAY bonjour" && after == before {
			t.Errorf("confirmed %q changed nothing: %s", st.command, after)
		}
		// Once only.
		again := h.ReplyTo("alice", &conf, "CONFIRM")
		h.Expect(again, table.OutcomeRejected, "confirmation-used")
		h.OutboxEmpty()
		if got := fingerprint(h); got != after {
			t.Errorf("%q confirmed twice changed the state again", st.command)
		}
	}
	if n := h.CountOf("bob", "said", "cf"); n != 1 {
		t.Errorf("bob got %d SAY mails, want 1 (the confirmed one)", n)
	}

	// 24 hours later, a confirmation is too late.
	id := h.SendMail("eve", lexiotest.MailSpec{From: addr("alice"), Body: "LANG en"})
	h.Expect(id, table.OutcomePending, "confirm")
	conf := h.Confirmation("alice", id)
	h.Clock.Add(24*60*60e9 + 1)
	h.Expect(h.ReplyTo("alice", &conf, "CONFIRM"), table.OutcomeRejected, "confirmation-expired")
	h.Expect(h.ReplyTo("alice", &conf, "CONFIRM"), table.OutcomeRejected, "confirmation-expired")
	if !strings.Contains(fingerprint(h), "lang=fr") {
		t.Error("an expired confirmation changed the language")
	}
}

// TestUnprovenAnswersBounded: a stranger who forges a player's From on
// mail to the plain address makes us write to that player a few times a
// day at most, whatever the command: confirmations and answers together
// (EMAIL §1.7, mail.unproven_answers_per_day), and to everyone at one
// domain together (a tenth of mail.unproven_answers_total_per_day). The
// player's own replies to their table are not bounded by it.
func TestUnprovenAnswersBounded(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Domain: lexiotest.InviteDomain, Config: lexiotest.OpenTablesConfig,
		Mail: "unproven_answers_per_day = 3\nunproven_answers_total_per_day = 50"})
	addr := func(n string) string { return n + "@" + h.Domain }
	if err := h.Lobby.CreateTable(h.Ctx, "ub", "main", []string{addr("alice"), addr("bob")}, 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	base := len(h.Inbox("alice"))
	bodies := []string{"HELP RULES", "RESIGN ub", "HELP", "GAMES", "LANG es", "HELP RULES"}
	for _, body := range bodies {
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: addr("alice"), Body: body}))
	}
	h.OutboxEmpty()
	if got := len(h.Inbox("alice")) - base; got != 3 {
		t.Errorf("alice got %d answers to forged mail, want 3", got)
	}
	// Two more answers today to anyone at that domain: carol gets two,
	// dave none.
	for _, who := range []string{"carol", "carol", "carol", "dave"} {
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: addr(who), Body: "HELP"}))
	}
	h.OutboxEmpty()
	if c, d := len(h.Inbox("carol")), len(h.Inbox("dave")); c != 2 || d != 0 {
		t.Errorf("carol got %d, dave %d answers; want 2 and 0 (the domain's share of the day is 5)", c, d)
	}
	// alice's own reply to her table is answered as ever.
	h.Expect(h.Send("alice", "BOARD"), table.OutcomeApplied, "BOARD")
	h.OutboxEmpty()
	if got := len(lexiotest.OfKind(h.Inbox("alice"), "board-reply")); got != 1 {
		t.Errorf("alice's BOARD through her reply address got %d answers, want 1", got)
	}
	// The next day, the bound opens again.
	h.Clock.Add(25 * 60 * 60e9)
	h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: addr("dave"), Body: "HELP"}))
	h.OutboxEmpty()
	if d := len(h.Inbox("dave")); d != 1 {
		t.Errorf("dave got %d answers the next day, want 1", d)
	}
}

// TestConfirmTokenInSubject: where tokens live in the subject tag, the
// confirmation's tag carries its token, and answering it confirms.
func TestConfirmTokenInSubject(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "token_in_subject = true"})
	id := h.SendMail("eve", lexiotest.MailSpec{From: "alice@" + h.Domain, Body: "LANG fr"})
	h.Expect(id, table.OutcomePending, "confirm")
	conf := h.Confirmation("alice", id)
	if !strings.Contains(conf.Subject, "[Lexio confirm conf_") || conf.ReplyTo != "" && conf.ReplyTo != "lexio@"+h.Domain {
		t.Fatalf("confirmation: subject %q, Reply-To %q", conf.Subject, conf.ReplyTo)
	}
	h.Expect(h.ReplyTo("alice", &conf, "CONFIRM"), table.OutcomeApplied, "LANG fr")
}

// TestWebUnsubscribeIsProven: the one-click unsubscribe comes through a
// signed link, proof of the player (EMAIL §7.1): its confirmation goes
// even when forged mail has spent the day's answers to unproven mail for
// that address.
func TestWebUnsubscribeIsProven(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Mail: "unproven_answers_per_day = 1"})
	if err := h.Lobby.CreateTable(h.Ctx, "wu", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	for range 2 {
		h.Handled(h.SendMail("eve", lexiotest.MailSpec{From: "alice@" + h.Domain, Body: "HELP"}))
	}
	h.OutboxEmpty()
	if n := len(lexiotest.OfKind(h.Inbox("alice"), "help")); n != 1 {
		t.Fatalf("alice got %d answers to forged HELP, want 1", n)
	}
	var id int64
	if err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		p, err := tx.PlayerByAddress("alice@" + h.Domain)
		if p != nil {
			id = p.ID
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := h.Players.WebUnsubscribe(h.Ctx, "wu", id); err != nil || !ok {
		t.Fatalf("WebUnsubscribe: %v, %v", ok, err)
	}
	h.OutboxEmpty()
	if n := len(lexiotest.OfKind(h.Inbox("alice"), "notify-changed")); n != 1 {
		t.Errorf("alice got %d confirmations of her one-click unsubscribe, want 1", n)
	}
}
