package templates

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/parser"
)

// loopCases are the messages TestNothingComesBackAsACommand sends back:
// every kind's golden data, the author's variants, and data that puts
// command words where a name or a command goes.
//
// The cases that sweep a name's length exist for the text part's wrapped
// lines; an HTML part is read back by blocks, whatever the lengths, so
// only the shortest of each sweep is read back as HTML (textOnly).
func loopCases() (cases map[string]Mail, textOnly map[string]bool) {
	cases, textOnly = authorSamples(), map[string]bool{}
	for _, k := range Kinds() {
		cases[k.String()] = sample(k)
	}
	add := func(name string, m Mail) { cases[name] = m }
	sweep := func(n int, name string, m Mail) {
		cases[name] = m
		textOnly[name] = n > 1
	}
	tagged := sample(BoardReply).(BoardMsg)
	tagged.Tag = "[Lexio t42 t42-Zx9Qk2]"
	add("board-reply-token-tag", tagged)
	// The web side's links (EMAIL §7.1) end a notice: a URL line reads as
	// no command.
	linked := sample(TurnNotice).(NoticeMsg)
	linked.View, linked.Watch = "https://lexio.example.org/t/t42/p/7/abcdefghijklmnopqrstuvwxyz", "https://lexio.example.org/t/t42/s/abcdefghijklmnopqrstuvwxyz"
	add("turn-notice-web-links", linked)
	for _, name := range []string{"New", "Play", "Pass", "Board", "Join"} {
		add("table-joined-"+name, JoinedMsg{Head: sampleHead("Bob"), Player: name, Players: []string{"Bob", name}, Max: 4})
	}
	add("table-joined-you", JoinedMsg{Head: sampleHead("Bob"), Player: "Bob", You: true, Players: []string{"Alice", "Bob"}, Max: 4})
	// Invitations (LEAGUES §6), every branch of their sentences.
	add("table-opened-invited", OpenedMsg{Head: sampleHead("Alice"), Variant: "lexio", MinPlayers: 2, MaxPlayers: 4,
		Invited: []string{"Bob", "Join"}, Expires: sampleNow.Add(48 * time.Hour)})
	// A rematch (LEAGUES §6.2): table names of every length move where
	// its sentences wrap.
	for n := 1; n <= 32; n++ {
		old := "t" + strings.Repeat("x", n-1)
		sweep(n, "table-opened-rematch-"+old, OpenedMsg{Head: sampleHead("Alice"), Variant: "lexico", MinPlayers: 2, MaxPlayers: 2,
			Invited: []string{"Join"}, Expires: sampleNow.Add(48 * time.Hour), RematchOf: old, NotInvited: []string{"Pass", "Board"}})
		sweep(n, "table-opened-rematch-bots-"+old, OpenedMsg{Head: sampleHead("Alice"), Variant: "lexio", MinPlayers: 2, MaxPlayers: 4,
			RematchOf: old, NotInvited: []string{"Join"}})
		sweep(n, "invitation-rematch-"+old, InvitationMsg{Head: sampleHead("Bob"), Opener: "alice@example.org", Variant: "lexio",
			Invited: []string{"Bob", "Start"}, Expires: sampleNow.Add(time.Hour), RematchOf: old})
		sweep(n, "rejected-rematch-exists-"+old, RejectedMsg{Head: sampleHead("Bob"), Command: "REMATCH t42",
			Reasons: []Reason{{Kind: ReasonRematchExists, Detail: old}}})
	}
	add("table-joined-invited", JoinedMsg{Head: sampleHead("Bob"), Player: "Bob", You: true, Players: []string{"Alice", "Bob"}, Max: 4,
		Invited: []string{"Pass"}})
	add("table-joined-starts", JoinedMsg{Head: sampleHead("Alice"), Player: "Bob", Players: []string{"Alice", "Bob"}, Max: 2, Starts: true})
	for _, name := range []string{"New", "Join", "Decline", "Start"} {
		add("invitation-"+name, InvitationMsg{Head: sampleHead("Bob"), Opener: name, Variant: "lexico",
			Invited: []string{"Bob"}, Expires: sampleNow.Add(time.Hour)})
		add("withdrawn-"+name, WithdrawnMsg{Head: sampleHead("Bob"), Opener: name})
		add("declined-"+name, DeclinedMsg{Head: sampleHead("Bob"), Opener: name})
		add("answer-declined-starts-"+name, InviteAnswerMsg{Head: sampleHead("Alice"), Declined: name,
			Seated: []string{"Alice", "Bob"}, Starts: true})
	}
	add("answer-expired-closed", InviteAnswerMsg{Head: sampleHead("Alice"), Expired: []string{"Bob", "Élodie"},
		At: sampleNow.Add(-time.Hour), Seated: []string{"Alice"}, Closed: true})
	add("answer-expired-waiting", InviteAnswerMsg{Head: sampleHead("Alice"), Expired: []string{"Bob"},
		At: sampleNow.Add(-time.Hour), Waiting: []string{"Élodie"}, Seated: []string{"Alice"}})
	add("games-none", GamesMsg{Head: Head{To: "Bob", Now: sampleNow}})
	add("resign-tables-none", ResignTablesMsg{Head: Head{To: "Bob", Now: sampleNow}})
	for _, c := range []string{"BOARD", "PASS", "LANG fr", "JOIN t42", "NEW", "EXCHANGE 1 4 7"} {
		add("rejected-"+c, RejectedMsg{Head: sampleHead("Bob"), Command: c, Reasons: []Reason{{Kind: ReasonNotYourTurn, Detail: "Alice"}}})
	}
	// SAY passes on what a player wrote, commands included: quoted, it
	// never comes back as the recipient's.
	for i, text := range []string{"PASS", "PLACE H7 ACROSS CHAT", "resign t42\nNOTIFY turn", "hi\n\nEXCHANGE ALL", strings.Repeat("word ", 40) + "PASS PASS"} {
		add(fmt.Sprintf("said-%d", i), SaidMsg{Head: sampleHead("Bob"), From: "Alice", Text: text})
	}
	// The author of a SAY is shown their line as the others got it,
	// commands included: quoted too.
	for i, text := range []string{"PASS", "PLACE H7 ACROSS CHAT", strings.Repeat("word ", 40) + "PASS PASS", strings.Repeat("x", 61) + " RESIGN t42"} {
		add(fmt.Sprintf("say-passed-%d", i), SayPassedMsg{Head: sampleHead("Bob"), Text: text})
	}
	// NOTE shows a player their own words, commands included: quoted
	// too, in the notice and in the confirmation, wherever a line wraps.
	for i, text := range []string{"PASS", "PLACE H7 ACROSS CHAT", "NOTE t42 OFF", strings.Repeat("word ", 40) + "PASS PASS", strings.Repeat("x", 61) + " RESIGN t42"} {
		n := sample(TurnNotice).(NoticeMsg)
		n.Note = text
		add(fmt.Sprintf("turn-notice-note-%d", i), n)
		add(fmt.Sprintf("note-set-%d", i), NoteMsg{Head: sampleHead("Bob"), Text: text, Had: i%2 == 0})
	}
	add("note-removed", NoteMsg{Head: sampleHead("Bob"), Had: true})
	// A confirmation quotes the command it asks about (EMAIL §1.7),
	// whatever the command holds: a confirmation's keyword, in every
	// language, where the lines would wrap (#35).
	x := strings.Repeat("x", 80)
	for _, kw := range []string{"CONFIRM", "YES", "CONFIRMAR", "SÍ", "CONFIRMER", "OUI"} {
		add("confirm-say-"+kw, ConfirmMsg{Head: sampleHead("Bob"), Command: "SAY " + x + " " + kw + " " + x, Expires: sampleNow.Add(24 * time.Hour)})
	}
	for n := 1; n <= 32; n++ {
		sweep(n, fmt.Sprintf("confirm-say-%d", n), ConfirmMsg{Head: sampleHead("Bob"),
			Command: "SAY " + strings.Repeat("w ", n) + "CONFIRM", Expires: sampleNow.Add(24 * time.Hour)})
	}
	// A refusal quotes the sender's own words, the command it refuses
	// or a reason's (a confirmation's stored command, arguments it could
	// not read), whatever they hold, wherever the lines would wrap (#35).
	for _, rk := range quotingReasons {
		for _, kw := range []string{"CONFIRM", "OUI", "PASS"} {
			forged := "SAY " + x + " " + kw + " " + x
			add("rejected-quote-"+string(rk)+"-"+kw, RejectedMsg{Head: sampleHead("Bob"), Command: forged,
				Reasons: []Reason{{Kind: rk, Detail: forged}}})
		}
		for n := 1; n <= 32; n++ {
			forged := "SAY " + strings.Repeat("w ", n) + "CONFIRM"
			sweep(n, fmt.Sprintf("rejected-quote-%s-%d", rk, n), RejectedMsg{Head: sampleHead("Bob"), Command: forged,
				Reasons: []Reason{{Kind: ReasonNotYourTurn, Detail: "Alice"}, {Kind: rk, Detail: forged}}})
		}
	}
	for _, name := range []string{"Pass", "Board"} {
		add("said-from-"+name, SaidMsg{Head: sampleHead("Bob"), From: name, Text: "hello"})
	}
	// Names of every length move where the lines wrap: a keyword quoted
	// never starts a line on its own.
	for n := 1; n <= 32; n++ {
		table := "t" + strings.Repeat("x", n-1)
		h := Head{To: "Bob", Table: table, Now: sampleNow, TZ: sampleTZ}
		sweep(n, "said-at-"+table, SaidMsg{Head: h, From: "Alice", Text: "hello"})
		sweep(n, "notify-turn-at-"+table, NotifyMsg{Head: h, Mode: "digest", For: table, Unsubscribed: true, Digest: sampleNow})
	}
	for _, mode := range []string{"all", "turn", "digest"} {
		add("notify-"+mode+"-t42", NotifyMsg{Head: sampleHead("Bob"), Mode: mode, For: "t42", Unsubscribed: true, Digest: sampleNow})
		add("notify-"+mode, NotifyMsg{Head: sampleHead("Bob"), Mode: mode, Digest: sampleNow})
	}
	// The league mails (LEAGUES §7–§9): league names of every length move
	// where the lines wrap, so that a quoted command never starts one;
	// players named as commands head no line of the standings.
	for n := 1; n <= 32; n++ {
		league := "l" + strings.Repeat("x", n-1)
		h := Head{To: "Bob", Now: sampleNow, TZ: sampleTZ}
		st := sampleStandings()
		st.League, st.Division = league, "d"+strings.Repeat("y", n-1)
		sweep(n, "standings-weekly-"+league, StandingsMsg{Head: h, Standings: st, Weekly: true})
		sweep(n, "signup-"+league, SignupMsg{Head: h, League: league, Running: n % 3})
		sweep(n, "withdraw-"+league, SignupMsg{Head: h, League: league, Withdraw: true, Running: n % 3})
		sweep(n, "which-league-"+league, RejectedMsg{Head: h, Command: "STANDINGS", Reasons: []Reason{{Kind: ReasonWhichLeague, Detail: league + ", spring"}}})
		sweep(n, "not-in-league-"+league, RejectedMsg{Head: h, Command: "WITHDRAW " + league, Reasons: []Reason{{Kind: ReasonNotInLeague, Detail: league}}})
	}
	named := sampleStandings()
	for i, name := range []string{"Pass", "Board", "Standings", "Classement", "Help", "Join"} {
		named.Lines[i].Name = name
	}
	add("standings-named-as-commands", StandingsMsg{Head: sampleHead("Bob"), Standings: named})
	for _, league := range []string{"pass", "board", "standings", "help"} {
		st := sampleStandings()
		st.League, st.Division = league, league
		add("standings-league-"+league, StandingsMsg{Head: Head{To: "Bob", Now: sampleNow, TZ: sampleTZ}, Standings: st})
		add("signup-league-"+league, SignupMsg{Head: Head{To: "Bob", Now: sampleNow}, League: league})
	}
	add("rejected-which-league-none", RejectedMsg{Head: sampleHead("Bob"), Command: "STANDINGS", Reasons: []Reason{{Kind: ReasonWhichLeague}}})
	add("rejected-not-in-league-none", RejectedMsg{Head: sampleHead("Bob"), Command: "STANDINGS", Reasons: []Reason{{Kind: ReasonNotInLeague}}})
	for _, rk := range ReasonKinds() {
		add("rejected-reason-"+string(rk), RejectedMsg{Head: sampleHead("Bob"), Reasons: []Reason{{
			Kind: rk, Cells: []Pos{pos("H7"), pos("I7")}, Letters: "X?", Words: []string{"CHATX", "XA"},
			Slots: []int{8}, Need: 7, Have: 3, Detail: "t42"}}})
	}
	return cases, textOnly
}

// TestNothingComesBackAsACommand: an auto-responder that answers one of
// our mails with "Re: <our subject>" (our tag kept or dropped) and our
// text or HTML body returned unquoted must not send us a command, nor
// anything the parser takes for an attempt at one (which would be
// answered with a refusal): a reply of ours read back as a command makes
// a mail loop.
func TestNothingComesBackAsACommand(t *testing.T) {
	t.Parallel()
	s := newSet(t)
	for _, lang := range Langs() {
		cases, textOnly := loopCases()
		for name, c := range cases {
			t.Run(lang+"/"+name, func(t *testing.T) {
				r, err := s.Render(lang, c)
				if err != nil {
					t.Fatal(err)
				}
				untagged := strings.TrimSpace(r.Subject[strings.IndexByte(r.Subject, ']')+1:])
				for _, subject := range []string{r.Subject, untagged} {
					checkNoCommand(t, "subject "+subject, "Re: "+subject, "text/plain", "")
				}
				away := "I am out of the office until Monday.\r\n\r\n"
				checkNoCommand(t, "text body", "Re: away", "text/plain", away+r.Text)
				checkNoCommand(t, "text body alone", "Re: away", "text/plain", r.Text)
				if !textOnly[name] {
					checkNoCommand(t, "HTML body", "Re: away", "text/html", r.HTML)
				}
			})
		}
	}
}

func checkNoCommand(t *testing.T, what, subject, contentType, body string) {
	t.Helper()
	raw := "From: Bob <bob@example.org>\r\nTo: lexio+t42-abc@example.org\r\nSubject: " + subject +
		"\r\nMessage-ID: <away-1@example.org>\r\nContent-Type: " + contentType + "; charset=utf-8\r\n\r\n" + body
	m := parser.Parse([]byte(raw), parser.Options{ServiceAddress: "lexio@example.org"})
	var pe *parser.Error
	if m.Command != nil || !errors.As(m.Err, &pe) || pe.Kind != parser.NoCommand {
		t.Errorf("%s comes back as %q (error %v, from the %s)", what, m.Command.String(), m.Err, m.CommandSource)
	}
}
