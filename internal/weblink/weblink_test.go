package weblink

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/mailer/replytoken"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

// segments splits a path made by Links into its parts after the first.
func segments(t *testing.T, path string) []string {
	t.Helper()
	return strings.Split(strings.TrimPrefix(path, "/"), "/")[1:]
}

// A link checks only for what it was made for: another table, player,
// kind or key, or one altered character, is refused (EMAIL §7.2).
func TestLinksBoundToWhatTheyShow(t *testing.T) {
	l := New("https://lexio.example.org/", secret)
	p := segments(t, l.PlayerPath("oak", 7)) // oak p 7 mac
	if got := l.Player("oak", 7); got != "https://lexio.example.org/t/oak/p/7/"+p[3] {
		t.Errorf("Player = %q", got)
	}
	if id, ok := l.VerifyPlayer(p[0], p[2], p[3]); !ok || id != 7 {
		t.Fatalf("VerifyPlayer(%v) = %d, %v", p, id, ok)
	}
	altered := []byte(p[3])
	altered[len(altered)-1] ^= 1
	s := segments(t, l.SpectatorPath("oak"))
	u := segments(t, l.UnsubscribePath("oak", 7))
	lg := segments(t, l.LeaguePath("oak"))
	other := New("https://lexio.example.org", []byte("another secret, long enough....."))
	op := segments(t, other.PlayerPath("oak", 7))
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"altered mac", ok2(l.VerifyPlayer("oak", "7", string(altered)))},
		{"other table", ok2(l.VerifyPlayer("elm", "7", p[3]))},
		{"other player", ok2(l.VerifyPlayer("oak", "8", p[3]))},
		{"player id spelt 07", ok2(l.VerifyPlayer("oak", "07", p[3]))},
		{"spectator mac as a player's", ok2(l.VerifyPlayer("oak", "7", s[2]))},
		{"unsubscribe mac as a player's", ok2(l.VerifyPlayer("oak", "7", u[2]))},
		{"player mac as an unsubscribe", ok2(l.VerifyUnsubscribe("oak", "7", p[3]))},
		{"league mac as a spectator's", l.VerifySpectator("oak", lg[1])},
		{"spectator mac as a league's", l.VerifyLeague("oak", s[2])},
		{"another secret's link", ok2(l.VerifyPlayer("oak", "7", op[3]))},
		{"empty mac", l.VerifySpectator("oak", "")},
	} {
		if c.ok {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if !l.VerifySpectator("oak", s[2]) || !l.VerifyLeague("oak", lg[1]) || !ok2(l.VerifyUnsubscribe("oak", "7", u[2])) {
		t.Error("a link as made is refused")
	}
}

func ok2(_ int64, ok bool) bool { return ok }

// The web key is not the token secret: no reply or unsubscribe token's
// mac is a link's, under the same secret.
func TestLinksAreNotTokens(t *testing.T) {
	l := New("http://127.0.0.1:8080", secret)
	tok := replytoken.NewTokens(secret)
	reply := tok.Token("oak", "alice@example.org")
	mac := reply[strings.LastIndexByte(reply, '-')+1:]
	if l.VerifySpectator("oak", mac) || l.VerifyLeague("oak", mac) {
		t.Error("a reply token's mac opens a page")
	}
	if strings.Contains(l.SpectatorPath("oak"), mac) {
		t.Error("a link holds a reply token's mac")
	}
}

// A nil Links (the web side off) makes no link.
func TestNilLinks(t *testing.T) {
	var l *Links
	if l.Player("oak", 1) != "" || l.Spectator("oak") != "" || l.League("x") != "" || l.Unsubscribe("oak", 1) != "" {
		t.Error("a nil Links made a link")
	}
}

// A league name that is not a path segment is escaped in the path and
// signed as it is.
func TestLeagueNameEscaped(t *testing.T) {
	l := New("http://h", secret)
	p := l.LeaguePath("club a/b")
	if !strings.HasPrefix(p, "/l/club%20a%2Fb/") {
		t.Fatalf("LeaguePath = %q", p)
	}
	mac := p[strings.LastIndexByte(p, '/')+1:]
	if !l.VerifyLeague("club a/b", mac) {
		t.Error("the escaped league's link is refused")
	}
}
