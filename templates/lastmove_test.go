package templates

import (
	"html"
	"strings"
	"testing"
)

// TestLastMoveLine: a turn notice says the last move in words before the
// board, in both parts and every language, for every kind of move (a
// resignation with the tiles it put back, which the latest moves no
// longer say); the first notice of a game says none. The board's words
// follow the board.
func TestLastMoveLine(t *testing.T) {
	s := newSet(t)
	moves := []LogLine{
		{Kind: LogPlace, Player: "Bob", Pos: pos("H7"), Words: []Word{{"CHAT", 12}, {"AH", 2}}, Score: 14},
		{Kind: LogPlace, Player: "Bob", Pos: pos("H7"), Down: true, Words: []Word{{"THE", 1}}, Score: 1},
		{Kind: LogExchange, Player: "Bob", Count: 3},
		{Kind: LogPass, Player: "Bob"},
		{Kind: LogExpire, Player: "Bob"},
		{Kind: LogResign, Player: "Bob", Count: 7},
		{Kind: LogResign, Player: "Bob", Forfeit: true},
	}
	want := map[string][]string{
		"en": {"Bob played CHAT at H7 across for 14 points.", "Bob played THE at H7 down for 1 point.",
			"Bob exchanged 3 tiles.", "Bob passed.", "Bob's turn expired.", "Bob resigned; 7 tiles went back into the bag.", "Bob forfeited."},
		"es": {"Bob jugó CHAT en H7 hacia la derecha por 14 puntos.", "Bob jugó THE en H7 hacia abajo por 1 punto.",
			"Bob cambió 3 fichas.", "Bob pasó su turno.", "Se acabó el tiempo de Bob.", "Bob abandonó la partida; 7 fichas volvieron a la bolsa.", "Bob perdió por abandono."},
		"fr": {"Bob a posé CHAT en H7 vers la droite pour 14 points.", "Bob a posé THE en H7 vers le bas pour 1 point.",
			"Bob a échangé 3 jetons.", "Bob a passé son tour.", "Le temps de Bob est écoulé.", "Bob a abandonné la partie ; 7 jetons sont retournés dans le sac.", "Bob perd par forfait."},
	}
	words := map[string]string{
		"en": "Words on the board: MAISON E7 across, MiEL E7 down, VASE H5 down.",
		"es": "Palabras en el tablero: MAISON E7 horizontal, MiEL E7 vertical, VASE H5 vertical.",
		"fr": "Mots sur le plateau : MAISON E7 horizontal, MiEL E7 vertical, VASE H5 vertical.",
	}
	for _, lang := range Langs() {
		for i, l := range moves {
			n := sample(TurnNotice).(NoticeMsg)
			n.Last = &l
			r, err := s.Render(lang, n)
			if err != nil {
				t.Fatal(err)
			}
			line := want[lang][i]
			board := strings.Index(r.Text, "\n== ")
			if at := strings.Index(r.Text, "\n"+line+"\n"); at < 0 || board < 0 || at > board {
				t.Errorf("%s: the text part has no %q before the board", lang, line)
			}
			if !strings.Contains(html.UnescapeString(r.HTML), ">"+line+"<") {
				t.Errorf("%s: the HTML part has no %q", lang, line)
			}
			// The list wraps at the text's width.
			after := strings.Join(strings.Fields(r.Text[board+1:]), " ")
			if !strings.Contains(after, words[lang]) {
				t.Errorf("%s: the text part has no %q after the board", lang, words[lang])
			}
			if !strings.Contains(html.UnescapeString(r.HTML), ">"+words[lang]+"<") {
				t.Errorf("%s: the HTML part has no %q", lang, words[lang])
			}
		}
		n := sample(TurnNotice).(NoticeMsg)
		n.Last, n.Words, n.Log = nil, nil, nil
		r, err := s.Render(lang, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range append(want[lang], words[lang]) {
			if strings.Contains(strings.Join(strings.Fields(r.Text), " "), line) || strings.Contains(html.UnescapeString(r.HTML), line) {
				t.Errorf("%s: the first notice says %q", lang, line)
			}
		}
	}
}

// TestSaidOnce: each mail of a player's state tells the last move once,
// in words (#34): the turn notice opens with it and neither says it again
// before the board nor lists it among the earlier moves; its author is
// told their move as accepted, and not again in words; a seat passed after
// the last move (News) opens the turn notice, the last move in words
// below; BOARD, the reminder and the new holder of a seat say it before
// the board. In both parts and every language.
func TestSaidOnce(t *testing.T) {
	s := newSet(t)
	news := sampleNotice("Bob", "QUARTZ?")
	news.News = &LogLine{Kind: LogSubstitute, From: "Élodie", To: "Dan"}
	author := authorSamples()["turn-notice-author"].(NoticeMsg)
	seat := sample(SeatTaken).(SeatMsg)
	last := *sampleNotice("Bob", "QUARTZ?").Last
	for _, lang := range Langs() {
		phrase := func(name string, data any) string {
			p, err := s.Phrase(lang, name, data)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		inWords, listed := phrase("last.place", last), phrase("log.place", last)
		for _, c := range []struct {
			name  string
			m     Mail
			first string // the line the mail opens with after the greeting
			once  []string
			never []string
		}{
			{"turn notice", sample(TurnNotice), inWords, []string{inWords}, []string{listed}},
			{"to the author", author, phrase("accepted.place", author.Accepted), nil, []string{inWords, listed}},
			{"after a seat passed", news, phrase("log.substitute", news.News), []string{inWords, phrase("log.substitute", news.News)}, []string{listed}},
			{"board", sample(BoardReply), phrase("board-reply.intro", sample(BoardReply)), []string{inWords}, []string{listed}},
			{"reminder", sample(Reminder), "", []string{inWords}, []string{listed}},
			{"seat taken", seat, "", []string{inWords}, []string{listed, phrase("log.substitute", seat.News)}},
		} {
			r, err := s.Render(lang, c.m)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Fields(r.Text), " ")
			page := html.UnescapeString(r.HTML)
			for _, line := range c.once {
				if n := strings.Count(text, line); n != 1 {
					t.Errorf("%s, %s: the text part says %q %d times, want once", lang, c.name, line, n)
				}
				if n := strings.Count(page, ">"+line+"<"); n != 1 {
					t.Errorf("%s, %s: the HTML part says %q %d times, want once", lang, c.name, line, n)
				}
			}
			for _, line := range c.never {
				if strings.Contains(text, line) || strings.Contains(page, line) {
					t.Errorf("%s, %s: the mail says %q", lang, c.name, line)
				}
			}
			if c.first != "" {
				lines := strings.Split(r.Text, "\n\n")
				if len(lines) < 2 || !strings.HasPrefix(strings.Join(strings.Fields(lines[1]), " "), strings.Join(strings.Fields(c.first), " ")) {
					t.Errorf("%s, %s: the mail does not open with %q:\n%s", lang, c.name, c.first, r.Text)
				}
			}
		}
	}
}
