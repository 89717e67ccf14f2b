package table

import (
	"time"

	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/store"
)

// outgoing collects the mails of one transaction. Each is rendered in a
// goroutine of its own from the moment it is queued — its data is read
// from the game before, so rendering touches nothing shared — while the
// transaction goes on with the database; wait gathers them in the order
// they were queued.
type outgoing struct {
	pending []*pendingMail
}

type pendingMail struct {
	done chan struct{}
	mail *store.OutboxMail
	err  error
}

// add starts rendering one mail.
func (o *outgoing) add(s *Service, e envelope, data any, now time.Time) {
	if botseat.Is(e.to.addr) {
		return // the computer's seat reads no mail
	}
	p := &pendingMail{done: make(chan struct{})}
	o.pending = append(o.pending, p)
	go func() {
		defer close(p.done)
		p.mail, p.err = s.render(e, data, now)
	}()
}

// wait returns every mail once rendered, or the first error.
func (o *outgoing) wait() ([]*store.OutboxMail, error) {
	mails := make([]*store.OutboxMail, 0, len(o.pending))
	var first error
	for _, p := range o.pending {
		<-p.done
		if p.err != nil && first == nil {
			first = p.err
		}
		mails = append(mails, p.mail)
	}
	if first != nil {
		return nil, first
	}
	return mails, nil
}
