package templates

import (
	"strings"
	"time"

	"github.com/lexio-mail/lexio/engine/board"
	"github.com/lexio-mail/lexio/internal/zone"
)

// layout fills the kinds of RULES §2.2–2.4's board.
func layout(b *Board) {
	put := func(k CellKind, cells ...string) {
		for _, c := range cells {
			p := pos(c)
			b.Cells[p.Row][p.Col].Kind = k
		}
	}
	put(Wall, "A1", "B1", "A2", "B2", "L1", "M1", "L2", "M2", "A12", "B12", "A13", "B13", "L12", "M12", "L13", "M13")
	put(Fountain, "G7")
	put(TW, "D1", "J1", "A4", "M4", "A10", "M10", "D13", "J13")
	put(DW, "C2", "K2", "B3", "L3", "B11", "L11", "C12", "K12")
	put(TL, "F2", "H2", "B6", "L6", "B8", "L8", "F12", "H12")
	put(DL, "F4", "H4", "D6", "J6", "D8", "J8", "F10", "H10")
	put(Cross, "F6", "H6", "F8", "H8")
}

// pos reads "G7".
func pos(s string) Pos {
	n := 0
	for _, r := range s[1:] {
		n = n*10 + int(r-'0')
	}
	return Pos{Row: n - 1, Col: int(s[0] - 'A')}
}

// word puts letters from a cell; lowercase letters are blanks.
func word(b *Board, start string, down bool, letters string, last bool) {
	p := pos(start)
	for _, r := range letters {
		c := &b.Cells[p.Row][p.Col]
		c.Letter = byte(r)
		c.Value = board.LetterValue(c.Letter)
		if r >= 'a' && r <= 'z' {
			c.Letter = byte(r - 'a' + 'A')
			c.Blank, c.Value = true, 0
		}
		c.Last = last
		if down {
			p.Row++
		} else {
			p.Col++
		}
	}
}

// sampleBoard is a mid-game board: every kind of cell, a blank, a last
// move (MiEL down from E7, its I a blank).
func sampleBoard() Board {
	var b Board
	layout(&b)
	word(&b, "E7", false, "MAISON", false) // turn 1
	word(&b, "H5", true, "VA", false)      // turn 2: VASE through H7
	word(&b, "H8", true, "E", false)
	word(&b, "E8", true, "iEL", true) // turn 4, the last move
	b.Cells[6][4].Last = false
	return b
}

var (
	sampleNow      = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)
	sampleDeadline = time.Date(2026, 3, 6, 15, 4, 0, 0, time.UTC)
	sampleTZ       = time.FixedZone("CET", 3600)
)

func sampleHead(to string) Head {
	return Head{To: to, Table: "t42", Now: sampleNow, TZ: sampleTZ}
}

func sampleLog() []LogLine {
	at := sampleNow.Add(-50 * time.Hour)
	return []LogLine{
		{Turn: 1, At: at, Kind: LogPlace, Player: "Alice", Pos: pos("E7"), Words: []Word{{"MAISON", 16}}, Score: 16},
		{Turn: 2, At: at.Add(5 * time.Hour), Kind: LogPlace, Player: "Bob", Pos: pos("H5"), Down: true, Words: []Word{{"VASE", 28}}, Score: 28},
		{Turn: 3, At: at.Add(20 * time.Hour), Kind: LogExchange, Player: "Chloé", Count: 3},
		{Turn: 4, At: at.Add(30 * time.Hour), Kind: LogPlace, Player: "Alice", Pos: pos("E7"), Down: true, Words: []Word{{"MiEL", 6}}, Score: 6},
	}
}

func sampleTable(you string) Table {
	ps := []PlayerLine{
		{Name: "Alice", Address: "alice@example.org", Score: 22, Tiles: 7},
		{Name: "Bob", Address: "bob@example.org", Score: 28, Tiles: 7, ToMove: true},
		{Name: "Chloé", Address: "chloe@example.org", Score: 0, Tiles: 7, Away: true},
	}
	for i := range ps {
		ps[i].You = ps[i].Name == you
	}
	return Table{Variant: "lexio", Players: ps, Bag: 71, Turn: "Bob", Deadline: sampleDeadline}
}

func sampleRack(letters string) Rack {
	var r Rack
	for i, c := range []byte(letters) {
		t := RackTile{Slot: i + 1, Letter: c, Value: board.LetterValue(c)}
		if c == '?' {
			t = RackTile{Slot: i + 1, Blank: true}
		}
		r = append(r, t)
	}
	return r
}

func sampleNotice(to, rack string) NoticeMsg {
	b := sampleBoard()
	l := sampleLog()
	// The last move is told in words, and the latest moves leave it out,
	// as package notice's presenters give them (notice.Recent).
	return NoticeMsg{Head: sampleHead(to), State: sampleTable(to), Board: b,
		Rack: sampleRack(rack), Log: l[: len(l)-1 : len(l)-1], Unseen: sampleUnseen(&b, rack),
		Last: &l[len(l)-1], Words: sampleWords(&b)}
}

// sampleWords lists board b's words, across then down, as the presenter
// in package notice lists them.
func sampleWords(b *Board) []BoardWord {
	var out []BoardWord
	for _, down := range []bool{false, true} {
		for i := range Size {
			w := BoardWord{Down: down}
			for j := 0; j <= Size; j++ {
				r, c := i, j
				if down {
					r, c = j, i
				}
				if j < Size && b.Cells[r][c].Letter != 0 {
					if w.Word == "" {
						w.Pos = Pos{Row: r, Col: c}
					}
					l := b.Cells[r][c].Letter
					if b.Cells[r][c].Blank {
						l += 'a' - 'A'
					}
					w.Word += string(l)
					continue
				}
				if len(w.Word) > 1 {
					out = append(out, w)
				}
				w.Word = ""
			}
		}
	}
	return out
}

// sampleNoteText is a player's note (NOTE): markup to escape, and
// long enough to wrap.
const sampleNoteText = "Keep the S for the triple at M13; Alice holds the Z <b>&</b> one blank is still out, so do not open the top row before she plays."

// sampleUnseen is what the holder of rack has not seen of a lexio game
// with board b, counted here as the presenter counts it in package notice.
func sampleUnseen(b *Board, rack string) Unseen {
	n := map[byte]int{}
	for _, t := range board.TileSet(board.Rules{}) {
		n[t]++
	}
	for _, row := range b.Cells {
		for _, c := range row {
			if c.Blank {
				n['?']--
			} else if c.Letter != 0 {
				n[c.Letter]--
			}
		}
	}
	for _, t := range []byte(rack) {
		n[t]--
	}
	var u Unseen
	for _, t := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZ?") {
		if n[t] > 0 {
			u.Groups = append(u.Groups, strings.Repeat(string(t), n[t]))
			u.Tiles += n[t]
			if strings.IndexByte("AEIOU", t) >= 0 {
				u.Vowels += n[t]
			} else if t != '?' {
				u.Consonants += n[t]
			}
		}
	}
	return u
}

// authorSamples are the messages to the author of a move, which carry
// its acceptance, those after a resignation (LEAGUES §2), and the other
// branches of the league mails (§7–§9), by golden file name.
func authorSamples() map[string]Mail {
	n := sampleNotice("Alice", "ARTZ?NE")
	n.Accepted = &Acceptance{Move: *n.Last, Total: 22}
	g := sample(GameOver).(GameOverMsg)
	g.Accepted = &Acceptance{Move: g.Log[len(g.Log)-2], Total: 98}
	// Three players: Chloé resigned, her tiles back in the bag; Bob's turn.
	r := sampleNotice("Bob", "QUARTZ?")
	resign := LogLine{At: sampleNow.Add(-time.Hour), Kind: LogResign, Player: "Chloé", Count: 7}
	r.Log, r.Last = sampleLog(), &resign
	r.State.Players[2].Tiles, r.State.Players[2].Left, r.State.Bag = 0, true, 78
	// The bag empty, Bob's turn: the unseen tiles are on Alice's and
	// Chloé's racks, and the notice says how many each holds.
	e := sampleNotice("Bob", "QUARTZ?")
	e.State.Bag, e.State.Players[0].Tiles, e.State.Players[2].Tiles = 0, 3, 2
	e.Unseen = Unseen{Groups: []string{"E", "LL", "T", "?"}, Tiles: 5, Vowels: 1, Consonants: 3}
	// Bob's own note on the table (NOTE), shown to him alone.
	note := sampleNotice("Bob", "QUARTZ?")
	note.Note = sampleNoteText
	// Then Alice forfeited: Bob is left alone and wins, though behind her.
	o := GameOverMsg{Head: sampleHead("Bob"), End: EndForfeit, Resigner: "Alice",
		Left: []Leaver{{Name: "Chloé"}, {Name: "Alice", Forfeit: true}},
		Final: []FinalLine{
			{Name: "Alice", Before: 42, Score: 42},
			{Name: "Bob", Before: 28, Score: 28, Winner: true, You: true},
			{Name: "Chloé", Before: 0, Score: 0},
		},
		Revealed: []RevealedRack{{Player: "Alice", Tiles: sampleRack("ARTZ?NE")}, {Player: "Bob", Tiles: sampleRack("QUARTZ?")}, {Player: "Chloé"}},
		Board:    sampleBoard(),
		Log: append(sampleLog(), resign, LogLine{At: sampleNow, Kind: LogResign, Player: "Alice", Forfeit: true},
			LogLine{At: sampleNow, Kind: LogEnd, End: EndForfeit})}
	// A league table's end (LEAGUES §9.2), and one adjudicated at the
	// season's end (§7.3): the division's standings below the scores.
	lg := sample(GameOver).(GameOverMsg)
	st := sampleStandings()
	lg.Standings = &st
	adj := GameOverMsg{Head: sampleHead("Bob"), End: EndAdjudicated,
		Final: []FinalLine{
			{Name: "Alice", Before: 301, Adjust: -9, Score: 292},
			{Name: "Bob", Before: 315, Adjust: -14, Score: 301, Winner: true, You: true},
		},
		Revealed: []RevealedRack{{Player: "Alice", Tiles: sampleRack("QEE")}, {Player: "Bob", Tiles: sampleRack("KUW?")}},
		Board:    sampleBoard(),
		Log: append(sampleLog(), LogLine{At: sampleNow, Kind: LogEnd, End: EndAdjudicated,
			Adjustments: []Adjustment{{"Alice", -9}, {"Bob", -14}}})}
	// What each player missed, every kind of move: a placement, a pass, a
	// turn that ran out, an exchange, and a player who missed nothing.
	missed := sample(GameOver).(GameOverMsg)
	missed.Missed = []MissedLine{
		{Name: "Bob", Points: 31, Misses: []MissedMove{
			{Turn: 5, Kind: LogPlace, Word: "QUARTz", Score: 40, Best: "PLACE D9 ACROSS QUARTZ(E)s", BestScore: 62},
			{Turn: 2, Kind: LogPass, Best: "PLACE G5 DOWN CH(A)T", BestScore: 9}}},
		{Name: "Alice", Points: 13, Misses: []MissedMove{
			{Turn: 3, Kind: LogExpire, Best: "PLACE H3 DOWN ZE(S)T", BestScore: 12},
			{Turn: 1, Kind: LogExchange, Best: "PLACE F7 ACROSS [H][A]", BestScore: 1}}},
		{Name: "Chloé"},
	}
	final := sampleStandings()
	final.Closed, final.Playing, final.Ends = true, 0, sampleNow
	adj.Standings = &final
	// The weekly standings, Monday 08:00 in Bob's zone, of a league
	// without ratings; the final standings on STANDINGS.
	weekly := StandingsMsg{Head: Head{To: "Bob", Now: time.Date(2026, 3, 2, 7, 0, 0, 0, time.UTC), TZ: sampleTZ},
		Standings: sampleStandings(), Weekly: true}
	weekly.Rated = false
	return map[string]Mail{"turn-notice-author": n, "game-over-author": g,
		"turn-notice-resign": r, "game-over-forfeit": o,
		"turn-notice-endgame": e,
		"turn-notice-note":    note,
		"note-removed":        NoteMsg{Head: sampleHead("Bob"), Had: true},
		"note-none":           NoteMsg{Head: sampleHead("Bob")},
		// A move through the wrong table's address (#34): whose turn it is,
		// and where it is Bob's.
		"rejected-not-your-turn": RejectedMsg{Head: sampleHead("Bob"), Command: "PLACE H7 ACROSS CHAT",
			Reasons: []Reason{{Kind: ReasonNotYourTurn, Detail: "Alice"}}, YourTurn: []string{"t42", "club-du-jeudi"},
			Rack: sampleRack("QUARTZ?")},
		"game-over-league": lg, "game-over-adjudicated": adj,
		"game-over-missed": missed,
		"standings-weekly": weekly,
		"standings-final":  StandingsMsg{Head: Head{To: "Bob", Now: sampleNow, TZ: sampleTZ}, Standings: final},
		"signup-withdraw":  SignupMsg{Head: Head{To: "Bob", Now: sampleNow, TZ: sampleTZ}, League: "autumn", Withdraw: true, Running: 3},
		"signup-between":   SignupMsg{Head: Head{To: "Bob", Now: sampleNow, TZ: sampleTZ}, League: "autumn"},
	}
}

// sampleStandings is a rated division of six in a running season, Bob
// second; a long name, an accented one, a spread of 0 (LEAGUES §9.1).
func sampleStandings() Standings {
	return Standings{League: "autumn", Season: 3, Division: "premier", Ends: sampleNow.Add(20 * 24 * time.Hour),
		Playing: 4, Rated: true, Lines: []StandingsLine{
			{Rank: 1, Name: "Alice", Played: 8, Won: 6, Tied: 1, Lost: 1, Points: 13, Spread: 412, PointsFor: 3120, Rating: 1623.4, RD: 87.2},
			{Rank: 2, Name: "Bob", You: true, Played: 8, Won: 5, Tied: 1, Lost: 2, Points: 11, Spread: 187, PointsFor: 2987, Rating: 1561.7, RD: 92.5},
			{Rank: 3, Name: "Chloé-Marie", Played: 7, Won: 4, Lost: 3, Points: 8, Spread: -23, PointsFor: 2710, Rating: 1502.1, RD: 101.3},
			{Rank: 4, Name: "Dan", Played: 7, Won: 3, Lost: 4, Points: 6, PointsFor: 2644, Rating: 1478, RD: 99},
			{Rank: 5, Name: "Bartholomew-Alexander", Played: 8, Won: 2, Tied: 1, Lost: 5, Points: 5, Spread: -201, PointsFor: 2590, Rating: 1430.6, RD: 95},
			{Rank: 6, Name: "Élodie", Played: 8, Won: 1, Tied: 1, Lost: 6, Points: 3, Spread: -375, PointsFor: 2402, Rating: 1389, RD: 110},
		}}
}

// sample returns the golden data of each kind, addressed to Bob.
func sample(k Kind) Mail {
	h := sampleHead("Bob")
	switch k {
	case TurnNotice, BoardReply, Reminder:
		n := sampleNotice("Bob", "QUARTZ?")
		if k == Reminder {
			n.Now = sampleDeadline.Add(-2 * time.Hour)
		}
		if k == BoardReply {
			// A table with a time bank, where Chloé is on vacation
			// (LEAGUES §3).
			n.State.HasBank = true
			for i, b := range []time.Duration{26 * time.Hour, 0, 5*time.Hour + 30*time.Minute} {
				n.State.Players[i].Bank = b
			}
			n.State.Players[2].Vacation = sampleNow.Add(6 * 24 * time.Hour)
		}
		switch k {
		case BoardReply:
			return BoardMsg(n)
		case Reminder:
			return ReminderMsg(n)
		}
		return n
	case Accepted:
		return AcceptedMsg{Head: h, Move: LogLine{Turn: 5, Kind: LogPlace, Player: "Bob", Pos: pos("D9"), Words: []Word{{"QUE", 12}, {"UE", 2}}, Score: 14},
			Total: 42, Rack: sampleRack("ARTZ?NE")}
	case Rejected:
		return RejectedMsg{Head: h, Command: "PLACE D9 ACROSS QUEUX",
			Reasons: []Reason{
				{Kind: ReasonUnknownWords, Words: []string{"QUEUX", "XE"}},
				{Kind: ReasonNotOnRack, Letters: "UX"},
				{Kind: ReasonGap, Cells: []Pos{pos("F9"), pos("G9")}},
			},
			Probe: &Probe{Left: 7, Max: 10, Next: sampleNow.Add(12 * time.Second)},
			Rack:  sampleRack("QUARTZ?")}
	case Preview:
		return PreviewMsg{Head: h, Command: "PREVIEW D9 ACROSS QUE", Words: []Word{{"QUE", 12}, {"UE", 2}}, Score: 14}
	case LogReply:
		l := sampleLog()
		l = append(l, LogLine{Turn: 5, Kind: LogPass, Player: "Bob"},
			LogLine{Turn: 6, Kind: LogExpire, Player: "Chloé"},
			LogLine{Kind: LogRejected, Player: "Bob", Pos: pos("D9"), Words: []Word{{"QUEUX", 0}}},
			LogLine{Kind: LogSubstitute, Player: "Dora", From: "Alice", To: "Dora"},
			LogLine{Kind: LogResign, Player: "Chloé", Forfeit: true, Count: 5})
		return LogMsg{Head: h, Log: l}
	case GamesReply:
		return GamesMsg{Head: Head{To: "Bob", Now: sampleNow, TZ: sampleTZ}, Games: []GameLine{
			{Table: "t42", Variant: "lexio", Status: StatusPlaying, Players: []string{"Alice", "Bob", "Chloé"}, Turn: "Bob", YourTurn: true, Deadline: sampleDeadline, Score: 28},
			{Table: "t7", Variant: "lexico", Status: StatusPlaying, Players: []string{"Bob", "Dan"}, Turn: "Dan", Deadline: sampleNow.Add(45 * time.Minute), Score: 103},
			{Table: "t9", Variant: "lexio", Status: StatusLeft, Players: []string{"Bob", "Dan", "Eve"}, Score: 61},
			{Table: "t50", Variant: "lexio", Status: StatusWaiting, Players: []string{"Bob"}},
			{Table: "t3", Variant: "lexio", Status: StatusOver, Players: []string{"Bob", "Alice"}, Score: 311},
		}}
	case ResignTables:
		return ResignTablesMsg{Head: Head{To: "Bob", Now: sampleNow}, Tables: []string{"t42", "t7"}}
	case Help:
		return HelpMsg{Head: Head{To: "Bob", Now: sampleNow}, Address: "lexio@example.org"}
	case HelpRules:
		var b Board
		layout(&b)
		return RulesMsg{Head: Head{To: "Bob", Now: sampleNow}, Board: b}
	case Confirm:
		return ConfirmMsg{Head: Head{To: "Bob", Now: sampleNow}, Command: "RESIGN t42", Expires: sampleNow.Add(24 * time.Hour)}
	case LangChanged:
		return LangMsg{Head: Head{To: "Bob", Now: sampleNow}}
	case ZoneChanged:
		// Summer time in Paris: CEST.
		paris, err := zone.Load("Europe/Paris")
		if err != nil {
			panic(err)
		}
		return ZoneMsg{Head: Head{To: "Bob", Table: "t42", Now: time.Date(2026, 7, 1, 9, 30, 0, 0, time.UTC), TZ: paris}, Zone: "Europe/Paris"}
	case VacationSet:
		return VacationMsg{Head: h, Begins: sampleNow, Ends: sampleNow.Add(10 * 24 * time.Hour),
			Stopped: []string{"t42", "t7"}, Running: []string{"cup3"}, Left: 18, Year: 2026}
	case VacationNotice:
		return VacationNoticeMsg{Head: h, Player: "Chloé", Begins: sampleNow, Ends: sampleNow.Add(10 * 24 * time.Hour),
			Deadline: sampleDeadline.Add(10 * 24 * time.Hour)}
	case Gift:
		return GiftMsg{Head: h, Giver: "Alice", Player: "Chloé", Time: 36 * time.Hour,
			Deadline: sampleDeadline.Add(36 * time.Hour), Left: 4 * 24 * time.Hour}
	case Resigned:
		return ResignedMsg{Head: h, Forfeit: true, Expired: 3, Score: 28, Next: "Alice"}
	case SeatTaken:
		n := sampleNotice("Bob", "QUARTZ?")
		// The seat passed after the last move: the news.
		n.News = &LogLine{Kind: LogSubstitute, Player: "Bob", From: "Élodie", To: "Bob"}
		return SeatMsg{NoticeMsg: n, From: "Élodie"}
	case Expired:
		return ExpiredMsg{Head: h, Deadline: sampleNow.Add(-2 * time.Hour), Grace: 2 * time.Hour, Next: "Chloé"}
	case GameOver:
		l := sampleLog()
		l = append(l, LogLine{Turn: 5, Kind: LogPlace, Player: "Bob", Pos: pos("D9"), Words: []Word{{"QUARTZ", 40}}, Score: 70, Bonus: 30},
			LogLine{Kind: LogEnd, Player: "Bob", End: EndOut, Adjustments: []Adjustment{{"Alice", -5}, {"Chloé", -7}, {"Bob", 12}}})
		return GameOverMsg{Head: h, End: EndOut, Finisher: "Bob",
			Final: []FinalLine{
				{Name: "Bob", Before: 98, Adjust: 12, Score: 110, Winner: true, You: true},
				{Name: "Alice", Before: 75, Adjust: -5, Score: 70},
				{Name: "Chloé", Before: 40, Adjust: -7, Score: 33},
			},
			Revealed: []RevealedRack{{Player: "Bob"}, {Player: "Alice", Tiles: sampleRack("EE?")}, {Player: "Chloé", Tiles: sampleRack("KU")}},
			Board:    sampleBoard(), Log: l, Rematch: true}
	case TableOpened:
		return OpenedMsg{Head: h, Variant: "lexio", MinPlayers: 2, MaxPlayers: 4}
	case TableJoined:
		return JoinedMsg{Head: h, Player: "Chloé", Players: []string{"Alice", "Bob", "Chloé"}, Max: 4}
	case TableStarted:
		return StartedMsg{Head: h, Variant: "lexio", Players: []string{"Alice", "Bob", "Chloé"}, First: "Alice",
			Deadline: sampleNow.Add(72 * time.Hour), TurnTime: 72 * time.Hour}
	case RepliesPaused:
		return PausedMsg{Head: sampleHead("Bob"), Limit: 30, Until: sampleNow.Add(40 * time.Minute)}
	case TooLarge:
		return TooLargeMsg{Head: Head{To: "Bob", Now: sampleNow}, Size: 3 << 20, Limit: 1 << 20}
	case Invitation:
		return InvitationMsg{Head: h, Opener: "alice@example.org", Variant: "lexio", Invited: []string{"Bob", "Chloé"},
			Expires: sampleNow.Add(7 * 24 * time.Hour)}
	case InviteAnswer:
		return InviteAnswerMsg{Head: sampleHead("Alice"), Declined: "Chloé", Waiting: []string{"Dan"},
			Seated: []string{"Alice", "Bob"}}
	case InvitesRefused:
		return NoInviteMsg{Head: h, Declined: []string{"t42"}}
	case TableLapsed:
		return LapsedMsg{Head: h, Opened: sampleNow.Add(-7 * 24 * time.Hour), Seated: []string{"Alice", "Bob"}}
	case Withdrawn:
		return WithdrawnMsg{Head: h, Opener: "Alice"}
	case Declined:
		return DeclinedMsg{Head: h, Opener: "Alice"}
	case NotifyChanged:
		// For every table, the digest: the first comes tomorrow morning.
		return NotifyMsg{Head: h, Mode: "digest", Digest: time.Date(2026, 3, 4, 7, 0, 0, 0, time.UTC)}
	case Digest:
		// From the service's plain address: about no one table.
		return DigestMsg{Head: Head{To: "Bob", Now: time.Date(2026, 3, 4, 7, 0, 0, 0, time.UTC), TZ: sampleTZ}, Yours: 1, Games: []GameLine{
			{Table: "t42", Variant: "lexio", Status: StatusPlaying, Players: []string{"Alice", "Bob", "Chloé"}, Turn: "Bob", YourTurn: true, Deadline: sampleDeadline, Score: 28},
			{Table: "t7", Variant: "lexico", Status: StatusPlaying, Players: []string{"Bob", "Élise"}, Turn: "Élise", Deadline: sampleDeadline.Add(-26 * time.Hour), Score: 103},
		}}
	case StandingsReply:
		// On STANDINGS, from the service's plain address.
		return StandingsMsg{Head: Head{To: "Bob", Now: sampleNow, TZ: sampleTZ}, Standings: sampleStandings()}
	case SignupDone:
		return SignupMsg{Head: Head{To: "Bob", Now: sampleNow, TZ: sampleTZ}, League: "autumn", Running: 3}
	case Said:
		return SaidMsg{Head: h, From: "Alice", Text: "Nice one, Bob! <b>QUARTZ</b> & a blank?\nGood luck for the end."}
	case SayPassed:
		return SayPassedMsg{Head: h, Text: "Nice one, Bob! <b>QUARTZ</b> & a blank? Good luck for the end."}
	case NoteSet:
		return NoteMsg{Head: h, Text: sampleNoteText, Had: true}
	}
	return nil
}
