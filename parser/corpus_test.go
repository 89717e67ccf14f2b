package parser

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lexio-mail/lexio/parser/mailtext"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

const testService = "lexio@example.org"

// corpusOptions are the options a corpus message is parsed with: files
// named subjtoken-* come from a provider without plus-addressing.
func corpusOptions(name string) Options {
	return Options{ServiceAddress: testService, TokenInSubject: strings.HasPrefix(name, "subjtoken-")}
}

// corpusExpect is what each corpus message must yield, independent of the
// golden files (which -update rewrites): the canonical command, or the
// ignore reason, or the error kind; and the token.
var corpusExpect = map[string]struct {
	command, ignored, errKind, token, lang string
}{
	"resign-en":                    {command: "RESIGN t42", token: "T42A7KQ2XMBD", lang: "en"},
	"resign-fr-abandonner":         {command: "RESIGN t42", token: "T42A7KQ2XMBD", lang: "fr"},
	"resign-bare-es":               {command: "RESIGN", lang: "es"}, // no table: nothing resigned, the lines answered
	"vacation-cmd-days-es":         {command: "VACATION 7", token: "T42A7KQ2XMBD", lang: "es"},
	"vacation-cmd-dates-en":        {command: "VACATION 2026-12-20 2026-12-27", token: "T42A7KQ2XMBD", lang: "en"},
	"vacation-cmd-off-fr":          {command: "VACATION OFF", token: "T42A7KQ2XMBD", lang: "fr"},
	"notify-turn-en":               {command: "NOTIFY turn", token: "T42A7KQ2XMBD", lang: "en"},
	"say-good-luck-en":             {command: "SAY good luck", token: "T42A7KQ2XMBD", lang: "en"},
	"note-en":                      {command: "NOTE t42 keep the S for the triple at M13", token: "T42A7KQ2XMBD", lang: "en"},
	"note-off-es":                  {command: "NOTE t42 OFF", token: "T42A7KQ2XMBD", lang: "es"},
	"note-fr":                      {command: "NOTE t42 garder le W pour la case rouge ; Léa tient le Z", token: "T42A7KQ2XMBD", lang: "fr"},
	"new-invite-en":                {command: "NEW lexio alice@x.org bob@y.org", lang: "en"},
	"decline-es":                   {command: "DECLINE", token: "T42A7KQ2XMBD", lang: "es"},
	"standings-fr":                 {command: "STANDINGS", lang: "fr"},
	"signup-en":                    {command: "SIGNUP autumn", lang: "en"},
	"withdraw-es":                  {command: "WITHDRAW autumn", lang: "es"},
	"rematch-es":                   {command: "REMATCH t42", token: "T42A7KQ2XMBD", lang: "es"},
	"give-en":                      {command: "GIVE t42 24h", token: "T42A7KQ2XMBD", lang: "en"},
	"give-es":                      {command: "GIVE t42 48h", token: "T42A7KQ2XMBD", lang: "es"},
	"give-fr":                      {command: "GIVE t42 36h", token: "T42A7KQ2XMBD", lang: "fr"},
	"gmail-top-posted-en":          {command: "PLACE H7 ACROSS CHAT", token: "T42A7KQ2XMBD", lang: "en"},
	"gmail-bottom-posted-en":       {command: "PASS", token: "T42A7KQ2XMBD", lang: "en"},
	"gmail-es-base64":              {command: "PLACE H7 ACROSS CASA", token: "T42A7KQ2XMBD", lang: "es"},
	"gmail-fr-attribution-wrapped": {command: "PLACE H7 DOWN ETE", token: "T42A7KQ2XMBD", lang: "fr"},
	"outlook-desktop-en-cp1252":    {command: "EXCHANGE QX?", token: "T42A7KQ2XMBD", lang: "en"},
	"outlook-fr-message-origine":   {command: "EXCHANGE ALL", token: "T42A7KQ2XMBD", lang: "fr"},
	"outlook-es-mensaje-original":  {command: "EXCHANGE 1 4 7", token: "T42A7KQ2XMBD", lang: "es"},
	"outlook-web-html-only":        {command: "BOARD", token: "T42A7KQ2XMBD", lang: "en"},
	"apple-mail-html-only-fr":      {command: "PLACE H7 ACROSS C(HA)T", token: "T42A7KQ2XMBD", lang: "fr"},
	"thunderbird-flowed":           {command: "PREVIEW H7 DOWN CHAT", token: "T42A7KQ2XMBD", lang: "en"},
	"thunderbird-bottom-signature": {command: "LOG", token: "T42A7KQ2XMBD", lang: "en"},
	"iphone-es-pasar":              {command: "PASS", token: "T42A7KQ2XMBD", lang: "es"},
	"iphone-fr-base64":             {command: "LOG", token: "T42A7KQ2XMBD", lang: "fr"},
	"android-samsung-en":           {command: "EXCHANGE ALL", token: "T42A7KQ2XMBD", lang: "en"},
	"outlook-android-es":           {command: "HELP", token: "T42A7KQ2XMBD", lang: "es"},
	"laposte-fr-aide-regles":       {command: "HELP RULES", token: "T42A7KQ2XMBD", lang: "fr"},
	"yahoo-webmail-fr":             {command: "LANG fr", token: "T42A7KQ2XMBD", lang: "fr"},
	"webmail-iso-8859-15":          {command: "PREVIEW H7 ACROSS COEUR", token: "T42A7KQ2XMBD", lang: "fr"},
	"webmail-iso-8859-1":           {command: "PLACE H7 DOWN ETE", token: "T42A7KQ2XMBD", lang: "fr"},
	"windows-1252-commencer":       {command: "START", token: "T43BBBBBBBBB", lang: "fr"},
	"subject-only-encoded-word":    {command: "EXCHANGE QX?", token: "T42A7KQ2XMBD", lang: "fr"},
	"subject-only-prefixes":        {command: "PASS", token: "T42A7KQ2XMBD", lang: "es"},
	"gmail-html-only-blank":        {command: "PLACE H7 ACROSS CHaT", token: "T42A7KQ2XMBD", lang: "fr"},
	"nested-multipart-attachments": {command: "PLACE H7 ACROSS CHaT", token: "T42A7KQ2XMBD", lang: "en"},
	"forward-rfc822-attached":      {command: "GAMES", token: "T42A7KQ2XMBD", lang: "en"},
	"vacation-auto-submitted":      {ignored: mailtext.IgnoreAutoSubmitted},
	"vacation-x-autoreply-fr":      {ignored: mailtext.IgnoreAutoReply},
	"vacation-precedence-bulk":     {ignored: mailtext.IgnorePrecedence},
	"bounce-dsn":                   {ignored: mailtext.IgnoreDeliveryReport},
	"postmaster-sender":            {ignored: mailtext.IgnoreDaemon},
	"list-mail":                    {ignored: mailtext.IgnoreList},
	"noreply-sender":               {ignored: mailtext.IgnoreNoReply},
	"own-address":                  {ignored: mailtext.IgnoreOwnAddress},
	"error-no-command":             {errKind: "no_command", token: "T42A7KQ2XMBD"},
	"error-bad-cell":               {errKind: "bad_cell", token: "T42A7KQ2XMBD"},
	"error-bad-word-fr":            {errKind: "bad_word", token: "T42A7KQ2XMBD"},
	"error-word-too-long-es":       {errKind: "word_too_long", token: "T42A7KQ2XMBD"},
	"new-lexico-es":                {command: "NEW lexico", lang: "es"},
	"join-fr":                      {command: "JOIN t42", lang: "fr"},
	"zone-fr":                      {command: "TZ Europe/Paris", token: "T42A7KQ2XMBD", lang: "fr"},
	"start-en-outlook-com":         {command: "START", token: "T43CCCCCCCCC", lang: "en"},
	"subjtoken-lang-es":            {command: "LANG es", token: "T42A7KQ2XMBD", lang: "es"},
	"error-unknown-charset":        {errKind: "bad_charset", token: "T42A7KQ2XMBD"},
	"error-nul-bytes":              {errKind: "binary_junk", token: "T42A7KQ2XMBD"},
	"error-malformed-multipart":    {errKind: "malformed", token: "T42A7KQ2XMBD"},
	"error-ambiguous-from":         {errKind: "ambiguous_from"},
	"prose-then-command":           {command: "PLACE H7 DOWN CHAT", token: "T42A7KQ2XMBD", lang: "en"},
	"two-commands":                 {command: "PASS", token: "T42A7KQ2XMBD", lang: "en"},
	"signature-only":               {errKind: "no_command", token: "T42A7KQ2XMBD"},
	"apple-mail-plain-bottom":      {command: "BOARD", token: "T42A7KQ2XMBD", lang: "en"},
	"delivered-to-token-es":        {command: "BOARD", token: "T42A7KQ2XMBD", lang: "es"},
	"several-plus-addresses":       {command: "LOG", token: "T42A7KQ2XMBD", lang: "es"},
	"gmx-de-attribution":           {command: "PREVIEW H7 DOWN CAS(A)", token: "T42A7KQ2XMBD", lang: "es"},
}

// golden is what a golden file holds: the JSON summary and the details.
type golden struct {
	Summary Summary  `json:"summary"`
	Message *Message `json:"message"`
}

func corpusFiles(t testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 40 {
		t.Fatalf("the corpus holds %d messages, want at least 40", len(files))
	}
	return files
}

func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	seen := map[string]bool{}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".eml")
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m := Parse(raw, corpusOptions(name))
			s := m.Summary()

			want, ok := corpusExpect[name]
			if !ok {
				t.Fatalf("no expectation for %s in corpusExpect", name)
			}
			if s.Command != want.command || s.Ignored != want.ignored || s.ErrorKind != want.errKind {
				t.Errorf("got command %q ignored %q error %q, want %q %q %q",
					s.Command, s.Ignored, s.Error, want.command, want.ignored, want.errKind)
			}
			if want.ignored == "" && s.Token != want.token {
				t.Errorf("token = %q, want %q", s.Token, want.token)
			}
			if want.command != "" && s.Lang != want.lang {
				t.Errorf("lang = %q, want %q", s.Lang, want.lang)
			}
			// An ambiguous From leaves no sender (and no token: nobody is answered).
			if s.MessageID == "" || (s.From == "") != (want.errKind == "ambiguous_from") || s.From != strings.ToLower(s.From) {
				t.Errorf("message_id %q, from %q: want both, from lowercase", s.MessageID, s.From)
			}
			if (s.Command == "") == (s.Error == "") && s.Ignored == "" {
				t.Errorf("want exactly one of command and error, got %q and %q", s.Command, s.Error)
			}

			got, err := json.MarshalIndent(golden{Summary: s, Message: m}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", "golden", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			wantJSON, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./parser -run TestCorpus -update)", err)
			}
			if !bytes.Equal(got, wantJSON) {
				t.Errorf("%s differs from the golden file:\n got: %s\nwant: %s", name, got, wantJSON)
			}
		})
	}
	for name := range corpusExpect {
		if !seen[name] {
			t.Errorf("corpusExpect names %s, which is not in testdata/corpus", name)
		}
	}
}

// TestSummaryKeys pins the keys of the JSON summary, a contract of `lexio
// parse --json` checked outside the repository.
func TestSummaryKeys(t *testing.T) {
	b, err := json.Marshal((&Message{}).Summary())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"message_id", "from", "token", "ignored", "command", "error"} {
		if _, ok := m[k]; !ok {
			t.Errorf("summary %s lacks key %q", b, k)
		}
	}
}
