package table

// SetTickHook makes the deadline job call f in each table's transaction, after the
// table is read and before anything is written: a test holds it there to
// let a message change the table meanwhile.
func SetTickHook(s *Service, f func(tableID int64)) { s.tickHook = f }

// PairingSeed is the seed of a league season's 3- and 4-player pairings.
func PairingSeed(league string, season int) uint64 { return pairingSeed(league, season) }
