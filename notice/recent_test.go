package notice

import (
	"reflect"
	"testing"

	"github.com/lexio-mail/lexio/templates"
)

// TestRecent: a player's state says each thing once. The last move is
// told in words and the log's lines after it (a seat passed) as the news,
// so the latest moves leave both out; a refused play is told in the answer
// to it alone, never again in a later state.
func TestRecent(t *testing.T) {
	place := func(turn int, who string) templates.LogLine {
		return templates.LogLine{Turn: turn, Kind: templates.LogPlace, Player: who, Words: []templates.Word{{Word: "CHAT", Points: 8}}, Score: 8}
	}
	refused := templates.LogLine{Kind: templates.LogRejected, Player: "Bob", Words: []templates.Word{{Word: "AISEOU"}}}
	pass := templates.LogLine{Turn: 3, Kind: templates.LogPass, Player: "Alice"}
	seat := templates.LogLine{Kind: templates.LogSubstitute, From: "Élodie", To: "Dan"}
	for _, c := range []struct {
		name       string
		log        []templates.LogLine
		n          int
		recent     []templates.LogLine
		last, news *templates.LogLine
	}{
		{name: "no move yet"},
		{name: "one move", log: []templates.LogLine{place(1, "Alice")}, n: 8, last: ptr(place(1, "Alice"))},
		{name: "the last move left out", log: []templates.LogLine{place(1, "Alice"), place(2, "Bob"), pass}, n: 8,
			recent: []templates.LogLine{place(1, "Alice"), place(2, "Bob")}, last: &pass},
		{name: "refusals left out, before and after the last move",
			log: []templates.LogLine{place(1, "Alice"), refused, place(2, "Bob"), refused}, n: 8,
			recent: []templates.LogLine{place(1, "Alice")}, last: ptr(place(2, "Bob"))},
		{name: "a seat passed after the last move is the news",
			log: []templates.LogLine{place(1, "Alice"), place(2, "Bob"), seat}, n: 8,
			recent: []templates.LogLine{place(1, "Alice")}, last: ptr(place(2, "Bob")), news: &seat},
		{name: "a seat passed before the last move is listed",
			log: []templates.LogLine{place(1, "Alice"), seat, place(2, "Bob")}, n: 8,
			recent: []templates.LogLine{place(1, "Alice"), seat}, last: ptr(place(2, "Bob"))},
		{name: "a seat passed before any move", log: []templates.LogLine{seat}, n: 8, news: &seat},
		{name: "the n latest of the others", log: []templates.LogLine{place(1, "Alice"), refused, place(2, "Bob"), pass}, n: 1,
			recent: []templates.LogLine{place(2, "Bob")}, last: &pass},
	} {
		t.Run(c.name, func(t *testing.T) {
			recent, last, news := Recent(c.log, c.n)
			if !reflect.DeepEqual(recent, c.recent) {
				t.Errorf("recent %+v, want %+v", recent, c.recent)
			}
			if !reflect.DeepEqual(last, c.last) {
				t.Errorf("last %+v, want %+v", last, c.last)
			}
			if !reflect.DeepEqual(news, c.news) {
				t.Errorf("news %+v, want %+v", news, c.news)
			}
		})
	}
}

// TestWithoutRefusals: the game's end lists every line of the log but
// the recipient's refused plays, and leaves the log it was given alone.
func TestWithoutRefusals(t *testing.T) {
	log := []templates.LogLine{{Turn: 1, Kind: templates.LogPass}, {Kind: templates.LogRejected}, {Kind: templates.LogEnd}}
	got := WithoutRefusals(log)
	if want := []templates.LogLine{log[0], log[2]}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if log[1].Kind != templates.LogRejected {
		t.Errorf("the log given was changed: %+v", log)
	}
}

func ptr(l templates.LogLine) *templates.LogLine { return &l }
