// Package lexiotest is a whole lexio service in-process, for tests: the
// store on a real SQLite file or a PostgreSQL schema of the test's own,
// the parts wired by the daemon's own constructor (service.New), its jobs in
// their order, and the mail in memory or over the libraries' real
// servers with sockets; with the helpers the tests of several packages
// share to send mail, read it back and check what it says. It knows
// nothing of what any test checks.
package lexiotest
