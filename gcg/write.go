package gcg

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/lexio-mail/lexio/engine"
	"github.com/lexio-mail/lexio/engine/board"
)

// anyWord accepts every word: a stored game's words were checked when
// they were played.
type anyWord struct{}

func (anyWord) Contains(string) bool { return true }

// FromGame writes a game, given as its configuration and actions, as a
// record: every move with the mover's rack as it was, and the end-of-game
// adjustments of RULES §11, the resignations and substitutions (see the
// package comment). players are the seats' addresses; their local parts
// become the nicks.
func FromGame(cfg engine.Config, actions []engine.Action, players []string) (*Record, error) {
	if len(players) != cfg.Players {
		return nil, fmt.Errorf("gcg: %d names for %d players", len(players), cfg.Players)
	}
	g, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	rec := &Record{}
	// Running totals: the engine's scores include the end-of-game
	// adjustments as soon as the last move is played.
	totals := make([]int, len(players))
	for i, p := range players {
		nick, _, _ := strings.Cut(p, "@")
		nick = strings.Map(func(r rune) rune {
			if r <= ' ' || r == ':' || r == '#' || r == '>' {
				return '_'
			}
			return r
		}, nick)
		for _, q := range rec.Players {
			if q.Nick == nick {
				nick = fmt.Sprintf("%s%d", nick, i+1)
			}
		}
		rec.Players = append(rec.Players, Player{Nick: nick, Name: p})
	}
	for i, a := range actions {
		if a.Kind == engine.ActAdjudicate {
			if err := g.Adjudicate(a.At); err != nil {
				return nil, fmt.Errorf("gcg: action %d: %w", i+1, err)
			}
			rec.Events = append(rec.Events, Event{Kind: Adjudicate})
			continue
		}
		ev := Event{Nick: rec.Players[a.Player].Nick, Rack: string(g.Rack(a.Player))}
		switch a.Kind {
		case engine.ActPlace:
			res, err := g.PlaceTiles(a.Player, a.Tiles, anyWord{}, a.At)
			if err != nil {
				return nil, fmt.Errorf("gcg: action %d: %w", i+1, err)
			}
			placeEvent(&ev, res.Play)
		case engine.ActExchange:
			rack := g.Rack(a.Player)
			var tiles []byte
			for _, s := range a.Slots {
				tiles = append(tiles, rack[s-1])
			}
			if _, err := g.Exchange(a.Player, engine.Selection{Slots: a.Slots}, a.At); err != nil {
				return nil, fmt.Errorf("gcg: action %d: %w", i+1, err)
			}
			ev.Kind, ev.Tiles, ev.Count = Exchange, string(tiles), len(tiles)
		case engine.ActPass, engine.ActExpire:
			if a.Kind == engine.ActPass {
				err = g.Pass(a.Player, a.At)
			} else {
				err = g.Expire(a.Player, a.At)
			}
			if err != nil {
				return nil, fmt.Errorf("gcg: action %d: %w", i+1, err)
			}
			ev.Kind = Pass
		case engine.ActResign:
			if err := g.Resign(a.Player, a.At, a.Forfeit); err != nil {
				return nil, fmt.Errorf("gcg: action %d: %w", i+1, err)
			}
			ev.Kind, ev.Forfeit = Resign, a.Forfeit
			rec.Events = append(rec.Events, ev)
			if g.Over() {
				// LEAGUES §2.1: every rack revealed, none adjusted.
				for q, pl := range rec.Players {
					if !g.Left(q) {
						rec.Events = append(rec.Events, Event{Kind: Reveal, Nick: pl.Nick, Rack: string(g.Rack(q))})
					}
				}
			}
			continue
		case engine.ActSubstitute:
			if err := g.Substitute(a.Player, a.From, a.To, a.At); err != nil {
				return nil, fmt.Errorf("gcg: action %d: %w", i+1, err)
			}
			rec.Events = append(rec.Events, Event{Kind: Note, Nick: ev.Nick,
				Text: fmt.Sprintf("%s: seat %d passed from %s to %s", ev.Nick, a.Player+1, oneLine(a.From), oneLine(a.To))})
			continue
		default:
			// Probes and returns from away change no tile and no score.
			continue
		}
		totals[a.Player] += ev.Score
		ev.Total = totals[a.Player]
		rec.Events = append(rec.Events, ev)
	}
	rec.Events = append(rec.Events, endEvents(g, rec.Players)...)
	return rec, nil
}

func placeEvent(ev *Event, play board.Play) {
	w := play.Words[0]
	placed := map[board.Cell]board.Placement{}
	for _, p := range play.Tiles {
		placed[p.Cell] = p
	}
	word := make([]byte, len(w.Cells))
	for j, c := range w.Cells {
		p, ok := placed[c]
		switch {
		case !ok:
			word[j] = '.'
		case p.Blank:
			word[j] = p.Letter - 'A' + 'a'
		default:
			word[j] = p.Letter
		}
	}
	ev.Kind, ev.Col, ev.Row, ev.Down, ev.Word, ev.Score = Place, w.Start.Col, w.Start.Row, w.Dir == board.Down, string(word), play.Score
}

// endEvents are the adjustments at the end of a lexio game: each rack
// lost, then the finisher's gain (RULES §11).
func endEvents(g *engine.Game, players []Player) []Event {
	if !g.Over() {
		return nil
	}
	var out []Event
	var others strings.Builder
	totals := make([]int, len(players))
	for i := range players {
		totals[i] = g.Score(i)
	}
	log := g.Log()
	// Work back from the final scores to those before the adjustments.
	for _, e := range log {
		if e.Kind == engine.LogAdjust {
			totals[e.Player] -= e.Score
		}
	}
	for _, e := range log {
		if e.Kind != engine.LogAdjust {
			continue
		}
		totals[e.Player] += e.Score
		ev := Event{Nick: players[e.Player].Nick, Score: e.Score, Total: totals[e.Player]}
		if e.Score > 0 && e.Rack == "" {
			ev.Kind, ev.Rack = EndGain, others.String()
		} else {
			if e.Rack == "" {
				continue // the finisher's empty rack
			}
			ev.Kind, ev.Rack = EndLoss, e.Rack
			others.WriteString(e.Rack)
		}
		out = append(out, ev)
	}
	return out
}

// oneLine keeps a name on the line of its pragma.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// WriteTo writes the record in GCG form.
func (r *Record) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: bufio.NewWriter(w)}
	fmt.Fprintf(cw, "#character-encoding UTF-8\n")
	if r.Title != "" {
		fmt.Fprintf(cw, "#title %s\n", r.Title)
	}
	for i, p := range r.Players {
		fmt.Fprintf(cw, "#player%d %s %s\n", i+1, p.Nick, p.Name)
	}
	for _, e := range r.Events {
		switch e.Kind {
		case Resign:
			key := "resign"
			if e.Forfeit {
				key = "forfeit"
			}
			fmt.Fprintf(cw, "#%s %s %s\n", key, e.Nick, e.Rack)
			continue
		case Adjudicate:
			fmt.Fprintf(cw, "#adjudicated\n")
			continue
		case Reveal:
			for i, p := range r.Players {
				if p.Nick == e.Nick {
					fmt.Fprintf(cw, "#rack%d %s\n", i+1, e.Rack)
				}
			}
			continue
		case Note:
			fmt.Fprintf(cw, "#note %s\n", oneLine(e.Text))
			continue
		}
		fmt.Fprintf(cw, ">%s: ", e.Nick)
		switch e.Kind {
		case Place:
			fmt.Fprintf(cw, "%s %s %s %+d %d\n", e.Rack, e.Pos(), e.Word, e.Score, e.Total)
		case Exchange:
			t := e.Tiles
			if t == "" {
				t = fmt.Sprint(e.Count)
			}
			fmt.Fprintf(cw, "%s -%s +0 %d\n", e.Rack, t, e.Total)
		case Pass:
			fmt.Fprintf(cw, "%s - +0 %d\n", e.Rack, e.Total)
		case EndGain:
			fmt.Fprintf(cw, "(%s) +%d %d\n", e.Rack, e.Score, e.Total)
		case EndLoss:
			fmt.Fprintf(cw, "(%s) -%d %d\n", e.Rack, -e.Score, e.Total)
		}
	}
	if err := cw.w.Flush(); err != nil && cw.err == nil {
		cw.err = err
	}
	return cw.n, cw.err
}

type countWriter struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
