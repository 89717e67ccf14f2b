package table_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/table"
)

// logged checks that the service logged the message with its outcome.
func (h *harness) logged(id, want string) {
	h.t.Helper()
	// The outcome is logged just after the commit: wait for it.
	h.waitFor("a log line for "+id+" with "+want, func() bool {
		for _, l := range strings.Split(h.logs.String(), "\n") {
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
func TestIdentity(t *testing.T) { eachDriver(t, testIdentity) }

func testIdentity(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver})
	for name, players := range map[string][]string{"ida": {"alice", "bob"}, "idb": {"carol", "dave"}} {
		if err := h.lobby.CreateTable(h.ctx, name, "main", emails(players...), 5); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"alice", "bob", "carol", "dave"} {
		h.waitMail(p, 1)
	}
	aliceTok := h.token("ida", "alice")
	flipped := []byte(aliceTok)
	if last := len(flipped) - 1; flipped[last] == 'a' {
		flipped[last] = 'b'
	} else {
		flipped[last] = 'a'
	}

	tests := []struct {
		name    string
		account string // the SMTP sender
		spec    mailSpec
		reason  string
		log     string
		// answered: a seated player of the named table is told; a
		// stranger (maybe the victim of a forged From) is not.
		answered string
	}{
		{"forged From with alice's token", "bob", mailSpec{From: "bob@localhost", To: "lexio+" + aliceTok + "@localhost", Body: "PASS"},
			"bad-token", "forged or damaged reply token", "bob"},
		{"stranger with alice's token", "eve", mailSpec{To: "lexio+" + aliceTok + "@localhost", Body: "PASS"},
			"bad-token", "forged or damaged reply token", ""},
		{"another table's token", "alice", mailSpec{To: "lexio+" + h.token("idb", "carol") + "@localhost", Body: "PASS"},
			"bad-token", "forged or damaged reply token", ""},
		{"own token for a table without a seat", "alice", mailSpec{To: "lexio+" + h.token("idb", "alice") + "@localhost", Body: "PASS"},
			"not-a-player", "valid token from a player without a seat", ""},
		{"one character changed", "alice", mailSpec{To: "lexio+" + string(flipped) + "@localhost", Body: "PASS"},
			"bad-token", "forged or damaged reply token", "alice"},
		{"no token", "alice", mailSpec{Body: "PASS"}, "bad-token", "outcome=rejected", "alice"},
	}
	for _, tt := range tests {
		before := map[string]int{}
		for _, p := range []string{"alice", "bob", "carol", "dave", "eve"} {
			before[p] = len(h.inbox(p))
		}
		id := h.sendMail(tt.account, tt.spec)
		h.expect(id, table.OutcomeRejected, tt.reason)
		h.logged(id, tt.log)
		h.outboxEmpty()
		for p, n := range before {
			got := len(h.inbox(p)) - n
			want := 0
			if p == tt.answered {
				want = 1
			}
			if got != want {
				t.Errorf("%s: %s received %d messages, want %d", tt.name, p, got, want)
			}
		}
		if tt.answered != "" {
			h.lastOf(tt.answered, "rejected")
		}
		for _, table := range []string{"ida", "idb"} {
			if g := h.game(table); len(g.Actions()) != 0 {
				t.Errorf("%s changed %s: %v", tt.name, table, g.Actions())
			}
		}
	}
	// The real player's message still works.
	h.expect(h.send("alice", "PASS"), table.OutcomeApplied, "PASS")
}

// TestRequireAuth: with require_auth, only the topmost
// Authentication-Results header of the configured server, with dkim or
// dmarc pass for the From domain, lets a command act (EMAIL §1.3, RFC 8601
// §5): a header with the same server's id further down may have come with
// the message.
func TestRequireAuth(t *testing.T) { eachDriver(t, testRequireAuth) }

func testRequireAuth(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver, mail: "require_auth = true\nauth_serv_id = \"mx.localhost\""})
	if err := h.lobby.CreateTable(h.ctx, "auth", "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	to := "lexio+" + h.token("auth", "alice") + "@localhost"
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
		id := h.sendMail("alice", mailSpec{To: to, Headers: b.headers, Body: "PASS"})
		h.expect(id, table.OutcomeRejected, "not-authenticated")
		h.logged(id, "sender not authenticated")
		if g := h.game("auth"); len(g.Actions()) != 0 {
			t.Fatalf("%s: the game changed: %v", b.name, g.Actions())
		}
	}
	h.outboxEmpty()
	// The From may be forged: nobody is answered.
	if n := len(h.inbox("alice")); n != 1 {
		t.Errorf("alice received %d messages, want only her first notice", n)
	}
	id := h.sendMail("alice", mailSpec{To: to, Body: "PASS",
		Headers: []string{"Authentication-Results: mx.localhost; spf=pass smtp.mailfrom=localhost; dkim=pass (good signature) header.d=localhost header.s=sel"}})
	h.expect(id, table.OutcomeApplied, "PASS")
	if g := h.game("auth"); turns(g) != 1 {
		t.Errorf("the authenticated PASS was not played: %v", g.Actions())
	}
	// The server's pass on top is believed, whatever a header below says.
	id = h.sendMail("bob", mailSpec{To: "lexio+" + h.token("auth", "bob") + "@localhost", Body: "PASS", Headers: []string{
		"Authentication-Results: mx.localhost; dkim=pass (2048-bit key; unprotected) header.d=localhost header.i=@localhost",
		"Authentication-Results: mx.localhost; dkim=fail header.d=localhost; dmarc=fail header.from=localhost"}})
	h.expect(id, table.OutcomeApplied, "PASS")
	if g := h.game("auth"); turns(g) != 2 {
		t.Errorf("bob's authenticated PASS was not played: %v", g.Actions())
	}
}

// TestAmbiguousFrom: a move whose From names a seated player and someone
// else (two From fields, a list, a group) is not played and not answered:
// either address may be forged. It is recorded as rejected and logged.
func TestAmbiguousFrom(t *testing.T) { eachDriver(t, testAmbiguousFrom) }

func testAmbiguousFrom(t *testing.T, driver string) {
	h := newHarness(t, harnessOpts{driver: driver})
	if err := h.lobby.CreateTable(h.ctx, "amb", "main", emails("alice", "bob"), 5); err != nil {
		t.Fatal(err)
	}
	h.waitMail("alice", 1)
	h.waitMail("bob", 1)
	to := "lexio+" + h.token("amb", "alice") + "@localhost"
	tests := []struct {
		name string
		spec mailSpec
	}{
		{"two From fields", mailSpec{From: "alice@localhost", Headers: []string{"From: eve@localhost"}}},
		{"a list", mailSpec{From: "Alice <alice@localhost>, eve@localhost"}},
		{"a group", mailSpec{From: "Friends: alice@localhost, eve@localhost;"}},
		{"a group of one", mailSpec{From: "Friends: alice@localhost;"}},
	}
	for _, tt := range tests {
		before := map[string]int{}
		for _, p := range []string{"alice", "bob", "eve"} {
			before[p] = len(h.inbox(p))
		}
		tt.spec.To, tt.spec.Body = to, "PASS"
		id := h.sendMail("eve", tt.spec)
		h.expect(id, table.OutcomeRejected, "ambiguous-from")
		h.logged(id, "ambiguous From")
		h.outboxEmpty()
		for p, n := range before {
			if got := len(h.inbox(p)) - n; got != 0 {
				t.Errorf("%s: %s received %d messages, want none", tt.name, p, got)
			}
		}
		if g := h.game("amb"); len(g.Actions()) != 0 {
			t.Fatalf("%s: the game changed: %v", tt.name, g.Actions())
		}
	}
	// alice's own move still works.
	h.expect(h.send("alice", "PASS"), table.OutcomeApplied, "PASS")
}
