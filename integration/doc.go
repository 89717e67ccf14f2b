// Package integration runs the real `lexio serve` binary against a real
// Dovecot and Postfix on 127.0.0.1 (scripts/mailstack.sh): whole games,
// identity attacks, kill -9 crashes, mail server outages, OAuth2 logins
// against a token server of the test's own, hostile mail and load. The tests are behind the build tag "integration" and run with
// `make test-integration`, which starts and stops the mail stack.
package integration
