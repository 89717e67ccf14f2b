package localmail

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
)

// journalName is the file under Options.Dir that holds the mailboxes.
const journalName = "journal.jsonl"

// The journal is the mailboxes' only copy on disk: one JSON line per change
// since the directory was created, written and fsynced before the command
// that made it is answered. Start replays it through the same in-memory
// server, in the same order, which gives every mailbox back its UIDVALIDITY
// and every message its UID and flags: imapmemserver numbers mailboxes and
// messages in the order they come, with no randomness.
//
// A line cut short by a crash was never acknowledged and is dropped; any
// other line that does not read or replay stops Start with an error naming
// it, and the file is left as it is.

// Operations of a record.
const (
	opUser        = "user" // a user and its INBOX
	opCreate      = "create"
	opDelete      = "delete"
	opRename      = "rename"
	opSubscribe   = "subscribe"
	opUnsubscribe = "unsubscribe"
	opAppend      = "append"
	opStore       = "store"
	opCopy        = "copy"
	opMove        = "move"
	opExpunge     = "expunge"
)

// storeOpName and storeOp name the STORE operations in the journal.
func storeOpName(op imap.StoreFlagsOp) string {
	switch op {
	case imap.StoreFlagsSet:
		return "set"
	case imap.StoreFlagsAdd:
		return "add"
	case imap.StoreFlagsDel:
		return "del"
	}
	return fmt.Sprint(int(op))
}

func storeOp(name string) (imap.StoreFlagsOp, error) {
	for _, op := range []imap.StoreFlagsOp{imap.StoreFlagsSet, imap.StoreFlagsAdd, imap.StoreFlagsDel} {
		if storeOpName(op) == name {
			return op, nil
		}
	}
	return 0, fmt.Errorf("unknown store operation %q", name)
}

// record is one change to the mailboxes: one line of the journal.
type record struct {
	Op      string      `json:"op"`
	User    string      `json:"user"`
	Mailbox string      `json:"mailbox,omitempty"`
	To      string      `json:"to,omitempty"`    // rename, copy, move: the other mailbox
	UIDs    []imap.UID  `json:"uids,omitempty"`  // store, copy, move, expunge
	Store   string      `json:"store,omitempty"` // store: set, add or del
	Flags   []imap.Flag `json:"flags,omitempty"` // append, store
	Time    time.Time   `json:"time,omitzero"`   // append: the internal date
	UID     imap.UID    `json:"uid,omitempty"`   // append: the UID it gets
	Body    []byte      `json:"body,omitempty"`  // append: the message
}

// journal is the open journal file, locked against a second server.
type journal struct {
	f    *os.File
	size int64 // bytes of complete records
}

// openJournal creates dir (0700) and its journal when missing, locks the
// journal, and hands every record to apply, in order.
func openJournal(dir string, log *slog.Logger, apply func(*record) error) (*journal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("localmail: mail directory: %w", err)
	}
	path := filepath.Join(dir, journalName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("localmail: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("localmail: %s is in use by another mail server: %w", path, err)
	}
	j := &journal{f: f}
	if err := j.replay(path, log, apply); err != nil {
		f.Close()
		return nil, err
	}
	// The file's name must survive a crash as well as its contents.
	if err := syncDir(dir); err != nil {
		f.Close()
		return nil, fmt.Errorf("localmail: %w", err)
	}
	return j, nil
}

func (j *journal) replay(path string, log *slog.Logger, apply func(*record) error) error {
	r := bufio.NewReader(j.f)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			if len(line) > 0 {
				log.Warn("localmail: dropping a journal record cut short by a crash", "file", path, "line", n, "bytes", len(line))
				if err := j.f.Truncate(j.size); err != nil {
					return fmt.Errorf("localmail: %s: %w", path, err)
				}
				if err := j.f.Sync(); err != nil {
					return fmt.Errorf("localmail: %s: %w", path, err)
				}
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("localmail: %s: %w", path, err)
		}
		var rec record
		if err := json.Unmarshal(line, &rec); err != nil {
			return fmt.Errorf("localmail: %s line %d: %w", path, n, err)
		}
		if err := apply(&rec); err != nil {
			return fmt.Errorf("localmail: %s line %d (%s): %w", path, n, rec.Op, err)
		}
		j.size += int64(len(line))
	}
}

// write appends rec and waits until it is on disk. A record that could not
// be written whole is cut off again, as far as the disk allows.
func (j *journal) write(rec *record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("localmail: journal: %w", err)
	}
	b = append(b, '\n')
	if _, err = j.f.Write(b); err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		_ = j.f.Truncate(j.size)
		return fmt.Errorf("localmail: journal: %w", err)
	}
	j.size += int64(len(b))
	return nil
}

func (j *journal) close() error { return j.f.Close() }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// replayRecord applies one record of the journal to the accounts.
func replayRecord(accounts map[string]*account, rec *record) error {
	if rec.Op == opUser {
		if accounts[rec.User] != nil {
			return fmt.Errorf("user %q exists", rec.User)
		}
		u, err := newAccount(rec.User)
		if err != nil {
			return err
		}
		accounts[rec.User] = u
		return nil
	}
	u := accounts[rec.User]
	if u == nil {
		return fmt.Errorf("%w: %s", ErrUnknownUser, rec.User)
	}
	switch rec.Op {
	case opCreate:
		if err := u.Create(rec.Mailbox, nil); err != nil {
			return err
		}
		u.added(rec.Mailbox)
		return nil
	case opDelete:
		return u.Delete(rec.Mailbox)
	case opRename:
		if err := u.Rename(rec.Mailbox, rec.To, nil); err != nil {
			return err
		}
		u.added(rec.To)
		return nil
	case opSubscribe:
		return u.Subscribe(rec.Mailbox)
	case opUnsubscribe:
		return u.Unsubscribe(rec.Mailbox)
	case opAppend:
		data, err := u.Append(rec.Mailbox, newLiteral(rec.Body), &imap.AppendOptions{Time: rec.Time, Flags: rec.Flags})
		if err != nil {
			return err
		}
		if data.UID != rec.UID {
			return fmt.Errorf("the message got UID %d, the journal says %d", data.UID, rec.UID)
		}
		return nil
	case opStore, opCopy, opMove, opExpunge:
		return replaySelected(u.User, rec)
	}
	return fmt.Errorf("unknown operation %q", rec.Op)
}

// replaySelected applies a change to messages through a view of their
// mailbox of its own, as another client's session would.
func replaySelected(u *imapmemserver.User, rec *record) error {
	sess := imapmemserver.NewUserSession(u)
	defer sess.Close()
	if _, err := sess.Select(rec.Mailbox, nil); err != nil {
		return err
	}
	set := imap.UIDSetNum(rec.UIDs...)
	found, err := sess.Search(imapserver.NumKindUID, &imap.SearchCriteria{UID: []imap.UIDSet{set}}, &imap.SearchOptions{})
	if err != nil {
		return err
	}
	if int(found.Count) != len(rec.UIDs) {
		return fmt.Errorf("%s holds %d of the UIDs %s", rec.Mailbox, found.Count, set)
	}
	// The views' writers are nil: a silent STORE and EXPUNGE write
	// nothing, the changes reach the clients through their own views.
	deleted := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
	switch rec.Op {
	case opStore:
		op, err := storeOp(rec.Store)
		if err != nil {
			return err
		}
		return sess.Store(nil, set, &imap.StoreFlags{Op: op, Silent: true, Flags: rec.Flags}, nil)
	case opCopy:
		_, err := sess.Copy(set, rec.To)
		return err
	case opMove:
		// MOVE is COPY, then \Deleted and EXPUNGE of the same messages:
		// the copies get the flags the messages had.
		if _, err := sess.Copy(set, rec.To); err != nil {
			return err
		}
		if err := sess.Store(nil, set, deleted, nil); err != nil {
			return err
		}
		return sess.Expunge(nil, &set)
	default: // opExpunge
		return sess.Expunge(nil, &set)
	}
}
