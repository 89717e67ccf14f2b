package table

// The outcomes of an inbound message, as its record (store.Message)
// keeps them: what the inbox and the commands decided.
const (
	OutcomeApplied  = "applied"
	OutcomeIgnored  = "ignored"
	OutcomeRejected = "rejected"
	OutcomeError    = "error"
	// OutcomePending: the command waits for its sender to confirm it
	// (EMAIL §1.7); the confirmation's answer is a message of its own.
	OutcomePending = "pending"
)

// The mail a player may choose with NOTIFY (LEAGUES §5.1), as the player's
// and the seat's rows keep it.
const (
	NotifyAll    = "all"    // a notice after every turn
	NotifyTurn   = "turn"   // only the mail that needs them
	NotifyDigest = "digest" // turn, and a daily summary
)
