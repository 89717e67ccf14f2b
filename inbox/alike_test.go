package inbox_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/table"
)

// TestRefusalsAlike: JOIN and NOTIFY answer a table that is none and one
// the sender may not use alike (LEAGUES §5, §6), so that a stranger cannot
// probe which tables exist: JOIN a table that does not exist, has begun,
// seats only its invitees or is full; NOTIFY a table that does not exist
// or where the sender has no seat. Each answer has the same reason and
// text but for the table's name, and each counts as an error reply (a
// refusal answered past the hour's bound would tell one from another).
// The record keeps the true reason for the operator.
func TestRefusalsAlike(t *testing.T) {
	t.Parallel()
	h := lexiotest.New(t, lexiotest.Options{Config: "[open_tables]\nallow = true\nleague = \"main\"\n", Mail: "error_replies_per_hour = 6"})
	open := func(who, command string) string {
		t.Helper()
		rec := h.Expect(h.SendMail(who, lexiotest.MailSpec{Body: command}), table.OutcomeApplied, "NEW ")
		return strings.TrimPrefix(rec.Reason, "NEW ")
	}
	started := open("alice", "NEW")
	h.Expect(h.SendMail("bob", lexiotest.MailSpec{Body: "JOIN " + started}), table.OutcomeApplied, "JOIN")
	h.Expect(h.SendMail("alice", lexiotest.MailSpec{Body: "START"}), table.OutcomeApplied, "START")
	full := open("dave", "NEW")
	for _, p := range []string{"alice", "bob", "carol"} {
		h.Expect(h.SendMail(p, lexiotest.MailSpec{Body: "JOIN " + full}), table.OutcomeApplied, "JOIN")
	}
	private := open("carol", "NEW lexio alice@"+h.Domain)
	const none = "t999"

	type refusal struct{ from, command, table, why string }
	groups := []struct {
		shown string
		cases []refusal
	}{
		{"no-table-to-join", []refusal{
			{"eve", "JOIN", none, "no-such-table"},
			{"eve", "JOIN", started, "already-started"},
			{"eve", "JOIN", private, "not-invited"},
			{"eve", "JOIN", full, "table-full"},
		}},
		{"not-at-table", []refusal{
			{"eve", "NOTIFY all", none, "no-such-table"},
			{"eve", "NOTIFY all", started, "not-a-player"},
		}},
		{"not-at-table", []refusal{ // from a player at another table
			{"dave", "NOTIFY turn", none, "no-such-table"},
			{"dave", "NOTIFY turn", started, "not-a-player"},
			{"dave", "NOTIFY turn", private, "not-a-player"},
		}},
	}
	for _, g := range groups {
		var first *client.Message
		for _, c := range g.cases {
			id := h.SendMail(c.from, lexiotest.MailSpec{Body: c.command + " " + c.table})
			if rec := h.Expect(id, table.OutcomeRejected, c.why); !strings.Contains(rec.Reason, "answered "+g.shown) {
				t.Errorf("%s %s: recorded %q, want %s answered %s", c.command, c.table, rec.Reason, c.why, g.shown)
			}
			a := h.Answer(c.from, id)
			if first == nil {
				first = &a
				lexiotest.MustContain(t, c.command+" "+c.table, a.Text, c.table)
				continue
			}
			for _, part := range []struct{ what, a, b string }{
				{"subject", a.Subject, first.Subject}, {"text", a.Text, first.Text}, {"html", a.HTML, first.HTML},
				{"reply address", a.ReplyTo, first.ReplyTo},
			} {
				if got, want := unnamed(part.a, c.table), unnamed(part.b, g.cases[0].table); got != want {
					t.Errorf("%s %s (%s) and %s %s differ in their %s:\n%s\n----\n%s",
						c.command, c.table, c.why, g.cases[0].command, g.cases[0].table, part.what, got, want)
				}
			}
		}
	}
	// Eve's six error replies are spent: no refusal of hers is answered
	// now, the invitation-only table's no more than the others.
	// (Each JOIN is confirmed first: that mail quotes the command alone,
	// the same whatever the table.)
	n := len(lexiotest.OfKind(h.Inbox("eve"), "rejected"))
	for _, name := range []string{none, private, full} {
		h.Expect(h.SendMail("eve", lexiotest.MailSpec{Body: "JOIN " + name}), table.OutcomeRejected, "")
	}
	h.OutboxEmpty()
	if got := len(lexiotest.OfKind(h.Inbox("eve"), "rejected")); got != n {
		t.Errorf("past the bound eve got %d more refusals", got-n)
	}
}

// unnamed is s with the table's name, as a word, written NAME, and its
// blanks as one space (a longer name wraps a line elsewhere).
func unnamed(s, table string) string {
	s = regexp.MustCompile(`\b`+regexp.QuoteMeta(table)+`\b`).ReplaceAllString(s, "NAME")
	return strings.Join(strings.Fields(s), " ")
}
