package inbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
)

// maxFailedReason bounds the reason recorded for a message given up.
const maxFailedReason = 1 << 10

// Failed records a message the receiver gave up on (mailer.FailureRecorder):
// its handling failed too many times in a row, or panicked. The message
// is recorded as HandleMessage records one it cannot handle, with the
// error outcome and cause as its reason, without any game change or
// reply; a copy delivered again is then a duplicate. Only the header is
// read: reading the body may be what failed. Failed returns an error
// only when the record could not be written (the message then stays in
// the inbox).
func (s *Service) Failed(ctx context.Context, in mailer.Inbound, cause error) error {
	opt := s.parserOptions()
	opt.MaxBytes = 1 // every message is larger: Parse stops after the header
	m := parser.Parse(in.Raw, opt)
	id := inboundID(m, in.Raw)
	log := s.Log.With("message_id", id, "from", m.From)
	rec := inboundRecord(in, m, id, s.Now())
	rec.Outcome, rec.Reason = table.OutcomeError, failedReason(cause)
	err := s.Store.Tx(ctx, func(tx *store.Tx) error { return recordMessage(tx, rec, log) })
	switch {
	case errors.Is(err, errHandled):
		log.Info("message given up by the receiver was already recorded", "cause", cause)
		return nil
	case err != nil:
		return err
	}
	log.Error("message given up: recorded as an error", "reason", rec.Reason)
	s.handled(rec.Outcome)
	return nil
}

// inboundRecord is the record of message in, read as m, named id, at now;
// its outcome is for the caller to set.
func inboundRecord(in mailer.Inbound, m *parser.Message, id string, now time.Time) *store.Message {
	rec := &store.Message{MessageID: id, Mailbox: in.Mailbox, From: m.From, At: now}
	if in.UID != 0 {
		v, u := in.UIDValidity, in.UID
		rec.UIDValidity, rec.UID = &v, &u
	}
	return rec
}

// inboundID is the name HandleMessage and Failed record a message under:
// its Message-ID (the store keeps one over its column's 998 octets by its
// digest), or without one a digest of its content, so that a redelivered
// copy is still recognised.
func inboundID(m *parser.Message, raw []byte) string {
	if m.MessageID != "" {
		return m.MessageID
	}
	sum := sha256.Sum256(raw)
	return "sha256-" + hex.EncodeToString(sum[:16])
}

// failedReason is the recorded reason of a message given up: the cause,
// cut to maxFailedReason bytes.
func failedReason(cause error) string {
	r := "given up by the receiver: "
	if cause != nil {
		r += cause.Error()
	}
	if len(r) > maxFailedReason {
		n := maxFailedReason
		for n > 0 && !utf8.RuneStart(r[n]) {
			n--
		}
		r = r[:n]
	}
	return r
}
