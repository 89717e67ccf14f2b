package table_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer/replytoken"
	"github.com/lexio-mail/lexio/parser"
)

// TestOneTableNameRule: the configuration, the admin's CreateTable, JOIN
// and the reply tokens take and refuse the same table names, by
// tablename.Check, each with an error that names the input.
func TestOneTableNameRule(t *testing.T) {
	t.Parallel()
	good := []string{"t42", "club-du-jeudi", "0", "a-", strings.Repeat("x", 32)}
	// Each was taken by at least one of them, before there was one rule.
	bad := []string{strings.Repeat("x", 33), strings.Repeat("x", 64), "-lead", "t_42", "t.42", "t+42", "té"}

	h := lexiotest.New(t, lexiotest.Options{})
	tok := replytoken.NewTokens([]byte(lexiotest.Secret))
	for _, name := range append(good, bad...) {
		want := tablename.Check(name) == nil
		t.Run(name, func(t *testing.T) {
			// [[table]] in the configuration.
			_, err := config.Parse([]byte(lexiotest.BaseConfig("", "[[table]]\nname = \""+name+"\"\nleague = \"main\"\nplayers = [\"alice@localhost\", \"bob@localhost\"]\n")))
			if want != (err == nil) || !want && !strings.Contains(err.Error(), tablename.Rule) {
				t.Errorf("config: %v", err)
			}
			// The admin's CreateTable.
			err = h.Lobby.CreateTable(h.Ctx, name, "main", lexiotest.Emails("alice", "bob"), 1)
			if want != (err == nil) || !want && !errors.Is(err, tablename.ErrInvalid) {
				t.Errorf("CreateTable: %v", err)
			}
			// JOIN, in any case.
			c, err := parser.ParseCommand("JOIN " + strings.ToUpper(name))
			var pe *parser.Error
			switch {
			case want && (err != nil || c.Table != name):
				t.Errorf("JOIN: %v, %v; want table %q", c, err, name)
			case !want && (!errors.As(err, &pe) || pe.Kind != parser.BadTable || pe.Detail != strings.ToUpper(name)):
				t.Errorf("JOIN: %v, %v; want bad_table naming %q", c, err, strings.ToUpper(name))
			}
			// A token of the right form (EMAIL §1.2, replytoken.Tokens),
			// made here for names Token refuses to make.
			m := hmac.New(sha256.New, []byte(lexiotest.Secret))
			m.Write([]byte(name + "\x00alice@localhost"))
			token := name + "-" + base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding).EncodeToString(m.Sum(nil)[:10])
			if got, ok := tok.Verify(token, "alice@localhost"); ok != want || ok && got != name {
				t.Errorf("Verify(%q) = %q, %v", token, got, ok)
			}
			func() {
				defer func() {
					r := recover()
					if want != (r == nil) || r != nil && !strings.Contains(r.(string), tablename.Rule) {
						t.Errorf("Token panicked with %v", r)
					}
				}()
				if got := tok.Token(name, "alice@localhost"); got != token {
					t.Errorf("Token = %q, want %q", got, token)
				}
			}()
		})
	}
}
