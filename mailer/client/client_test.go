package client

import (
	"strings"
	"testing"
	"time"
)

// A command answers the service's newest message, else goes out fresh,
// to the address given when there is one.
func TestCommand(t *testing.T) {
	a := Account{Address: "alice@localhost"}
	now := time.Date(2026, 1, 2, 15, 4, 0, 0, time.UTC)
	inbox := []Message{
		{MessageID: "1@x", From: "lexio@localhost", ReplyTo: "lexio+t1-aa@localhost", Subject: "t1: your turn"},
		{MessageID: "2@x", From: "lexio@localhost", ReplyTo: "lexio+t2-bb@localhost", Subject: "t2: your turn"},
		{MessageID: "3@x", From: "bob@localhost", Subject: "hi"},
	}
	rcpt, raw := a.Command(inbox, "lexio@localhost", "", "PASS", "PASS", now, "4@x")
	if rcpt != "lexio+t2-bb@localhost" || !strings.Contains(string(raw), "In-Reply-To: <2@x>") || !strings.Contains(string(raw), "Subject: Re: t2: your turn") {
		t.Errorf("reply to %s:\n%s", rcpt, raw)
	}
	rcpt, raw = a.Command(inbox[2:], "lexio@localhost", "", "HELP", "HELP", now, "4@x")
	if rcpt != "lexio@localhost" || strings.Contains(string(raw), "In-Reply-To") || !strings.Contains(string(raw), "Subject: HELP") {
		t.Errorf("fresh to %s:\n%s", rcpt, raw)
	}
	rcpt, _ = a.Command(inbox, "lexio@localhost", "lexio+t1-aa@localhost", "PASS", "PASS", now, "4@x")
	if rcpt != "lexio+t1-aa@localhost" {
		t.Errorf("to the address given: %s", rcpt)
	}
}
