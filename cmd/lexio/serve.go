package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/mailer/localmail"
	"github.com/lexio-mail/lexio/scheduler"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/templates"
)

func runServe(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "serve")
	path := fs.String("c", configPath(e), "configuration `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return serve(ctx, e, *path, nil)
}

// newLogger writes text lines at the configured level to stderr.
func newLogger(e *env, level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: l}))
}

// serve runs the daemon until ctx ends. SIGHUP reloads the configuration:
// the pipeline stops between two messages and starts again with the new
// file (an invalid file is logged and the old one kept). started, when
// set, is called once everything listens (the demo prints its guide then).
func serve(ctx context.Context, e *env, path string, started func(*daemon)) error {
	cfg, err := config.Load(path)
	if err != nil {
		return err
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	log := newLogger(e, cfg.LogLevel)
	if e.getenv("GOGC") == "" {
		// The daemon's live heap is a few MB and each move allocates about
		// 2 MB of mail: collecting less often saves a fifth of a move's CPU.
		debug.SetGCPercent(400)
	}
	var mail *localmail.Server
	if cfg.Embedded.Enabled {
		// The embedded mail server outlives reloads: its mailboxes are in
		// memory.
		if mail, err = startLocalMail(ctx, cfg, log); err != nil {
			return err
		}
		defer mail.Close()
	}
	for {
		d, err := newDaemon(ctx, cfg, mail, log)
		if err != nil {
			return err
		}
		runCtx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- d.run(runCtx) }()
		if started != nil {
			started(d)
			started = nil
		}
		select {
		case <-ctx.Done():
			stop()
			err := <-done
			log.Info("stopped")
			return err
		case err := <-done:
			stop()
			return err
		case <-hup:
			log.Info("SIGHUP: reloading the configuration", "file", path)
			next, err := config.Load(path)
			if err != nil {
				log.Error("reload refused; the running configuration stays", "err", err)
				stop()
				<-done
				continue
			}
			if next.Embedded.Enabled != cfg.Embedded.Enabled || next.Storage != cfg.Storage {
				log.Warn("storage and [embedded] changes take effect at the next start")
				next.Embedded, next.Storage = cfg.Embedded, cfg.Storage
			}
			stop()
			<-done
			cfg, log = next, newLogger(e, next.LogLevel)
		}
	}
}

func startLocalMail(ctx context.Context, cfg *config.Config, log *slog.Logger) (*localmail.Server, error) {
	srv, err := localmail.Start(ctx, localmail.Options{
		IMAPAddr: cfg.Embedded.IMAPListen, SMTPAddr: cfg.Embedded.SMTPListen,
		Domain: cfg.Embedded.Domain, Dir: cfg.Embedded.MailDir, Logger: log.With("part", "localmail"),
	})
	if err != nil {
		return nil, fmt.Errorf("embedded mail server: %w", err)
	}
	local, _, _ := strings.Cut(cfg.Mail.Address, "@")
	for _, u := range append([]string{local}, cfg.Embedded.Users...) {
		if err := srv.AddUser(u, u); err != nil {
			srv.Close()
			return nil, err
		}
	}
	return srv, nil
}

// daemon is one run of the pipeline: store, service, receiver,
// dispatcher, scheduler.
type daemon struct {
	cfg   *config.Config
	log   *slog.Logger
	store *store.Store
	svc   *table.Service
	disp  *mailer.Dispatcher
	recv  *mailer.Receiver
	sched *scheduler.Scheduler
	mail  *localmail.Server
}

// newDaemon builds every part from the configuration, with explicit
// dependencies.
func newDaemon(ctx context.Context, cfg *config.Config, mail *localmail.Server, log *slog.Logger) (*daemon, error) {
	d := &daemon{cfg: cfg, log: log, mail: mail}
	var err error
	if d.store, err = openStore(ctx, cfg, log); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			d.store.Close()
		}
	}()
	words, st, err := dict.Open(cfg.Dictionary)
	if err != nil {
		return nil, fmt.Errorf("%w (Debian's French list: apt-get install wfrench)", err)
	}
	log.Info("dictionary loaded", "file", cfg.Dictionary, "words", st.Kept)
	tmpl, err := templates.New()
	if err != nil {
		return nil, err
	}
	secret, err := cfg.Secret()
	if err != nil {
		return nil, err
	}

	imapAddr, imapTLS, smtpAddr, smtpTLS := cfg.IMAP.Address, mailer.TLSMode(cfg.IMAP.TLS), cfg.SMTP.Address, mailer.TLSMode(cfg.SMTP.TLS)
	imapUser, smtpUser := cfg.IMAP.Username, cfg.SMTP.Username
	var imapPass, smtpPass string
	if mail != nil {
		local, _, _ := strings.Cut(cfg.Mail.Address, "@")
		imapAddr, smtpAddr, imapTLS, smtpTLS = mail.IMAPAddr(), mail.SMTPAddr(), mailer.TLSNone, mailer.TLSNone
		imapUser, imapPass, smtpUser = local, local, ""
	} else {
		if imapPass, err = cfg.IMAPPassword(); err != nil {
			return nil, fmt.Errorf("imap password: %w", err)
		}
		if smtpUser != "" {
			if smtpPass, err = cfg.SMTPPassword(); err != nil {
				return nil, fmt.Errorf("smtp password: %w", err)
			}
		}
	}
	d.disp, err = mailer.NewDispatcher(mailer.DispatcherConfig{
		Addr: smtpAddr, TLS: smtpTLS, CAFile: cfg.SMTP.CAFile, Username: smtpUser, Password: smtpPass,
		Interval: 5 * time.Second, MaxAttempts: cfg.SMTP.MaxAttempts, MaxAge: cfg.SMTP.MaxAge,
		Connections: cfg.SMTP.Connections,
		Logger:      log.With("part", "smtp"),
	}, table.Outbox(d.store))
	if err != nil {
		return nil, err
	}
	d.svc, err = table.New(table.Options{Config: cfg, Store: d.store, Dict: words, Templates: tmpl,
		Secret: secret, Poke: d.disp.Poke, Logger: log.With("part", "table")})
	if err != nil {
		return nil, err
	}
	d.recv, err = mailer.NewReceiver(mailer.ReceiverConfig{
		Addr: imapAddr, TLS: imapTLS, CAFile: cfg.IMAP.CAFile, Username: imapUser, Password: imapPass,
		Mailbox: cfg.IMAP.Mailbox, Processed: cfg.IMAP.ProcessedMailbox, PollInterval: cfg.IMAP.PollInterval,
		DisableIdle: !*cfg.IMAP.IDLE, MaxMessageBytes: cfg.Mail.MaxMessageBytes, Logger: log.With("part", "imap"),
	}, d.svc)
	if err != nil {
		return nil, err
	}
	d.sched, err = scheduler.New(scheduler.Options{Tables: d.svc, Sweep: d.disp.Poke, Logger: log.With("part", "scheduler")})
	if err != nil {
		return nil, err
	}
	ok = true
	return d, nil
}

func openStore(ctx context.Context, cfg *config.Config, log *slog.Logger) (*store.Store, error) {
	o := store.Options{Driver: cfg.Storage.Driver, SQLitePath: cfg.Storage.SQLitePath, Logger: log.With("part", "store")}
	if o.Driver == store.DriverPostgres {
		dsn, err := cfg.PostgresDSN()
		if err != nil {
			return nil, fmt.Errorf("postgres dsn: %w", err)
		}
		o.PostgresDSN = dsn
	}
	return store.Open(ctx, o)
}

// run starts the configured tables, then receives, sends and ticks until
// ctx ends: new mail and ticks stop first, the transaction in flight
// finishes, then the store closes.
func (d *daemon) run(ctx context.Context) error {
	defer d.store.Close()
	if err := d.svc.EnsureTables(ctx); err != nil {
		return err
	}
	// Mail whose sending was cut short by a stop or a crash goes first.
	if n, err := d.store.Outbox().Resume(ctx, time.Now()); err != nil {
		return err
	} else if n > 0 {
		d.log.Info("resuming interrupted mail", "mails", n)
	}
	d.log.Info("lexio serving", "address", d.cfg.Mail.Address, "storage", d.cfg.Storage.Driver)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for _, part := range []func(context.Context) error{d.recv.Run, d.disp.Run, d.sched.Run} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := part(ctx); err != nil && !errors.Is(err, context.Canceled) {
				errs <- err
				cancel() // one part failing stops the others
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}
