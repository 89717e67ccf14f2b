package table_test

import (
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
)

// TestNamesApart: alice@localhost and alice@evil.test at one table were
// both "Alice", and lexio@evil.test was "Lexio", the service's own name.
// Now alice@localhost's mail shows each alice with her domain and the
// other by her address. (Mail to evil.test is not delivered: the local
// server has one domain.)
func TestNamesApart(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{})
	if err := h.Lobby.CreateTable(h.Ctx, "t1", "main", []string{"alice@" + h.Domain, "alice@evil.test", "lexio@evil.test"}, 5); err != nil {
		t.Fatal(err)
	}
	m := h.WaitMail("alice", 1)[0]
	lexiotest.MustContain(t, "alice's notice", m.Text, "Alice ("+h.Domain+")", "Alice (evil.test)", "lexio@evil.test")
	lexiotest.MustContain(t, "alice's notice", m.HTML, "Alice ("+h.Domain+")", "Alice (evil.test)", "lexio@evil.test")
}
