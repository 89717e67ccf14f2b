package lexiotest

import (
	"strings"

	"github.com/lexio-mail/lexio/mailer/client"
)

// Responder is a bad out-of-office responder: it answers every mail with
// "Re: <subject>", no Auto-Submitted header, our text quoted or returned
// as it is, In-Reply-To set or not, to the Reply-To address or to From.
type Responder struct {
	Quote, InReplyTo, ToFrom bool
}

// Answer sends the responder's answer to m from name and returns its
// Message-ID.
func (r Responder) Answer(h *Harness, name string, m client.Message) string {
	h.T.Helper()
	to := m.ReplyTo
	if to == "" || r.ToFrom {
		to = m.From
		if i := strings.LastIndexByte(to, '<'); i >= 0 {
			to = strings.Trim(to[i:], "<>")
		}
	}
	body := "I am out of the office until Monday and will read your mail then.\n\n"
	for _, l := range strings.Split(strings.TrimRight(m.Text, "\r\n"), "\n") {
		if r.Quote {
			l = "> " + l
		}
		body += strings.TrimRight(l, "\r") + "\n"
	}
	spec := MailSpec{To: to, Subject: "Re: " + m.Subject, Body: body}
	if r.InReplyTo {
		spec.Headers = []string{"In-Reply-To: <" + m.MessageID + ">", "References: <" + m.MessageID + ">"}
	}
	return h.SendMail(name, spec)
}

// run answers every mail name receives after the first seen, round after
// round, until a round brings nothing new or maxRounds passed; it returns
// how many answers it sent.
func (r Responder) Run(h *Harness, name string, seen, maxRounds int) int {
	h.T.Helper()
	sent := 0
	for range maxRounds {
		h.OutboxEmpty()
		msgs := h.Inbox(name)
		if len(msgs) <= seen {
			return sent
		}
		for _, m := range msgs[seen:] {
			h.Handled(r.Answer(h, name, m))
			sent++
		}
		seen = len(msgs)
	}
	return sent
}
