// Package weblink makes and checks the signed URLs of the web side (EMAIL
// §7): the table service writes them into mail, the web server checks
// them. A link is bound to what it shows: its MAC covers its kind and
// every name and number in its path, so that a link altered in any part,
// or moved to another table or player, is refused.
//
// The key is derived from the service secret for web links alone
// (HMAC-SHA256(secret, "lexio web links v1")), so that no reply or
// unsubscribe token (replytoken.Tokens, keyed by the secret itself) is ever a
// valid URL, nor a URL a valid token.
package weblink

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"net/url"
	"strconv"
	"strings"
)

// macBytes is how much of the HMAC a link keeps: 128 bits, 26 base32
// characters. A URL is not typed, so it can afford more than a reply
// token's 80 bits.
const macBytes = 16

var encoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// The kinds of link, each the first field of its MAC.
const (
	kindPlayer      = "player"
	kindSpectator   = "spectator"
	kindLeague      = "league"
	kindUnsubscribe = "unsubscribe"
)

// GCGFile is the last segment of a finished game's record, under the
// table's player or spectator link.
const GCGFile = "game.gcg"

// Links makes and checks links under one base URL with one key. The zero
// value is not usable; a nil *Links makes no link (the web side is off).
type Links struct {
	base string // without a trailing slash
	key  []byte
}

// New returns the links of the web side at base (an absolute URL; a
// trailing slash is dropped), keyed from secret.
func New(base string, secret []byte) *Links {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("lexio web links v1"))
	return &Links{base: strings.TrimRight(base, "/"), key: m.Sum(nil)}
}

// mac is the truncated HMAC of the fields joined by NUL bytes (no table
// name, league name or number holds a NUL).
func (l *Links) mac(fields ...string) string {
	m := hmac.New(sha256.New, l.key)
	for i, f := range fields {
		if i > 0 {
			m.Write([]byte{0})
		}
		m.Write([]byte(f))
	}
	return encoding.EncodeToString(m.Sum(nil)[:macBytes])
}

// check compares got with the MAC of fields in constant time.
func (l *Links) check(got string, fields ...string) bool {
	return hmac.Equal([]byte(got), []byte(l.mac(fields...)))
}

func id(n int64) string { return strconv.FormatInt(n, 10) }

// PlayerPath is the path of the player view of table for the player whose
// id is player: /t/<table>/p/<player>/<mac>.
func (l *Links) PlayerPath(table string, player int64) string {
	return "/t/" + url.PathEscape(table) + "/p/" + id(player) + "/" + l.mac(kindPlayer, table, id(player))
}

// SpectatorPath is the path of the spectator view of table:
// /t/<table>/s/<mac>.
func (l *Links) SpectatorPath(table string) string {
	return "/t/" + url.PathEscape(table) + "/s/" + l.mac(kindSpectator, table)
}

// LeaguePath is the path of a league's page: /l/<league>/<mac>.
func (l *Links) LeaguePath(league string) string {
	return "/l/" + url.PathEscape(league) + "/" + l.mac(kindLeague, league)
}

// UnsubscribePath is the path of the one-click unsubscribe (RFC 8058) of
// a player from table's turn mails: /u/<table>/<player>/<mac>.
func (l *Links) UnsubscribePath(table string, player int64) string {
	return "/u/" + url.PathEscape(table) + "/" + id(player) + "/" + l.mac(kindUnsubscribe, table, id(player))
}

// URL is base followed by path; "" when l is nil (the web side is off).
func (l *Links) URL(path string) string {
	if l == nil {
		return ""
	}
	return l.base + path
}

// Player is the absolute URL of PlayerPath, "" when l is nil.
func (l *Links) Player(table string, player int64) string {
	if l == nil {
		return ""
	}
	return l.URL(l.PlayerPath(table, player))
}

// Spectator is the absolute URL of SpectatorPath, "" when l is nil.
func (l *Links) Spectator(table string) string {
	if l == nil {
		return ""
	}
	return l.URL(l.SpectatorPath(table))
}

// League is the absolute URL of LeaguePath, "" when l is nil.
func (l *Links) League(league string) string {
	if l == nil {
		return ""
	}
	return l.URL(l.LeaguePath(league))
}

// Unsubscribe is the absolute URL of UnsubscribePath, "" when l is nil.
func (l *Links) Unsubscribe(table string, player int64) string {
	if l == nil {
		return ""
	}
	return l.URL(l.UnsubscribePath(table, player))
}

// parseID reads a player id as PlayerPath writes it: decimal, positive,
// no sign or leading zero (one number has one spelling, so one link).
func parseID(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || id(n) != s {
		return 0, false
	}
	return n, true
}

// VerifyPlayer checks the segments of a player link and returns the id.
func (l *Links) VerifyPlayer(table, player, mac string) (int64, bool) {
	n, ok := parseID(player)
	if !ok || !l.check(mac, kindPlayer, table, player) {
		return 0, false
	}
	return n, true
}

// VerifySpectator checks the MAC of a spectator link of table.
func (l *Links) VerifySpectator(table, mac string) bool {
	return l.check(mac, kindSpectator, table)
}

// VerifyLeague checks the MAC of a league link.
func (l *Links) VerifyLeague(league, mac string) bool {
	return l.check(mac, kindLeague, league)
}

// VerifyUnsubscribe checks the segments of an unsubscribe link and
// returns the player's id.
func (l *Links) VerifyUnsubscribe(table, player, mac string) (int64, bool) {
	n, ok := parseID(player)
	if !ok || !l.check(mac, kindUnsubscribe, table, player) {
		return 0, false
	}
	return n, true
}
