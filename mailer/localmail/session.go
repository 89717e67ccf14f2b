package localmail

import (
	"crypto/subtle"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"

	"github.com/lexio-mail/lexio/mailer/bearer"
)

// session is one IMAP connection: Server checks the password, then
// imapmemserver serves the user's mailboxes.
type session struct {
	s *Server
	*imapmemserver.UserSession
	user *user // set by Login
}

var _ imapserver.SessionIMAP4rev2 = (*session)(nil)

func (ss *session) Login(username, password string) error {
	ss.s.mu.Lock()
	u, ok := ss.s.users[username]
	ss.s.mu.Unlock()
	if !ok || subtle.ConstantTimeCompare([]byte(password), []byte(u.password)) != 1 {
		return imapserver.ErrAuthFailed
	}
	ss.user = u
	ss.UserSession = imapmemserver.NewUserSession(u.acc.User)
	return nil
}

var _ imapserver.SessionSASL = (*session)(nil)

// AuthenticateMechanisms are PLAIN, and XOAUTH2 and OAUTHBEARER when the
// server checks tokens.
func (ss *session) AuthenticateMechanisms() []string { return ss.s.mechanisms() }

// Authenticate serves AUTHENTICATE: PLAIN checks the password as Login
// does; a bearer token is checked by Options.CheckToken.
func (ss *session) Authenticate(mech string) (sasl.Server, error) {
	if strings.EqualFold(mech, sasl.Plain) {
		return sasl.NewPlainServer(func(identity, username, password string) error {
			if identity != "" && identity != username {
				return imapserver.ErrAuthFailed
			}
			return ss.Login(username, password)
		}), nil
	}
	if ss.s.opts.CheckToken == nil {
		return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "SASL mechanism not supported"}
	}
	return bearer.NewServer(mech, func(user, token string) error {
		ss.s.mu.Lock()
		u, ok := ss.s.users[user]
		ss.s.mu.Unlock()
		if !ok || ss.s.opts.CheckToken(user, token) != nil {
			return imapserver.ErrAuthFailed
		}
		ss.user = u
		ss.UserSession = imapmemserver.NewUserSession(u.acc.User)
		return nil
	})
}

// AppendLimit makes imapserver refuse a larger APPEND before reading it.
func (ss *session) AppendLimit() uint32 {
	return uint32(min(ss.s.opts.MaxMessageBytes, math.MaxUint32))
}

// Idle fixes a gap in imapmemserver's IDLE: it reports only updates queued
// after IDLE began, so a message delivered between the client's last
// command and its IDLE would wait for the next delivery. This IDLE flushes
// pending updates first and re-checks every idleRecheck.
func (ss *session) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	for {
		if err := ss.Poll(w, true); err != nil {
			return err
		}
		round := make(chan struct{})
		t := time.AfterFunc(idleRecheck, func() { close(round) })
		inner := make(chan struct{})
		go func() {
			select {
			case <-stop:
			case <-round:
			}
			close(inner)
		}()
		err := ss.UserSession.Idle(w, inner)
		t.Stop()
		if err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		default:
		}
	}
}

const idleRecheck = 250 * time.Millisecond

// journalSession is a session whose every change to the mailboxes is
// kept within the quota (see quota.go) and, with Options.Dir, journaled
// (see journal.go) before the command is answered. Changes run one at a
// time under Server.changeMu, so the journal's order is the order in
// which imapmemserver numbered things.
type journalSession struct{ *session }

var _ imapserver.SessionIMAP4rev2 = journalSession{}

func (js journalSession) record(op, mailbox string) *record {
	return &record{Op: op, User: js.user.name, Mailbox: mailbox}
}

func (js journalSession) Create(name string, options *imap.CreateOptions) error {
	return imapQuotaError(js.s.change(func() (*record, error) {
		if err := js.s.roomLocked(js.user.acc, entryBytes); err != nil {
			return nil, err
		}
		if err := js.UserSession.Create(name, options); err != nil {
			return nil, err
		}
		js.user.acc.added(name)
		return js.record(opCreate, name), nil
	}))
}

func (js journalSession) Delete(name string) error {
	return js.s.change(func() (*record, error) {
		if err := js.UserSession.Delete(name); err != nil {
			return nil, err
		}
		return js.record(opDelete, name), nil
	})
}

func (js journalSession) Rename(name, newName string, options *imap.RenameOptions) error {
	return js.s.change(func() (*record, error) {
		if err := js.UserSession.Rename(name, newName, options); err != nil {
			return nil, err
		}
		js.user.acc.added(newName)
		rec := js.record(opRename, name)
		rec.To = newName
		return rec, nil
	})
}

func (js journalSession) Subscribe(name string) error {
	return js.s.change(func() (*record, error) {
		if err := js.UserSession.Subscribe(name); err != nil {
			return nil, err
		}
		return js.record(opSubscribe, name), nil
	})
}

func (js journalSession) Unsubscribe(name string) error {
	return js.s.change(func() (*record, error) {
		if err := js.UserSession.Unsubscribe(name); err != nil {
			return nil, err
		}
		return js.record(opUnsubscribe, name), nil
	})
}

func (js journalSession) Append(mailbox string, r imap.LiteralReader, options *imap.AppendOptions) (*imap.AppendData, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	var flags []imap.Flag
	var t time.Time
	if options != nil {
		flags, t = options.Flags, options.Time
	}
	data, err := js.s.appendMessage(js.user, mailbox, raw, flags, t)
	return data, imapQuotaError(err)
}

// selected is the selected mailbox's name now (another client may have
// renamed it).
func (js journalSession) selected() string {
	return js.StatusData(&imap.StatusOptions{}).Mailbox
}

// resolve turns sequence numbers, "*" or "$" into the UIDs of the
// messages they name now, as the command itself would.
func (js journalSession) resolve(numSet imap.NumSet) (imap.UIDSet, []imap.UID, error) {
	var c imap.SearchCriteria
	switch set := numSet.(type) {
	case imap.SeqSet:
		c.SeqNum = []imap.SeqSet{set}
	case imap.UIDSet:
		c.UID = []imap.UIDSet{set}
	}
	return js.search(&c)
}

func (js journalSession) search(c *imap.SearchCriteria) (imap.UIDSet, []imap.UID, error) {
	data, err := js.Search(imapserver.NumKindUID, c, &imap.SearchOptions{})
	if err != nil {
		return nil, nil, err
	}
	set, _ := data.All.(imap.UIDSet)
	uids, _ := set.Nums()
	return set, uids, nil
}

func (js journalSession) Store(w *imapserver.FetchWriter, numSet imap.NumSet, flags *imap.StoreFlags, options *imap.StoreOptions) error {
	var set imap.UIDSet
	err := js.s.change(func() (*record, error) {
		var uids []imap.UID
		var err error
		if set, uids, err = js.resolve(numSet); err != nil || len(uids) == 0 {
			return nil, err
		}
		// Silent: the answer is written below, out of the lock.
		silent := *flags
		silent.Silent = true
		if err := js.UserSession.Store(w, set, &silent, options); err != nil {
			return nil, err
		}
		rec := js.record(opStore, js.selected())
		rec.UIDs, rec.Store, rec.Flags = uids, storeOpName(flags.Op), flags.Flags
		return rec, nil
	})
	if err != nil || flags.Silent || len(set) == 0 {
		return err
	}
	return js.UserSession.Fetch(w, set, &imap.FetchOptions{Flags: true})
}

// Fetch of a body without PEEK sets \Seen: that is journaled as a STORE
// first, then the messages are fetched with PEEK and their FLAGS.
func (js journalSession) Fetch(w *imapserver.FetchWriter, numSet imap.NumSet, options *imap.FetchOptions) error {
	markSeen := false
	for _, bs := range options.BodySection {
		markSeen = markSeen || !bs.Peek
	}
	if !markSeen {
		return js.UserSession.Fetch(w, numSet, options)
	}
	var set imap.UIDSet
	err := js.s.change(func() (*record, error) {
		var uids []imap.UID
		var err error
		if set, uids, err = js.resolve(numSet); err != nil || len(uids) == 0 {
			return nil, err
		}
		seen := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen}}
		if err := js.UserSession.Store(w, set, seen, nil); err != nil {
			return nil, err
		}
		rec := js.record(opStore, js.selected())
		rec.UIDs, rec.Store, rec.Flags = uids, storeOpName(seen.Op), seen.Flags
		return rec, nil
	})
	if err != nil || len(set) == 0 {
		return err
	}
	for _, bs := range options.BodySection {
		bs.Peek = true // in place: the writer names sections by pointer
	}
	options.Flags = true
	return js.UserSession.Fetch(w, set, options)
}

// Copy keeps the quota by taking the copies back: the messages' sizes
// are known only to imapmemserver, which counts them once copied.
func (js journalSession) Copy(numSet imap.NumSet, dest string) (*imap.CopyData, error) {
	var data *imap.CopyData
	err := js.s.change(func() (*record, error) {
		set, uids, err := js.resolve(numSet)
		if err != nil {
			return nil, err
		}
		if data, err = js.UserSession.Copy(set, dest); err != nil || len(uids) == 0 {
			return nil, err
		}
		rec := js.record(opCopy, js.selected())
		rec.UIDs, rec.To = uids, dest
		if err := js.s.roomLocked(js.user.acc, 0); err == nil {
			return rec, nil
		}
		if err := js.s.writeLocked(rec); err != nil {
			return nil, err
		}
		copies, _ := data.DestUIDs.Nums()
		return nil, js.s.dropLocked(js.user, dest, copies)
	})
	return data, imapQuotaError(err)
}

// dropLocked expunges the messages uids of a user's mailbox, as a client
// would (\Deleted, then UID EXPUNGE), journals that, and returns
// ErrOverQuota: it takes back a COPY that went over the quota.
func (s *Server) dropLocked(u *user, mailbox string, uids []imap.UID) error {
	for _, op := range []string{opStore, opExpunge} {
		rec := &record{Op: op, User: u.name, Mailbox: mailbox, UIDs: uids}
		if op == opStore {
			rec.Store, rec.Flags = storeOpName(imap.StoreFlagsAdd), []imap.Flag{imap.FlagDeleted}
		}
		if err := replaySelected(u.acc.User, rec); err != nil {
			return err
		}
		if err := s.writeLocked(rec); err != nil {
			return err
		}
	}
	return fmt.Errorf("%w: the copies were taken back", ErrOverQuota)
}

func (js journalSession) Move(w *imapserver.MoveWriter, numSet imap.NumSet, dest string) error {
	return js.s.change(func() (*record, error) {
		set, uids, err := js.resolve(numSet)
		if err != nil {
			return nil, err
		}
		source := js.selected()
		moveErr := js.UserSession.Move(w, set, dest)
		// The messages moved unless they are still here: MOVE may fail
		// before (no such mailbox) or after (writing the answer).
		_, left, err := js.resolve(set)
		if err != nil {
			return nil, err
		}
		if len(uids) == 0 || len(left) > 0 {
			return nil, moveErr
		}
		rec := js.record(opMove, source)
		rec.UIDs, rec.To = uids, dest
		return rec, moveErr
	})
}

func (js journalSession) Expunge(w *imapserver.ExpungeWriter, uids *imap.UIDSet) error {
	return js.s.change(func() (*record, error) {
		c := imap.SearchCriteria{Flag: []imap.Flag{imap.FlagDeleted}}
		if uids != nil {
			c.UID = []imap.UIDSet{*uids}
		}
		set, deleted, err := js.search(&c)
		if err != nil || len(deleted) == 0 {
			return nil, err
		}
		source := js.selected()
		if err := js.UserSession.Expunge(w, &set); err != nil {
			return nil, err
		}
		rec := js.record(opExpunge, source)
		rec.UIDs = deleted
		return rec, nil
	})
}
