package mailer

import "errors"

var (
	// ErrConfig reports an unusable configuration.
	ErrConfig = errors.New("mailer: bad configuration")
	// ErrNoCertificates reports a CA file without a PEM certificate.
	ErrNoCertificates = errors.New("mailer: no certificates found")
	// ErrHeaderInjection reports a header value with a line break.
	ErrHeaderInjection = errors.New("mailer: line break in header value")
)

// SendKind classifies a failed SMTP delivery.
type SendKind int

const (
	// SendTemporary is a 4xx reply or a network failure: try again later.
	SendTemporary SendKind = iota
	// SendPermanent is a 5xx reply to MAIL, RCPT or DATA: do not retry.
	SendPermanent
)

func (k SendKind) String() string {
	if k == SendPermanent {
		return "permanent"
	}
	return "temporary"
}

// SendError is a failed delivery of one outbox row.
type SendError struct {
	Kind SendKind
	// Code is the SMTP reply code, 0 when there was none (network error).
	Code int
	Err  error
}

func (e *SendError) Error() string {
	return "mailer: send (" + e.Kind.String() + "): " + e.Err.Error()
}

func (e *SendError) Unwrap() error { return e.Err }
