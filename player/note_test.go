package player_test

import (
	"html"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/lexiotest"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// seatNote is the note of name's seat at table tableName, as stored.
func seatNote(h *lexiotest.Harness, tableName, name string) string {
	h.T.Helper()
	var note string
	err := h.Store.View(h.Ctx, func(tx *store.Tx) error {
		row, err := tx.TableByName(tableName)
		if err != nil {
			return err
		}
		seats, err := tx.Seats(row.ID)
		for _, st := range seats {
			if st.Player.Address == name+"@"+h.Domain {
				note = st.Note
			}
		}
		return err
	})
	if err != nil {
		h.T.Fatal(err)
	}
	return note
}

// mustHold checks that text holds each of subs as they are, lines and
// all (lexiotest.MustContain flattens white space).
func mustHold(t *testing.T, what, text string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(text, sub) {
			t.Errorf("%s lacks %q:\n%s", what, sub, text)
		}
	}
}

// afterTurn has the player on move at tableName play (so that the game
// goes on), and returns bob's and alice's notices of that turn.
func afterTurn(h *lexiotest.Harness, tableName string) (bob, alice string) {
	h.T.Helper()
	g := h.Game(tableName)
	who := map[bool]string{true: "bob", false: "alice"}[g.Turn() == 1]
	h.Expect(h.ReplyTo(who, h.NoticeAt(who, tableName), lexiotest.NextCommand(g, false)), table.OutcomeApplied, "")
	h.OutboxEmpty()
	b, a := h.NoticeAt("bob", tableName), h.NoticeAt("alice", tableName)
	return lf(b.Text) + "\n" + html.UnescapeString(b.HTML), lf(a.Text) + "\n" + html.UnescapeString(a.HTML)
}

// TestNote: NOTE keeps one note per player and table, a new one in place
// of the last, OFF removes it; the author's next notices show it, text
// and HTML, quoted, and the other player's never do.
func TestNote(t *testing.T) { lexiotest.EachDriver(t, testNote) }

func testNote(t *testing.T, driver string) {
	h := lexiotest.New(t, lexiotest.Options{Driver: driver})
	bobAt(h, "n1", "alice", true, 11)

	first := "keep the S for the hook at M13 <b>&</b>"
	id := h.Fresh("bob", "n1", "NOTE n1 "+first)
	h.Expect(id, table.OutcomeApplied, "NOTE n1 (")
	a := h.Answer("bob", id)
	if lexiotest.Kind(a) != "note-set" || a.ReplyTo != "lexio+"+h.Token("n1", "bob")+"@"+h.Domain {
		t.Errorf("NOTE answered by %s from %q, want note-set from bob's address at n1", lexiotest.Kind(a), a.ReplyTo)
	}
	mustHold(t, "NOTE's answer", lf(a.Text), "\n> "+first+"\n")
	if rec := h.Handled(id); strings.Contains(rec.Reason, "hook at") {
		t.Errorf("the message's record holds the note: %q", rec.Reason)
	}
	if got := seatNote(h, "n1", "bob"); got != first {
		t.Fatalf("bob's note %q, want %q", got, first)
	}
	bob, alice := afterTurn(h, "n1")
	mustHold(t, "bob's notice", bob, "Your note (you alone see it):\n> "+first+"\n", ">"+first+"</blockquote>")
	lexiotest.MustNotContain(t, "alice's notice", alice, "hook at M13", "Your note")

	// A new note replaces the last.
	second := "Alice holds the Z"
	h.Expect(h.Fresh("bob", "n1", "nota n1 "+second), table.OutcomeApplied, "NOTE n1 (17 characters)")
	if got := seatNote(h, "n1", "bob"); got != second {
		t.Fatalf("bob's note %q, want %q", got, second)
	}
	bob, alice = afterTurn(h, "n1")
	mustHold(t, "bob's notice", bob, "> "+second+"\n")
	lexiotest.MustNotContain(t, "bob's notice", bob, "hook at M13")
	lexiotest.MustNotContain(t, "alice's notice", alice, second)

	// Alice's own note is hers: each sees their own only.
	h.Expect(h.Fresh("alice", "n1", "NOTER n1 Bob garde un joker"), table.OutcomeApplied, "NOTE n1")
	bob, alice = afterTurn(h, "n1")
	mustHold(t, "alice's notice", alice, "> Bob garde un joker\n")
	lexiotest.MustNotContain(t, "alice's notice", alice, second)
	lexiotest.MustNotContain(t, "bob's notice", bob, "joker")

	// OFF removes it; OFF again removes nothing, and says so.
	for range 2 {
		id = h.Fresh("bob", "n1", "NOTE n1 OFF")
		h.Expect(id, table.OutcomeApplied, "NOTE n1 OFF")
		if k := lexiotest.Kind(h.Answer("bob", id)); k != "note-set" {
			t.Errorf("NOTE OFF answered by %s", k)
		}
		if got := seatNote(h, "n1", "bob"); got != "" {
			t.Fatalf("bob's note after OFF: %q", got)
		}
	}
	bob, _ = afterTurn(h, "n1")
	lexiotest.MustNotContain(t, "bob's notice after OFF", bob, second, "Your note")
	if seatNote(h, "n1", "alice") != "Bob garde un joker" {
		t.Error("bob's OFF removed alice's note")
	}
}

// TestNoteRefused: a NOTE on a table the sender holds no seat at is
// refused as one on a table that does not exist, so that it tells a
// stranger nothing: through the plain address its first word is no
// table's name, and it names none (#34); through the reply address of
// the sender's own table, it is a note there, and nobody else's changes.
// A note over 500 characters, with a control or format character, or
// without a text is refused with what to write, and the note kept stays
// as it was.
func TestNoteRefused(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	bobAt(h, "n2", "alice", true, 12)
	h.Expect(h.Fresh("bob", "n2", "NOTE n2 mine"), table.OutcomeApplied, "NOTE n2")

	// Carol, through the plain address (then confirmed): no seat at n2,
	// and no table n9 at all; the same answer.
	var answers []string
	for _, name := range []string{"n2", "n9"} {
		id := h.SendMail("carol", lexiotest.MailSpec{Body: "NOTE " + name + " spying"})
		rec := h.Handled(id)
		if rec.Outcome != table.OutcomeRejected || rec.Reason != "which-table" {
			t.Fatalf("carol's NOTE %s: %s %q, want rejected which-table", name, rec.Outcome, rec.Reason)
		}
		a := h.Answer("carol", id)
		if lexiotest.Kind(a) != "rejected" {
			t.Fatalf("carol's NOTE %s answered by %s", name, lexiotest.Kind(a))
		}
		answers = append(answers, strings.ReplaceAll(a.Text, name, "NAME"))
	}
	if answers[0] != answers[1] {
		t.Errorf("a stranger tells n2 from a table that does not exist:\n%s\n----\n%s", answers[0], answers[1])
	}
	// Through her own reply address at another table: a note of hers
	// there, which begins with "n2".
	bobAt(h, "n3", "carol", true, 13)
	h.Expect(h.Fresh("carol", "n3", "NOTE n2 spying"), table.OutcomeApplied, "NOTE n3 (")
	if got := seatNote(h, "n3", "carol"); got != "n2 spying" {
		t.Errorf("carol's note at n3: %q", got)
	}
	if got := seatNote(h, "n2", "bob"); got != "mine" {
		t.Fatalf("carol's NOTE n2 changed bob's note to %q", got)
	}

	// Refused by what the text is; bob's note stays.
	pad := "\n\nThis paragraph is long enough that a single control character in the mail is not taken for binary junk."
	for _, c := range []struct{ body, reason, must string }{
		{"NOTE n2 " + strings.Repeat("é", parser.MaxNote+1), "note-too-long", "at most 500 characters, and it has 501"},
		{"NOTE n2 " + strings.Repeat("ab ", 250), "note-too-long", "it has 749"},
		{"NOTE n2 good\x1b[2J luck" + pad, "note-unprintable", "U+001B"},
		{"NOTE n2 \u202egnik" + pad, "note-unprintable", "U+202E"},
		{"NOTE n2 zero\u200bwidth", "note-unprintable", "U+200B"},
		{"NOTE n2", "note-missing", "NOTE t42 OFF"},
		{"Nota n2:", "note-missing", "NOTE t42 OFF"},
	} {
		id := h.Fresh("bob", "n2", c.body)
		h.Expect(id, table.OutcomeRejected, c.reason)
		a := h.Answer("bob", id)
		if lexiotest.Kind(a) != "rejected" {
			t.Errorf("%.20q answered by %s", c.body, lexiotest.Kind(a))
		}
		lexiotest.MustContain(t, c.reason, lf(a.Text), c.must)
		if got := seatNote(h, "n2", "bob"); got != "mine" {
			t.Fatalf("after %.20q bob's note is %q", c.body, got)
		}
	}
	if parser.MaxNote != store.MaxNote {
		t.Errorf("the parser bounds a note at %d characters, the store at %d", parser.MaxNote, store.MaxNote)
	}
}

// TestNoteByPlainAddress: NOTE changes state, so through the plain address
// it waits for its sender's confirmation (EMAIL §1.7), kept whole even at
// 500 characters of four bytes; an ended game takes notes too.
func TestNoteByPlainAddress(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	bobAt(h, "n4", "alice", true, 14)
	h.Expect(h.Fresh("alice", "n4", "RESIGN n4"), table.OutcomeApplied, "RESIGN n4")
	if !h.Game("n4").Over() {
		t.Fatal("n4 is not over")
	}
	long := strings.Repeat("🎉", parser.MaxNote)
	id := h.SendMail("bob", lexiotest.MailSpec{Body: "NOTE n4 " + long, NoConfirm: true})
	h.Expect(id, table.OutcomePending, "confirm: NOTE")
	if got := seatNote(h, "n4", "bob"); got != "" {
		t.Fatalf("a note before its confirmation: %.20q", got)
	}
	h.Expect(h.Confirm("bob", id), table.OutcomeApplied, "NOTE n4 (500 characters)")
	if got := seatNote(h, "n4", "bob"); got != long {
		t.Fatalf("bob's note on the ended n4: %d characters, want %d", len([]rune(got)), parser.MaxNote)
	}
}

// TestNoteStaysWithItsAuthor: when a substitute takes a seat (LEAGUES
// §4.1), the note of the seat's old holder goes with them: the new
// holder's mail never shows it, and the old holder, now without a seat,
// may write no note there.
func TestNoteStaysWithItsAuthor(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	bobAt(h, "n5", "alice", true, 15)
	h.Expect(h.Fresh("bob", "n5", "NOTE n5 only for bob"), table.OutcomeApplied, "NOTE n5")
	if err := h.Tables.Substitute(h.Ctx, "n5", "bob@"+h.Domain, "dave@"+h.Domain); err != nil {
		t.Fatal(err)
	}
	seat := h.LastOf("dave", "seat-taken")
	lexiotest.MustNotContain(t, "dave's seat-taken", seat.Text+seat.HTML, "only for bob", "Your note")
	if got := seatNote(h, "n5", "dave"); got != "" {
		t.Errorf("dave's seat holds the note %q", got)
	}
	h.Expect(h.Fresh("bob", "n5", "NOTE n5 again"), table.OutcomeRejected, "not-a-player")
}

// TestNoteInReply: NOTE in reply to a table's mail is on that table when
// it names none (#34): "NOTE garder le S" keeps "garder le S" there; its
// first word names a table only where the sender plays at one of that
// name. At the plain address a NOTE naming none guesses no table. A
// stranger writing to a player's reply address changes no note.
func TestNoteInReply(t *testing.T) {
	h := lexiotest.New(t, lexiotest.Options{})
	bobAt(h, "nr", "alice", true, 21)
	bobAt(h, "club", "carol", true, 22)

	h.Command("bob", "nr", "NOTE garder le S", table.OutcomeApplied, "NOTE nr (11 characters)")
	h.Command("bob", "nr", "NOTE club keep the blank", table.OutcomeApplied, "NOTE club (")
	if nr, club := seatNote(h, "nr", "bob"), seatNote(h, "club", "bob"); nr != "garder le S" || club != "keep the blank" {
		t.Fatalf("bob's notes: nr %q, club %q", nr, club)
	}
	// Alice's table, not bob's: the start of his note.
	h.Command("bob", "club", "NOTE t42 and nr", table.OutcomeApplied, "NOTE club (")
	if got := seatNote(h, "club", "bob"); got != "t42 and nr" {
		t.Errorf("bob's note at club: %q", got)
	}

	// The plain address: no table guessed, none confirmed, nothing kept.
	id := h.SendMail("bob", lexiotest.MailSpec{Body: "NOTE OFF", NoConfirm: true})
	h.Expect(id, table.OutcomeRejected, "which-table")
	lexiotest.MustContain(t, "NOTE OFF at the plain address", h.Answer("bob", id).Text, "club and nr")
	h.Command("bob", "nr", "NOTE OFF", table.OutcomeApplied, "NOTE nr OFF")
	if nr, club := seatNote(h, "nr", "bob"), seatNote(h, "club", "bob"); nr != "" || club != "t42 and nr" {
		t.Fatalf("after NOTE OFF at nr: nr %q, club %q", nr, club)
	}

	// Dave writes NOTE to bob's reply address at club, and, as bob, to
	// carol's there: neither token is its sender's, so nothing is played.
	h.Command("alice", "nr", "NOTE hers alone", table.OutcomeApplied, "NOTE nr (")
	for _, c := range []struct{ from, token string }{{"dave", h.Token("club", "bob")}, {"bob", h.Token("club", "carol")}} {
		id := h.SendMail("dave", lexiotest.MailSpec{From: c.from + "@" + h.Domain, To: "lexio+" + c.token + "@" + h.Domain, Body: "NOTE x y"})
		if rec := h.Handled(id); rec.Outcome == table.OutcomeApplied {
			t.Errorf("NOTE from %s through another's address: %s %q", c.from, rec.Outcome, rec.Reason)
		}
	}
	if got := seatNote(h, "club", "bob"); got != "t42 and nr" {
		t.Errorf("a stranger changed bob's note to %q", got)
	}
	for _, who := range []struct{ table, name, note string }{{"nr", "alice", "hers alone"}, {"club", "carol", ""}} {
		if got := seatNote(h, who.table, who.name); got != who.note {
			t.Errorf("%s's note at %s: %q", who.name, who.table, got)
		}
	}
}
