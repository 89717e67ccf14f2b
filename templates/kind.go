package templates

import "strconv"

// Kind is a message the service sends. Each kind has a data type of its
// own, which says its kind (Mail): the data of one kind cannot be rendered
// as another's.
type Kind int

// The messages, each with its data type.
const (
	TurnNotice     Kind = iota + 1 // NoticeMsg: to every player after a turn ends (EMAIL §4.2)
	Accepted                       // AcceptedMsg: to the author of an accepted move
	Rejected                       // RejectedMsg: every reason a command was refused (EMAIL §4.1)
	Preview                        // PreviewMsg: what a placement would score (RULES §5.8)
	BoardReply                     // BoardMsg: the state, on BOARD
	LogReply                       // LogMsg: the whole log, on LOG
	GamesReply                     // GamesMsg: the sender's tables, on GAMES
	Help                           // HelpMsg: how to play by mail
	LangChanged                    // LangMsg: LANG confirmed, in the new language
	Reminder                       // ReminderMsg: the turn ends soon (EMAIL §5.1)
	Expired                        // ExpiredMsg: the turn passed, you are away (RULES §9)
	GameOver                       // GameOverMsg: final scores and racks (EMAIL §4.3)
	TableOpened                    // OpenedMsg: NEW
	TableJoined                    // JoinedMsg: JOIN
	TableStarted                   // StartedMsg: START
	TooLarge                       // TooLargeMsg: the message was too big (EMAIL §2.5)
	RepliesPaused                  // PausedMsg: the sender reached the reply bound (EMAIL §2.6)
	HelpRules                      // RulesMsg: the rules of the game, on HELP RULES
	ZoneChanged                    // ZoneMsg: TZ confirmed, the time now in the new zone
	VacationSet                    // VacationMsg: VACATION confirmed, or ended by VACATION OFF
	VacationNotice                 // VacationNoticeMsg: a player's vacation began or ended; your deadline moved
	Invitation                     // InvitationMsg: to an invitee of NEW with addresses (LEAGUES §6)
	InviteAnswer                   // InviteAnswerMsg: to the opener, invitees declined or let it expire
	Withdrawn                      // WithdrawnMsg: to an invitee, the game began without them
	Declined                       // DeclinedMsg: DECLINE confirmed to the invitee
	Resigned                       // ResignedMsg: to a player who left a game that goes on (LEAGUES §2.2)
	SeatTaken                      // SeatMsg: to the new holder of a seat (LEAGUES §4.1)
	NotifyChanged                  // NotifyMsg: NOTIFY confirmed, or an unsubscribe by mail
	Digest                         // DigestMsg: the daily summary of NOTIFY digest
	Said                           // SaidMsg: a player's SAY, to the others at the table
	StandingsReply                 // StandingsMsg: a division's standings, on STANDINGS or weekly (LEAGUES §9.2, §9.4)
	SignupDone                     // SignupMsg: SIGNUP or WITHDRAW confirmed (LEAGUES §7.4)
	Confirm                        // ConfirmMsg: do what came to the plain address in your name? (EMAIL §1.7)
	InvitesRefused                 // NoInviteMsg: STOP confirmed: no more invitations (LEAGUES §6)
	TableLapsed                    // LapsedMsg: an open table not started in time was closed (LEAGUES §6)
	ResignTables                   // ResignTablesMsg: RESIGN without a table: the line resigning each running table
	Gift                           // GiftMsg: GIVE: time given to the player on move, to everyone at the table
	NoteSet                        // NoteMsg: NOTE confirmed to its author, or the note removed
	SayPassed                      // SayPassedMsg: SAY confirmed to its author: their line passed on
)

// kindNames is read-only.
var kindNames = [...]string{
	TurnNotice:     "turn-notice",
	Accepted:       "accepted",
	Rejected:       "rejected",
	Preview:        "preview",
	BoardReply:     "board-reply",
	LogReply:       "log-reply",
	GamesReply:     "games-reply",
	Help:           "help",
	LangChanged:    "lang-changed",
	Reminder:       "reminder",
	Expired:        "expired",
	GameOver:       "game-over",
	TableOpened:    "table-opened",
	TableJoined:    "table-joined",
	TableStarted:   "table-started",
	TooLarge:       "too-large",
	RepliesPaused:  "replies-paused",
	HelpRules:      "help-rules",
	ZoneChanged:    "zone-changed",
	VacationSet:    "vacation-set",
	VacationNotice: "vacation-notice",
	Invitation:     "invitation",
	InviteAnswer:   "invitation-answer",
	Withdrawn:      "invitation-withdrawn",
	Declined:       "invitation-declined",
	Resigned:       "resigned",
	SeatTaken:      "seat-taken",
	NotifyChanged:  "notify-changed",
	Digest:         "digest",
	Said:           "said",
	StandingsReply: "standings",
	SignupDone:     "signup",
	Confirm:        "confirm",
	InvitesRefused: "invitations-refused",
	TableLapsed:    "table-lapsed",
	ResignTables:   "resign-tables",
	Gift:           "time-given",
	NoteSet:        "note-set",
	SayPassed:      "say-passed",
}

// String returns the kind's stable name, e.g. "turn-notice"; it is also
// the name of the message's block in the templates.
func (k Kind) String() string {
	if k <= 0 || int(k) >= len(kindNames) {
		return "kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// Kinds returns every message kind, in order.
func Kinds() []Kind {
	ks := make([]Kind, 0, len(kindNames)-1)
	for k := TurnNotice; int(k) < len(kindNames); k++ {
		ks = append(ks, k)
	}
	return ks
}

// Mail is the data of one message: each kind's data type implements it,
// and says its kind. Only this package's types do.
type Mail interface {
	kind() Kind
	head() Head
}

// KindOf is the kind of message m is the data of.
func KindOf(m Mail) Kind { return m.kind() }
