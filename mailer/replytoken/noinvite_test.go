package replytoken

import "testing"

// TestNoInviteToken: an invitation's List-Unsubscribe token is its
// address's alone, read as an unsubscribe token by its shape but naming
// no table, and no other token verifies as one.
func TestNoInviteToken(t *testing.T) {
	k := NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	tok := k.NoInvite("Bob@Example.org")
	if !IsUnsubscribe(tok) || !IsNoInvite(tok) {
		t.Fatalf("%q is not shaped as an unsubscribe token", tok)
	}
	if !k.VerifyNoInvite(tok, "bob@example.org") || !k.VerifyNoInvite("  "+tok, "BOB@example.org") {
		t.Errorf("%q does not verify for bob", tok)
	}
	if k.VerifyNoInvite(tok, "carol@example.org") {
		t.Errorf("%q verifies for carol", tok)
	}
	if _, ok := k.VerifyUnsubscribe(tok, "bob@example.org"); ok {
		t.Errorf("%q verifies as a table's unsubscribe token", tok)
	}
	for _, other := range []string{k.Unsubscribe("", "bob@example.org"), k.Unsubscribe("noinvite", "bob@example.org"), k.Token("noinvite", "bob@example.org")} {
		if IsNoInvite(other) || k.VerifyNoInvite(other, "bob@example.org") {
			t.Errorf("%q verifies as bob's no-invite token", other)
		}
	}
	if k.VerifyNoInvite(tok[:len(tok)-1]+"a", "bob@example.org") && tok[len(tok)-1] != 'a' {
		t.Errorf("an altered token verifies")
	}
}
