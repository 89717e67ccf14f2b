package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/config"
)

// lexioAs runs a command line as lexio does when started as prog (its
// os.Args[0]).
func lexioAs(t *testing.T, prog string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }, prog: prog}
	code := run(context.Background(), e, args)
	return code, out.String(), errOut.String()
}

// TestHintsNameTheProgram: a newcomer runs bin/lexio, so every command a
// hint tells them to run is bin/lexio's (#34): the help, the usage of a
// mistake, the next step of a command.
func TestHintsNameTheProgram(t *testing.T) {
	const prog = "bin/lexio"
	_, cfg := adminConfig(t, leagueConfig)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"help"}, []string{"usage: bin/lexio COMMAND [ARGS]", "\n  bin/lexio mail read --as ADDRESS", "`bin/lexio help COMMAND` explains one"}},
		{[]string{"help", "mail"}, []string{"usage: bin/lexio mail COMMAND [ARGS]", "\n  bin/lexio mail send ", "`bin/lexio help mail COMMAND` explains one"}},
		{[]string{"help", "table", "show"}, []string{"usage: bin/lexio table show ", "flags of bin/lexio table show:", "(bin/lexio replay reads it)"}},
		{[]string{"frobnicate"}, []string{"`bin/lexio help` lists them"}},
		{[]string{"help", "frobnicate"}, []string{"`bin/lexio help` lists them"}},
		{[]string{"table", "show", "-c", cfg}, []string{"usage: bin/lexio table show "}},
		{[]string{"league", "standings", "-c", cfg, "club"}, []string{"`bin/lexio league start club` starts the first"}},
	} {
		_, out, errOut := lexioAs(t, prog, tc.args...)
		for _, w := range tc.want {
			if !strings.Contains(out+errOut, w) {
				t.Errorf("%v: no %q in\n%s%s", tc.args, w, out, errOut)
			}
		}
		if strings.Contains(out+errOut, "`lexio ") || strings.Contains(out+errOut, "usage: lexio") {
			t.Errorf("%v: a hint names lexio, not %s:\n%s%s", tc.args, prog, out, errOut)
		}
	}
	// serve and check-config say which command writes a missing refresh
	// token.
	c := &config.Config{}
	c.OAuth2.Grant = config.GrantRefreshToken
	c.OAuth2.RefreshTokenFile = filepath.Join(t.TempDir(), "missing")
	if _, err := tokenSource(c, prog, nil); err == nil || !strings.Contains(err.Error(), "(`bin/lexio auth login` writes it)") {
		t.Errorf("a missing refresh token: %v", err)
	}
}
