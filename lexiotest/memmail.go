package lexiotest

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/store/outbox"
)

// MemMail is the in-process mail of a harness, in place of the local mail
// server, the receiver and the dispatcher: the users' INBOXes, delivered
// as the local server delivers (user+tag@domain to user, an unknown user
// or another domain refused), and the service's own INBOX, whose messages
// go to the service's HandleMessage in order, as the receiver hands them
// over.
type MemMail struct {
	domain string
	// settling serialises Harness.Settle.
	settling sync.Mutex
	// poked is set by the service's Poke, after a commit that wrote mail;
	// checked is the clock's time when the outbox was last found with
	// nothing due. The outbox is read again only when either changed.
	poked   atomic.Bool
	checked time.Time

	mu    sync.Mutex
	boxes map[string][]memMessage // by user
	users map[string]bool
	// uids counts the UIDs given in each user's INBOX; those of the
	// service's INBOX (under memUIDValidity) go to HandleMessage, as the
	// receiver passes them.
	uids map[string]uint32
	// pending are the messages of the service's INBOX not yet handed
	// over.
	pending []mailer.Inbound
}

// memMessage is a message of a user's INBOX, read as client.Fetch reads
// it.
type memMessage struct {
	msg client.Message
	err error // client.Read's
}

// memService is the user whose INBOX the service reads.
const memService = "lexio"

// memUIDValidity is the UIDVALIDITY of the in-process service's INBOX.
const memUIDValidity = 1

func newMemMail(domain string) *MemMail {
	return &MemMail{domain: strings.ToLower(domain), boxes: map[string][]memMessage{},
		users: map[string]bool{}, uids: map[string]uint32{}}
}

func (m *MemMail) addUser(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.users[strings.ToLower(name)] = true
}

// user maps an envelope address to its user, ignoring a +tag; the error
// is the local server's refusal.
func (m *MemMail) user(address string) (string, error) {
	local, ok := localmail.Mailbox(address, m.domain)
	if !ok || !m.users[local] {
		return "", fmt.Errorf("RCPT TO <%s>: 550 5.1.1 No such user here", address)
	}
	return local, nil
}

// deliver puts raw in the INBOX of each recipient (twice for a user named
// twice), or in none when one of them is refused.
func (m *MemMail) deliver(to []string, raw []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	users := make([]string, len(to))
	for i, a := range to {
		u, err := m.user(a)
		if err != nil {
			return err
		}
		users[i] = u
	}
	for _, u := range users {
		m.uids[u]++
		uid := m.uids[u]
		if u == memService {
			m.pending = append(m.pending, mailer.Inbound{UIDValidity: memUIDValidity, UID: uid,
				Raw: raw, Mailbox: "INBOX", Size: int64(len(raw))})
			continue
		}
		var mm memMessage
		msg, err := client.Read(raw)
		if err == nil {
			mm.msg = *msg
			mm.msg.UID = uid
		}
		mm.err = err
		m.boxes[u] = append(m.boxes[u], mm)
	}
	return nil
}

// next takes the oldest message of the service's INBOX.
func (m *MemMail) next() (mailer.Inbound, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.pending) == 0 {
		return mailer.Inbound{}, false
	}
	in := m.pending[0]
	m.pending = m.pending[1:]
	return in, true
}

// inbox is a copy of a user's INBOX, oldest first.
func (m *MemMail) inbox(name string) ([]client.Message, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := strings.ToLower(name)
	if !m.users[u] {
		return nil, fmt.Errorf("no mailbox %q", name)
	}
	out := make([]client.Message, len(m.boxes[u]))
	for i, mm := range m.boxes[u] {
		if mm.err != nil {
			return nil, mm.err
		}
		out[i] = mm.msg
	}
	return out, nil
}

// Settle lets the in-process mail flow until it rests: the service
// handles every message of its INBOX, and every outbox row due now is
// delivered and marked sent (or, refused, failed for good) through the
// outbox, as the dispatcher does. The outbox is read when the service
// poked, the clock moved or the last read took rows. It does nothing with
// sockets.
func (h *Harness) Settle() {
	h.T.Helper()
	if h.Mem == nil {
		return
	}
	h.Mem.settling.Lock()
	defer h.Mem.settling.Unlock()
	took := false // the last read of the outbox took rows: read it again
	for {
		if in, ok := h.Mem.next(); ok {
			if in.Size > h.Cfg.Mail.MaxMessageBytes {
				// The receiver would hand over the header only.
				h.T.Fatalf("a message of %d bytes is over max_message_bytes: in-process mail does not truncate, the test needs sockets", in.Size)
			}
			if err := h.Parts.Inbox.HandleMessage(h.Ctx, in); err != nil {
				// The receiver would try again later.
				h.T.Fatalf("HandleMessage: %v (a temporary error: the test needs sockets)", err)
			}
			continue
		}
		now := h.Clock.Now()
		if !h.Mem.poked.Swap(false) && !took && now.Equal(h.Mem.checked) {
			return
		}
		if took = h.dispatch() > 0; !took {
			h.Mem.checked = now
			return
		}
	}
}

// dispatch takes the outbox rows due now, delivers them and records it;
// it returns how many rows it took.
func (h *Harness) dispatch() int {
	h.T.Helper()
	ob := outbox.New(h.Store)
	now := h.Clock.Now()
	rows, err := ob.Due(h.Ctx, now, 100)
	if err != nil {
		h.T.Fatal(err)
	}
	if len(rows) == 0 {
		return 0
	}
	tries := make([]outbox.Try, len(rows))
	for i, r := range rows {
		tries[i] = outbox.Try{ID: r.ID, Attempt: r.Attempts + 1, Next: now.Add(mailer.DefaultBackoffBase)}
	}
	if err := ob.Attempt(h.Ctx, tries); err != nil {
		h.T.Fatal(err)
	}
	var sent []int64
	refused := map[int64]error{}
	for _, r := range rows {
		if err := h.Mem.deliver(r.To, r.Raw); err != nil {
			refused[r.ID] = err
			continue
		}
		sent = append(sent, r.ID)
	}
	if err := ob.Sent(h.Ctx, sent, now); err != nil {
		h.T.Fatal(err)
	}
	for _, r := range rows {
		if err := refused[r.ID]; err != nil {
			if err := ob.Failed(h.Ctx, r.ID, now, err.Error(), true); err != nil {
				h.T.Fatal(err)
			}
		}
	}
	return len(rows)
}

// Tick runs the scheduler at at, and lets its mail flow.
func (h *Harness) Tick(at time.Time) int {
	h.T.Helper()
	n, err := h.RunTick(at)
	if err != nil {
		h.T.Fatal(err)
	}
	h.Settle()
	return n
}
