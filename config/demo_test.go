package config

import (
	"path/filepath"
	"testing"
	"time"
)

// The demo's file is valid as it is written: the embedded mail server,
// the web side, a table for alice and bob, every path under its directory.
func TestDemo(t *testing.T) {
	dir := "data"
	c, err := Parse([]byte(Demo(dir, filepath.Join(dir, "french.dawg"), filepath.Join(dir, "secret"), "127.0.0.1:1143", "127.0.0.1:2525", "127.0.0.1:8080", 42)))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Embedded.Enabled || c.Embedded.MailDir != filepath.Join(dir, "mail") || c.Storage.SQLitePath != filepath.Join(dir, "demo.db") {
		t.Errorf("embedded %+v, storage %+v", c.Embedded, c.Storage)
	}
	if c.Web.BaseURL != "http://127.0.0.1:8080" || len(c.Tables) != 1 || len(c.Tables[0].Players) != 2 || c.Tables[0].Seed != 42 {
		t.Errorf("web %+v, tables %+v", c.Web, c.Tables)
	}
	// One domain holds every player: it may spend what the defaults give
	// all domains together.
	if c.Mail.OutsiderMails/10 < DefaultOutsiderMails || c.Mail.UnprovenAnswersTotal/10 < DefaultUnprovenAnswersTotal {
		t.Errorf("the demo's one domain gets %d outsider mails and %d unproven answers a day", c.Mail.OutsiderMails/10, c.Mail.UnprovenAnswersTotal/10)
	}
	if c.BotDelay > 10*time.Second {
		t.Errorf("bot_delay %s: a newcomer's game against the computer should answer within seconds", c.BotDelay)
	}
}
