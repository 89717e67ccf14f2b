// Package replytoken makes and checks the personal tokens of lexio's
// addresses (EMAIL §1.2–1.3): the reply token of a player at a table, and
// the unsubscribe, confirmation and no-invitation tokens, each an HMAC
// of what it names under the service's secret, so that only mail sent
// to that player can carry it. It knows nothing of how mail moves, nor of
// games beyond a table's name.
package replytoken

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"strconv"
	"strings"

	"github.com/lexio-mail/lexio/internal/tablename"
)

// macBytes is how much of the HMAC-SHA256 a token keeps: 80 bits, 16
// base32 characters.
const macBytes = 10

var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// Tokens makes and checks the personal reply tokens of EMAIL §1.2: a token
// names a table and authenticates the (table, player) pair.
//
// A token is "<table>-<mac>", mac being HMAC-SHA256(secret, table + "\x00" +
// lowercase(player address)) truncated to 80 bits, in lowercase base32
// without padding (some servers lowercase addresses). Table names follow
// tablename.Check; the mac has no hyphen, so a token splits at its last
// hyphen.
type Tokens struct {
	secret []byte
}

// NewTokens returns Tokens keyed by secret (at least 16 bytes are
// advisable). The secret is copied.
func NewTokens(secret []byte) *Tokens {
	return &Tokens{secret: append([]byte(nil), secret...)}
}

// sum is the truncated HMAC of the fields joined by NUL bytes, the last
// being an address (compared in lowercase). No table name or address holds
// a NUL, so tokens of different kinds never share an input.
func (t *Tokens) sum(fields ...string) string {
	m := hmac.New(sha256.New, t.secret)
	for i, f := range fields {
		if i > 0 {
			m.Write([]byte{0})
		}
		if i == len(fields)-1 {
			f = strings.ToLower(strings.TrimSpace(f))
		}
		m.Write([]byte(f))
	}
	return tokenEncoding.EncodeToString(m.Sum(nil)[:macBytes])
}

// Token returns the reply token of playerAddr at table. It panics on a
// table name tablename.Check refuses, which is a programming error (every
// name is checked before a table is created).
func (t *Tokens) Token(table, playerAddr string) string {
	if err := tablename.Check(table); err != nil {
		panic("mailer: Token: " + err.Error())
	}
	return table + "-" + t.sum(table, playerAddr)
}

// Verify checks token against the address the message came from and
// returns the table it names. ok is false for a malformed token, another
// table's or another player's token, or any altered character. Case is
// ignored, as some servers change it.
func (t *Tokens) Verify(token, fromAddr string) (table string, ok bool) {
	token = strings.ToLower(strings.TrimSpace(token))
	i := strings.LastIndexByte(token, '-')
	if i <= 0 {
		return "", false
	}
	table, got := token[:i], token[i+1:]
	if tablename.Check(table) != nil {
		return "", false
	}
	want := t.sum(table, fromAddr)
	if !hmac.Equal([]byte(got), []byte(want)) {
		return "", false
	}
	return table, true
}

// ReplyAddress returns local+token@domain.
func ReplyAddress(local, domain, token string) string {
	return local + "+" + token + "@" + domain
}

// UnsubscribePrefix starts every unsubscribe token, before its table.
// '_' is in no table name, so no reply token starts with it.
const UnsubscribePrefix = "unsub_"

// Unsubscribe returns the token of the List-Unsubscribe address (RFC 2369,
// LEAGUES §5.2) of playerAddr at table, "" for all their tables:
// "unsub_<table>-<mac>", the mac being HMAC-SHA256(secret, "unsubscribe" +
// "\x00" + table + "\x00" + lowercase(player address)) as in Token. It
// panics on a table name tablename.Check refuses, as Token does.
func (t *Tokens) Unsubscribe(table, playerAddr string) string {
	if table != "" {
		if err := tablename.Check(table); err != nil {
			panic("mailer: Unsubscribe: " + err.Error())
		}
	}
	return UnsubscribePrefix + table + "-" + t.sum("unsubscribe", table, playerAddr)
}

// IsUnsubscribe reports whether token is shaped as an unsubscribe token,
// valid or not.
func IsUnsubscribe(token string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(token)), UnsubscribePrefix)
}

// VerifyUnsubscribe checks an unsubscribe token against the address the
// message came from and returns the table it names ("" for all the
// player's tables). ok is false for anything Unsubscribe did not write for
// that address under this secret. Case is ignored.
func (t *Tokens) VerifyUnsubscribe(token, fromAddr string) (table string, ok bool) {
	table, ok = t.verifyTagged(token, UnsubscribePrefix, "unsubscribe", fromAddr)
	if !ok || table != "" && tablename.Check(table) != nil {
		return "", false
	}
	return table, true
}

// verifyTagged checks a token written "<prefix><field>-<mac>", the mac
// being sum(kind, field, fromAddr), and returns its field. Case is
// ignored; the mac holds no hyphen.
func (t *Tokens) verifyTagged(token, prefix, kind, fromAddr string) (field string, ok bool) {
	rest, found := strings.CutPrefix(strings.ToLower(strings.TrimSpace(token)), prefix)
	i := strings.LastIndexByte(rest, '-')
	if !found || i < 0 {
		return "", false
	}
	field, got := rest[:i], rest[i+1:]
	return field, hmac.Equal([]byte(got), []byte(t.sum(kind, field, fromAddr)))
}

// ConfirmPrefix starts every confirmation token. '_' is in no table name,
// so no reply token starts with it.
const ConfirmPrefix = "conf_"

// Confirm returns the one-time token of confirmation id, written to addr
// (EMAIL §1.7): "conf_<id>-<mac>", the mac being HMAC-SHA256(secret,
// "confirm" + "\x00" + id + "\x00" + lowercase(addr)) as in Token.
func (t *Tokens) Confirm(id int64, addr string) string {
	n := strconv.FormatInt(id, 10)
	return ConfirmPrefix + n + "-" + t.sum("confirm", n, addr)
}

// IsConfirm reports whether token is shaped as a confirmation token,
// valid or not.
func IsConfirm(token string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(token)), ConfirmPrefix)
}

// VerifyConfirm checks a confirmation token against the address the
// message came from and returns the confirmation's id. ok is false for
// anything Confirm did not write for that address under this secret.
func (t *Tokens) VerifyConfirm(token, fromAddr string) (id int64, ok bool) {
	n, ok := t.verifyTagged(token, ConfirmPrefix, "confirm", fromAddr)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(n, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != n {
		return 0, false
	}
	return id, true
}
