package parser

import (
	"errors"
	"testing"
)

// TestParseRematch: REMATCH, REVANCHA and REVANCHE take one table name
// (LEAGUES §6.2), written back as REMATCH t42.
func TestParseRematch(t *testing.T) {
	for _, c := range []struct{ in, lang string }{
		{"REMATCH t42", "en"}, {"rematch T42.", "en"}, {"Revancha t42", "es"}, {"REVANCHE t42", "fr"}, {"revanche: t42", "fr"},
	} {
		cmd, err := ParseCommand(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if cmd.Kind != KindRematch || cmd.Table != "t42" || cmd.String() != "REMATCH t42" || cmd.Language != c.lang {
			t.Errorf("%q: %s (%s), want REMATCH t42 (%s)", c.in, cmd, cmd.Language, c.lang)
		}
	}
	// Alone, the table whose mail it answers (#34).
	if cmd, err := ParseCommand("Revanche"); err != nil || cmd.Kind != KindRematch || cmd.Table != "" || cmd.String() != "REMATCH" {
		t.Errorf("REVANCHE alone: %v, %v", cmd, err)
	}
	for in, want := range map[string]error{
		"REMATCH t42 t43": ErrExtraArgument,
		"REVANCHE t_42":   ErrBadTable,
		"REMATCH t4<2>":   ErrBadTable,
	} {
		if _, err := ParseCommand(in); !errors.Is(err, want) {
			t.Errorf("%q: %v, want %v", in, err, want)
		}
	}
	// Prose is no command: a mail that says so with a REMATCH line further
	// down is read as REMATCH.
	m := Parse(msg("Subject: hi", "Rematch tomorrow evening, if you like?\nREMATCH t42\n"), testOpts)
	if m.Command == nil || m.Command.String() != "REMATCH t42" {
		t.Errorf("read as %v (%v)", m.Command, m.Err)
	}
}
