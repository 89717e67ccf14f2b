package inbox_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/table"
)

// logged checks that the service logged the message with its outcome.
func logged(h *lexiotest.Harness, id, want string) {
	h.T.Helper()
	// The outcome is logged just after the commit: wait for it.
	h.WaitFor("a log line for "+id+" with "+want, func() bool {
		for _, l := range strings.Split(h.Logs.String(), "\n") {
			if strings.Contains(l, "message_id="+id) && strings.Contains(l, want) {
				return true
			}
		}
		return false
	})
}

// TestIdentity: a command acts on a table only with a valid token from
// that player's registered address (EMAIL §1.2–1.3). Nothing bad changes
// a game; every attempt is recorded as rejected and logged.
func TestIdentity(t *testing.T) { lexiotest.EachDriver(t, testIdentity) }

func testIdentity(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	for name, players := range map[string][]string{"ida": {"alice", "bob"}, "idb": {"carol", "dave"}} {
		if err := h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails(players...), 5); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		h.WaitMail(p, 1)
	}
	aliceTok := h.Token("ida", "alice")
	flipped := []byte(aliceTok)
	if last := len(flipped) - 1; flipped[last] == 'a' {
		flipped[last] = 'b'
	} else {
		flipped[last] = 'a'
	}

	tests := []struct {
		name    string
		account string // the SMTP sender
		spec    lexiotest.MailSpec
		reason  string
		log     string
		// answered: a seated player of the named table is told; a
		// stranger (maybe the victim of a forged From) is not.
		answered string
	}{
		{"forged From with alice's token", "bob", lexiotest.MailSpec{From: "bob@localhost", To: "lexio+" + aliceTok + "@localhost", Body: "PASS"},
			"bad-token", "forged or damaged reply token", "bob"},
		{"stranger with alice's token", "eve", lexiotest.MailSpec{To: "lexio+" + aliceTok + "@localhost", Body: "PASS"},
			"bad-token", "forged or damaged reply token", ""},
		{"another table's token", "alice", lexiotest.MailSpec{To: "lexio+" + h.Token("idb", "carol") + "@localhost", Body: "PASS"},
			"bad-token", "forged or damaged reply token", ""},
		{"own token for a table without a seat", "alice", lexiotest.MailSpec{To: "lexio+" + h.Token("idb", "alice") + "@localhost", Body: "PASS"},
			"not-a-player", "valid token from a player without a seat", ""},
		{"one character changed", "alice", lexiotest.MailSpec{To: "lexio+" + string(flipped) + "@localhost", Body: "PASS"},
			"bad-token", "forged or damaged reply token", "alice"},
		{"no token", "alice", lexiotest.MailSpec{Body: "PASS"}, "bad-token", "outcome=rejected", "alice"},
	}
	for _, tt := range tests {
		before := map[string]int{}
		for _, p := range []string{"alice", "bob", "carol", "dave", "eve"} {
			before[p] = len(h.Inbox(p))
		}
		id := h.SendMail(tt.account, tt.spec)
		h.Expect(id, table.OutcomeRejected, tt.reason)
		logged(h, id, tt.log)
		h.OutboxEmpty()
		for p, n := range before {
			got := len(h.Inbox(p)) - n
			want := 0
			if p == tt.answered {
				want = 1
			}
			if got != want {
				t.Errorf("%s: %s received %d messages, want %d", tt.name, p, got, want)
			}
		}
		if tt.answered != "" {
			h.LastOf(tt.answered, "rejected")
		}
		for _, table := range []string{"ida", "idb"} {
			if g := h.Game(table); len(g.Actions()) != 0 {
				t.Errorf("%s changed %s: %v", tt.name, table, g.Actions())
			}
		}
	}
	// The real player's message still works.
	h.Expect(h.Send("alice", "PASS"), table.OutcomeApplied, "PASS")
}

// TestRequireAuth: with require_auth, only the topmost
// Authentication-Results header of the configured server, with dkim or
// dmarc pass for the From domain, lets a command act (EMAIL §1.3, RFC 8601
// §5): a header with the same server's id further down may have come with
// the message.
func TestRequireAuth(t *testing.T) { lexiotest.EachDriver(t, testRequireAuth) }

func testRequireAuth(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver, Mail: "require_auth = true\nauth_serv_id = \"mx.localhost\""})
	if err := h.Lobby.CreateTable(h.Ctx, "auth", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	to := "lexio+" + h.Token("auth", "alice") + "@localhost"
	bad := []struct {
		name    string
		headers []string
	}{
		{"dmarc fail", []string{"Authentication-Results: mx.localhost; dkim=pass header.d=localhost; dmarc=fail header.from=localhost"}},
		{"no header", nil},
		{"another server's pass", []string{"Authentication-Results: evil.example; dkim=pass header.d=localhost; dmarc=pass header.from=localhost"}},
		{"dkim pass for another domain", []string{"Authentication-Results: mx.localhost; dkim=pass header.d=example.org"}},
		{"a forged pass below the server's none", []string{
			"Authentication-Results: mx.localhost; spf=pass smtp.mailfrom=localhost; dkim=none",
			"Authentication-Results: mx.localhost; dkim=pass header.d=localhost; dmarc=pass header.from=localhost"}},
		{"a forged pass below the server's fail", []string{
			"Authentication-Results: mx.localhost; dkim=fail (signature did not verify) header.d=localhost",
			"Authentication-Results: mx.localhost; dkim=pass header.d=localhost"}},
	}
	for _, b := range bad {
		id := h.SendMail("alice", lexiotest.MailSpec{To: to, Headers: b.headers, Body: "PASS"})
		h.Expect(id, table.OutcomeRejected, "not-authenticated")
		logged(h, id, "sender not authenticated")
		if g := h.Game("auth"); len(g.Actions()) != 0 {
			t.Fatalf("%s: the game changed: %v", b.name, g.Actions())
		}
	}
	h.OutboxEmpty()
	// The From may be forged: nobody is answered.
	if n := len(h.Inbox("alice")); n != 1 {
		t.Errorf("alice received %d messages, want only her first notice", n)
	}
	id := h.SendMail("alice", lexiotest.MailSpec{To: to, Body: "PASS",
		Headers: []string{"Authentication-Results: mx.localhost; spf=pass smtp.mailfrom=localhost; dkim=pass (good signature) header.d=localhost header.s=sel"}})
	h.Expect(id, table.OutcomeApplied, "PASS")
	if g := h.Game("auth"); lexiotest.Turns(g) != 1 {
		t.Errorf("the authenticated PASS was not played: %v", g.Actions())
	}
	// The server's pass on top is believed, whatever a header below says.
	id = h.SendMail("bob", lexiotest.MailSpec{To: "lexio+" + h.Token("auth", "bob") + "@localhost", Body: "PASS", Headers: []string{
		"Authentication-Results: mx.localhost; dkim=pass (2048-bit key; unprotected) header.d=localhost header.i=@localhost",
		"Authentication-Results: mx.localhost; dkim=fail header.d=localhost; dmarc=fail header.from=localhost"}})
	h.Expect(id, table.OutcomeApplied, "PASS")
	if g := h.Game("auth"); lexiotest.Turns(g) != 2 {
		t.Errorf("bob's authenticated PASS was not played: %v", g.Actions())
	}
}

// TestAmbiguousFrom: a move whose From names a seated player and someone
// else (two From fields, a list, a group) is not played and not answered:
// either address may be forged. It is recorded as rejected and logged.
func TestAmbiguousFrom(t *testing.T) { lexiotest.EachDriver(t, testAmbiguousFrom) }

func testAmbiguousFrom(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	if err := h.Lobby.CreateTable(h.Ctx, "amb", "main", lexiotest.Emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.WaitMail("alice", 1)
	h.WaitMail("bob", 1)
	to := "lexio+" + h.Token("amb", "alice") + "@localhost"
	tests := []struct {
		name string
		spec lexiotest.MailSpec
	}{
		{"two From fields", lexiotest.MailSpec{From: "alice@localhost", Headers: []string{"From: eve@localhost"}}},
		{"a list", lexiotest.MailSpec{From: "Alice <alice@localhost>, eve@localhost"}},
		{"a group", lexiotest.MailSpec{From: "Friends: alice@localhost, eve@localhost;"}},
		{"a group of one", lexiotest.MailSpec{From: "Friends: alice@localhost;"}},
	}
	for _, tt := range tests {
		before := map[string]int{}
		for _, p := range []string{"alice", "bob", "eve"} {
			before[p] = len(h.Inbox(p))
		}
		tt.spec.To, tt.spec.Body = to, "PASS"
		id := h.SendMail("eve", tt.spec)
		h.Expect(id, table.OutcomeRejected, "ambiguous-from")
		logged(h, id, "ambiguous From")
		h.OutboxEmpty()
		for p, n := range before {
			if got := len(h.Inbox(p)) - n; got != 0 {
				t.Errorf("%s: %s received %d messages, want none", tt.name, p, got)
			}
		}
		if g := h.Game("amb"); len(g.Actions()) != 0 {
			t.Fatalf("%s: the game changed: %v", tt.name, g.Actions())
		}
	}
	// alice's own move still works.
	h.Expect(h.Send("alice", "PASS"), table.OutcomeApplied, "PASS")
}
