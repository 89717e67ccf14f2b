package lexiotest

import (
	"strings"

	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// The invitation tests run on a mail domain with a dot: the parser
// refuses an invitee's address without one (bob@localhost).
const InviteDomain = "lexio.test"

const OpenTablesConfig = "[open_tables]\nallow = true\nleague = \"main\"\n"

// Open sends NEW from who and returns the new table's name.
func (h *Harness) Open(who, command string) string {
	h.T.Helper()
	rec := h.Expect(h.SendMail(who, MailSpec{Body: command}), table.OutcomeApplied, "NEW ")
	return strings.TrimPrefix(rec.Reason, "NEW ")
}

// MailOf waits for the outbox to drain and returns name's newest mail of
// kind k about table.
func (h *Harness) MailOf(name, k, table string) client.Message {
	h.T.Helper()
	h.OutboxEmpty()
	var found *client.Message
	h.WaitFor(name+"'s "+k+" of "+table, func() bool {
		msgs := h.Inbox(name)
		for i := len(msgs) - 1; i >= 0; i-- {
			if Kind(msgs[i]) == k && strings.HasPrefix(msgs[i].MessageID, "lexio."+table+".") {
				found = &msgs[i]
				return true
			}
		}
		return false
	})
	return *found
}

// CountOf is how many mails of kind k about table name holds, once the
// outbox is empty.
func (h *Harness) CountOf(name, k, table string) int {
	h.T.Helper()
	h.OutboxEmpty()
	n := 0
	for _, m := range h.Inbox(name) {
		if Kind(m) == k && strings.HasPrefix(m.MessageID, "lexio."+table+".") {
			n++
		}
	}
	return n
}

// AnswerInvite replies to name's invitation to table.
func (h *Harness) AnswerInvite(name, table, command string) string {
	h.T.Helper()
	m := h.MailOf(name, "invitation", table)
	return h.ReplyTo(name, &m, command)
}
