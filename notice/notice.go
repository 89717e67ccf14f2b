// Package notice turns what happens at a table into outgoing mail: it
// owns a mail's envelope (recipient, Message-ID and threading, reply
// address, List-Unsubscribe, Feedback-ID, the calendar attachment), the
// presenters that turn the engine's views into the templates' data, the
// names players are shown by, and the one way mail is queued: rendered
// while the transaction goes on, enqueued in it, committed with it
// (Writer.Commit).
//
// It knows nothing of commands, seats or leagues: callers say who gets
// which mail (the templates' data, which says its kind).
package notice

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"net/url"
	"strings"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/internal/tablename"
	"github.com/lexio-mail/lexio/internal/weblink"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/replytoken"
	"github.com/lexio-mail/lexio/notice/ics"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/templates"
)

// Options are a Writer's dependencies; Links, Poke and Logger may be nil.
type Options struct {
	Config    *config.Config
	Templates *templates.Set
	Tokens    *replytoken.Tokens
	// Links are the web side's links (EMAIL §7); nil when it is off.
	Links *weblink.Links
	// Poke is called after a commit that queued mail, to wake the
	// dispatcher.
	Poke   func()
	Logger *slog.Logger
}

// Writer writes the service's mail.
type Writer struct {
	cfg    *config.Config
	tmpl   *templates.Set
	tokens *replytoken.Tokens
	links  *weblink.Links
	poke   func()
	log    *slog.Logger
	// local and domain split the service's address.
	local, domain string
}

// New checks the options and returns a Writer.
func New(o Options) (*Writer, error) {
	if o.Config == nil || o.Templates == nil || o.Tokens == nil {
		return nil, errors.New("notice: config, templates and tokens are required")
	}
	local, domain, ok := strings.Cut(o.Config.Mail.Address, "@")
	if !ok {
		return nil, fmt.Errorf("notice: service address %q", o.Config.Mail.Address)
	}
	w := &Writer{cfg: o.Config, tmpl: o.Templates, tokens: o.Tokens, links: o.Links,
		poke: o.Poke, log: o.Logger, local: local, domain: domain}
	if w.poke == nil {
		w.poke = func() {}
	}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	return w, nil
}

// Domain is the service's mail domain.
func (w *Writer) Domain() string { return w.domain }

// Recipient is one player a message goes to.
type Recipient struct {
	Addr, Lang string
	TZ         *time.Location // the zone of the times in their mail
	Pos        int            // seat, -1 for none
	// ID is the seat's player (their web links name it) and League the
	// table's; 0 and "" for a recipient without a seat.
	ID     int64
	League string
}

// Envelope is what a mail needs besides its template data, which says
// the mail's kind.
type Envelope struct {
	Table   string // "" for a message about no table
	Seq     int64  // the table's last action when the mail was written
	To      Recipient
	Reply   string     // the inbound Message-ID this answers, if any
	Cal     *ics.Event // the calendar entry attached, if any
	TableID *int64
	// Extra tells apart messages of one kind to one player in one turn
	// (the reminders).
	Extra string
	// Token, when set, is the reply token of a mail about no table (a
	// confirmation's, EMAIL §1.7): its Reply-To carries it.
	Token string
}

// MessageID names the table, the turn (the action count) and the message
// (its kind), so that a reply to it can be recognised as stale (EMAIL
// §1.5). A reply to a command also names that command, so that two BOARDs
// sent in one turn get two answers.
func (w *Writer) MessageID(e Envelope, kind templates.Kind) string {
	t := e.Table
	if t == "" {
		t = "-"
	}
	id := fmt.Sprintf("lexio.%s.%d.%s.%d", t, e.Seq, kind, e.To.Pos)
	if e.Reply != "" {
		id += "." + ShortHash(e.Reply)
	}
	if e.Extra != "" {
		id += "." + e.Extra
	}
	return "<" + id + "@" + w.domain + ">"
}

// RootID is the thread every message of a table refers to (EMAIL §4.4).
func (w *Writer) RootID(table string) string { return "<lexio." + table + "@" + w.domain + ">" }

// RootTable reads the table out of the thread root of a table's mail at
// domain (RootID, without or with its angle brackets); ok is false for
// any other id.
func RootTable(id, domain string) (table string, ok bool) {
	id = strings.Trim(strings.TrimSpace(id), "<>")
	if table, ok = strings.CutPrefix(id, "lexio."); !ok {
		return "", false
	}
	if table, ok = strings.CutSuffix(table, "@"+domain); !ok || tablename.Check(table) != nil {
		return "", false
	}
	return table, true
}

// NoticeSeq reads the turn out of one of our Message-IDs for table; ok is
// false for anything else.
func (w *Writer) NoticeSeq(id, table string) (int64, bool) {
	id = strings.Trim(strings.TrimSpace(id), "<>")
	rest, ok := strings.CutPrefix(id, "lexio."+table+".")
	if !ok || !strings.HasSuffix(id, "@"+w.domain) {
		return 0, false
	}
	var seq int64
	if _, err := fmt.Sscanf(rest, "%d.", &seq); err != nil {
		return 0, false
	}
	return seq, true
}

// TurnUID names turn n of seat p at a table in every calendar.
func (w *Writer) TurnUID(table string, n, p int) string {
	return fmt.Sprintf("lexio.%s.turn%d.%d@%s", table, n, p, w.domain)
}

// Render writes one message, m, through the templates and composes it
// into an outbox row.
func (w *Writer) Render(e Envelope, m templates.Mail, now time.Time) (*store.OutboxMail, error) {
	if m == nil {
		return nil, store.Permanent(errors.New("notice: render: no message"))
	}
	kind := templates.KindOf(m)
	r, err := w.tmpl.Render(e.To.Lang, m)
	if err != nil {
		return nil, store.Permanent(fmt.Errorf("notice: render %s: %w", kind, err))
	}
	env := mailer.Envelope{
		From:          mail.Address{Name: w.cfg.Mail.Name, Address: w.cfg.Mail.Address},
		To:            []mail.Address{{Address: e.To.Addr}},
		ReplyTo:       w.cfg.Mail.Address,
		Subject:       r.Subject,
		Date:          now,
		MessageID:     w.MessageID(e, kind),
		AutoSubmitted: "auto-generated",
		Text:          r.Text,
		HTML:          r.HTML,
	}
	env.ListUnsubscribe = w.UnsubscribeURI(e, kind)
	if env.ListUnsubscribe != "" && e.Table != "" && e.To.ID != 0 && w.links != nil {
		// RFC 8058: the one-click URL does what the address does.
		env.UnsubscribeURL = w.links.Unsubscribe(e.Table, e.To.ID)
	}
	env.FeedbackID = w.feedbackID(e, kind)
	if e.Table != "" {
		root := w.RootID(e.Table)
		env.InReplyTo, env.References = root, []string{root}
		if !w.cfg.Mail.TokenInSubject {
			env.ReplyTo = replytoken.ReplyAddress(w.local, w.domain, w.tokens.Token(e.Table, e.To.Addr))
		}
	}
	if e.Token != "" && !w.cfg.Mail.TokenInSubject {
		env.ReplyTo = replytoken.ReplyAddress(w.local, w.domain, e.Token)
	}
	if e.Reply != "" {
		env.InReplyTo = "<" + strings.Trim(e.Reply, "<>") + ">"
		env.References = append(env.References, env.InReplyTo)
		env.AutoSubmitted = "auto-replied"
	}
	if e.Cal != nil {
		title, err := w.tmpl.CalendarTitle(e.To.Lang, e.Cal.Table, e.Cal.Deadline, e.Cal.TZ, e.Cal.Cancel)
		if err != nil {
			return nil, store.Permanent(fmt.Errorf("notice: calendar of %s: %w", kind, err))
		}
		name := "deadline.ics"
		if e.Cal.Cancel {
			name = "cancel.ics"
		}
		env.Attachments = []mailer.Attachment{{
			Filename:    name,
			ContentType: "text/calendar; charset=utf-8; method=" + e.Cal.Method(),
			Data:        ics.Encode(*e.Cal, title),
		}}
	}
	raw, err := mailer.Compose(env)
	if err != nil {
		return nil, store.Permanent(fmt.Errorf("notice: compose %s: %w", kind, err))
	}
	return &store.OutboxMail{
		TableID: e.TableID, MessageID: env.MessageID, From: w.cfg.Mail.Address,
		To: []string{e.To.Addr}, Raw: raw, CreatedAt: now,
	}, nil
}

// feedbackID is the Feedback-ID header of a mail (the form Gmail's
// feedback loop reads, "<campaign>:<customer>:<mail type>:<sender>"):
// the mail's kind, its table ("-" for none), "lexio" and the service's
// domain, so that complaint reports can be counted per kind of mail and
// per table. It names no player.
func (w *Writer) feedbackID(e Envelope, kind templates.Kind) string {
	table := e.Table
	if table == "" {
		table = "-"
	}
	return kind.String() + ":" + table + ":lexio:" + w.domain
}

// UnsubscribeURI is the List-Unsubscribe address (RFC 2369, LEAGUES §5.2)
// of a mail of that kind the player did not ask for: a notice about a
// table, whose address sets NOTIFY turn there, or the digest, whose
// address sets it for every table; an invitation's refuses every
// invitation (LEAGUES §6). Answers to commands carry none.
func (w *Writer) UnsubscribeURI(e Envelope, kind templates.Kind) string {
	if kind == templates.Invitation || kind == templates.Withdrawn {
		return w.NoInviteURI(e.To.Addr)
	}
	table := ""
	switch {
	case kind == templates.Digest:
	case e.Table != "" && e.To.Pos >= 0 && e.Reply == "":
		table = e.Table
	default:
		return ""
	}
	tag := table
	if tag == "" {
		tag = "-" // the digest's names no table
	}
	return w.tokenURI(tag, w.tokens.Unsubscribe(table, e.To.Addr))
}

// NoInviteURI is the List-Unsubscribe address of the mail to an invitee:
// writing to it refuses every invitation (LEAGUES §6).
func (w *Writer) NoInviteURI(addr string) string {
	return w.tokenURI("-", w.tokens.NoInvite(addr))
}

// tokenURI is the mailto: URI that carries token: its plus-address, or
// with token_in_subject the service's address and the subject tag
// "[Lexio <tag> <token>]".
func (w *Writer) tokenURI(tag, token string) string {
	if w.cfg.Mail.TokenInSubject {
		return mailtoURI(w.cfg.Mail.Address, "[Lexio "+tag+" "+token+"]")
	}
	return mailtoURI(replytoken.ReplyAddress(w.local, w.domain, token), "")
}

// mailtoURI returns the mailto: URI (RFC 6068) of addr, with a subject
// when one is given: the List-Unsubscribe address where the token goes in
// the subject tag.
func mailtoURI(addr, subject string) string {
	u := url.URL{Scheme: "mailto", Opaque: addr}
	if subject != "" {
		u.RawQuery = "subject=" + url.PathEscape(subject)
	}
	return u.String()
}

// Head fills what every message says about its recipient and table.
func (w *Writer) Head(table string, to Recipient, now time.Time) templates.Head {
	h := templates.Head{To: DisplayName(to.Addr), Table: table, Now: now, TZ: to.TZ}
	if table != "" && w.cfg.Mail.TokenInSubject {
		h.Tag = "[Lexio " + table + " " + w.tokens.Token(table, to.Addr) + "]"
	}
	if table != "" && to.ID != 0 && w.links != nil {
		// EMAIL §7.1: the player's own page, and the table's spectator
		// link where the league allows spectators.
		h.View = w.links.Player(table, to.ID)
		if l := w.cfg.League(to.League); l != nil && l.Spectators {
			h.Watch = w.links.Spectator(table)
		}
	}
	return h
}

// ShortHash names a message in another's Message-ID.
func ShortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}
