package table_test

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

// memMail is the in-process mail of a harness, in place of the local mail
// server, the receiver and the dispatcher: the users' INBOXes, delivered
// as the local server delivers (user+tag@domain to user, an unknown user
// or another domain refused), and the service's own INBOX, whose messages
// go to the service's HandleMessage in order, as the receiver hands them
// over.
type memMail struct {
	domain string
	// settling serialises harness.settle.
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

func newMemMail(domain string) *memMail {
	return &memMail{domain: strings.ToLower(domain), boxes: map[string][]memMessage{},
		users: map[string]bool{}, uids: map[string]uint32{}}
}

func (m *memMail) addUser(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.users[strings.ToLower(name)] = true
}

// user maps an envelope address to its user, ignoring a +tag; the error
// is the local server's refusal.
func (m *memMail) user(address string) (string, error) {
	local, ok := localmail.Mailbox(address, m.domain)
	if !ok || !m.users[local] {
		return "", fmt.Errorf("RCPT TO <%s>: 550 5.1.1 No such user here", address)
	}
	return local, nil
}

// deliver puts raw in the INBOX of each recipient (twice for a user named
// twice), or in none when one of them is refused.
func (m *memMail) deliver(to []string, raw []byte) error {
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
func (m *memMail) next() (mailer.Inbound, bool) {
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
func (m *memMail) inbox(name string) ([]client.Message, error) {
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

// settle lets the in-process mail flow until it rests: the service
// handles every message of its INBOX, and every outbox row due now is
// delivered and marked sent (or, refused, failed for good) through the
// outbox, as the dispatcher does. The outbox is read when the service
// poked, the clock moved or the last read took rows. It does nothing with
// sockets.
func (h *harness) settle() {
	h.t.Helper()
	if h.mem == nil {
		return
	}
	h.mem.settling.Lock()
	defer h.mem.settling.Unlock()
	took := false // the last read of the outbox took rows: read it again
	for {
		if in, ok := h.mem.next(); ok {
			if in.Size > h.cfg.Mail.MaxMessageBytes {
				// The receiver would hand over the header only.
				h.t.Fatalf("a message of %d bytes is over max_message_bytes: in-process mail does not truncate, the test needs sockets", in.Size)
			}
			if err := h.front.HandleMessage(h.ctx, in); err != nil {
				// The receiver would try again later.
				h.t.Fatalf("HandleMessage: %v (a temporary error: the test needs sockets)", err)
			}
			continue
		}
		now := h.clock.Now()
		if !h.mem.poked.Swap(false) && !took && now.Equal(h.mem.checked) {
			return
		}
		if took = h.dispatch() > 0; !took {
			h.mem.checked = now
			return
		}
	}
}

// dispatch takes the outbox rows due now, delivers them and records it;
// it returns how many rows it took.
func (h *harness) dispatch() int {
	h.t.Helper()
	ob := outbox.New(h.store)
	now := h.clock.Now()
	rows, err := ob.Due(h.ctx, now, 100)
	if err != nil {
		h.t.Fatal(err)
	}
	if len(rows) == 0 {
		return 0
	}
	tries := make([]outbox.Try, len(rows))
	for i, r := range rows {
		tries[i] = outbox.Try{ID: r.ID, Attempt: r.Attempts + 1, Next: now.Add(mailer.DefaultBackoffBase)}
	}
	if err := ob.Attempt(h.ctx, tries); err != nil {
		h.t.Fatal(err)
	}
	var sent []int64
	refused := map[int64]error{}
	for _, r := range rows {
		if err := h.mem.deliver(r.To, r.Raw); err != nil {
			refused[r.ID] = err
			continue
		}
		sent = append(sent, r.ID)
	}
	if err := ob.Sent(h.ctx, sent, now); err != nil {
		h.t.Fatal(err)
	}
	for _, r := range rows {
		if err := refused[r.ID]; err != nil {
			if err := ob.Failed(h.ctx, r.ID, now, err.Error(), true); err != nil {
				h.t.Fatal(err)
			}
		}
	}
	return len(rows)
}

// tick runs the scheduler at at, and lets its mail flow.
func (h *harness) tick(at time.Time) int {
	h.t.Helper()
	n, err := h.runTick(at)
	if err != nil {
		h.t.Fatal(err)
	}
	h.settle()
	return n
}
