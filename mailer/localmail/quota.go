package localmail

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// Every message lives in memory (and, with Options.Dir, in the journal), so
// each user's mailboxes are kept within Options.MailboxQuota: a delivery,
// APPEND, COPY or CREATE that would go over is refused, and nothing else
// grows a user's mailboxes. A restart replays the journal, whose every
// state was within the quota, so the same bound holds after it.

// ErrOverQuota is returned for a change that would take a user's
// mailboxes over Options.MailboxQuota.
var ErrOverQuota = errors.New("localmail: over the mailbox quota")

// entryBytes is what a message or a mailbox counts toward the quota beside
// its text: the server's bookkeeping for it, and what stops a flood of
// empty messages or mailboxes.
const entryBytes = 512

// defaultMailboxQuota is Options.MailboxQuota's default.
const defaultMailboxQuota = 64 << 20

// account is a user's mailboxes, and their names: imapmemserver lists
// mailboxes only to a connection, and the quota sums them all.
type account struct {
	*imapmemserver.User
	// boxes holds the name of every mailbox, and maybe of some deleted
	// or renamed since (usage forgets those). Changed under changeMu.
	boxes map[string]bool
}

// newAccount is a user's mailboxes: an INBOX.
func newAccount(name string) (*account, error) {
	// The password is checked by Server; imapmemserver's stays empty.
	a := &account{User: imapmemserver.NewUser(name, ""), boxes: make(map[string]bool)}
	if err := a.Create("INBOX", nil); err != nil {
		return nil, fmt.Errorf("localmail: create INBOX: %w", err)
	}
	a.added("INBOX")
	return a, nil
}

// added notes a mailbox created or renamed to name, trimmed as
// imapmemserver trims it.
func (a *account) added(name string) {
	a.boxes[strings.TrimRight(name, "/")] = true
}

// usage is what a's mailboxes count toward the quota: the bytes of every
// message, and entryBytes for each message and each mailbox.
func (a *account) usage() int64 {
	var n int64
	for name := range a.boxes {
		st, err := a.Status(name, &imap.StatusOptions{NumMessages: true, Size: true})
		if err != nil { // deleted or renamed
			delete(a.boxes, name)
			continue
		}
		n += entryBytes
		if st.NumMessages != nil {
			n += int64(*st.NumMessages) * entryBytes
		}
		if st.Size != nil {
			n += *st.Size
		}
	}
	return n
}

// messageCost is what a message of size bytes counts toward the quota.
func messageCost(size int64) int64 { return size + entryBytes }

// roomLocked says whether a's mailboxes have room for more bytes.
func (s *Server) roomLocked(a *account, more int64) error {
	if used := a.usage(); used+more > s.opts.MailboxQuota {
		return fmt.Errorf("%w: %d of %d bytes used, %d more asked", ErrOverQuota, used, s.opts.MailboxQuota, more)
	}
	return nil
}

// neverFits says whether a message of size bytes is over the quota even in
// a user's first, empty INBOX: no waiting makes room for it.
func (s *Server) neverFits(size int64) bool {
	return entryBytes+messageCost(size) > s.opts.MailboxQuota
}

// imapQuotaError is err as IMAP says it (RFC 9208 OVERQUOTA).
func imapQuotaError(err error) error {
	if errors.Is(err, ErrOverQuota) {
		return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeOverQuota, Text: "Mailbox quota exceeded"}
	}
	return err
}
