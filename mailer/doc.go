// Package mailer moves lexio's mail: it reads the service's IMAP inbox and
// hands each message to a Handler (Receiver), sends the rows of an outbox
// through SMTP (Dispatcher) and builds outgoing messages (Compose); the
// logins present a password or an OAuth2 token (OAuthTokens). The reply
// tokens of EMAIL §1.2–1.3 are mailer/replytoken's.
// ConnectIMAP, LoginIMAP and DialSMTP open one session as the Receiver and
// the Dispatcher do, for the setup check of mailer/probe.
//
// The package knows nothing of games. It defines the small interfaces it
// consumes — Handler for inbound mail, Outbox for outbound rows — and the
// table service implements them.
//
// Delivery guarantees: the Receiver flags and moves a message only after
// the Handler returned nil (its transaction committed), so a crash leaves
// the message in the inbox and it is handed over again; the Handler dedupes
// by Message-ID or UIDVALIDITY+UID. The Dispatcher records each attempt and
// the next attempt time before it sends, so a crash mid-send retries later
// (a message may then be sent twice, never lost; the Message-ID is the same
// on every try so that clients can recognise the copy).
package mailer
