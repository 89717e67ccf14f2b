package replytoken_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/mailer/replytoken"
)

func TestTokens(t *testing.T) {
	tok := replytoken.NewTokens([]byte("0123456789abcdef-server-secret"))
	other := replytoken.NewTokens([]byte("another secret entirely........"))
	alice := tok.Token("t1", "Alice@Example.org")
	if !strings.HasPrefix(alice, "t1-") || len(alice) != len("t1-")+16 || strings.ToLower(alice) != alice {
		t.Fatalf("token %q: want t1- and 16 lowercase base32 characters", alice)
	}
	flipped := []byte(alice)
	last := len(flipped) - 1
	if flipped[last] == 'a' {
		flipped[last] = 'b'
	} else {
		flipped[last] = 'a'
	}
	firstMAC := []byte(alice)
	if firstMAC[3] == 'a' {
		firstMAC[3] = 'b'
	} else {
		firstMAC[3] = 'a'
	}
	tests := []struct {
		name      string
		token     string
		from      string
		wantTable string
		wantOK    bool
	}{
		{"own token", alice, "alice@example.org", "t1", true},
		{"address case ignored", alice, "ALICE@EXAMPLE.ORG", "t1", true},
		{"token case ignored", strings.ToUpper(alice), "alice@example.org", "t1", true},
		{"hyphenated table", tok.Token("spring-league-3", "bob@example.org"), "bob@example.org", "spring-league-3", true},
		{"last character changed", string(flipped), "alice@example.org", "", false},
		{"first mac character changed", string(firstMAC), "alice@example.org", "", false},
		// A token acts only on the table it names (the caller uses the
		// returned table, never one taken from elsewhere) ...
		{"another table's token names that table", tok.Token("t2", "alice@example.org"), "alice@example.org", "t2", true},
		// ... and cannot be moved to another table.
		{"t1 mac on table t2", "t2" + alice[2:], "alice@example.org", "", false},
		{"t2 mac on table t1", "t1" + tok.Token("t2", "alice@example.org")[2:], "alice@example.org", "", false},
		{"another player's token", tok.Token("t1", "bob@example.org"), "alice@example.org", "", false},
		{"another server's secret", other.Token("t1", "alice@example.org"), "alice@example.org", "", false},
		{"mac truncated", alice[:len(alice)-1], "alice@example.org", "", false},
		{"mac extended", alice + "a", "alice@example.org", "", false},
		{"no mac", "t1", "alice@example.org", "", false},
		{"empty", "", "alice@example.org", "", false},
		{"only mac", alice[2:], "alice@example.org", "", false},
		{"bad table characters", "t_1" + alice[2:], "alice@example.org", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			table, ok := tok.Verify(tt.token, tt.from)
			if ok != tt.wantOK || table != tt.wantTable {
				t.Errorf("Verify(%q, %q) = %q, %v; want %q, %v", tt.token, tt.from, table, ok, tt.wantTable, tt.wantOK)
			}
		})
	}
}

func TestTokenDeterministicAndPanicsOnBadTable(t *testing.T) {
	a := replytoken.NewTokens([]byte("k")).Token("t1", "a@b.c")
	if b := replytoken.NewTokens([]byte("k")).Token("t1", " A@B.C "); a != b {
		t.Errorf("same key, table and address gave %q and %q", a, b)
	}
	defer func() {
		if recover() == nil {
			t.Error("Token accepted the table name \"T 1\"")
		}
	}()
	replytoken.NewTokens([]byte("k")).Token("T 1", "a@b.c")
}

func TestReplyAddress(t *testing.T) {
	if got := replytoken.ReplyAddress("lexio", "example.org", "t1-x"); got != "lexio+t1-x@example.org" {
		t.Errorf("ReplyAddress = %q", got)
	}
}

// An unsubscribe token (LEAGUES §5.2) names a table, or none, for one
// player; altered, moved to another table or player, or read as a reply
// token, it is refused; a reply token is not one.
func TestUnsubscribeTokens(t *testing.T) {
	tok := replytoken.NewTokens([]byte("0123456789abcdef-server-secret"))
	alice := tok.Unsubscribe("t1", "Alice@Example.org")
	all := tok.Unsubscribe("", "alice@example.org")
	if !strings.HasPrefix(alice, "unsub_t1-") || len(alice) != len("unsub_t1-")+16 || !strings.HasPrefix(all, "unsub_-") {
		t.Fatalf("unsubscribe tokens %q and %q", alice, all)
	}
	altered := []byte(alice)
	altered[len(altered)-1] ^= 1
	reply := tok.Token("t1", "alice@example.org")
	for _, tt := range []struct {
		name, token, from, table string
		ok                       bool
	}{
		{"own table", alice, "alice@example.org", "t1", true},
		{"case ignored", strings.ToUpper(alice), "ALICE@example.org", "t1", true},
		{"every table", all, "alice@example.org", "", true},
		{"hyphenated table", tok.Unsubscribe("spring-3", "bob@x.org"), "bob@x.org", "spring-3", true},
		{"altered", string(altered), "alice@example.org", "", false},
		{"another player", alice, "bob@example.org", "", false},
		{"moved to t2", strings.Replace(alice, "_t1-", "_t2-", 1), "alice@example.org", "", false},
		{"a table's mac for every table", "unsub_" + alice[len("unsub_t1"):], "alice@example.org", "", false},
		{"the reply token's mac", "unsub_" + reply, "alice@example.org", "", false},
		{"no mac", "unsub_t1", "alice@example.org", "", false},
		{"bad table", "unsub_T 1" + alice[len("unsub_t1"):], "alice@example.org", "", false},
	} {
		table, ok := tok.VerifyUnsubscribe(tt.token, tt.from)
		if ok != tt.ok || table != tt.table {
			t.Errorf("%s: VerifyUnsubscribe(%q, %q) = %q, %v; want %q, %v", tt.name, tt.token, tt.from, table, ok, tt.table, tt.ok)
		}
	}
	if !replytoken.IsUnsubscribe(alice) || !replytoken.IsUnsubscribe(" UNSUB_x") || replytoken.IsUnsubscribe(reply) {
		t.Error("IsUnsubscribe tells unsubscribe tokens from reply tokens wrongly")
	}
	// Neither kind passes for the other.
	if _, ok := tok.Verify(alice, "alice@example.org"); ok {
		t.Error("an unsubscribe token verified as a reply token")
	}
	if _, ok := tok.VerifyUnsubscribe(reply, "alice@example.org"); ok {
		t.Error("a reply token verified as an unsubscribe token")
	}
}

// TestConfirmToken: a confirmation token is good for its id and address
// only, and no other kind of token passes for it (EMAIL §1.7).
func TestConfirmToken(t *testing.T) {
	tok := replytoken.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	c := tok.Confirm(42, "Alice@Example.org")
	if !strings.HasPrefix(c, "conf_42-") || !replytoken.IsConfirm(c) {
		t.Fatalf("Confirm = %q", c)
	}
	if id, ok := tok.VerifyConfirm(strings.ToUpper(c), "alice@example.org"); !ok || id != 42 {
		t.Errorf("VerifyConfirm of its own token = %d, %v", id, ok)
	}
	other := tok.Confirm(43, "alice@example.org")
	for _, tt := range []struct{ name, token, from string }{
		{"another address", c, "bob@example.org"},
		{"another id", "conf_43" + c[len("conf_42"):], "alice@example.org"},
		{"another id's mac", "conf_42" + other[len("conf_43"):], "alice@example.org"},
		{"leading zero", "conf_042" + c[len("conf_42"):], "alice@example.org"},
		{"no mac", "conf_42", "alice@example.org"},
		{"zero", "conf_0" + c[len("conf_42"):], "alice@example.org"},
		{"a reply token", tok.Token("t1", "alice@example.org"), "alice@example.org"},
		{"an unsubscribe token", tok.Unsubscribe("", "alice@example.org"), "alice@example.org"},
	} {
		if _, ok := tok.VerifyConfirm(tt.token, tt.from); ok {
			t.Errorf("%s: %q verified", tt.name, tt.token)
		}
	}
	if _, ok := tok.Verify(c, "alice@example.org"); ok {
		t.Error("a confirmation token verified as a reply token")
	}
	if _, ok := tok.VerifyUnsubscribe(c, "alice@example.org"); ok {
		t.Error("a confirmation token verified as an unsubscribe token")
	}
}
