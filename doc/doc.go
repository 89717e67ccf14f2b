// Package doc holds the repository's own reference — rules.md,
// email.md, leagues.md, architecture.md, performance.md — and the tests
// that keep it true to the code: every "RULES §", "EMAIL §" and
// "LEAGUES §" citation resolves to a numbered section, and
// architecture.md's imports are what the packages import. It has no code
// of its own.
package doc
