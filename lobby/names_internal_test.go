package lobby

import (
	"slices"
	"testing"

	"github.com/lexio-mail/lexio/store"
)

// TestInviteNames: an invitee is named with the seated players, so that an
// invitation's mail never shows two of them alike (LEAGUES §6).
func TestInviteNames(t *testing.T) {
	seats := []store.Seat{{Player: &store.Player{Address: "alice@localhost"}}, {Player: &store.Player{Address: "bob@localhost"}}}
	invs := []store.Invitation{
		{Address: "alice@evil.test", State: store.InvitePending},
		{Address: "carol@localhost", State: store.InviteDeclined},
		{Address: "bob@localhost", State: store.InviteJoined},
	}
	seated, named := inviteNames(seats, invs)
	if want := []string{"Alice (localhost)", "Bob"}; !slices.Equal(seated, want) {
		t.Errorf("seated %q, want %q", seated, want)
	}
	if named["alice@evil.test"] != "Alice (evil.test)" || named["carol@localhost"] != "Carol" || named["bob@localhost"] != "Bob" {
		t.Errorf("invitees named %q", named)
	}
	if got := pendingNames(seats, invs); !slices.Equal(got, []string{"Alice (evil.test)"}) {
		t.Errorf("pending %q", got)
	}
}
