package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/lexio-mail/lexio/config"
	"github.com/lexio-mail/lexio/parser"
)

func runParse(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "parse")
	asJSON := fs.Bool("json", false, "one JSON object per message per line")
	service := fs.String("service", "", "the service's address (default: mail.address of the configuration, when it exists)")
	cfgPath := fs.String("c", configPath(e), "configuration `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: at least one message file", errUsage)
	}
	opt := parser.Options{ServiceAddress: *service}
	if _, err := os.Stat(*cfgPath); err == nil {
		c, err := config.Load(*cfgPath)
		if err != nil {
			return err
		}
		if opt.ServiceAddress == "" {
			opt.ServiceAddress = c.Mail.Address
		}
		opt.MaxBytes, opt.TokenInSubject = c.Mail.MaxMessageBytes, c.Mail.TokenInSubject
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	failed := 0
	for _, name := range fs.Args() {
		raw, err := os.ReadFile(name)
		if err != nil {
			// Keep going: one unreadable file must not hide the others.
			fmt.Fprintf(e.stderr, "lexio parse: %v\n", err)
			failed++
			continue
		}
		m := parser.Parse(raw, opt)
		if *asJSON {
			if err := enc.Encode(m.Summary()); err != nil {
				return err
			}
			continue
		}
		s := m.Summary()
		fmt.Fprintf(e.stdout, "%s\n  message-id: %s\n  from:       %s\n  subject:    %s\n  token:      %s\n",
			name, s.MessageID, s.From, s.Subject, orNone(s.Token))
		switch {
		case s.Ignored != "":
			fmt.Fprintf(e.stdout, "  ignored:    %s (EMAIL §2.3)\n", s.Ignored)
		case s.Command != "":
			fmt.Fprintf(e.stdout, "  command:    %s (from the %s, language %s)\n", s.Command, m.CommandSource, orNone(s.Lang))
		default:
			fmt.Fprintf(e.stdout, "  error:      %s\n", s.Error)
		}
	}
	if failed > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of %d files could not be read", failed, fs.NArg())}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
