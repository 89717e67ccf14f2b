package store

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkApplyMessageTx measures the store's share of handling one inbound
// move: one transaction that records the message, appends an action, saves
// the table row and enqueues 4 mails of ~20 KB. ops/s is reported.
func BenchmarkApplyMessageTx(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchApply(b, sqliteOpener(b)) })
	b.Run("postgres", func(b *testing.B) { benchApply(b, postgresOpener(b)) })
}

func benchApply(b *testing.B, open opener) {
	s := open(b)
	ctx := context.Background()
	tab := newTable(b, s, "bench", 4)
	raw := bytes.Repeat([]byte("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789\r\n"), 270) // ~20 KB
	to := [][]string{{"p0@example.org"}, {"p1@example.org"}, {"p2@example.org"}, {"p3@example.org"}}
	b.SetBytes(int64(4 * len(raw)))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		at := t0.Add(time.Duration(i) * time.Second)
		err := s.Tx(ctx, func(tx *Tx) error {
			msgID := fmt.Sprintf("<bench.%d@example.org>", i)
			if err := tx.RecordMessage(&Message{MessageID: msgID, From: "p0@example.org", TableID: &tab.ID, Outcome: "applied", At: at}); err != nil {
				return err
			}
			if _, err := tx.AppendAction(tab.ID, tab.Seq+1, "place", `{"word":"CHAT","cell":"G7","dir":"across","score":12}`, at); err != nil {
				return err
			}
			next := *tab
			next.Seq, next.TurnStarted, next.Deadline = tab.Seq+1, &at, ptr(at.Add(72*time.Hour))
			if err := tx.SaveTable(&next, tab.Seq); err != nil {
				return err
			}
			ms := make([]*OutboxMail, 4)
			for j := range ms {
				ms[j] = &OutboxMail{TableID: &tab.ID, MessageID: fmt.Sprintf("<t.%d.%d@lexio>", i, j), From: "lexio@example.org", To: to[j], Raw: raw, CreatedAt: at}
			}
			if err := enqueue(tx, ms); err != nil {
				return err
			}
			*tab = next
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}
