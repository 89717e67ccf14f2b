package parser

import (
	"errors"
	"testing"
)

// TestParseNoInvite: STOP, BAJA and ARRÊT, alone, ask never to be invited
// again (LEAGUES §6); prose that starts with "Stop" is no command.
func TestParseNoInvite(t *testing.T) {
	for _, c := range []struct{ in, lang string }{
		{"STOP", "en"}, {"stop.", "en"}, {"Baja", "es"}, {"arrêt", "fr"}, {"ARRET", "fr"},
	} {
		cmd, err := ParseCommand(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if cmd.Kind != KindNoInvite || cmd.String() != "STOP" || cmd.Language != c.lang {
			t.Errorf("%q: %s (%s), want STOP (%s)", c.in, cmd, cmd.Language, c.lang)
		}
	}
	if _, err := ParseCommand("STOP now"); !errors.Is(err, ErrExtraArgument) {
		t.Errorf("STOP now: %v, want ErrExtraArgument", err)
	}
	m := Parse(msg("Subject: hi", "Stop sending me this, please.\n"), testOpts)
	if m.Command != nil {
		t.Errorf("prose read as %s", m.Command)
	}
}
