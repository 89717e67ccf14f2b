package table

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
)

// TestNamesTogether: the players seen together are named apart, none as
// the computer or the service, each one line of printable text cut by
// characters.
func TestNamesTogether(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 40)
	for _, tc := range []struct {
		name  string
		addrs []string
		want  []string
	}{
		{"plain", []string{"alice@localhost", "bob@localhost", "bot:strong"},
			[]string{"Alice", "Bob", "Bot (strong)"}},
		{"same local part, two domains", []string{"alice@localhost", "alice@evil.test", "bob@localhost"},
			[]string{"Alice (localhost)", "Alice (evil.test)", "Bob"}},
		{"same name in another case", []string{"alice@localhost", "ALICE@evil.test"},
			[]string{"Alice (localhost)", "ALICE (evil.test)"}},
		{"same once the invisible is gone", []string{"alice@localhost", "alice\u200b@localhost"},
			[]string{"alice@localhost #1", "alice@localhost #2"}},
		{"a name that reads as another's qualified one", []string{"alice@localhost", "alice@evil.test", "alice (evil.test)@x.test"},
			[]string{"Alice (localhost)", "Alice (evil.test)", "alice (evil.test)@x.test"}},
		{"a name that reads as an address", []string{"bob@localhost", "bob@localhost@evil.test"},
			[]string{"Bob", "bob@localhost@evil.test"}},
		{"the same name in full width", []string{"alice@localhost", "\uff41\uff4c\uff49\uff43\uff45@evil.test"},
			[]string{"Alice (localhost)", "\uff21\uff4c\uff49\uff43\uff45 (evil.test)"}},
		{"the service's name in full width", []string{"\uff4c\uff45\uff58\uff49\uff4f@evil.test"},
			[]string{"\uff4c\uff45\uff58\uff49\uff4f@evil.test"}},
		{"parentheses of another kind", []string{"alice（evil.test）@x.test"},
			[]string{"alice（evil.test）@x.test"}},
		{"the computer's name", []string{"bot (medium)@evil.test", "bot:medium"},
			[]string{"bot (medium)@evil.test", "Bot (medium)"}},
		{"the computer's name alone", []string{"bot@evil.test", "carol@localhost"},
			[]string{"bot@evil.test", "Carol"}},
		{"the service's name", []string{"lexio@evil.test", "LEXIO-team@evil.test", "bob@localhost"},
			[]string{"lexio@evil.test", "LEXIO-team@evil.test", "Bob"}},
		{"words that only begin alike", []string{"bottom@localhost", "lexiophile@localhost"},
			[]string{"Bottom", "Lexiophile"}},
		{"a character, not a byte, capitalised", []string{"élodie@localhost", "ñandú@localhost"},
			[]string{"Élodie", "Ñandú"}},
		{"cut by characters", []string{long + "@localhost"},
			[]string{"É" + strings.Repeat("é", maxName-1)}},
		{"controls and bidi removed", []string{"\x1b[31malice@localhost", "\u202eecila\u202c@localhost"},
			[]string{"[31malice", "Ecila"}},
		{"line breaks folded", []string{"al\rice@localhost", "RESIGN\u2028t1@localhost"},
			[]string{"Al ice", "RESIGN t1"}},
		{"no local part", []string{"@localhost", "alice"},
			[]string{"@localhost", "Alice"}},
		{"not UTF-8", []string{"\xe9lodie@localhost"},
			[]string{"\ufffdlodie"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tableNames(tc.addrs)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("tableNames(%q) = %q, want %q", tc.addrs, got, tc.want)
			}
		})
	}
}

// TestNamesHonest: over addresses made to collide, to impersonate and to
// break lines, every list of names is distinct, printable, valid UTF-8,
// bounded, and no human's reads as the computer's or the service's.
func TestNamesHonest(t *testing.T) {
	t.Parallel()
	addrs := []string{
		"alice@localhost", "alice@evil.test", "Alice@evil.test", "alice\u200b@localhost", "alice\u200d@localhost",
		"\uff41\uff4c\uff49\uff43\uff45@evil.test", "\uff42\uff4f\uff54@x", "bot (medium)@evil.test", "bot:medium", "bot:easy", "bot@x", "lexio@x", "Lexio (x)@y",
		strings.Repeat("é", 40) + "@a.test", strings.Repeat("é", 40) + "x@a.test", strings.Repeat("é", 40) + "@" + strings.Repeat("d", 40) + ".test",
		"\xe9\xe9@localhost", "\xc3@localhost", "a\r\nRESIGN t1@localhost", "\u202ebob@localhost", "bob@localhost", "bob@localhost@evil.test",
	}
	// Every pair and triple, and the whole list.
	lists := [][]string{addrs}
	for i := range addrs {
		for j := i + 1; j < len(addrs); j++ {
			lists = append(lists, []string{addrs[i], addrs[j]})
			for k := j + 1; k < len(addrs); k++ {
				lists = append(lists, []string{addrs[i], addrs[j], addrs[k]})
			}
		}
	}
	for _, l := range lists {
		got := tableNames(l)
		seen := map[string]bool{}
		for i, n := range got {
			k := nameKey(n)
			switch {
			case seen[k]:
				t.Fatalf("tableNames(%q) = %q: %q twice", l, got, n)
			case n == "" || !utf8.ValidString(n) || parser.OneLine(n, 1000) != n:
				t.Fatalf("tableNames(%q) = %q: %q is not one line of printable text", l, got, n)
			case utf8.RuneCountInString(n) > 2*maxName+5:
				t.Fatalf("tableNames(%q) = %q: %q is too long", l, got, n)
			case !strings.HasPrefix(l[i], "bot:") && !strings.Contains(n, "@") && reservedName(strings.ReplaceAll(strings.ReplaceAll(n, "(", " "), ")", " ")):
				// An address reads as no one's name; the parentheses of
				// a qualified name are tableNames' own.
				t.Fatalf("tableNames(%q) = %q: human %q named %q", l, got, l[i], n)
			}
			seen[k] = true
		}
	}
}

// TestInviteNames: an invitee is named with the seated players, so that an
// invitation's mail never shows two of them alike (LEAGUES §6).
func TestInviteNames(t *testing.T) {
	t.Parallel()
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
