package config

import (
	"strings"
	"testing"
)

// TestOpenBounds reads [open_tables]'s bounds on invitations and open
// tables: the defaults where the file is silent, a negative one refused.
func TestOpenBounds(t *testing.T) {
	base := "[mail]\naddress = \"lexio@localhost\"\n[embedded]\nenabled = true\n"
	c, err := Parse([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if c.Open.PerRecipient != DefaultInvitesPerRecipient || c.Open.PerOpener != DefaultInvitesPerOpener || c.Open.Tables != DefaultOpenTables {
		t.Errorf("defaults %+v", c.Open)
	}
	c, err = Parse([]byte(base + "[open_tables]\ninvitations_per_recipient_week = 5\ninvitations_per_opener_day = 20\nopen_tables_per_opener = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Open.PerRecipient != 5 || c.Open.PerOpener != 20 || c.Open.Tables != 1 {
		t.Errorf("read %+v", c.Open)
	}
	for _, key := range []string{"invitations_per_recipient_week", "invitations_per_opener_day", "open_tables_per_opener"} {
		_, err := Parse([]byte(base + "[open_tables]\n" + key + " = -1\n"))
		if err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s = -1: %v", key, err)
		}
	}
}
