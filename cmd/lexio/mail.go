package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/mailer/client"
	"github.com/lexio-mail/lexio/mailer/replytoken"
	"github.com/lexio-mail/lexio/notice"
	"github.com/lexio-mail/lexio/parser"
	"github.com/lexio-mail/lexio/store"
)

// mailConfig reads the configuration of the embedded mail server at path
// (-c, by default configPath's).
func mailConfig(path string) (*config.Config, error) {
	c, err := loadConfig(path)
	if err != nil {
		return nil, err
	}
	if !c.Embedded.Enabled {
		return nil, fmt.Errorf("%s: the mail commands talk to the embedded mail server, and [embedded] is not enabled", path)
	}
	return c, nil
}

// account is a player's mailbox on the embedded server: the password is
// the user's name (see config.example.toml, [embedded]). An address that
// is none of [embedded] users is refused before any login, naming them.
func account(c *config.Config, as string) (client.Account, error) {
	as = strings.ToLower(strings.TrimSpace(as))
	local, domain, ok := strings.Cut(as, "@")
	if !ok || local == "" || domain != c.Embedded.Domain {
		return client.Account{}, fmt.Errorf("%w: --as takes a player's address, like alice@%s", errUsage, c.Embedded.Domain)
	}
	users := make([]string, len(c.Embedded.Users))
	known := false
	for i, u := range c.Embedded.Users {
		users[i] = strings.ToLower(u) + "@" + c.Embedded.Domain
		known = known || users[i] == as
	}
	if !known {
		if len(users) == 0 {
			return client.Account{}, fmt.Errorf("%w: --as %s: not a mailbox of the built-in server, which has no users ([embedded] users)", errUsage, parser.Shown(as))
		}
		return client.Account{}, fmt.Errorf("%w: --as %s: not a mailbox of the built-in server; its users are %s", errUsage, parser.Shown(as), strings.Join(users, ", "))
	}
	return client.Account{IMAPAddr: c.Embedded.IMAPListen, SMTPAddr: c.Embedded.SMTPListen,
		Username: local, Password: local, Address: as}, nil
}

func runMailRead(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "mail read")
	as := fs.String("as", "", "the player's `address`, e.g. alice@localhost")
	list := fs.Bool("list", false, "list the messages instead of showing one: number, date, size, subject")
	n := fs.Int("n", 0, "show message `N` of the list (default: the newest)")
	html := fs.Bool("html", false, "print only the message's HTML part, to save as a page")
	raw := fs.Bool("raw", false, "print the message exactly as delivered, headers and body, byte for byte (control characters too: redirect it to a file)")
	cfgPath := fs.String("c", configPath(e), "configuration `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *raw && (*html || *list) {
		return fmt.Errorf("%w: --raw prints one message whole, so neither --html nor --list goes with it", errUsage)
	}
	c, err := mailConfig(*cfgPath)
	if err != nil {
		return err
	}
	acc, err := account(c, *as)
	if err != nil {
		return err
	}
	msgs, err := acc.Fetch(ctx)
	if err != nil {
		return err
	}
	if len(msgs) == 0 {
		fmt.Fprintf(e.stdout, "%s has no mail yet.\n", acc.Address)
		return nil
	}
	if *list {
		for i, m := range msgs {
			fmt.Fprintf(e.stdout, "%3d  %s  %7s  %s\n", i+1, m.Date.Local().Format("Jan 2 15:04"), byteSize(m.Size), parser.Shown(m.Subject))
		}
		return nil
	}
	i := len(msgs)
	if *n != 0 {
		i = *n
	}
	if i < 1 || i > len(msgs) {
		return fmt.Errorf("%w: -n %d: %s has %d messages", errUsage, i, acc.Address, len(msgs))
	}
	m := msgs[i-1]
	if *raw {
		// As the server keeps it: what a host needs to see what was
		// delivered, or to hand to lexio parse.
		_, err := e.stdout.Write(m.Raw)
		return err
	}
	if *html {
		// The HTML part alone, as it came: `> page.html` saves the page.
		if m.HTML == "" {
			return fmt.Errorf("message %d of %d (%s) has no HTML part", i, len(msgs), parser.Shown(m.Subject))
		}
		fmt.Fprint(e.stdout, parser.ShownText(m.HTML))
		return nil
	}
	// What the sender chose is shown with its control characters
	// escaped: never raw to the terminal.
	fmt.Fprintf(e.stdout, "Message %d of %d\nFrom: %s\nDate: %s\nSubject: %s\n", i, len(msgs), parser.Shown(m.From), m.Date.Local().Format(time.RFC1123), parser.Shown(m.Subject))
	if len(m.Attachments) > 0 {
		fmt.Fprintf(e.stdout, "Attached: %s\n", strings.Join(parser.ShownAll(m.Attachments), ", "))
	}
	fmt.Fprintf(e.stdout, "\n%s\n", parser.ShownText(m.Text))
	return nil
}

func runMailSend(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "mail send")
	as := fs.String("as", "", "the player's `address`, e.g. alice@localhost")
	tableName := fs.String("table", "", "the `table` to write to (default: the newest mail's; for a move, when the mail holds notices of several tables, the one where it is the player's turn)")
	to := fs.String("to", "", "write to this `address` instead (e.g. lexio@localhost for NEW, JOIN, HELP)")
	wait := fs.Duration("wait", 5*time.Second, "how long to wait for the answer")
	cfgPath := fs.String("c", configPath(e), "configuration `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c, err := mailConfig(*cfgPath)
	if err != nil {
		return err
	}
	acc, err := account(c, *as)
	if err != nil {
		return err
	}
	body := strings.Join(fs.Args(), " ")
	if body == "-" || body == "" {
		b, err := io.ReadAll(io.LimitReader(e.stdin, 1<<20))
		if err != nil {
			return err
		}
		body = string(b)
	}
	if strings.TrimSpace(body) == "" {
		return fmt.Errorf("%w: a command, e.g. 'PLACE G7 ACROSS CHAT' (or - to read it from standard input)", errUsage)
	}
	before, err := acc.Fetch(ctx)
	if err != nil {
		return err
	}
	now := time.Now()
	id := fmt.Sprintf("%d.%s@%s", now.UnixNano(), acc.Username, c.Embedded.Domain)
	rcpt := *to
	if *tableName != "" {
		// A fresh message to the table's reply address, as its notices give.
		if rcpt, err = tableAddress(c, acc, *tableName); err != nil {
			return err
		}
	}
	answered := before
	if rcpt == "" && isTurnCommand(firstLine(body)) {
		name, why, err := replyTable(ctx, e, c, acc, before)
		if err != nil {
			return err
		}
		if name != "" {
			answered = tableMail(before, c.Mail.Address, name)
			fmt.Fprintf(e.stdout, "table %s: %s\n", name, why)
		}
	}
	rcpt, raw := acc.Command(answered, c.Mail.Address, rcpt, firstLine(body), body, now, id)
	if err := acc.Send(ctx, []string{rcpt}, raw); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "sent to %s: %s\n", rcpt, firstLine(body))
	news, err := acc.Await(ctx, len(before), *wait)
	if err != nil {
		if err == ctx.Err() {
			return nil
		}
		return err
	}
	if len(news) == 0 {
		fmt.Fprintf(e.stdout, "no answer yet; look later with: %s mail read --as %s\n", e.program(), acc.Address)
		return nil
	}
	for _, m := range news {
		fmt.Fprintf(e.stdout, "new mail: %s\n", m.Subject)
	}
	fmt.Fprintf(e.stdout, "read it with: %s mail read --as %s\n", e.program(), acc.Address)
	return nil
}

// isTurnCommand reports whether line is a move, which only the player on
// move may make: it goes to the table where it is their turn. Any other
// command (CONFIRM, JOIN, NOTE…) answers the newest mail, whatever it is.
func isTurnCommand(line string) bool {
	c, err := parser.ParseCommand(line)
	if err != nil {
		return false
	}
	return c.Kind.IsMove()
}

// replyTable chooses the table a move with neither --table nor --to
// answers, and says why, when the player's mail holds notices of several
// tables (else "": the newest notice is answered): the table where it is
// their turn, as the store has it. Their turn at several tables, or at
// none, is a usage error naming the tables, for --table: guessing would
// send a move to a table where it is refused, or worse, played.
func replyTable(ctx context.Context, e *env, c *config.Config, acc client.Account, inbox []client.Message) (name, why string, err error) {
	names := mailTables(inbox, c.Mail.Address)
	if len(names) < 2 {
		return "", "", nil
	}
	svc, closeFn, err := adminServiceOf(ctx, e, c)
	if err != nil {
		return "", "", fmt.Errorf("%w: your mail holds notices of %d tables, and the store cannot say where it is your turn (%v): say which, with %s", errUsage, len(names), err, tableFlags(names))
	}
	defer closeFn()
	var mine []string
	for _, n := range names {
		t, err := svc.Views.Show(ctx, n)
		if errors.Is(err, store.ErrNotFound) {
			continue // an open table that lapsed
		}
		if err != nil {
			return "", "", err
		}
		if t.Turn >= 0 && t.Turn < len(t.Players) && strings.EqualFold(t.Players[t.Turn], acc.Address) {
			mine = append(mine, n)
		}
	}
	switch len(mine) {
	case 1:
		return mine[0], "it is your turn there (of the tables your mail comes from: " + strings.Join(names, ", ") + ")", nil
	case 0:
		return "", "", fmt.Errorf("%w: your mail holds notices of %d tables (%s), and it is your turn at none: say which, with %s", errUsage, len(names), strings.Join(names, ", "), tableFlags(names))
	}
	return "", "", fmt.Errorf("%w: it is your turn at %d tables: say which, with %s", errUsage, len(mine), tableFlags(mine))
}

// mailTables names the tables of the service's mail in inbox, the newest
// notice's first. A table's mail is in its thread, whose root every one
// references: <lexio.TABLE@domain> (EMAIL §4.4).
func mailTables(inbox []client.Message, service string) []string {
	var names []string
	for i := len(inbox) - 1; i >= 0; i-- {
		if n := threadTable(inbox[i], service); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// tableMail is the service's mail of table name in inbox.
func tableMail(inbox []client.Message, service, name string) []client.Message {
	var out []client.Message
	for _, m := range inbox {
		if threadTable(m, service) == name {
			out = append(out, m)
		}
	}
	return out
}

// threadTable is the table whose thread m, from the service, belongs to;
// "" for other mail.
func threadTable(m client.Message, service string) string {
	_, domain, _ := strings.Cut(service, "@")
	if !strings.EqualFold(m.From, service) {
		return ""
	}
	for _, id := range append([]string{m.InReplyTo}, m.References...) {
		if n, ok := notice.RootTable(id, domain); ok {
			return n
		}
	}
	return ""
}

// tableFlags writes the choice of tables as flags: "--table t1 or
// --table t2".
func tableFlags(names []string) string {
	fs := make([]string, len(names))
	for i, n := range names {
		fs[i] = "--table " + n
	}
	return strings.Join(fs, " or ")
}

// tableAddress is the player's reply address for the table, as the
// table's notices give it.
func tableAddress(c *config.Config, acc client.Account, tableName string) (string, error) {
	secret, err := c.Secret()
	if err != nil {
		return "", err
	}
	if err := tablename.Check(tableName); err != nil {
		return "", fmt.Errorf("%w: --table: %w", errUsage, err)
	}
	local, domain, _ := strings.Cut(c.Mail.Address, "@")
	return replytoken.ReplyAddress(local, domain, replytoken.NewTokens(secret).Token(tableName, acc.Address)), nil
}

// byteSize is a message's size as a mail client lists it: bytes below
// 1 KB, else KB or MB with one decimal (1 KB = 1024 bytes).
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}
