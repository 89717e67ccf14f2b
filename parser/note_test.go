package parser

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestNote: NOTE in en, es and fr names a table and holds the rest of the
// line, its spaces folded; OFF and the other off words remove the note;
// the canonical form is "NOTE t42 <text>" or "NOTE t42 OFF".
func TestNote(t *testing.T) {
	for _, tc := range []struct {
		in, canonical, text, lang string
		off                       bool
	}{
		{"NOTE t42 keep the S for M13", "NOTE t42 keep the S for M13", "keep the S for M13", "en", false},
		{"note T42: Bob holds the Z?", "NOTE t42 Bob holds the Z?", "Bob holds the Z?", "en", false},
		{"NOTE:  t42   two   blanks\u00a0left.", "NOTE t42 two blanks left.", "two blanks left.", "en", false},
		{"NOTE t42 a\tb", "NOTE t42 a b", "a b", "en", false},
		{"nota t42 guardar la Ñ", "NOTE t42 guardar la Ñ", "guardar la Ñ", "es", false},
		{"Noter club-du-jeudi garder le W pour la case rouge", "NOTE club-du-jeudi garder le W pour la case rouge", "garder le W pour la case rouge", "fr", false},
		{"NOTE t42 PLACE H7 ACROSS CHAT", "NOTE t42 PLACE H7 ACROSS CHAT", "PLACE H7 ACROSS CHAT", "en", false},
		{"NOTE t42 " + strings.Repeat("é", MaxNote), "NOTE t42 " + strings.Repeat("é", MaxNote), strings.Repeat("é", MaxNote), "en", false},
		{"NOTE t42 OFF", "NOTE t42 OFF", "", "en", true},
		{"note t42 off.", "NOTE t42 OFF", "", "en", true},
		{"nota t42 fin", "NOTE t42 OFF", "", "es", true},
		{"NOTA t42 terminar", "NOTE t42 OFF", "", "es", true},
		{"noter t42 arrêt", "NOTE t42 OFF", "", "fr", true},
		{"NOTE t42 fini", "NOTE t42 OFF", "", "en", true},
		{"NOTE t42 off the board soon", "NOTE t42 off the board soon", "off the board soon", "en", false},
	} {
		c, err := ParseCommand(tc.in)
		if err != nil {
			t.Errorf("ParseCommand(%q): %v", tc.in, err)
			continue
		}
		if c.Kind != KindNote || c.String() != tc.canonical || c.Text != tc.text || c.Off != tc.off || c.Language != tc.lang {
			t.Errorf("ParseCommand(%q) = %s %q text %q off %v lang %s; want %q text %q off %v lang %s",
				tc.in, c.Kind, c.String(), c.Text, c.Off, c.Language, tc.canonical, tc.text, tc.off, tc.lang)
		}
		// A confirmation keeps the canonical form and does what it reads.
		again, err := ParseCommand(c.String())
		if err != nil {
			t.Errorf("%q written %q reads as %v", tc.in, c.String(), err)
			continue
		}
		again.Language = c.Language
		// The reading that names no table is the line as written; the
		// canonical form, after a bare keyword, has one whenever it had.
		if c.Unnamed != nil && again.Unnamed == nil {
			t.Errorf("%q written %q: unnamed reading %+v, then %+v", tc.in, c.String(), c.Unnamed, again.Unnamed)
		}
		again.Unnamed, c.Unnamed = nil, nil
		if !reflect.DeepEqual(again, c) {
			t.Errorf("%q written %q reads back as %+v, want %+v", tc.in, c.String(), again, c)
		}
	}
}

// TestNoteUnnamed: a NOTE whose first word may be a table's name is read
// both ways (#34), the choice left to whoever knows the sender's tables;
// one whose first word cannot be names no table: the note is on the table
// whose mail it answers. A lone word that may be a name reads as one
// without its note, unless it is OFF.
func TestNoteUnnamed(t *testing.T) {
	for _, tc := range []struct {
		in, canonical, unnamed string
	}{
		{"NOTE garder le S", "NOTE garder le S", "NOTE garder le S"},
		{"NOTE t42 keep the S", "NOTE t42 keep the S", "NOTE t42 keep the S"},
		{"note T42: Bob holds the Z?", "NOTE t42 Bob holds the Z?", "NOTE T42: Bob holds the Z?"},
		{"NOTE t42 OFF", "NOTE t42 OFF", "NOTE t42 OFF"},
		{"NOTE club-du-jeudi fin", "NOTE club-du-jeudi OFF", "NOTE club-du-jeudi fin"},
		{"NOTE OFF", "NOTE OFF", ""},
		{"nota fin", "NOTE OFF", ""},
		{"NOTE évite le triple", "NOTE évite le triple", ""},
		{"Noter Léa tient le Z", "NOTE Léa tient le Z", ""},
		{"NOTE 7 tiles left, keep the blank", "NOTE 7 tiles left, keep the blank", "NOTE 7 tiles left, keep the blank"},
	} {
		c, err := ParseCommand(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		got := ""
		if c.Unnamed != nil {
			got = c.Unnamed.String()
			if c.Unnamed.Table != "" || c.Unnamed.Unnamed != nil || c.Unnamed.Kind != KindNote {
				t.Errorf("%q: unnamed reading %+v", tc.in, c.Unnamed)
			}
		}
		if tc.unnamed == "" && c.Table != "" {
			t.Errorf("%q: table %q, want none", tc.in, c.Table)
		}
		if c.String() != tc.canonical && tc.unnamed != "" || tc.unnamed == "" && c.String() != tc.canonical || got != tc.unnamed {
			t.Errorf("%q: %q, unnamed %q; want %q, unnamed %q", tc.in, c.String(), got, tc.canonical, tc.unnamed)
		}
		again, err := ParseCommand(c.String())
		if err != nil || again.String() != c.String() {
			t.Errorf("%q written %q reads back as %v, %v", tc.in, c.String(), again, err)
		}
	}
	for _, in := range []string{"NOTE t42", "NOTE garder", "NOTE t42:"} {
		if _, err := ParseCommand(in); !errors.Is(err, ErrMissingNote) {
			t.Errorf("%q: %v, want %v", in, err, ErrMissingNote)
		}
	}
}

// TestNoteRefused: a NOTE without a table or a text, over MaxNote
// characters, or holding a character that is neither printable nor a
// space, is an error of its own kind; nothing is cut or dropped.
func TestNoteRefused(t *testing.T) {
	for _, tc := range []struct {
		in   string
		kind *Error
	}{
		{"NOTE", ErrMissingNote},
		{"NOTE t42", ErrMissingNote},
		{"NOTA t42:", ErrMissingNote},
		{"NOTE t42 \u00a0 ", ErrMissingNote},
		{"NOTE t42 " + strings.Repeat("é", MaxNote+1), ErrNoteTooLong},
		{"NOTE t42 " + strings.Repeat("ab ", 200), ErrNoteTooLong},
		{"NOTE t42 good\x1b[2J luck", ErrBadNote},
		{"NOTE t42 \u202egnik", ErrBadNote},
		{"NOTE t42 zero\u200bwidth", ErrBadNote},
		{"NOTE t42 hi\rRESIGN t42", ErrBadNote},
		{"NOTE t42 hi\u2028RESIGN t42", ErrBadNote},
		{"NOTE t42 soft\u00adhyphen", ErrBadNote},
		{"NOTE t42 bad \xff byte", ErrBadNote},
		{"NOTE t_42 text", ErrBadTable},
	} {
		_, err := ParseCommand(tc.in)
		if !errors.Is(err, tc.kind) {
			t.Errorf("ParseCommand(%.40q) = %v, want kind %v", tc.in, err, tc.kind.Kind)
		}
	}
	_, err := ParseCommand("NOTE t42 " + strings.Repeat("é", 612))
	var pe *Error
	if !errors.As(err, &pe) || pe.Length != 612 || !strings.Contains(pe.Detail, "612") || !strings.Contains(pe.Detail, "500") {
		t.Errorf("a note of 612 characters: %#v, want its length and the limit", err)
	}
}

// TestNoteAttempt: a NOTE line that names a table ends the search for a
// command; prose that starts with the word does not.
func TestNoteAttempt(t *testing.T) {
	for _, tc := range []struct {
		in      string
		attempt bool
	}{
		{"NOTE t42 keep the S", true},
		{"NOTE t42", true},
		{"NOTE", true},
		{"Note: I'm away until Monday", false},
		{"Nota: mañana juego", false}, // ñ: no table's name
		{"Note bene, it's late", false},
		{"Noter que j'ai gagné", true}, // as "Say hello to Ana": a NOTE on table "que", or "que j'ai gagné" on the reply's
		{"NOTE évite le triple", true}, // on the reply's table
	} {
		_, _, attempt := parseLine(tc.in)
		if attempt != tc.attempt {
			t.Errorf("parseLine(%q) attempt = %v, want %v", tc.in, attempt, tc.attempt)
		}
	}
	// The first command of a body counts: prose before it is skipped,
	// and the command's line says so.
	c, err, line := findCommand([]string{"Note: I'm away until Monday", "PASS"})
	if err != nil || c.Kind != KindPass || line != 2 {
		t.Errorf("prose then PASS: %+v, %v, line %d", c, err, line)
	}
}
