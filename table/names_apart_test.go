package table_test

import "testing"

// TestNamesApart: alice@localhost and alice@evil.test at one table were
// both "Alice", and lexio@evil.test was "Lexio", the service's own name.
// Now alice@localhost's mail shows each alice with her domain and the
// other by her address. (Mail to evil.test is not delivered: the local
// server has one domain.)
func TestNamesApart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, harnessOpts{})
	if err := h.lobby.CreateTable(h.ctx, "t1", "main", []string{"alice@" + h.domain, "alice@evil.test", "lexio@evil.test"}, 5); err != nil {
		t.Fatal(err)
	}
	m := h.waitMail("alice", 1)[0]
	mustContain(t, "alice's notice", m.Text, "Alice ("+h.domain+")", "Alice (evil.test)", "lexio@evil.test")
	mustContain(t, "alice's notice", m.HTML, "Alice ("+h.domain+")", "Alice (evil.test)", "lexio@evil.test")
}
