package lobby_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// The bounds on invitations and STOP hold for a person, whatever spelling
// of their address an opener writes (store.PersonKey, EMAIL §1.8):
// victim+1@x, victim+2@x … are one mailbox.

// TestInvitationsSubaddressSpellings: one opener's NEWs to victim+1@x …
// victim+9@x, three to a NEW, put 9 invitations in one mailbox within
// seconds, against invitations_per_recipient_week (3). One person named
// twice in a NEW, or the opener under another spelling, is refused as an
// exact repeat is; NEWs naming one spelling each, from anyone, invite the
// person 3 times in 7 days.
func TestInvitationsSubaddressSpellings(t *testing.T) {
	lexiotest.EachDriver(t, testInvitationsSubaddressSpellings)
}

func testInvitationsSubaddressSpellings(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	users(h, "victim", "o1", "o2", "o3", "o4", "o5")
	spelling := func(i int) string { return fmt.Sprintf("victim+%d@%s", i, h.Domain) }
	for i := 1; i <= 9; i += 3 {
		cmd := fmt.Sprintf("NEW lexio %s %s %s", spelling(i), spelling(i+1), spelling(i+2))
		if rec := sendNew(h, "alice", "", cmd); rec.Outcome != table.OutcomeRejected || !strings.Contains(rec.Reason, "bad-address") {
			t.Errorf("%s: %s %q, want rejected bad-address", cmd, rec.Outcome, rec.Reason)
		}
	}
	if n := kinds(h, "victim", "invitation"); n != 0 {
		t.Fatalf("the victim's mailbox got %d invitations from NEWs naming them three times each, want 0", n)
	}
	refusedNew(h, "alice", "", "NEW lexio alice+me@"+h.Domain, "self-invite")
	for i, opener := range []string{"alice", "o1", "o2", "o3", "o4", "o5"} {
		rec := sendNew(h, opener, "", "NEW lexio "+spelling(10+i))
		want, reason := table.OutcomeApplied, "NEW "
		if i >= 3 {
			want, reason = table.OutcomeRejected, "invited-often"
		}
		if rec.Outcome != want || !strings.HasPrefix(rec.Reason, reason) {
			t.Fatalf("NEW %d to %s: %s %q, want %s %q", i, spelling(10+i), rec.Outcome, rec.Reason, want, reason)
		}
	}
	if n := kinds(h, "victim", "invitation"); n != 3 {
		t.Errorf("the victim's mailbox got %d invitations, want 3", n)
	}
}

// TestInvitationsStopSpellings: after the victim's STOP, NEW to
// victim+afterstop@x invited them again. STOP holds against every
// spelling, the opener told as for any address that refuses invitations,
// and it declines the pending invitations of every spelling.
func TestInvitationsStopSpellings(t *testing.T) {
	lexiotest.EachDriver(t, testInvitationsStopSpellings)
}

func testInvitationsStopSpellings(t *testing.T, driver string) {
	h := newInviteHarness(t, driver)
	users(h, "victim")
	one := h.Open("alice", "NEW lexio "+addrs(h, "victim"))
	two := h.Open("dave", "NEW lexio "+addrs(h, "victim+pending", "bob"))
	h.Expect(h.AnswerInvite("victim", one, "STOP"), table.OutcomeApplied, "STOP")
	lexiotest.MustContain(t, "the victim's confirmation", h.LastOf("victim", "invitations-refused").Text, one, two)
	if st := invitationState(h, two, "victim+pending"); st != store.InviteDeclined {
		t.Errorf("the invitation to victim+pending is %s, want declined by the STOP", st)
	}
	for _, a := range []string{"victim+afterstop", "VICTIM", "victim+pending"} {
		refusedNew(h, "carol", "", "NEW lexio "+a+"@"+h.Domain, "refuses-invitations")
		lexiotest.MustContain(t, "carol's refusal", h.LastOf("carol", "rejected").Text, strings.ToLower(a)+"@"+h.Domain)
	}
	if n := kinds(h, "victim", "invitation"); n != 2 {
		t.Errorf("the victim's mailbox got %d invitations, want the 2 before STOP", n)
	}
}
