package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/table"
)

// TestUnsubscribeReplayed: a one-click unsubscribe posted again (a mail
// client that retries, a link clicked twice, at once or later) confirms
// once (RFC 8058, LEAGUES §5.2): the repeat answers the same page, changes
// nothing and sends no second confirmation. Once the player has chosen
// another NOTIFY since, the link unsubscribes, and confirms, again.
func TestUnsubscribeReplayed(t *testing.T) {
	f := newFixture(t)
	path := f.links.UnsubscribePath("elm", f.playerID("alice@example.org"))
	f.outbox()
	post := func(what string, mails int) {
		t.Helper()
		w := f.do(http.MethodPost, path, "")
		if b := w.Body.String(); w.Code != http.StatusOK || !strings.Contains(b, "NOTIFY turn") || strings.Contains(b, `method="post"`) {
			t.Fatalf("%s: %d\n%s", what, w.Code, w.Body)
		}
		if m := f.seatNotify("elm", "alice@example.org"); m != table.NotifyTurn {
			t.Errorf("%s: alice's seat has NOTIFY %q, want turn", what, m)
		}
		if ms := f.outbox(); len(ms) != mails {
			t.Errorf("%s: %d mails, want %d", what, len(ms), mails)
		}
	}
	post("the POST", 1)
	post("the same POST at once", 0)
	f.clock.Add(time.Hour)
	post("the same POST an hour later", 0)

	f.send("alice@example.org", "elm", "NOTIFY all elm")
	if m := f.seatNotify("elm", "alice@example.org"); m != table.NotifyAll {
		t.Fatalf("NOTIFY all by mail: the seat has %q", m)
	}
	f.outbox()
	f.clock.Add(time.Minute)
	post("the POST after NOTIFY all", 1)
}
