package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/dict"
	"github.com/lexio-mail/lexio/internal/weblink"
	"github.com/lexio-mail/lexio/mailer"
	"github.com/lexio-mail/lexio/scheduler"
	"github.com/lexio-mail/lexio/service"
	"github.com/lexio-mail/lexio/service/watch"
	"github.com/lexio-mail/lexio/store"
	"github.com/lexio-mail/lexio/store/outbox"
	"github.com/lexio-mail/lexio/store/outboxmail"
	"github.com/lexio-mail/lexio/table"
	"github.com/lexio-mail/lexio/web"
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

// serve runs the daemon until ctx ends, for the commands (serve, demo):
// SIGHUP reloads the configuration.
func serve(ctx context.Context, e *env, path string, started func(*daemon)) error {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	return serveWith(ctx, e, path, started, hup)
}

// serveWith runs the daemon until ctx ends. Each value from reload
// re-reads the file: the new pipeline is built first (secrets, dictionary,
// templates) and replaces the old one between two messages only when it
// is complete; a file that fails is logged and the running pipeline goes
// on untouched. The store and the embedded mail server outlive reloads
// (storage and [embedded] changes need a restart). started, when set, is
// called once the file's tables are open (the demo prints its guide then).
func serveWith(ctx context.Context, e *env, path string, started func(*daemon), reload <-chan os.Signal) error {
	cfg, err := loadConfig(path)
	if err != nil {
		return err
	}
	log := newLogger(e, cfg.LogLevel)
	// Everything the file names is checked before anything starts.
	n, err := resolve(cfg, e.program())
	if err != nil {
		return err
	}
	var mail *localMail
	if cfg.Embedded.Enabled {
		// The embedded mail server outlives reloads (its mailboxes are in
		// memory, or journaled under mail_dir).
		if mail, err = startLocalMail(ctx, cfg, log); err != nil {
			return err
		}
		defer mail.Close()
	}
	st, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer st.Close() // after the last pipeline stopped
	// The metrics and the service manager outlive reloads, as the store does.
	w, err := watch.Start(watch.Options{Listen: cfg.Metrics.Listen, NotifySocket: e.getenv("NOTIFY_SOCKET"), Store: st, Log: log})
	if err != nil {
		return err
	}
	defer w.Close()
	d, err := newDaemon(cfg, n, st, mail, log, w)
	if err != nil {
		return err
	}
	for {
		runCtx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		var ready func()
		if started != nil {
			first, tell := d, started
			ready = func() { tell(first) }
			started = nil
		}
		go func() { done <- d.run(runCtx, ready) }()
		var next *daemon
		for next == nil {
			select {
			case <-ctx.Done():
				w.Stopping()
				stop()
				err := <-done
				d.log.Info("stopped")
				return err
			case err := <-done:
				stop()
				return err
			case <-reload:
				w.ReloadBegan()
				next = d.reloaded(ctx, e, path, w)
				if next == nil {
					w.ReloadEnded()
				}
			}
		}
		stop()
		if err := <-done; err != nil {
			return err
		}
		d = next
		w.ReloadEnded()
	}
}

// reloaded builds the pipeline of the file at path around d's store and
// mail server and opens the file's new tables, or logs why not and
// returns nil; d runs meanwhile. The new pipeline tells w as d does.
func (d *daemon) reloaded(ctx context.Context, e *env, path string, w *watch.Watch) *daemon {
	d.log.Info("reloading the configuration", "file", path)
	cfg, err := loadConfig(path)
	var next *daemon
	if err == nil {
		if cfg.Embedded.Enabled != d.cfg.Embedded.Enabled || cfg.Embedded.IMAPListen != d.cfg.Embedded.IMAPListen ||
			cfg.Embedded.SMTPListen != d.cfg.Embedded.SMTPListen || cfg.Storage != d.cfg.Storage || cfg.Metrics != d.cfg.Metrics {
			d.log.Warn("storage, [embedded] and [metrics] changes take effect at the next start")
		}
		cfg.Embedded, cfg.Storage = d.cfg.Embedded, d.cfg.Storage
		var n *needs
		if n, err = resolve(cfg, e.program()); err == nil {
			next, err = newDaemon(cfg, n, d.store, d.mail, newLogger(e, cfg.LogLevel), w)
		}
		if err == nil {
			err = next.parts.Lobby.EnsureTables(ctx)
		}
	}
	if err != nil {
		d.log.Error("reload refused; the running configuration stays", "err", err)
		return nil
	}
	return next
}

// daemon is one run of the pipeline: service, receiver, dispatcher,
// scheduler, around a store and mail server it does not own.
type daemon struct {
	cfg   *config.Config
	log   *slog.Logger
	store *store.Store
	disp  *mailer.Dispatcher
	recv  *mailer.Receiver
	sched *scheduler.Scheduler
	// parts are the services.
	parts *service.Parts
	mail  *localMail
	web   *web.Server // nil when [web] is off
	// gaddag is the dictionary's, for the moves the demo's guide suggests.
	gaddag *dict.Gaddag
}

// newDaemon builds every part from the configuration and what resolve
// read, with explicit dependencies and w's hooks. It opens no connection.
func newDaemon(cfg *config.Config, n *needs, st *store.Store, mail *localMail, log *slog.Logger, w *watch.Watch) (*daemon, error) {
	d := &daemon{cfg: cfg, log: log, store: st, mail: mail, gaddag: n.gaddag}
	n.watch = w
	log.Info("dictionary loaded", "file", cfg.Dictionary, "words", n.wordCount)
	for _, w := range cfg.Warnings() {
		log.Warn(w)
	}
	rc, dc := mailConfigs(cfg, n, mail)
	var err error
	dc.Interval, dc.MaxAttempts, dc.MaxAge = 5*time.Second, cfg.SMTP.MaxAttempts, cfg.SMTP.MaxAge
	dc.Connections, dc.Ran, dc.Logger = cfg.SMTP.Connections, w.Ran, log.With("part", "smtp")
	d.disp, err = mailer.NewDispatcher(dc, outboxmail.New(st))
	if err != nil {
		return nil, err
	}
	var links *weblink.Links
	if cfg.Web.On() {
		links = weblink.New(cfg.Web.BaseURL, n.secret)
	}
	d.parts, err = service.New(table.Options{Config: cfg, Store: st, Dict: n.words, Gaddag: n.gaddag, Templates: n.tmpl,
		Secret: n.secret, Poke: d.disp.Poke, Logger: log.With("part", "table"), Links: links}, log)
	if err != nil {
		return nil, err
	}
	if links != nil {
		d.web, err = web.New(web.Options{Source: d.parts.Views, Unsubscriber: d.parts.Players, Leagues: d.parts.Seasons, Links: links, Templates: n.tmpl, Lang: cfg.Language,
			Logger: log.With("part", "web")})
		if err != nil {
			return nil, err
		}
	}
	rc.Connected, rc.MaxMessageBytes, rc.Logger = w.IMAP, cfg.Mail.MaxMessageBytes, log.With("part", "imap")
	d.recv, err = mailer.NewReceiver(rc, d.parts.Inbox)
	if err != nil {
		return nil, err
	}
	d.parts.Inbox.Handled = w.Handled
	d.sched, err = d.parts.Scheduler(scheduler.Options{Sweep: d.disp.Poke, Ticked: w.Ticked, Logger: log.With("part", "scheduler")})
	if err != nil {
		return nil, err
	}
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
// ctx ends: new mail and ticks stop first, the message or tick in flight
// commits (the receiver and the scheduler give it a context of its own),
// the receiver moves what was handled, the dispatcher stops between two
// mails; run returns once every part has, and serve then closes the store.
// ready, when set, is called once the configured tables are open.
func (d *daemon) run(ctx context.Context, ready func()) error {
	if err := d.parts.Lobby.EnsureTables(ctx); err != nil {
		return err
	}
	if ready != nil {
		ready()
	}
	// Mail whose sending was cut short by a stop or a crash goes first.
	if n, err := outbox.New(d.store).Resume(ctx, time.Now()); err != nil {
		return err
	} else if n > 0 {
		d.log.Info("resuming interrupted mail", "mails", n)
	}
	d.log.Info("lexio serving", "address", d.cfg.Mail.Address, "storage", d.cfg.Storage.Driver)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	parts := []func(context.Context) error{d.recv.Run, d.disp.Run, d.sched.Run}
	if d.web != nil {
		serveWeb, err := d.web.Listen(d.cfg.Web.Listen, d.cfg.Web.BaseURL, d.log)
		if err != nil {
			return err
		}
		parts = append(parts, serveWeb)
	}
	errs := make(chan error, len(parts))
	for _, part := range parts {
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
