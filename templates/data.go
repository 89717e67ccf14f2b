package templates

import (
	"strconv"
	"time"
)

// Size is the side of the board (RULES §2.1).
const Size = 13

// CellKind is what a board cell is, as the engine's layout says. The caller
// fills the kinds; this package only draws them.
type CellKind int

// The kinds of cell (RULES §2.2–2.4). The zero CellKind is Plain.
const (
	Plain    CellKind = iota
	Wall              // walled corner
	Fountain          // G7
	TW                // word ×3
	DW                // word ×2
	TL                // letter ×3
	DL                // letter ×2
	Cross             // doubles both words through it
)

// String returns the kind's stable name: "plain", "wall", "fountain",
// "TW", "DW", "TL", "DL", "cross".
func (k CellKind) String() string {
	if k < 0 || int(k) >= len(cellKindNames) {
		return "cellkind(" + strconv.Itoa(int(k)) + ")"
	}
	return cellKindNames[k]
}

// cellKindNames is read-only.
var cellKindNames = [...]string{"plain", "wall", "fountain", "TW", "DW", "TL", "DL", "cross"}

// Pos is a cell, 0-based: Row 0 is row 1, Col 0 is column A.
type Pos struct{ Row, Col int }

// String writes the cell as players do, column then row: "G7".
func (p Pos) String() string {
	if p.Row < 0 || p.Row >= Size || p.Col < 0 || p.Col >= Size {
		return "?"
	}
	return string(rune('A'+p.Col)) + strconv.Itoa(p.Row+1)
}

// Cell is one square of the board.
type Cell struct {
	Kind   CellKind
	Letter byte // 'A'–'Z'; 0 when the cell is empty
	Blank  bool // the tile is a blank standing for Letter
	Value  int  // the tile's value (RULES §3.1), 0 for a blank; the caller fills it
	Last   bool // placed by the last move, highlighted
}

// Board is the board as the recipient sees it. It is comparable: the
// notices of a move draw it once (see boardCache).
type Board struct {
	Cells [Size][Size]Cell // [row][col]
}

// Head is what every message needs: whom it is for, which table it is
// about, and the clock it is read against.
type Head struct {
	To    string         // the recipient's name, for the greeting
	Table string         // the table the message is about; "" for none
	Tag   string         // subject tag; default "[Lexio <Table>]" or "[Lexio]"
	Now   time.Time      // reference for "in 2 h" and "2 h ago"
	TZ    *time.Location // the recipient's zone for absolute times; nil is UTC
	// View is the recipient's "view in browser" link to the table's page
	// on the web side (EMAIL §7.1), Watch the table's spectator link to
	// share; "" where the web side is off (or the league has no
	// spectators): the mail says nothing of them then.
	View, Watch string
}

func (h Head) head() Head { return h }

// PlayerLine is one seat at a table as everyone may see it: never the rack.
type PlayerLine struct {
	Name    string
	Address string
	Score   int
	Tiles   int  // tiles held (RULES §3.2)
	Away    bool // let a turn expire (RULES §9.2)
	Left    bool // resigned or forfeited (LEAGUES §2)
	ToMove  bool
	You     bool // the recipient
	// Bank is what is left of the player's time bank (LEAGUES §3.1),
	// shown when the table's Table.HasBank.
	Bank time.Duration
	// Vacation is when the player's vacation ends, zero when they are
	// not on one (LEAGUES §3.2).
	Vacation time.Time
}

// Table is the public state of a game.
type Table struct {
	Variant  string // "lexio" or "lexico"
	Players  []PlayerLine
	Bag      int       // tiles left in the bag
	Turn     string    // name of the player to move; "" when the game is over
	Deadline time.Time // when the current turn ends
	HasBank  bool      // the table has a time bank: each PlayerLine.Bank is shown
}

// RackTile is one tile of the recipient's rack.
type RackTile struct {
	Slot   int  // 1–7
	Letter byte // 'A'–'Z'; ignored for a blank
	Blank  bool
	Value  int
}

// Rack is the recipient's own rack, in slot order.
type Rack []RackTile

// Value is what the rack's tiles are worth, the sum of their values (a
// blank's is 0): what a player loses for them at the end (RULES §11.3).
func (r Rack) Value() int {
	n := 0
	for _, t := range r {
		n += t.Value
	}
	return n
}

// LogKind is what a log entry records (RULES §10).
type LogKind int

// The kinds of log entry.
const (
	LogPlace      LogKind = iota + 1 // a placement: Words, Pos, Down, Score, Bonus
	LogExchange                      // Count tiles exchanged
	LogPass                          // a pass
	LogExpire                        // the turn expired and was passed (RULES §9.1)
	LogEnd                           // the game ended: End, Adjustments
	LogRejected                      // a rejected placement, told only to its author
	LogResign                        // Player left: resigned, or Forfeit; Count tiles back in the bag (LEAGUES §2)
	LogSubstitute                    // the seat of From passed to To (LEAGUES §4.1)
)

// EndReason says why a game ended (RULES §11, §12).
type EndReason int

// The reasons a game ends.
const (
	EndOut         EndReason = iota + 1 // Player placed their last tile with the bag empty
	EndStalled                          // two rounds without a placement
	EndAbandon                          // closed by the server's administrator
	EndResign                           // one player left in: GameOverMsg.Resigner resigned (LEAGUES §2.1)
	EndForfeit                          // the same, Resigner forfeited (LEAGUES §2.3)
	EndAdjudicated                      // the league's season ended before the game: each lost their rack's value, nobody gained (LEAGUES §7.3)
)

// Word is a word a placement formed and what it scored.
type Word struct {
	Word   string // uppercase; a blank's letter lowercase
	Points int
}

// Adjustment is an end-of-game change to a player's score (RULES §11).
type Adjustment struct {
	Player string
	Points int // negative for the rack's value lost
}

// LogLine is one event of a table's log in neutral form; the templates
// write it as a sentence in the reader's language.
type LogLine struct {
	Turn        int // 1-based turn number; 0 to leave it out
	At          time.Time
	Kind        LogKind
	Player      string
	Words       []Word // LogPlace, LogRejected
	Pos         Pos    // first cell of the placement
	NoPos       bool   // LogRejected from an old log that did not record where
	Down        bool
	Score       int // points of the placement
	Bonus       int // bonus for using every tile (RULES §5.6), included in Score
	Count       int // tiles exchanged
	End         EndReason
	Adjustments []Adjustment
	Forfeit     bool   // LogResign: recorded by the table for expired turns
	From, To    string // LogSubstitute: the seat's holders before and after
}

// Probe is the recipient's probe reserve (RULES §6.2).
type Probe struct {
	Left int
	Max  int
	Next time.Time // when the next attempt returns; zero when full
}

// ReasonKind names why a command was refused. The engine's kinds share
// their codes with engine.Kind; the others come from the parser and the
// table service.
type ReasonKind string

// The reasons a command is refused.
const (
	// Placement shape and tiles (RULES §4, §6.4).
	ReasonNoTiles        ReasonKind = "no-tiles"
	ReasonTooManyTiles   ReasonKind = "too-many-tiles"   // Have, Need
	ReasonOffBoard       ReasonKind = "off-board"        // Cells
	ReasonWalled         ReasonKind = "walled"           // Cells
	ReasonOccupied       ReasonKind = "occupied"         // Cells
	ReasonDuplicateCell  ReasonKind = "duplicate-cell"   // Cells
	ReasonBadLetter      ReasonKind = "bad-letter"       // Letters
	ReasonMismatch       ReasonKind = "board-mismatch"   // Cells, Letters (on the board)
	ReasonNotThrough     ReasonKind = "not-on-board"     // Cells
	ReasonNotInLine      ReasonKind = "not-in-line"      // Cells
	ReasonGap            ReasonKind = "gap"              // Cells
	ReasonNotTouching    ReasonKind = "not-touching"     // Cells
	ReasonFirstNotCentre ReasonKind = "first-not-centre" // Cells
	ReasonFirstTooShort  ReasonKind = "first-too-short"  // Have, Need
	ReasonNotOnRack      ReasonKind = "not-on-rack"      // Letters ('?' blank)
	// Dictionary and probe reserve (RULES §6).
	ReasonUnknownWords ReasonKind = "unknown-words" // Words
	ReasonReserveEmpty ReasonKind = "reserve-empty"
	// Turn and game state.
	ReasonNotYourTurn        ReasonKind = "not-your-turn" // Detail: whose turn
	ReasonGameOver           ReasonKind = "game-over"
	ReasonExchangeNotAllowed ReasonKind = "exchange-not-allowed" // Have: bag
	ReasonBagTooSmall        ReasonKind = "bag-too-small"        // Need, Have
	ReasonBadSlot            ReasonKind = "bad-slot"             // Slots
	// Mail and tables (EMAIL §1, §3).
	ReasonStale      ReasonKind = "stale"
	ReasonNotAPlayer ReasonKind = "not-a-player"
	ReasonBadToken   ReasonKind = "bad-token"
	ReasonNotAuth    ReasonKind = "not-authenticated"
	// A confirmation (EMAIL §1.7) answered with CONFIRM elsewhere than
	// alone on the reply's first line, twice, or too late.
	ReasonConfirmLine    ReasonKind = "confirmation-not-first"
	ReasonConfirmUsed    ReasonKind = "confirmation-used"    // Detail: the command
	ReasonConfirmExpired ReasonKind = "confirmation-expired" // Detail: the command
	ReasonNoSuchTable    ReasonKind = "no-such-table"        // Detail: name
	ReasonTableFull      ReasonKind = "table-full"
	ReasonAlreadyStarted ReasonKind = "already-started"
	ReasonTooFewPlayers  ReasonKind = "too-few-players" // Have, Need
	ReasonNotOwner       ReasonKind = "not-owner"
	ReasonAlreadySeated  ReasonKind = "already-seated" // Detail: the table
	ReasonNoOpening      ReasonKind = "opening-disabled"
	ReasonNoLeague       ReasonKind = "no-league-season" // STANDINGS, SIGNUP, WITHDRAW
	// Leagues by mail: STANDINGS, SIGNUP, WITHDRAW (LEAGUES §7.4, §9.4).
	ReasonNoSuchLeague    ReasonKind = "no-such-league"    // Detail: the name asked
	ReasonNoSignup        ReasonKind = "no-signup"         // Detail: the league; it takes no sign-ups by mail
	ReasonNotInLeague     ReasonKind = "not-in-league"     // Detail: the league named, or "" for none: the sender plays in no season of it
	ReasonWhichLeague     ReasonKind = "which-league"      // Detail: the leagues the sender plays in, comma-separated: STANDINGS must name one
	ReasonAlreadySignedUp ReasonKind = "already-signed-up" // Detail: the league
	// Vacations (LEAGUES §3.2).
	ReasonVacationDays    ReasonKind = "vacation-days"    // Need days asked in year Detail, Have left
	ReasonVacationOverlap ReasonKind = "vacation-overlap" // Detail: the other vacation's first and last days
	ReasonVacationPast    ReasonKind = "vacation-past"    // Detail: the first day
	ReasonVacationFar     ReasonKind = "vacation-far"     // Detail: the first day, more than a year ahead
	ReasonNoVacation      ReasonKind = "no-vacation"
	// GIVE: more time for the player on move; Need and Have in hours.
	ReasonGiveOwnTurn  ReasonKind = "give-own-turn" // it is the sender's turn
	ReasonGiveComputer ReasonKind = "give-computer" // the computer is on move
	ReasonGiveRange    ReasonKind = "give-range"    // Have: hours asked, not 1 h to 7 days
	ReasonGiveCap      ReasonKind = "give-cap"      // Have: hours the sender may still give, Need: asked
	ReasonGiveStale    ReasonKind = "give-stale"    // answers a mail of an earlier turn; Detail: who is on move now
	ReasonBadDuration  ReasonKind = "bad-duration"  // Detail: the parser's
	// Invitations (LEAGUES §6).
	ReasonNotInvited      ReasonKind = "not-invited"          // Detail: the table
	ReasonNoInvitation    ReasonKind = "no-invitation"        // Detail: the table, or ""
	ReasonSeveralInvites  ReasonKind = "several-invitations"  // Detail: the tables
	ReasonInviteDeclined  ReasonKind = "invitation-declined"  // Detail: the table
	ReasonInviteExpired   ReasonKind = "invitation-expired"   // Detail: the table
	ReasonInviteWithdrawn ReasonKind = "invitation-withdrawn" // Detail: the table
	ReasonTooManyInvites  ReasonKind = "too-many-invitees"    // Need: most invitees, Have: named
	ReasonSelfInvite      ReasonKind = "self-invite"
	ReasonNotYetSeated    ReasonKind = "not-yet-seated"      // Detail: the table
	ReasonInvitesWaiting  ReasonKind = "invitations-waiting" // Have: pending now, Need: the most
	ReasonResigned        ReasonKind = "resigned"            // the sender left that game (LEAGUES §2)
	ReasonNotYourTable    ReasonKind = "not-your-table"      // RESIGN: Detail names no table of the sender's (LEAGUES §2.5)
	ReasonStillRunning    ReasonKind = "still-running"       // REMATCH: Detail, the table, whose game is not over
	ReasonRematchExists   ReasonKind = "rematch-exists"      // REMATCH: Detail, the table that already plays it again
	// One answer, whatever the table named is, where telling them apart
	// would show a stranger which tables exist (LEAGUES §5, §6).
	ReasonNoTableToJoin ReasonKind = "no-table-to-join" // JOIN: Detail is none, or not open to the sender
	ReasonNotAtTable    ReasonKind = "not-at-table"     // NOTIFY: Detail names no table of the sender's
	// NOTE, GIVE, REMATCH naming no table, at the plain address (#34):
	// Detail, the sender's tables, comma-separated.
	ReasonWhichTable ReasonKind = "which-table"
	// The bounds on mail to outsiders (LEAGUES §6); Detail: the address.
	ReasonUnfitAddress  ReasonKind = "unfit-address"       // Detail: not a plain address on a host name
	ReasonRefusesInvite ReasonKind = "refuses-invitations" // Detail: asked never to be invited (STOP)
	ReasonInvitedOften  ReasonKind = "invited-often"       // Detail, Need: the most in 7 days
	ReasonDeclinedYou   ReasonKind = "declined-you"        // Detail, Need: days before inviting again
	ReasonInvitesToday  ReasonKind = "invitations-today"   // Have: sent in 24 hours, Need: the most
	ReasonOutsiderMail  ReasonKind = "outsider-mail"       // Detail: the day's mail to new addresses is spent
	ReasonOpenTables    ReasonKind = "open-tables"         // Have: open tables now, Need: the most
	// Detail: the share of the day's mail to new addresses that its
	// domain may have is spent (a tenth, EMAIL §2.6).
	ReasonOutsiderDomain ReasonKind = "outsider-mail-domain"
	// SAY (LEAGUES §5.3); say-too-long is the parser's.
	ReasonSayLimit ReasonKind = "say-limit" // Need: lines passed on per hour
	ReasonSayWhere ReasonKind = "say-where" // Have: the sender's tables not over
	// Reading the message (the parser's kinds).
	ReasonNoCommand    ReasonKind = "no-command"
	ReasonBadCell      ReasonKind = "bad-cell"      // Detail
	ReasonBadDirection ReasonKind = "bad-direction" // Detail
	ReasonBadWord      ReasonKind = "bad-word"      // Detail
	ReasonWordTooLong  ReasonKind = "word-too-long" // Detail
	ReasonBadExchange  ReasonKind = "bad-exchange"  // Detail
	ReasonBadLang      ReasonKind = "bad-lang"      // Detail
	ReasonBadVariant   ReasonKind = "bad-variant"   // Detail
	ReasonBadTable     ReasonKind = "bad-table"     // Detail
	ReasonBadZone      ReasonKind = "bad-zone"      // Detail
	ReasonBadVacation  ReasonKind = "bad-vacation"  // Detail
	ReasonBadNotify    ReasonKind = "bad-notify"    // Detail
	ReasonBadAddress   ReasonKind = "bad-address"   // Detail
	ReasonSayTooLong   ReasonKind = "say-too-long"  // Need: the limit
	ReasonMissingArg   ReasonKind = "missing-argument"
	ReasonExtraArg     ReasonKind = "extra-argument" // Detail
	ReasonTooLarge     ReasonKind = "too-large"
	ReasonUnreadable   ReasonKind = "unreadable" // malformed MIME, too deep, internal
	ReasonBadCharset   ReasonKind = "bad-charset"
	ReasonBinary       ReasonKind = "binary-junk"
	// NOTE's text (the parser's kinds).
	ReasonMissingNote ReasonKind = "note-missing"     // no table or no text
	ReasonNoteTooLong ReasonKind = "note-too-long"    // Need: the limit, Have: the note's length
	ReasonBadNote     ReasonKind = "note-unprintable" // Detail: the character, U+XXXX
)

// Reason is one reason a command was refused; fields that do not apply to
// the Kind are empty.
type Reason struct {
	Kind    ReasonKind
	Cells   []Pos
	Letters string   // letters involved ('?' a blank)
	Words   []string // unknown words
	Slots   []int    // rack slots, 1-based
	Need    int
	Have    int
	Detail  string // the offending input, quoted back as is
}

// Quote is the sender's own words a reason shows, which may hold spaces
// and so keywords (a command, its arguments): shown below the reason's
// sentence on lines of their own, whole and quoted, never inside it,
// where a wrap could start a line with a keyword that a reply sending the
// mail back would carry (#35). "" for the other reasons, whose Detail is
// one word or ours.
func (r Reason) Quote() string {
	switch r.Kind {
	case ReasonConfirmUsed, ReasonConfirmExpired, ReasonExtraArg, ReasonBadVacation, ReasonBadDuration:
		return r.Detail
	}
	return ""
}

// NoticeMsg is the state of a table for one player after a turn ended:
// the turn notice. BoardMsg and ReminderMsg are the same state, for BOARD
// and for the reminder.
type NoticeMsg struct {
	Head
	State Table
	Board Board
	Rack  Rack // the recipient's rack, and nobody else's
	// Log is the latest entries, oldest first, but those told above the
	// board (Last, News), each said once; never a refused play, told
	// once in the answer to it (EMAIL §4.1).
	Log []LogLine
	// Unseen is what the recipient has not seen: the set less the board
	// (a blank as "?") and their rack. Empty on a spectator's page.
	Unseen Unseen
	// Last is the last move in words, said before the board: a
	// placement, an exchange, a pass, an expiry or a resignation. Nil
	// before the first move. The turn notice opens with it, unless News.
	Last *LogLine
	// News is what came after the last move, if anything did (a seat
	// passed): the turn notice opens with it, the others say it before
	// the last move. Nil when the last move is the news.
	News *LogLine
	// Words are the board's words with their first cells and directions,
	// listed after the board for whoever cannot use the grid.
	Words []BoardWord
	// Note is the recipient's own note on the table (NOTE), "" for none;
	// never anyone else's, and empty on a spectator's page.
	Note string
	// Accepted, in the turn notice to the author of the move, says what
	// their move did (EMAIL §4.1) above the new state (§4.2): one mail
	// rather than two. Nil for everyone else.
	Accepted *Acceptance
}

func (NoticeMsg) kind() Kind { return TurnNotice }

// BoardMsg is the state of a table for one player, answering BOARD.
type BoardMsg NoticeMsg

func (BoardMsg) kind() Kind { return BoardReply }

// ReminderMsg is the state of a table for the player whose turn ends
// soon (EMAIL §5.1).
type ReminderMsg NoticeMsg

func (ReminderMsg) kind() Kind { return Reminder }

// Unseen is the tiles a player has not seen: a group per letter in
// alphabetical order ("AAAA", "B"), the blanks' ("??") last, and counts.
type Unseen struct {
	Groups                    []string
	Tiles, Vowels, Consonants int
}

// BoardWord is a word on the board: its letters (a blank in lowercase),
// its first cell and its direction.
type BoardWord struct {
	Word string
	Pos  Pos
	Down bool
}

// Acceptance is what the author of an accepted move is told.
type Acceptance struct {
	Move  LogLine // what was played, as the log records it
	Total int     // the author's score now
}

// AcceptedMsg tells the author that their move was played.
type AcceptedMsg struct {
	Head
	Move  LogLine // what was played, as the log records it
	Total int     // the author's score now
	Rack  Rack    // the author's rack after drawing
}

func (AcceptedMsg) kind() Kind { return Accepted }

// RejectedMsg tells the author why a command was refused.
type RejectedMsg struct {
	Head
	Command string   // the command as read, if any
	Reasons []Reason // every reason
	Probe   *Probe   // the probe reserve, for placements; nil to leave out
	Rack    Rack     // the author's rack, for hints; may be nil
	// YourTurn names the author's tables where it is their turn, for a
	// move refused as not their turn: the table they meant, maybe.
	YourTurn []string
}

func (RejectedMsg) kind() Kind { return Rejected }

// NotYourTurn reports whether the command was refused as not the
// author's turn: the mail then never adds "if it was your turn, it still
// is".
func (m RejectedMsg) NotYourTurn() bool {
	for _, r := range m.Reasons {
		if r.Kind == ReasonNotYourTurn {
			return true
		}
	}
	return false
}

// PreviewMsg says what a placement would score (RULES §5.8).
type PreviewMsg struct {
	Head
	Command string
	Words   []Word
	Bonus   int
	Score   int
	Reasons []Reason // shape problems found, if any
}

func (PreviewMsg) kind() Kind { return Preview }

// LogMsg is a table's whole log.
type LogMsg struct {
	Head
	Log []LogLine
}

func (LogMsg) kind() Kind { return LogReply }

// GameStatus is where a table stands.
type GameStatus int

// The statuses of a table.
const (
	StatusWaiting GameStatus = iota + 1 // open, waiting for players or START
	StatusPlaying
	StatusOver
	StatusLeft // the game goes on without the recipient, who resigned or forfeited
)

// GameLine is one of the recipient's tables.
type GameLine struct {
	Table    string
	Variant  string
	Status   GameStatus
	Players  []string
	Turn     string // whose turn, when playing
	YourTurn bool
	Deadline time.Time
	Score    int // the recipient's score
}

// GamesMsg lists the recipient's tables.
type GamesMsg struct {
	Head
	Games []GameLine
}

func (GamesMsg) kind() Kind { return GamesReply }

// ResignTablesMsg answers RESIGN without a table (LEAGUES §1): Tables, the
// recipient's running tables, each with the line that resigns it.
type ResignTablesMsg struct {
	Head
	Tables []string
}

func (ResignTablesMsg) kind() Kind { return ResignTables }

// HelpMsg is how to play by mail.
type HelpMsg struct {
	Head
	Address string // the address to write to for NEW and JOIN; may be ""
}

func (HelpMsg) kind() Kind { return Help }

// RulesMsg is the rules of the game for players, as doc/rules.md has
// them; Board is an empty Lexio board, drawn with its legend.
type RulesMsg struct {
	Head
	Board Board
}

func (RulesMsg) kind() Kind { return HelpRules }

// ConfirmMsg asks the owner of an address whether a command that came to
// the service's plain address from it was theirs (EMAIL §1.7): Command as
// the parser writes it, to be confirmed before Expires.
type ConfirmMsg struct {
	Head
	Command string
	Expires time.Time
}

func (ConfirmMsg) kind() Kind { return Confirm }

// LangMsg confirms a new interface language; it is rendered in that language.
type LangMsg struct {
	Head
}

func (LangMsg) kind() Kind { return LangChanged }

// ZoneMsg confirms a new time zone: Head.TZ is it, Zone its IANA name.
type ZoneMsg struct {
	Head
	Zone string
}

func (ZoneMsg) kind() Kind { return ZoneChanged }

// VacationMsg answers VACATION (LEAGUES §3.2): the span set (Begins to
// Ends), or, with Off, its end (Ends); the tables whose clocks stop and
// those whose league ignores vacations; the whole days left in Year.
type VacationMsg struct {
	Head
	Begins, Ends time.Time
	Off          bool
	Stopped      []string
	Running      []string
	Left         int
	Year         int
}

func (VacationMsg) kind() Kind { return VacationSet }

// VacationNoticeMsg tells a table's player that Player's vacation (Begins
// to Ends) began, or is over (Over). To the vacationer (You) it says that
// their deadline here moved. Deadline is when Player's turn now ends, if
// it is theirs; zero otherwise.
type VacationNoticeMsg struct {
	Head
	Player       string
	You          bool
	Over         bool
	Begins, Ends time.Time
	Deadline     time.Time
}

func (VacationNoticeMsg) kind() Kind { return VacationNotice }

// GiftMsg tells a table's player that Giver gave Player, whose turn it
// is, Time more (GIVE): the turn now ends at Deadline. You: the recipient
// is Player; Giving: the recipient is the giver, who may still give Left
// at this table.
type GiftMsg struct {
	Head
	Giver, Player string
	Time          time.Duration
	Deadline      time.Time
	You, Giving   bool
	Left          time.Duration
}

func (GiftMsg) kind() Kind { return Gift }

// NotifyMsg confirms the mail a player chose (NOTIFY, LEAGUES §5.1), by
// command or through a List-Unsubscribe address (§5.2).
type NotifyMsg struct {
	Head
	Mode         string    // "all", "turn" or "digest"
	For          string    // the table the choice is for; "" for every table
	Unsubscribed bool      // written to the List-Unsubscribe address
	Digest       time.Time // the first digest, for "digest"
}

func (NotifyMsg) kind() Kind { return NotifyChanged }

// DigestMsg is the day's summary of the recipient's tables in play (NOTIFY
// digest, LEAGUES §5.1): whose turn it is at each, and until when.
type DigestMsg struct {
	Head
	Games []GameLine // those where the recipient is to move first
	Yours int        // how many of them wait for the recipient's move
}

func (DigestMsg) kind() Kind { return Digest }

// SaidMsg passes a player's line on to the other players of the table
// (SAY, LEAGUES §5.3).
type SaidMsg struct {
	Head
	From string // the author's name at the table, never an address
	Text string // plain text as written; the templates escape it
}

func (SaidMsg) kind() Kind { return Said }

// SayPassedMsg tells the author of a SAY, in one line, that the other
// players of the table got their line (LEAGUES §5.3), quoted as they got
// it.
type SayPassedMsg struct {
	Head
	Text string // the line passed on: one printable line; the templates escape it
}

func (SayPassedMsg) kind() Kind { return SayPassed }

// NoteMsg confirms NOTE to its author: the note kept on the table, or
// removed.
type NoteMsg struct {
	Head
	Text string // the note as kept; "" when removed
	Had  bool   // a note was there before (OFF: whether it removed one)
}

func (NoteMsg) kind() Kind { return NoteSet }

// ExpiredMsg tells a player their turn passed for them.
type ExpiredMsg struct {
	Head
	Deadline time.Time     // when the turn ended
	Grace    time.Duration // how long the table now waits for them (RULES §9.2)
	Next     string        // whose turn it is now
}

func (ExpiredMsg) kind() Kind { return Expired }

// FinalLine is one player's result.
type FinalLine struct {
	Name   string
	Before int // score before the adjustments
	Adjust int // RULES §11.1–11.2
	Score  int // final score
	Winner bool
	You    bool
}

// RevealedRack is a rack shown to everyone at the end (RULES §11.4).
type RevealedRack struct {
	Player string
	Tiles  Rack
}

// Leaver is a player who left a game (LEAGUES §2).
type Leaver struct {
	Name    string
	Forfeit bool
}

// GameOverMsg is the end of a game.
type GameOverMsg struct {
	Head
	End      EndReason
	Finisher string // who placed their last tile, for EndOut
	Resigner string // who left last, ending the game, for EndResign and EndForfeit
	// Left lists who left the game, in the order they left; they rank
	// below every player still in (LEAGUES §2.2).
	Left      []Leaver
	Final     []FinalLine
	Revealed  []RevealedRack
	Board     Board
	Log       []LogLine
	Accepted  *Acceptance // the author of the last move's acceptance; nil for the others
	Standings *Standings  // the division's standings after this game, for a table of a league season (LEAGUES §9.2); nil otherwise
	// Missed is what each player left on the table, in seat order; nil
	// when the service has no move generation.
	Missed []MissedLine
	// Rematch says how to play again (REMATCH); false where the host
	// opens no tables by mail.
	Rematch bool
}

func (GameOverMsg) kind() Kind { return GameOver }

// Winners are the names of the lines of Final marked Winner, in their
// order: one name, or several who share the victory.
func (m GameOverMsg) Winners() []string {
	var ws []string
	for _, f := range m.Final {
		if f.Winner {
			ws = append(ws, f.Name)
		}
	}
	return ws
}

// WinScore is the winners' final score, 0 when no line is a winner.
func (m GameOverMsg) WinScore() int {
	for _, f := range m.Final {
		if f.Winner {
			return f.Score
		}
	}
	return 0
}

// MissedLine is what one player missed in a game: the points the best
// placement of each turn would have scored above their move, summed, and
// their biggest misses.
type MissedLine struct {
	Name   string
	Points int
	Misses []MissedMove // up to three, biggest first
}

// MissedMove is a turn a player missed points on.
type MissedMove struct {
	Turn      int     // the log's turn number
	Kind      LogKind // what they did: LogPlace, LogExchange, LogPass or LogExpire
	Word      string  // LogPlace: the main word played, a blank's letter lowercase
	Score     int     // what their move scored
	Best      string  // the best placement, as a PLACE command
	BestScore int
}

// StandingsLine is one player's line of a division's standings (LEAGUES §9.1).
type StandingsLine struct {
	Rank                    int    // 1 the best; ranks are 1 to n in §9.1 order, always distinct
	Name                    string // display name, never the address
	You                     bool   // the recipient
	Played, Won, Tied, Lost int    // pairs (LEAGUES §8.1)
	Points                  int    // league points
	Spread                  int
	PointsFor               int
	Rating                  float64 // shown rounded to a whole number
	RD                      float64 // shown as "±" rounded, e.g. 1523 ±87
}

// Standings is a division's standings in a league's season.
type Standings struct {
	League   string
	Season   int
	Division string
	Ends     time.Time // the season's last day (when unfinished tables are adjudicated)
	Closed   bool      // the season is over: these are its final standings
	Playing  int       // tables of the division still being played
	Rated    bool      // the league rates its games: show the rating column
	Lines    []StandingsLine
}

// StandingsMsg answers STANDINGS (LEAGUES §9.4) and is the weekly
// standings mail (§9.2, Weekly).
type StandingsMsg struct {
	Head
	Standings
	Weekly bool
}

func (StandingsMsg) kind() Kind { return StandingsReply }

// SignupMsg confirms SIGNUP or WITHDRAW (LEAGUES §7.4).
type SignupMsg struct {
	Head
	League   string
	Withdraw bool // WITHDRAW: they leave the league at the end of the current season
	Running  int  // the number of the season under way, 0 if none: a sign-up joins the next season, a withdrawal leaves after this one
}

func (SignupMsg) kind() Kind { return SignupDone }

// ResignedMsg tells a player who left a game that goes on (LEAGUES §2.2).
type ResignedMsg struct {
	Head
	Forfeit bool   // recorded by the table (LEAGUES §2.3)
	Expired int    // for a forfeit: the turns that ran out in a row
	Score   int    // the score they keep
	Next    string // whose turn it is now
}

func (ResignedMsg) kind() Kind { return Resigned }

// SeatMsg tells the new holder of a seat that it is theirs (LEAGUES §4.1),
// with the table's state as they now see it.
type SeatMsg struct {
	NoticeMsg
	From string // the seat's former holder
}

func (SeatMsg) kind() Kind { return SeatTaken }

// OpenedMsg confirms NEW: a table was opened.
type OpenedMsg struct {
	Head
	Variant    string
	MinPlayers int
	MaxPlayers int
	// Invited are the invitees of NEW with addresses, by name; nil for
	// a table anyone may join. Their invitations lapse at Expires.
	Invited []string
	Expires time.Time
	// RematchOf is the ended table that REMATCH plays again, "" for NEW;
	// NotInvited its players left out, who asked never to be invited. A
	// rematch with nobody invited (the computer only) has begun.
	RematchOf  string
	NotInvited []string
}

func (OpenedMsg) kind() Kind { return TableOpened }

// JoinedMsg tells the table that someone sat down (JOIN).
type JoinedMsg struct {
	Head
	Player  string   // who joined
	You     bool     // the recipient is the one who joined
	Players []string // everyone seated, in join order
	Max     int
	// Invited are the invitees still to answer (LEAGUES §6); Starts says
	// that nobody is left to wait for: the game begins.
	Invited []string
	Starts  bool
}

func (JoinedMsg) kind() Kind { return TableJoined }

// StartedMsg tells the table that the game began (START).
type StartedMsg struct {
	Head
	Variant  string
	Players  []string // turn order (RULES §1.2)
	First    string
	Deadline time.Time
	TurnTime time.Duration
}

func (StartedMsg) kind() Kind { return TableStarted }

// InvitationMsg invites the recipient to a table by mail (LEAGUES §6).
// Its subject names the table only: the recipient may never have
// written here, and nothing the opener chose goes into it.
type InvitationMsg struct {
	Head
	Opener    string   // the opener's address, a plain one (checked at NEW)
	Variant   string   // "lexio" or "lexico"
	Invited   []string // everyone invited, the recipient too, in order
	Expires   time.Time
	RematchOf string // the ended table played again (REMATCH), "" for NEW
}

func (InvitationMsg) kind() Kind { return Invitation }

// InviteAnswerMsg tells the opener what became of invitations: one
// invitee declined, or some let theirs expire.
type InviteAnswerMsg struct {
	Head
	Declined string    // who declined; "" for expiries
	Expired  []string  // whose invitations expired unanswered
	At       time.Time // when they expired
	Waiting  []string  // invitees still to answer
	Seated   []string  // the players seated, the opener first
	Starts   bool      // nobody left to wait for, two or more seated: the game begins
	Closed   bool      // nobody left to wait for, the opener alone: the table is closed
}

func (InviteAnswerMsg) kind() Kind { return InviteAnswer }

// WithdrawnMsg tells an invitee that the opener began the game without
// them: their invitation is withdrawn.
type WithdrawnMsg struct {
	Head
	Opener string
}

func (WithdrawnMsg) kind() Kind { return Withdrawn }

// NoInviteMsg confirms STOP, or a message to an invitation's
// List-Unsubscribe address: nobody invites the recipient again (LEAGUES
// §6).
type NoInviteMsg struct {
	Head
	Unsubscribed bool     // written to the List-Unsubscribe address
	Declined     []string // the tables whose invitations this declined
}

func (NoInviteMsg) kind() Kind { return InvitesRefused }

// LapsedMsg tells the players seated at an open table that it was not
// started within its time and is closed (LEAGUES §6).
type LapsedMsg struct {
	Head
	Opened time.Time // when the table was opened
	Seated []string  // the players who sat there, the opener first
}

func (LapsedMsg) kind() Kind { return TableLapsed }

// DeclinedMsg confirms DECLINE to the invitee.
type DeclinedMsg struct {
	Head
	Opener string
}

func (DeclinedMsg) kind() Kind { return Declined }

// PausedMsg tells a sender who reached the bound on replies per hour
// that nothing more is answered until Until (EMAIL §2.6).
type PausedMsg struct {
	Head
	Limit int       // replies per hour
	Until time.Time // when replies resume
}

func (PausedMsg) kind() Kind { return RepliesPaused }

// TooLargeMsg answers a message too large to read (EMAIL §2.5).
type TooLargeMsg struct {
	Head
	Size  int64 // bytes received
	Limit int64 // bytes allowed
}

func (TooLargeMsg) kind() Kind { return TooLarge }

// String returns the kind's stable name, e.g. "place".
func (k LogKind) String() string {
	switch k {
	case LogPlace:
		return "place"
	case LogExchange:
		return "exchange"
	case LogPass:
		return "pass"
	case LogExpire:
		return "expire"
	case LogEnd:
		return "end"
	case LogRejected:
		return "rejected"
	case LogResign:
		return "resign"
	case LogSubstitute:
		return "substitute"
	}
	return "unknown"
}

// String returns the reason's stable name: "out", "stalled", "abandon",
// "resign", "forfeit", "adjudicated".
func (e EndReason) String() string {
	switch e {
	case EndOut:
		return "out"
	case EndStalled:
		return "stalled"
	case EndAbandon:
		return "abandon"
	case EndResign:
		return "resign"
	case EndForfeit:
		return "forfeit"
	case EndAdjudicated:
		return "adjudicated"
	}
	return "unknown"
}

// String returns the status's stable name: "waiting", "playing", "over",
// "left".
func (s GameStatus) String() string {
	switch s {
	case StatusWaiting:
		return "waiting"
	case StatusPlaying:
		return "playing"
	case StatusOver:
		return "over"
	case StatusLeft:
		return "left"
	}
	return "unknown"
}
