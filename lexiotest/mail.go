package lexiotest

import (
	"fmt"
	"strings"

	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// MailSpec is a message a player's mail client writes; zero fields take
// defaults (From the account's address, To the service, a new Message-ID).
type MailSpec struct {
	From, To, Subject, ID string
	Headers               []string // "Name: value"
	Body                  string
	// NoConfirm leaves a confirmation the message causes unanswered.
	NoConfirm bool
}

// SendMail submits a message through the account's SMTP server and
// returns its Message-ID (without brackets). A message to the plain
// address from the account's own address is followed up as its owner
// would: where the service asks to confirm it (EMAIL §1.7), the account
// answers CONFIRM, and the ID returned is that answer's, the message whose
// record says what was done (unless m.NoConfirm).
func (h *Harness) SendMail(account string, m MailSpec) string {
	h.T.Helper()
	if m.From == "" {
		m.From = account + "@" + h.Domain
	}
	if m.To == "" {
		m.To = "lexio@" + h.Domain
	}
	if m.Subject == "" {
		m.Subject = "lexio"
	}
	if m.ID == "" {
		msgCounter.Lock()
		msgCounter.n++
		m.ID = fmt.Sprintf("mail-%d-%s@localhost", msgCounter.n, account)
		msgCounter.Unlock()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <%s>\n",
		m.From, m.To, m.Subject, h.Clock.Now().Format("Mon, 02 Jan 2006 15:04:05 -0700"), m.ID)
	for _, hd := range m.Headers {
		b.WriteString(hd + "\n")
	}
	if !strings.Contains(strings.ToLower(strings.Join(m.Headers, "\n")), "content-type:") {
		b.WriteString("MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n")
	}
	b.WriteString("\n" + m.Body + "\n")
	h.SendRaw(account, []string{m.To}, b.String())
	if m.NoConfirm || m.To != "lexio@"+h.Domain || m.From != account+"@"+h.Domain {
		return m.ID
	}
	if rec := h.Handled(m.ID); rec.Outcome != table.OutcomePending {
		return m.ID
	}
	return h.Confirm(account, m.ID)
}

// Confirm answers CONFIRM to the confirmation that the message id caused
// in name's mailbox, and returns the answer's Message-ID.
func (h *Harness) Confirm(name, id string) string {
	h.T.Helper()
	c := h.Confirmation(name, id)
	return h.ReplyTo(name, &c, "CONFIRM")
}

// Confirmation waits for the confirmation that the message id caused in
// name's mailbox.
func (h *Harness) Confirmation(name, id string) client.Message {
	h.T.Helper()
	var found client.Message
	h.WaitFor("the confirmation of "+id+" for "+name, func() bool {
		for _, msg := range h.Inbox(name) {
			if Kind(msg) == "confirm" && strings.Trim(msg.InReplyTo, "<>") == id {
				found = msg
				return true
			}
		}
		return false
	})
	return found
}

// Token is name's reply token at table.
func (h *Harness) Token(table, name string) string {
	return h.Tables.Tokens().Token(table, name+"@"+h.Domain)
}

// Fresh sends a new message (no In-Reply-To) to name's reply address at
// table: EMAIL §1.5 takes it as meant for now.
func (h *Harness) Fresh(name, table, body string) string {
	h.T.Helper()
	return h.SendMail(name, MailSpec{To: "lexio+" + h.Token(table, name) + "@" + h.Domain, Body: body})
}

// Expect waits for the message's record and checks its outcome and that
// its reason holds reason.
func (h *Harness) Expect(id string, outcome string, reason string) store.Message {
	h.T.Helper()
	rec := h.Handled(id)
	if rec.Outcome != outcome || !strings.Contains(rec.Reason, reason) {
		h.T.Fatalf("message %s: %s %q, want %s %q", id, rec.Outcome, rec.Reason, outcome, reason)
	}
	return rec
}

// LastOf waits for the outbox to drain and returns name's newest message
// of kind k.
func (h *Harness) LastOf(name, k string) client.Message {
	h.T.Helper()
	h.OutboxEmpty()
	msgs := OfKind(h.Inbox(name), k)
	if len(msgs) == 0 {
		h.T.Fatalf("%s received no %s", name, k)
	}
	return msgs[len(msgs)-1]
}

// Answer waits for name's answer to the message id (its In-Reply-To).
func (h *Harness) Answer(name, id string) client.Message {
	h.T.Helper()
	var a client.Message
	h.WaitFor(name+"'s answer to "+id, func() bool {
		for _, m := range h.Inbox(name) {
			if strings.Trim(m.InReplyTo, "<>") == id {
				a = m
				return true
			}
		}
		return false
	})
	return a
}

// LatestAt is name's newest mail of table, to reply to.
func (h *Harness) LatestAt(name, table string) *client.Message {
	h.T.Helper()
	h.OutboxEmpty()
	msgs := h.Inbox(name)
	for i := len(msgs) - 1; i >= 0; i-- {
		if strings.HasPrefix(msgs[i].MessageID, "lexio."+table+".") {
			return &msgs[i]
		}
	}
	h.T.Fatalf("%s has no mail of %s", name, table)
	return nil
}

// Command sends a command from name through table's reply address and
// checks its outcome.
func (h *Harness) Command(name, table, cmd string, outcome string, reason string) {
	h.T.Helper()
	h.Expect(h.ReplyTo(name, h.LatestAt(name, table), cmd), outcome, reason)
}

// LatestOf is the newest message of a table's that can be replied to.
func LatestOf(msgs []client.Message, name string) *client.Message {
	var mine []client.Message
	for _, m := range msgs {
		if strings.HasPrefix(m.MessageID, "lexio."+name+".") {
			mine = append(mine, m)
		}
	}
	return LatestNotice(mine)
}

// AnswerAt has a player answer their latest notice of a table with a command.
func (h *Harness) AnswerAt(name, who, command string) {
	h.T.Helper()
	h.OutboxEmpty()
	m := LatestOf(h.Inbox(who), name)
	if m == nil {
		h.T.Fatalf("%s has no notice of %s", who, name)
	}
	h.Expect(h.ReplyTo(who, m, command), table.OutcomeApplied, "")
	h.OutboxEmpty()
}

// NoticeAt is name's latest notice of table.
func (h *Harness) NoticeAt(name, table string) *client.Message {
	h.T.Helper()
	var at []client.Message
	for _, m := range h.Inbox(name) {
		if strings.HasPrefix(m.MessageID, "lexio."+table+".") {
			at = append(at, m)
		}
	}
	m := LatestNotice(at)
	if m == nil {
		h.T.Fatalf("%s has no notice of %s", name, table)
	}
	return m
}
