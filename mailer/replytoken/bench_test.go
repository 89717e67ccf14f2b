package replytoken_test

import (
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/mailer/replytoken"
)

func BenchmarkTokenVerify(b *testing.B) {
	tok := replytoken.NewTokens([]byte("0123456789abcdef-server-secret"))
	token := tok.Token("spring-league-3", "alice@example.org")
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := tok.Verify(token, "alice@example.org"); !ok {
			b.Fatal("rejected")
		}
	}
}

func FuzzTokenVerify(f *testing.F) {
	tok := replytoken.NewTokens([]byte("fuzz secret"))
	f.Add(tok.Token("t1", "a@b.c"), "a@b.c")
	f.Add("t1-", "")
	f.Add("-abc", "x")
	f.Add("T1-ZZZZZZZZZZZZZZZZ", "A@B.C")
	f.Fuzz(func(t *testing.T, token, from string) {
		table, ok := tok.Verify(token, from)
		if !ok {
			if table != "" {
				t.Fatalf("rejected token names table %q", table)
			}
			return
		}
		// Anything accepted must be exactly what Token makes (up to case).
		if tablename.Check(table) != nil || tok.Token(table, from) != lower(strings.TrimSpace(token)) {
			t.Fatalf("accepted %q from %q as %q", token, from, table)
		}
	})
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
