package mailer_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/localmail"
)

func BenchmarkCompose(b *testing.B) {
	env := composeCases()["ics"]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mailer.Compose(env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkComposeNotice composes a late-game turn notice (~45 KB).
func BenchmarkComposeNotice(b *testing.B) {
	env := noticeEnvelope()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mailer.Compose(env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDispatch measures late-game notices sent per second in batches
// of 50 over one loopback connection, to a go-smtp server in the same
// process (whose reading of the message costs about as much as sending).
func BenchmarkDispatch(b *testing.B) {
	ev := &events{}
	sk := newSink(b, ev)
	raw, err := mailer.Compose(noticeEnvelope())
	if err != nil {
		b.Fatal(err)
	}
	o := newOutbox(ev)
	d := newTestDispatcher(b, sk.addr, o, start2026())
	defer d.Close()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	b.ResetTimer()
	for id := int64(0); id < int64(b.N); {
		n := min(50, int64(b.N)-id)
		for range n {
			id++
			o.add(mailer.Outgoing{ID: id, From: "lexio@example.org", To: []string{fmt.Sprintf("p%d@example.org", id%4)}, Raw: raw})
		}
		if res, err := d.RunOnce(context.Background()); err != nil || res.Sent != int(n) {
			b.Fatalf("RunOnce = %+v, %v", res, err)
		}
		sk.mu.Lock()
		sk.got = nil
		sk.mu.Unlock()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}

// BenchmarkReceiverThroughput measures messages handed over and moved per
// second from a pre-filled inbox over loopback IMAP.
func BenchmarkReceiverThroughput(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := localmail.Start(ctx, localmail.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	if err := srv.AddUser("lexio", "secret"); err != nil {
		b.Fatal(err)
	}
	for i := range b.N {
		if err := srv.Deliver("lexio@localhost", testMessage("PASS", fmt.Sprintf("%d@example.org", i), "PASS")); err != nil {
			b.Fatal(err)
		}
	}
	r, err := mailer.NewReceiver(receiverConfig(srv), mailer.HandlerFunc(func(context.Context, mailer.Inbound) error { return nil }))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	for {
		if n, _ := srv.Count("lexio", "Processed"); n == b.N {
			break
		}
		time.Sleep(time.Millisecond)
	}
	b.StopTimer()
	cancel()
	<-done
}
