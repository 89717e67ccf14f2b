package store

import (
	"time"

	"gorm.io/gorm"
)

// Player is a person known by their email address.
type Player struct {
	ID int64 `gorm:"primaryKey"`
	// Address is the lowercase email address; unique.
	Address string `gorm:"size:320;not null;uniqueIndex"`
	// Lang is the interface language: en, es or fr.
	Lang string `gorm:"size:8;not null;default:en"`
	// TimeZone is the IANA zone of the times in their mail, e.g.
	// "Europe/Paris"; "" is the configuration's. Stored times stay UTC.
	TimeZone  string    `gorm:"size:64;not null;default:''"`
	CreatedAt time.Time `gorm:"not null"`

	// Notify is the mail they chose (NOTIFY, LEAGUES §5.1): one of
	// table's Notify constants; "" is table.NotifyAll.
	Notify string `gorm:"size:16;not null;default:''"`
	// DigestDay is the local date ("2026-12-01", in their zone) of the
	// last day whose digest was decided (sent, or nothing to say); ""
	// for none. A digest goes at most once per local day.
	DigestDay string `gorm:"size:10;not null;default:''"`
}

// TableStatus is where a table is in its life, as its row keeps it.
type TableStatus string

// The statuses of a table.
const (
	StatusOpen    TableStatus = "open"    // taking players
	StatusPlaying TableStatus = "playing" // a game is on
	StatusOver    TableStatus = "over"    // the game ended
)

// Table is one game with its rules and times. The game itself is its seed
// plus the action log (Action rows), replayed on every load; the table row
// keeps only what queries need (status, the last action's seq, the turn's
// start and deadline, the next reminder), which the loader checks against
// the replayed game.
type Table struct {
	ID   int64  `gorm:"primaryKey"`
	Name string `gorm:"size:64;not null;uniqueIndex"` // by tablename.Check
	// League names the league whose rules the table was created with.
	League      string `gorm:"size:64;not null;default:''"`
	RematchOf   *int64 `gorm:"uniqueIndex"`                    // the ended table this one plays again (REMATCH), at most one each
	Variant     string `gorm:"size:16;not null;default:lexio"` // lexio | lexico
	Multipliers bool   `gorm:"not null"`                       // no default: gorm would replace false by it
	// Seed is the bag's seed. The engine's uint64 seed is stored bit for bit
	// as int64 (PostgreSQL has no unsigned bigint): int64(s) and uint64(t.Seed).
	Seed int64 `gorm:"not null;default:0"`

	TurnTime      time.Duration   `gorm:"not null;default:0"`
	Reminders     []time.Duration `gorm:"type:text;serializer:json"`
	AwayGrace     time.Duration   `gorm:"not null;default:0"`
	ReserveSize   int             `gorm:"not null;default:0"`
	ReserveRefill time.Duration   `gorm:"not null;default:0"`
	// TimeBank and BankPerMove are the league's time bank (LEAGUES §3.1),
	// 0 for none; IgnoreVacations is a league's vacation = false (§3.2).
	// Each player's bank is not stored: the log's times give it.
	TimeBank        time.Duration `gorm:"not null;default:0"`
	BankPerMove     time.Duration `gorm:"not null;default:0"`
	IgnoreVacations bool          `gorm:"not null;default:false"`
	// ForfeitAfter is the league's forfeit_after when the table was made:
	// expired turns in a row that make a forfeit (LEAGUES §2.3); 0 never.
	ForfeitAfter int `gorm:"not null;default:0"`

	// Status is where the table is in its life.
	Status TableStatus `gorm:"size:16;not null;default:open;index:idx_tables_due,priority:1"`
	// StartedAt is when the game began (its first turn's start); nil while
	// the table is open.
	StartedAt *time.Time
	// Seq is the sequence number of the last action in the log (0: none).
	Seq int64 `gorm:"not null;default:0"`

	// TurnStarted is when the current turn began; Deadline when it expires;
	// NextReminder when the next reminder is due. Nil when not applicable.
	TurnStarted  *time.Time
	Deadline     *time.Time
	NextReminder *time.Time
	// DueAt is the earlier of Deadline and NextReminder, kept by the store
	// (callers need not set it) so that DueTables is one index range scan.
	DueAt *time.Time `gorm:"index:idx_tables_due,priority:2"`

	CreatedAt time.Time `gorm:"not null"`
	UpdatedAt time.Time `gorm:"not null"`

	// read is the deadline as the transaction read it, for SaveTable's
	// check; readOK says that the row was read (or created) at all.
	read   *time.Time
	readOK bool
}

// AfterFind remembers the deadline as read (a gorm hook).
func (t *Table) AfterFind(*gorm.DB) error {
	t.read, t.readOK = utcp(t.Deadline), true
	return nil
}

// dueAt returns the earlier of the deadline and the next reminder, in UTC.
func (t *Table) dueAt() *time.Time {
	var due *time.Time
	for _, p := range []*time.Time{t.Deadline, t.NextReminder} {
		if p == nil {
			continue
		}
		if due == nil || p.Before(*due) {
			v := p.UTC()
			due = &v
		}
	}
	return due
}

// normalize puts the table's times in UTC and computes DueAt.
func (t *Table) normalize() {
	t.StartedAt = utcp(t.StartedAt)
	t.TurnStarted = utcp(t.TurnStarted)
	t.Deadline = utcp(t.Deadline)
	t.NextReminder = utcp(t.NextReminder)
	t.DueAt = t.dueAt()
}

// Seat is a player's place at a table. Position is the join order (0-3),
// which is the turn order (RULES §1.2).
type Seat struct {
	ID        int64     `gorm:"primaryKey"`
	TableID   int64     `gorm:"not null;uniqueIndex:idx_seats_table_position,priority:1;uniqueIndex:idx_seats_table_player,priority:1"`
	Table     *Table    `gorm:"constraint:OnDelete:CASCADE" json:"-"`
	Position  int       `gorm:"not null;uniqueIndex:idx_seats_table_position,priority:2"`
	PlayerID  int64     `gorm:"not null;index;uniqueIndex:idx_seats_table_player,priority:2"`
	Player    *Player   `gorm:"constraint:OnDelete:RESTRICT"`
	CreatedAt time.Time `gorm:"not null"`

	// Notify overrides the player's Notify at this table (NOTIFY turn
	// t42, or the List-Unsubscribe address); "" for none.
	Notify string `gorm:"size:16;not null;default:''"`
	// Gifts are this seat's GIVEs, each [turn, seat given to, ns]; bounded by Tx.AddGift, which writes them.
	Gifts [][3]int64 `gorm:"type:text;serializer:json"`
	Note  string     `gorm:"size:500;not null;default:''"` // NOTE: the holder's private note (Tx.SetNote), shown to them alone
}

// Action is one entry of a table's log (RULES §10), the source of truth.
type Action struct {
	ID      int64  `gorm:"primaryKey"`
	TableID int64  `gorm:"not null;uniqueIndex:idx_actions_table_seq,priority:1"`
	Table   *Table `gorm:"constraint:OnDelete:CASCADE" json:"-"`
	// Seq numbers the table's actions from 1 without gaps.
	Seq  int64  `gorm:"not null;uniqueIndex:idx_actions_table_seq,priority:2"`
	Kind string `gorm:"size:32;not null"`
	// Payload is the engine's JSON for the action.
	Payload string    `gorm:"type:text;not null;default:''"`
	At      time.Time `gorm:"not null"`
}

// InvitationState is where an invitation to a table is (LEAGUES §6).
type InvitationState string

// The states of an invitation. Only a pending one changes, once.
const (
	InvitePending   InvitationState = "pending"   // sent, not answered
	InviteJoined    InvitationState = "joined"    // the invitee sat down
	InviteDeclined  InvitationState = "declined"  // the invitee said no
	InviteExpired   InvitationState = "expired"   // invite_ttl passed unanswered
	InviteWithdrawn InvitationState = "withdrawn" // the opener started without them
)

// Invitation is one address invited to an open table (NEW with
// addresses). A table with invitations seats only its invitees.
type Invitation struct {
	ID      int64  `gorm:"primaryKey"`
	TableID int64  `gorm:"not null;uniqueIndex:idx_invitations_table_address,priority:1"`
	Table   *Table `gorm:"constraint:OnDelete:CASCADE" json:"-"`
	// Address is the invitee's lowercase address.
	Address string          `gorm:"size:320;not null;index;uniqueIndex:idx_invitations_table_address,priority:2"`
	State   InvitationState `gorm:"size:16;not null;default:pending;index:idx_invitations_due,priority:1"`
	// Expires is when a pending invitation lapses; pending ones are
	// indexed on it for the scheduler.
	Expires    time.Time `gorm:"not null;index:idx_invitations_due,priority:2"`
	AnsweredAt *time.Time
	CreatedAt  time.Time `gorm:"not null"`
}

// InviteEvent is what an InviteLog row records.
type InviteEvent string

// The events of the invitation log.
const (
	LogSent     InviteEvent = "sent"     // an invitation mailed
	LogDeclined InviteEvent = "declined" // the invitee declined it
)

// InviteLog records each invitation sent and each declined, apart from
// the tables (which are deleted when they close), so that the bounds on
// invitations (LEAGUES §6) count what was sent, whatever became of it.
type InviteLog struct {
	ID    int64       `gorm:"primaryKey"`
	Event InviteEvent `gorm:"size:16;not null"`
	// Opener is the person of the table's first seat; Address the
	// invitee's. Both are keys (PersonKey; rows from before them, whole
	// lowercase addresses), never written to.
	Opener  string    `gorm:"size:320;not null;index:idx_invite_log_opener,priority:1"`
	Address string    `gorm:"size:320;not null;index:idx_invite_log_address,priority:1"`
	At      time.Time `gorm:"not null;index:idx_invite_log_opener,priority:2;index:idx_invite_log_address,priority:2;index"`
}

// TableName keeps the log's table name singular, as a log.
func (InviteLog) TableName() string { return "invite_log" }

// InviteRefusal is a person who asked never to be invited again (STOP,
// or an invitation's List-Unsubscribe address; LEAGUES §6), kept by their
// key (PersonKey; rows from before it, a whole lowercase address).
type InviteRefusal struct {
	Address   string    `gorm:"size:320;primaryKey"`
	CreatedAt time.Time `gorm:"not null"`
}

// Message records a processed inbound message (EMAIL §2.2): a second record
// of the same Message-ID, or of the same (Mailbox, UIDValidity, UID), fails
// with ErrDuplicate.
type Message struct {
	ID        int64  `gorm:"primaryKey"`
	MessageID string `gorm:"size:998;not null;uniqueIndex"`
	// Mailbox, UIDValidity and UID identify the IMAP copy when known; rows
	// with a nil UIDValidity or UID are not constrained by that key.
	Mailbox     string  `gorm:"size:255;not null;default:'';uniqueIndex:idx_messages_uid,priority:1"`
	UIDValidity *uint32 `gorm:"uniqueIndex:idx_messages_uid,priority:2"`
	UID         *uint32 `gorm:"uniqueIndex:idx_messages_uid,priority:3"`
	From        string  `gorm:"column:from_addr;size:320;not null;default:''"`
	// TableID is the table the message was about, if any.
	TableID *int64 `gorm:"index"`
	// Outcome is what became of it: one of table's Outcome constants.
	Outcome string    `gorm:"size:16;not null"`
	Reason  string    `gorm:"type:text;not null;default:''"`
	At      time.Time `gorm:"not null"`
}

// OutboxMail is an outgoing message waiting in the outbox (EMAIL §4.5),
// written in the same transaction as the game change that caused it.
type OutboxMail struct {
	ID      int64  `gorm:"primaryKey"`
	TableID *int64 `gorm:"index"`
	// MessageID is the Message-ID header of Raw, the same on every attempt.
	MessageID string `gorm:"size:998;not null;default:''"`
	// From is the envelope sender; To the envelope recipients.
	From string   `gorm:"column:env_from;size:320;not null;default:''"`
	To   []string `gorm:"column:env_to;type:text;serializer:json;not null"`
	// Raw is the whole rendered message (RFC 5322). It is stored apart,
	// as an OutboxBody: SQLite rewrites a row whole on every UPDATE, and
	// each attempt updates the row twice.
	Raw       []byte    `gorm:"-"`
	CreatedAt time.Time `gorm:"not null"`
	Attempts  int       `gorm:"not null;default:0"`
	// NextAttempt is when the row is due; pending rows are indexed on it.
	NextAttempt time.Time `gorm:"not null;index:idx_outbox_pending,where:sent_at IS NULL AND failed_at IS NULL"`
	LastError   string    `gorm:"type:text;not null;default:''"`
	SentAt      *time.Time
	FailedAt    *time.Time
}

// TableName names OutboxMail's table.
func (OutboxMail) TableName() string { return "outbox" }

// OutboxBody holds the bytes of an outbox row's message.
type OutboxBody struct {
	MailID int64  `gorm:"primaryKey;autoIncrement:false"`
	Raw    []byte `gorm:"not null"`
}

// TableName names OutboxBody's table.
func (OutboxBody) TableName() string { return "outbox_bodies" }

// RateCounter counts the events of one key in the current window.
type RateCounter struct {
	Key         string    `gorm:"column:rate_key;primaryKey;size:400"`
	WindowStart time.Time `gorm:"not null"`
	// WindowEnd is when the window closes: past it the row counts nothing
	// and PruneRates deletes it. Null only in a database of before the
	// column, until migration 8 sets it.
	WindowEnd time.Time `gorm:"index"`
	Count     int       `gorm:"column:hits;not null"`
}

// Vacation is a span during which a player's clocks stop (LEAGUES §3.2),
// on every table of theirs whose league honours vacations.
type Vacation struct {
	ID       int64   `gorm:"primaryKey"`
	PlayerID int64   `gorm:"not null;index"`
	Player   *Player `gorm:"constraint:OnDelete:CASCADE" json:"-"`
	// From and To bound the span [From, To): the clocks stop at From and
	// run again at To. Ending it early moves To to then.
	From time.Time `gorm:"column:from_at;not null"`
	To   time.Time `gorm:"column:to_at;not null"`
	// Days are the whole days charged to the player's yearly allowance,
	// the first beginning at DaysFrom, counted in Zone (clock.Day): the
	// player's zone when they wrote VACATION. Ending early charges only
	// the days begun.
	DaysFrom time.Time `gorm:"not null"`
	Days     int       `gorm:"not null;default:0"`
	Zone     string    `gorm:"size:64;not null;default:''"`
	// EndedAt is when it was ended early (VACATION OFF, a move); nil if
	// it was not.
	EndedAt *time.Time
	// Told is how far the other players were told: VacationUntold,
	// VacationStartTold, VacationEndTold. DueAt is when they are next to
	// be told (From, then To), nil once the end is told.
	Told      int        `gorm:"not null;default:0"`
	DueAt     *time.Time `gorm:"index"`
	CreatedAt time.Time  `gorm:"not null"`
}

// How far a vacation's start and end were told.
const (
	VacationUntold    = 0
	VacationStartTold = 1
	VacationEndTold   = 2
)

// normalize puts the vacation's times in UTC.
func (v *Vacation) normalize() {
	v.From, v.To, v.DaysFrom, v.CreatedAt = v.From.UTC(), v.To.UTC(), v.DaysFrom.UTC(), v.CreatedAt.UTC()
	v.EndedAt, v.DueAt = utcp(v.EndedAt), utcp(v.DueAt)
}

// Season is one season of a league (LEAGUES §7), numbered from 1 per
// league. It runs from Started until its last table ends or Ends
// (Started + season_days); ClosedAt is when it was closed, nil while it
// runs.
type Season struct {
	ID       int64     `gorm:"primaryKey"`
	League   string    `gorm:"size:64;not null;uniqueIndex:idx_seasons_league_number,priority:1"`
	Number   int       `gorm:"not null;uniqueIndex:idx_seasons_league_number,priority:2"`
	Started  time.Time `gorm:"not null"`
	Ends     time.Time `gorm:"not null"`
	ClosedAt *time.Time
}

// SeasonMember is a player of a season's division. Divisions are
// numbered by DivisionOrder, 0 the top one; Seed is the player's place
// in the division's seeding order, from 0.
type SeasonMember struct {
	ID            int64   `gorm:"primaryKey"`
	SeasonID      int64   `gorm:"not null;uniqueIndex:idx_season_members_player,priority:1;index:idx_season_members_division,priority:1"`
	Season        *Season `gorm:"constraint:OnDelete:CASCADE" json:"-"`
	Division      string  `gorm:"size:64;not null"`
	DivisionOrder int     `gorm:"not null;index:idx_season_members_division,priority:2"`
	Seed          int     `gorm:"not null"`
	PlayerID      int64   `gorm:"not null;index;uniqueIndex:idx_season_members_player,priority:2"`
	Player        *Player `gorm:"constraint:OnDelete:RESTRICT"`
	// Weekly is the ISO week ("2026-W49") of the last weekly standings
	// mailed to the player for this season (LEAGUES §9.2), "" for none.
	Weekly string `gorm:"size:10;not null;default:''"`
}

// LeagueTable ties a table to the season, division and round it was
// paired for. A table belongs to at most one season.
type LeagueTable struct {
	TableID       int64   `gorm:"primaryKey;autoIncrement:false"`
	Table         *Table  `gorm:"constraint:OnDelete:CASCADE" json:"-"`
	SeasonID      int64   `gorm:"not null;index;index:idx_league_tables_division,priority:1;index:idx_league_tables_open,priority:1"`
	Season        *Season `gorm:"constraint:OnDelete:CASCADE" json:"-"`
	DivisionOrder int     `gorm:"not null;index:idx_league_tables_division,priority:2"`
	Round         int     `gorm:"not null"` // from 1; 2-player round robins are one round
	// FinishedAt is when the table's game ended, nil while it runs; its
	// SeatResults are written in the same transaction.
	FinishedAt *time.Time `gorm:"index:idx_league_tables_open,priority:2"`
}

// SeatResult is one seat's end of a finished season table (LEAGUES §8):
// the player who held it last, their final score, and LeftOrder, the order in
// which they resigned or forfeited (1 the first to leave), 0 if they
// stayed in. Standings are computed from these rows, without rebuilding
// the games.
type SeatResult struct {
	TableID   int64   `gorm:"primaryKey;autoIncrement:false"`
	Seat      int     `gorm:"primaryKey;autoIncrement:false"`
	Table     *Table  `gorm:"constraint:OnDelete:CASCADE" json:"-"`
	PlayerID  int64   `gorm:"not null;index"`
	Player    *Player `gorm:"constraint:OnDelete:RESTRICT" json:"-"`
	Score     int     `gorm:"not null"`
	LeftOrder int     `gorm:"not null;default:0"`
}

// The kinds of a Signup.
const (
	SignupJoin     = "signup"   // SIGNUP: join the next season
	SignupWithdraw = "withdraw" // WITHDRAW: leave after this one
)

// Signup is a player's SIGNUP or WITHDRAW for a league (LEAGUES §7.4),
// pending until a season is started with it (SeasonID set).
type Signup struct {
	ID       int64     `gorm:"primaryKey"`
	League   string    `gorm:"size:64;not null;index"`
	PlayerID int64     `gorm:"not null;index"`
	Player   *Player   `gorm:"constraint:OnDelete:CASCADE"`
	Kind     string    `gorm:"size:16;not null"`
	At       time.Time `gorm:"not null"`
	SeasonID *int64    `gorm:"index"`
}

// PlayerRating is a player's Glicko-2 rating in the pool of one variant
// (LEAGUES §10.1).
type PlayerRating struct {
	Variant  string  `gorm:"size:16;primaryKey"`
	PlayerID int64   `gorm:"primaryKey;autoIncrement:false"`
	Player   *Player `gorm:"constraint:OnDelete:CASCADE" json:"-"`
	// The numbers are binary doubles on both drivers (gorm would make
	// them PostgreSQL decimals, which keep 15 digits of a float64).
	Rating     float64   `gorm:"type:double precision;not null"`
	RD         float64   `gorm:"column:rd;type:double precision;not null"`
	Volatility float64   `gorm:"type:double precision;not null"`
	Games      int       `gorm:"not null;default:0"` // rated tables played
	UpdatedAt  time.Time `gorm:"not null"`
}

// Confirmation is a command that came to the service's plain address from
// a sender nothing proved (EMAIL §1.7): it waits until the address answers
// the mail that asks whether to do it, once, before Expires.
type Confirmation struct {
	ID int64 `gorm:"primaryKey"`
	// Address is the sender's, lowercase: only it may confirm.
	Address string `gorm:"size:320;not null;index"`
	// Command is the command as the parser writes it (parser.Command's
	// String), read again when it is confirmed.
	Command string `gorm:"size:1000;not null"`
	// Lang is the language the command was written in.
	Lang string `gorm:"size:8;not null;default:en"`
	// MessageID is the message that asked.
	MessageID string    `gorm:"size:998;not null;default:''"`
	CreatedAt time.Time `gorm:"not null"`
	Expires   time.Time `gorm:"not null"`
	// UsedAt is when it was confirmed; nil while it waits.
	UsedAt *time.Time
}

// schemaVersion records the migrations applied to the database.
type schemaVersion struct {
	Version   int       `gorm:"primaryKey;autoIncrement:false"`
	AppliedAt time.Time `gorm:"not null"`
}

// TableName names schemaVersion's table.
func (schemaVersion) TableName() string { return "schema_version" }

// models are migrated in this order (parents before children).
func models() []any {
	return []any{&Player{}, &Table{}, &Seat{}, &Action{}, &Message{}, &OutboxMail{}, &OutboxBody{}, &RateCounter{}, &Vacation{}, &Invitation{},
		&Season{}, &SeasonMember{}, &LeagueTable{}, &SeatResult{}, &Signup{}, &PlayerRating{}, &Confirmation{},
		&InviteLog{}, &InviteRefusal{}}
}

func utcp(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	v := t.UTC()
	return &v
}
