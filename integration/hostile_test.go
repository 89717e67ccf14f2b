//go:build integration

package integration

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"
)

// hostile is one bad message of the corpus.
type hostile struct {
	kind    string
	account string // who submits it
	id      string // its Message-ID
	raw     string
	to      string
	// ignored: EMAIL §2.3 says never answer it.
	ignored bool
}

// hostileCorpus generates the bad messages, seeded: huge ones, deeply
// nested MIME, broken charsets, binary attachments, 10k-line bodies,
// header injection attempts in commands, NUL bytes, auto-responder mail
// that would loop, and malformed MIME of other kinds. Where a readable
// command hides in one, it is an information command (BOARD, HELP, LOG):
// a bad message must never be what moves the game.
func hostileCorpus(r *rand.Rand, to string) []hostile {
	var out []hostile
	senders := []string{"alice", "bob", "eve"}
	add := func(kind string, ignored bool, header, body string) {
		who := senders[len(out)%len(senders)]
		id := newMessageID(who)
		from := addr(who)
		if strings.Contains(header, "From:") {
			from = ""
		}
		var b strings.Builder
		if from != "" {
			fmt.Fprintf(&b, "From: %s\n", from)
		}
		fmt.Fprintf(&b, "To: %s\nDate: %s\nMessage-ID: <%s>\n", to, time.Now().Format(time.RFC1123Z), id)
		if !strings.Contains(header, "Subject:") {
			b.WriteString("Subject: lexio\n")
		}
		b.WriteString(header)
		b.WriteString("\n")
		b.WriteString(body)
		out = append(out, hostile{kind: kind, account: who, id: id, raw: b.String(), to: to, ignored: ignored})
	}
	text := "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
	junk := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		return b
	}
	wrap := func(s string, w int) string {
		var b strings.Builder
		for len(s) > w {
			b.WriteString(s[:w] + "\n")
			s = s[w:]
		}
		return b.String() + s + "\n"
	}
	// Huge: over max_message_bytes (1 MiB).
	for _, size := range []int{1<<20 + 1000, 3 << 20, 8 << 20} {
		add("huge", false, text, "BOARD\n"+strings.Repeat(strings.Repeat("x", 76)+"\n", size/77))
		add("huge attachment", false, "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n",
			"--b\nContent-Type: text/plain\n\nBOARD\n--b\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n"+
				wrap(base64.StdEncoding.EncodeToString(junk(size)), 76)+"--b--\n")
	}
	// Deeply nested MIME.
	for _, depth := range []int{20, 60, 100, 300, 1000} {
		for _, leaf := range []string{"BOARD", "HELP"} {
			var h, b strings.Builder
			h.WriteString("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=n0\n")
			for i := 1; i < depth; i++ {
				fmt.Fprintf(&b, "--n%d\nContent-Type: multipart/mixed; boundary=n%d\n\n", i-1, i)
			}
			fmt.Fprintf(&b, "--n%d\nContent-Type: text/plain\n\n%s\n", depth-1, leaf)
			for i := depth - 1; i >= 0; i-- {
				fmt.Fprintf(&b, "--n%d--\n", i)
			}
			add(fmt.Sprintf("nested %d", depth), false, h.String(), b.String())
		}
	}
	add("nested, never closed", false, "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=a\n", strings.Repeat("--a\nContent-Type: multipart/mixed; boundary=a\n\n", 500))
	// Broken charsets.
	for _, cs := range []string{"x-unknown", "utf-7", "iso-2022-jp", "", "utf-8\"; x=\"", "windows-1252", "iso-8859-15", "ebcdic-cp-us", "utf-16", "gb18030", "\x00", "utf-8; charset=latin1"} {
		add("charset "+fmt.Sprintf("%q", cs), false, fmt.Sprintf("MIME-Version: 1.0\nContent-Type: text/plain; charset=\"%s\"\n", cs), "BOARD\n\xff\xfe\xc3\x28 caf\xe9\n")
		add("charset in subject "+fmt.Sprintf("%q", cs), false, fmt.Sprintf("Subject: =?%s?B?%s?=\n%s", cs, base64.StdEncoding.EncodeToString(junk(40)), text), "\xc3\x28\xa0\xa1\n")
	}
	for i := 0; i < 10; i++ {
		add("invalid utf-8", false, text, string(junk(200))+"\nBOARD\n")
		add("bad quoted-printable", false, "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n", "PA=S=ZZ=\n=4\n"+strings.Repeat("=", i*10))
		add("bad base64", false, "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n", "!!!not base64"+strings.Repeat("*", i)+"\n")
	}
	// Binary attachments and bodies.
	for i := 0; i < 15; i++ {
		add("binary attachment", false, "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=zz\n",
			"--zz\nContent-Type: application/octet-stream; name=a.bin\nContent-Disposition: attachment; filename=a.bin\nContent-Transfer-Encoding: base64\n\n"+
				wrap(base64.StdEncoding.EncodeToString(junk(1000+r.IntN(100000))), 76)+"--zz--\n")
		add("binary body", false, "MIME-Version: 1.0\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: 8bit\n", wrap(strings.ReplaceAll(string(junk(5000)), "\n", ""), 500))
		add("image only", false, "MIME-Version: 1.0\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n", wrap(base64.StdEncoding.EncodeToString(junk(20000)), 76))
	}
	// 10k-line bodies.
	for i := 0; i < 8; i++ {
		var b strings.Builder
		for l := 0; l < 10000; l++ {
			fmt.Fprintf(&b, "line %d of nothing in particular %d\n", l, r.IntN(1000))
		}
		if i%2 == 0 {
			b.WriteString("LOG\n")
		}
		add("10k lines", false, text, b.String())
		add("10k quoted lines", false, text, "\n"+strings.Repeat("> PLACE H7 ACROSS CHAT\n", 10000))
	}
	// Header injection attempts in commands.
	injections := []string{
		"LANG en\r\nBcc: eve@localhost",
		"JOIN foo\nBcc: eve@localhost\nX-Injected: yes",
		"HELP%0d%0aBcc:%20eve@localhost",
		"PLACE H7 ACROSS CHAT\rBcc: eve@localhost",
		"BOARD\u2028Bcc: eve@localhost",
		"NEW lexio\r\n\r\nTo: eve@localhost",
		"GAMES <eve@localhost>\r\nCc: eve@localhost",
		"LANG \"en\r\nBcc: eve@localhost\"",
	}
	for _, inj := range injections {
		add("injection in body", false, text, inj+"\n")
		add("injection in encoded subject", false, "Subject: =?utf-8?B?"+base64.StdEncoding.EncodeToString([]byte(inj))+"?=\n"+text, "")
		add("injection in Reply-To", false, "Reply-To: \"x\r\nBcc: eve@localhost\" <alice@localhost>\n"+text, inj+"\n")
		add("injection in encoded From name", false, "From: =?utf-8?Q?Al=0D=0ABcc:_eve@localhost?= <alice@localhost>\n"+text, "BOARD\n")
	}
	// NUL bytes.
	for i := 0; i < 10; i++ {
		add("NUL in body", false, text, "PA\x00SS\n"+strings.Repeat("\x00", i*100)+"\n")
		add("NUL in subject", false, "Subject: BOARD\x00\x00"+strings.Repeat("\x00", i)+"\n"+text, "")
		add("NUL in header name", false, "X-Bad\x00Header: 1\n"+text, "HELP\n")
	}
	// Mail that would loop with an auto-responder: never answered.
	loops := []string{
		"Auto-Submitted: auto-replied\n",
		"Auto-Submitted: auto-generated\n",
		"X-Autoreply: yes\n",
		"X-Autorespond: on vacation\n",
		"Precedence: bulk\n",
		"Precedence: junk\n",
		"Precedence: list\n",
		"List-Id: <players.lists.localhost>\n",
		"From: MAILER-DAEMON@localhost (Mail Delivery System)\n",
		"From: postmaster@localhost\n",
		"From: no-reply@localhost\n",
		"From: " + stack.serviceAddress + "\n",
	}
	for rep := 0; rep < 3; rep++ {
		for _, h := range loops {
			add("auto-responder "+strings.TrimSpace(strings.SplitN(h, ":", 2)[0]), true, h+"Subject: Out of office: Re: [Lexio hx] It is your turn\n"+text,
				"I am away until Monday.\n\n> It is your turn. Reply with PLACE H7 ACROSS CHAT\n")
		}
		add("delivery report", true, "MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary=r\n",
			"--r\nContent-Type: text/plain\n\nDelivery failed.\n--r\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; localhost\n\nFinal-Recipient: rfc822; x@localhost\nAction: failed\nStatus: 5.0.0\n--r--\n")
	}
	// Other malformed MIME.
	add("no boundary", false, "MIME-Version: 1.0\nContent-Type: multipart/mixed\n", "BOARD\n")
	add("empty", false, text, "")
	add("only spaces", false, text, strings.Repeat(" \t\n", 1000))
	add("html bomb", false, "MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n", strings.Repeat("<div>", 50000)+"BOARD"+strings.Repeat("</div>", 10))
	add("html script", false, "MIME-Version: 1.0\nContent-Type: text/html; charset=utf-8\n", "<script>PASS</script><style>PASS</style><p>no command here</p>")
	add("long header line", false, "X-Long: "+strings.Repeat("a", 200000)+"\n"+text, "HELP\n")
	add("many headers", false, strings.Repeat("X-Many: 1\n", 5000)+text, "HELP\n")
	add("message/rfc822 in rfc822", false, "MIME-Version: 1.0\nContent-Type: message/rfc822\n", strings.Repeat("Content-Type: message/rfc822\n\n", 200)+"BOARD\n")
	add("bad content-type", false, "MIME-Version: 1.0\nContent-Type: ;;;===\n", "BOARD\n")
	add("unknown encoding", false, "MIME-Version: 1.0\nContent-Type: text/plain\nContent-Transfer-Encoding: x-uuencode-or-not\n", "begin 644 x\nBOARD\n")
	add("unknown command", false, text, "DESTROY ALL TABLES; DROP TABLE messages;\n")
	add("overlong command", false, text, "PLACE H7 ACROSS "+strings.Repeat("A", 100000)+"\n")
	add("bad cell", false, text, "PLACE Z99 ACROSS CHAT\n")
	return out
}

// TestHostileInput sends the corpus through Postfix to alice's reply
// address and the service's plain address: the daemon never crashes and
// never stalls, records every message as rejected or ignored (EMAIL §2.3,
// §2.5) with a reply to those it answers, never one to the ignored, lets
// no injected header through; then a good move is applied.
func TestHostileInput(t *testing.T) {
	resetMail(t)
	p := simulate(t, tableSpec{"hx", []string{"alice", "bob"}, 21}, 3, 0, 2)
	d := startDaemon(t, daemonOpts{tables: []tableSpec{p.spec}, words: p.words})
	boxes := mailboxes(t, "alice", "bob", "eve")
	n0 := waitNotice(t, boxes["alice"], "hx", 0)
	r := rand.New(rand.NewPCG(5, 55))
	corpus := hostileCorpus(r, replyAddress("hx", "alice"))
	corpus = append(corpus, hostileCorpus(r, stack.serviceAddress)[:60]...)
	if len(corpus) < 200 {
		t.Fatalf("only %d hostile messages", len(corpus))
	}
	start := time.Now()
	var bytes int
	for _, h := range corpus {
		send(t, h.account, []string{h.to}, h.raw)
		bytes += len(h.raw)
		d.checkAlive()
	}
	t.Logf("%d hostile messages (%.1f MiB) submitted in %s", len(corpus), float64(bytes)/(1<<20), time.Since(start).Round(time.Millisecond))

	// A good move after them: applied.
	good := newMessageID("alice")
	to, raw := account("alice").Reply(n0, p.turns[0].cmd, time.Now(), good)
	send(t, "alice", []string{to}, string(raw))
	if rec := d.message(good, 3*time.Minute); rec.Outcome != "applied" {
		t.Fatalf("the good move after the corpus: %s %s", rec.Outcome, rec.Reason)
	}
	t.Logf("the good move was applied %s after the first hostile message was sent", time.Since(start).Round(time.Millisecond))
	// Postfix may deliver a large message after the small move sent last:
	// every message must be recorded, whenever it arrives.
	waitFor(t, "a record of every hostile message", 2*time.Minute, func() bool {
		d.checkAlive()
		for _, h := range corpus {
			if _, ok := d.record(h.id); !ok {
				return false
			}
		}
		return true
	})

	outcomes := map[string]int{}
	missing := 0
	var answered, ignored []hostile
	noCommand := map[string][]hostile{}
	silent := 0
	for _, h := range corpus {
		rec, ok := d.record(h.id)
		if !ok {
			missing++
			t.Logf("%s (%s): no record under its Message-ID", h.kind, h.id)
			continue
		}
		outcomes[string(rec.Outcome)+" "+rec.Reason]++
		switch {
		case rec.Outcome == "applied" && (strings.HasPrefix(rec.Reason, "PASS") || strings.HasPrefix(rec.Reason, "PLACE") || strings.HasPrefix(rec.Reason, "EXCHANGE")):
			t.Errorf("%s: a move was applied (%s)", h.kind, rec.Reason)
		case h.ignored && rec.Outcome != "ignored":
			t.Errorf("%s: %s %s, want ignored (EMAIL §2.3)", h.kind, rec.Outcome, rec.Reason)
		case rec.Outcome == "ignored":
			ignored = append(ignored, h)
		case h.account == "eve" && rec.Reason == "bad-token":
			// A stranger using a player's reply address is not answered:
			// the From may be forged (EMAIL §1.3).
			silent++
		case rec.Reason == "no-command":
			// A message without a command is answered once an hour per
			// sender, so that no auto-responder keeps a loop going.
			noCommand[h.account] = append(noCommand[h.account], h)
		default:
			answered = append(answered, h)
		}
	}
	if missing > 0 {
		t.Errorf("%d of %d messages were not recorded under their Message-ID", missing, len(corpus))
	}
	var keys []string
	for k := range outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%4d %s", outcomes[k], k)
	}
	if g := d.game("hx"); len(g.Actions()) != 1 {
		t.Errorf("the game has %d actions, want the good move only", len(g.Actions()))
	}
	d.outboxEmpty(2 * time.Minute)
	waitFor(t, "Postfix to deliver", 60*time.Second, postfixQueueEmpty)

	// Every answered message got a reply to its sender; no ignored one did.
	replies := map[string]int{}
	for _, who := range []string{"alice", "bob", "eve"} {
		for _, m := range boxes[who].mustPoll(t) {
			replies[m.InReplyTo]++
			for _, bad := range []string{"Bcc", "Cc", "X-Injected"} {
				if v := m.Header(bad); v != "" {
					t.Errorf("%s: %s carries %s: %s", who, m.MessageID, bad, v)
				}
			}
			if m.ReplyTo != "" && !strings.HasPrefix(m.ReplyTo, stack.service) {
				t.Errorf("%s: %s has Reply-To %s", who, m.MessageID, m.ReplyTo)
			}
		}
	}
	unanswered := 0
	for _, h := range answered {
		if replies[h.id] == 0 {
			unanswered++
			if unanswered <= 10 {
				t.Logf("no reply to %s (%s)", h.kind, h.id)
			}
		}
	}
	if unanswered > 0 {
		t.Errorf("%d of %d rejected messages got no reply", unanswered, len(answered))
	}
	for who, hs := range noCommand {
		got := 0
		for _, h := range hs {
			got += replies[h.id]
		}
		if got != 1 {
			t.Errorf("%s sent %d messages without a command and got %d replies to them, want 1", who, len(hs), got)
		}
	}
	for _, h := range ignored {
		if replies[h.id] != 0 {
			t.Errorf("ignored %s was answered: a mail loop", h.kind)
		}
	}
	t.Logf("%d answered with a reply, %d ignored, %d refused without a reply (a stranger's From), %d without a command from %d senders", len(answered), len(ignored), silent, len(noCommand["alice"])+len(noCommand["bob"])+len(noCommand["eve"]), len(noCommand))
	// No stall: the service's INBOX is empty, everything moved to Processed.
	inbox := newMailbox(stack.service)
	defer inbox.close()
	if msgs := inbox.mustPoll(t); len(msgs) != 0 {
		t.Errorf("%d messages left in the service's INBOX", len(msgs))
	}
}
