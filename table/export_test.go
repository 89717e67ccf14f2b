package table

// SetTickHook makes the deadline job call f in each table's transaction, after the
// table is read and before anything is written: a test holds it there to
// let a message change the table meanwhile.
func SetTickHook(s *Service, f func(tableID int64)) { s.tickHook = f }
