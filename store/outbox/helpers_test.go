package outbox_test

import "github.com/lexio-mail/lexio/store/testdb"

// The helpers the store's sub-packages share (store/testdb).
var (
	t0         = testdb.T0
	eachDriver = testdb.EachDriver
	mustTx     = testdb.MustTx
)

type opener = testdb.Opener
