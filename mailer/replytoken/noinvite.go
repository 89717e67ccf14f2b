package replytoken

import (
	"crypto/hmac"
	"strings"
)

// noInvitePrefix starts the token of an invitation's List-Unsubscribe
// address. It is an unsubscribe token's prefix (IsUnsubscribe holds) and
// holds no hyphen, so VerifyUnsubscribe reads no table out of it; a dot,
// not "=", for a mailto: URI (RFC 6068) takes it as it is.
const noInvitePrefix = UnsubscribePrefix + "invite."

// NoInvite returns the token of the List-Unsubscribe address of an
// invitation to addr (LEAGUES §6): writing to it means "never invite me
// again", whatever the table. It is "unsub_invite.<mac>", the mac being
// HMAC-SHA256(secret, "noinvite" + "\x00" + "\x00" + lowercase(addr)) as
// in Token: its three fields set it apart from every reply token (two)
// and every unsubscribe token (whose first field is "unsubscribe").
func (t *Tokens) NoInvite(addr string) string {
	return noInvitePrefix + t.sum("noinvite", "", addr)
}

// IsNoInvite reports whether token is shaped as NoInvite's, valid or not.
func IsNoInvite(token string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(token)), noInvitePrefix)
}

// VerifyNoInvite reports whether token is NoInvite's for fromAddr under
// this secret. Case is ignored.
func (t *Tokens) VerifyNoInvite(token, fromAddr string) bool {
	got, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(token)), noInvitePrefix)
	return ok && hmac.Equal([]byte(got), []byte(t.sum("noinvite", "", fromAddr)))
}
