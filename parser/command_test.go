package parser

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseCommandCanonical(t *testing.T) {
	tests := []struct {
		in, want, lang string
	}{
		// PLACE and its synonyms (EMAIL §3).
		{"PLACE H7 ACROSS CHAT", "PLACE H7 ACROSS CHAT", "en"},
		{"place h7 across chat", "PLACE H7 ACROSS CHAT", "en"},
		{"Play H7 down chat", "PLACE H7 DOWN CHAT", "en"},
		{"COLOCAR H7 HORIZONTAL CHAT", "PLACE H7 ACROSS CHAT", "es"},
		{"jugar h7 vertical chat", "PLACE H7 DOWN CHAT", "es"},
		{"POSER H7 DROITE CHAT", "PLACE H7 ACROSS CHAT", "fr"},
		{"Jouer H7 bas chat", "PLACE H7 DOWN CHAT", "fr"},
		{"placer h7 h chat", "PLACE H7 ACROSS CHAT", "fr"},
		// Cells: column then row, or row then column (RULES §2.1).
		{"PLACE 7H ACROSS CHAT", "PLACE H7 ACROSS CHAT", "en"},
		{"PLACE a3 ACROSS CHAT", "PLACE A3 ACROSS CHAT", "en"},
		{"PLACE M13 DOWN CHAT", "PLACE M13 DOWN CHAT", "en"},
		{"PLACE 13m DOWN CHAT", "PLACE M13 DOWN CHAT", "en"},
		// Directions.
		{"PLACE H7 A CHAT", "PLACE H7 ACROSS CHAT", "en"},
		{"PLACE H7 H CHAT", "PLACE H7 ACROSS CHAT", "en"},
		{"PLACE H7 → CHAT", "PLACE H7 ACROSS CHAT", "en"},
		{"PLACE H7→ CHAT", "PLACE H7 ACROSS CHAT", "en"},
		{"PLACE H7 -> CHAT", "PLACE H7 ACROSS CHAT", "en"},
		{"PLACE H7 D CHAT", "PLACE H7 DOWN CHAT", "en"},
		{"PLACE H7 V CHAT", "PLACE H7 DOWN CHAT", "en"},
		{"PLACE H7 ↓ CHAT", "PLACE H7 DOWN CHAT", "en"},
		{"PLACE H7↓ CHAT", "PLACE H7 DOWN CHAT", "en"},
		{"PLACE H7 VERTICAL CHAT", "PLACE H7 DOWN CHAT", "en"},
		{"PLACE H7 HORIZONTAL CHAT", "PLACE H7 ACROSS CHAT", "en"},
		{"COLOCAR H7 DERECHA CHAT", "PLACE H7 ACROSS CHAT", "es"},
		{"COLOCAR H7 ABAJO CHAT", "PLACE H7 DOWN CHAT", "es"},
		{"POSER H7 HORIZONTALEMENT CHAT", "PLACE H7 ACROSS CHAT", "fr"},
		{"POSER H7 VERTICALEMENT CHAT", "PLACE H7 DOWN CHAT", "fr"},
		{"PLACE H7 CHAT ACROSS", "PLACE H7 ACROSS CHAT", "en"},
		// Words: parentheses, blanks, accents (EMAIL §3, RULES §8.2).
		{"PLACE H7 ACROSS C(HA)T", "PLACE H7 ACROSS C(HA)T", "en"},
		{"PLACE H7 ACROSS (C)HAT", "PLACE H7 ACROSS (C)HAT", "en"},
		{"PLACE H7 ACROSS CH[A]T", "PLACE H7 ACROSS CHaT", "en"},
		{"PLACE H7 ACROSS CH[a]T", "PLACE H7 ACROSS CHaT", "en"},
		{"PLACE H7 ACROSS CHaT", "PLACE H7 ACROSS CHaT", "en"},
		{"PLACE H7 ACROSS [H][A]", "PLACE H7 ACROSS [H][A]", "en"}, // blanks alone: lowercase would read as tiles
		{"PLACE H7 ACROSS (C)ha", "PLACE H7 ACROSS (C)ha", "en"},
		{"PLACE H7 ACROSS c(ha)t", "PLACE H7 ACROSS C(HA)T", "en"},
		{"PLACE H7 ACROSS chat", "PLACE H7 ACROSS CHAT", "en"},
		{"PLACE H7 ACROSS été", "PLACE H7 ACROSS ETE", "en"},
		{"PLACE H7 ACROSS ÉTÉ", "PLACE H7 ACROSS ETE", "en"},
		{"PLACE H7 ACROSS cœur", "PLACE H7 ACROSS COEUR", "en"},
		{"PLACE H7 ACROSS GARÇON", "PLACE H7 ACROSS GARCON", "en"},
		{"PLACE H7 ACROSS ÉTé", "PLACE H7 ACROSS ETe", "en"},
		{"PLACE A7 ACROSS ANTICONSTITU", "PLACE A7 ACROSS ANTICONSTITU", "en"},
		{"PLACE H7 ACROSS CHAT.", "PLACE H7 ACROSS CHAT", "en"},
		{"PLACE: H7 ACROSS CHAT", "PLACE H7 ACROSS CHAT", "en"},
		// Correspondence play (LEAGUES §1), each keyword in the three languages.
		{"RESIGN t42", "RESIGN t42", "en"},
		{"Abandon T42", "RESIGN t42", "en"},
		{"rendirse t42", "RESIGN t42", "es"},
		{"ABANDONNER t42.", "RESIGN t42", "fr"},
		{"RESIGN", "RESIGN", "en"}, // LEAGUES §1: no table, nothing resigned; answered with the lines that would
		{"Rendirse", "RESIGN", "es"},
		{"ABANDONNER", "RESIGN", "fr"},
		{"VACATION 7", "VACATION 7", "en"},
		{"leave 7 days", "VACATION 7", "en"},
		{"vacaciones 10 días", "VACATION 10", "es"},
		{"Vacances 3 jours", "VACATION 3", "fr"},
		{"congé 2", "VACATION 2", "fr"},
		{"VACATION 2026-12-20 2026-12-27", "VACATION 2026-12-20 2026-12-27", "en"},
		{"VACATION 2026-12-20 to 2026-12-27", "VACATION 2026-12-20 2026-12-27", "en"},
		{"vacaciones 2026-12-20 hasta 2026-12-27", "VACATION 2026-12-20 2026-12-27", "es"},
		{"congé 2026-12-20 au 2026-12-20", "VACATION 2026-12-20 2026-12-20", "fr"},
		{"VACATION OFF", "VACATION OFF", "en"},
		{"vacaciones fin", "VACATION OFF", "es"},
		{"vacances fini", "VACATION OFF", "fr"},
		{"TZ Europe/Paris", "TZ Europe/Paris", "en"},
		{"zona europe/madrid", "TZ Europe/Madrid", "es"},
		{"NOTIFY turn", "NOTIFY turn", "en"},
		{"notify ALL", "NOTIFY all", "en"},
		{"NOTIFY digest t42", "NOTIFY digest t42", "en"},
		{"avisos turno", "NOTIFY turn", "es"},
		{"avisos resumen T42", "NOTIFY digest t42", "es"},
		{"avis tout", "NOTIFY all", "fr"},
		{"AVIS résumé", "NOTIFY digest", "fr"},
		{"SAY good luck", "SAY good luck", "en"},
		{"say: Good luck, Ana!", "SAY Good luck, Ana!", "en"},
		{"decir ¡suerte!", "SAY ¡suerte!", "es"},
		{"Dire bonne chance à tous.", "SAY bonne chance à tous.", "fr"},
		{"SAY <b>5 > 3</b> & so", "SAY <b>5 > 3</b> & so", "en"},
		{"NEW lexio alice@x.org bob@y.org", "NEW lexio alice@x.org bob@y.org", "en"},
		{"new lexico <Alice@X.org>", "NEW lexico alice@x.org", "en"},
		{"NEW alice@x.org, bob@y.org,carol@z.org", "NEW alice@x.org bob@y.org carol@z.org", "en"},
		{"nueva partida lexio ana@x.es", "NEW lexio ana@x.es", "es"},
		{"nouvelle partie lexio mailto:leo@x.fr", "NEW lexio leo@x.fr", "fr"},
		{"NEW bob@localhost", "NEW bob@localhost", "en"},
		{"NEW lexio bot", "NEW lexio bot:medium", "en"},
		{"new lexico BOT:Strong", "NEW lexico bot:strong", "en"},
		{"NEW bot:easy", "NEW bot:easy", "en"},
		{"nouvelle partie lexio bot:strong lea@x.fr", "NEW lexio bot:strong lea@x.fr", "fr"},
		{"NEW lexio a@x.org b@x.org c@x.org d@x.org", "NEW lexio a@x.org b@x.org c@x.org d@x.org", "en"}, // the table refuses four
		{"DECLINE", "DECLINE", "en"},
		{"rechazar", "DECLINE", "es"},
		{"Décliner", "DECLINE", "fr"},
		{"refuser", "DECLINE", "fr"},
		{"STANDINGS", "STANDINGS", "en"},
		{"STANDINGS autumn", "STANDINGS autumn", "en"},
		{"clasificación otoño", "STANDINGS otoño", "es"},
		{"classement", "STANDINGS", "fr"},
		{"SIGNUP autumn", "SIGNUP autumn", "en"},
		{"inscribir autumn", "SIGNUP autumn", "es"},
		{"s'inscrire autumn", "", ""},
		{"inscrire autumn", "SIGNUP autumn", "fr"},
		{"WITHDRAW autumn", "WITHDRAW autumn", "en"},
		{"retirarse autumn", "WITHDRAW autumn", "es"},
		{"retirer autumn", "WITHDRAW autumn", "fr"},
		{"Confirm", "CONFIRM", "en"},
		{"yes", "CONFIRM", "en"},
		{"sí", "CONFIRM", "es"},
		{"Confirmer.", "CONFIRM", "fr"},
		{"oui", "CONFIRM", "fr"},
		// PREVIEW.
		{"PREVIEW H7 DOWN CHAT", "PREVIEW H7 DOWN CHAT", "en"},
		{"score h7 across chat", "PREVIEW H7 ACROSS CHAT", "en"},
		{"VALOR H7 ABAJO CHAT", "PREVIEW H7 DOWN CHAT", "es"},
		{"APERÇU H7 BAS CHAT", "PREVIEW H7 DOWN CHAT", "fr"},
		{"apercu 7h droite ch[a]t", "PREVIEW H7 ACROSS CHaT", "fr"},
		// EXCHANGE.
		{"EXCHANGE QX?", "EXCHANGE QX?", "en"},
		{"exchange qx?", "EXCHANGE QX?", "en"},
		{"SWAP Q X ?", "EXCHANGE QX?", "en"},
		{"EXCHANGE Q,X,?", "EXCHANGE QX?", "en"},
		{"EXCHANGE 3", "EXCHANGE 3", "en"},
		{"EXCHANGE 7 1 4", "EXCHANGE 1 4 7", "en"},
		{"EXCHANGE 1,4,7", "EXCHANGE 1 4 7", "en"},
		{"EXCHANGE ALL", "EXCHANGE ALL", "en"},
		{"CAMBIAR TODO", "EXCHANGE ALL", "es"},
		{"cambiar todas", "EXCHANGE ALL", "es"},
		{"CAMBIAR TODOS", "EXCHANGE ALL", "es"},
		{"ÉCHANGER TOUT", "EXCHANGE ALL", "fr"},
		{"echanger toutes", "EXCHANGE ALL", "fr"},
		{"Échanger ée", "EXCHANGE EE", "fr"},
		{"EXCHANGE A L L", "EXCHANGE A L L", "en"},
		{"ECHANGER T O U T", "EXCHANGE T O U T", "fr"},
		// PASS.
		{"PASS", "PASS", "en"},
		{"pass.", "PASS", "en"},
		{"Pasar", "PASS", "es"},
		{"PASO", "PASS", "es"},
		{"passer", "PASS", "fr"},
		{"Je passe", "", ""},
		// BOARD, LOG, GAMES, HELP, START.
		{"BOARD", "BOARD", "en"},
		{"Board?", "BOARD", "en"},
		{"aide ?", "HELP", "fr"},
		{"EXCHANGE ?", "EXCHANGE ?", "en"},
		{"status", "BOARD", "en"},
		{"TABLERO", "BOARD", "es"},
		{"plateau", "BOARD", "fr"},
		{"LOG", "LOG", "en"},
		{"history", "LOG", "en"},
		{"Registro", "LOG", "es"},
		{"HISTORIQUE", "LOG", "fr"},
		{"GAMES", "GAMES", "en"},
		{"partidas", "GAMES", "es"},
		{"Parties", "GAMES", "fr"},
		{"HELP", "HELP", "en"},
		{"help!", "HELP", "en"},
		{"ayuda", "HELP", "es"},
		{"Aide", "HELP", "fr"},
		// HELP RULES (EMAIL §3 + the rules by mail).
		{"HELP RULES", "HELP RULES", "en"},
		{"help rules?", "HELP RULES", "en"},
		{"Help rule", "HELP RULES", "en"},
		{"AYUDA REGLAS", "HELP RULES", "es"},
		{"ayuda regla", "HELP RULES", "es"},
		{"AIDE RÈGLES", "HELP RULES", "fr"},
		{"aide regles", "HELP RULES", "fr"},
		{"Aide règles ?", "HELP RULES", "fr"},
		{"aide: règle", "HELP RULES", "fr"},
		{"START", "START", "en"},
		{"empezar", "START", "es"},
		{"COMMENCER", "START", "fr"},
		{"démarrer", "START", "fr"},
		// LANG.
		{"LANG es", "LANG es", "en"},
		{"lang FR", "LANG fr", "en"},
		{"IDIOMA inglés", "LANG en", "es"},
		{"LANGUE français", "LANG fr", "fr"},
		{"langue en", "LANG en", "fr"},
		// NEW, JOIN.
		{"NEW", "NEW", "en"},
		{"NEW lexico", "NEW lexico", "en"},
		{"new LEXIO", "NEW lexio", "en"},
		{"NUEVA partida lexico", "NEW lexico", "es"},
		{"NOUVELLE partie", "NEW", "fr"},
		{"nouvelle lexico", "NEW lexico", "fr"},
		{"JOIN t42", "JOIN t42", "en"},
		{"UNIRSE T42", "JOIN t42", "es"}, // names are lowercase
		{"REJOINDRE club-du-jeudi", "JOIN club-du-jeudi", "fr"},
		// TZ: any case, canonical spelling.
		{"TZ Europe/Paris", "TZ Europe/Paris", "en"},
		{"tz europe/paris.", "TZ Europe/Paris", "en"},
		{"TIMEZONE America/New_York", "TZ America/New_York", "en"},
		{"zona america/argentina/buenos_aires", "TZ America/Argentina/Buenos_Aires", "es"},
		{"Fuseau Europe/Paris", "TZ Europe/Paris", "fr"},
		{"TZ utc", "TZ UTC", "en"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			c, err := ParseCommand(tc.in)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("ParseCommand(%q) = %q, want an error", tc.in, c)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseCommand(%q): %v", tc.in, err)
			}
			if got := c.String(); got != tc.want {
				t.Errorf("ParseCommand(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if c.Language != tc.lang {
				t.Errorf("ParseCommand(%q).Language = %q, want %q", tc.in, c.Language, tc.lang)
			}
			// The canonical form parses back to itself.
			again, err := ParseCommand(c.String())
			if err != nil || again.String() != c.String() {
				t.Errorf("canonical %q does not round-trip: %v, %v", c.String(), again, err)
			}
		})
	}
}

func TestParsePlacementDetails(t *testing.T) {
	c, err := ParseCommand("PLACE 7H DOWN C(h)[a]É")
	if err != nil {
		t.Fatal(err)
	}
	p := c.Place
	if p.Col != 7 || p.Row != 6 || p.Dir != Down {
		t.Errorf("cell/dir = %d,%d,%v, want 7,6,DOWN", p.Col, p.Row, p.Dir)
	}
	want := []Letter{{'C', false, false}, {'H', true, true}, {'A', true, false}, {'E', false, false}}
	if len(p.Letters) != len(want) {
		t.Fatalf("letters = %+v, want %+v", p.Letters, want)
	}
	for i := range want {
		if p.Letters[i] != want[i] {
			t.Errorf("letter %d = %+v, want %+v", i, p.Letters[i], want[i])
		}
	}
	// "c" and "é" are lowercase but the word also has a capital H:
	// per the GCG convention they would be blanks. Check that case.
	c, err = ParseCommand("PLACE H7 ACROSS cHé")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Place.Word(); got != "cHe" {
		t.Errorf("word = %q, want cHe", got)
	}
}

func TestParseCommandErrors(t *testing.T) {
	tests := []struct {
		in   string
		kind *Error
	}{
		{"", ErrNoCommand},
		{"hello there", ErrNoCommand},
		{"PLACE N7 ACROSS CHAT", ErrBadCell}, // RULES §2.1: columns A–M
		{"PLACE H14 ACROSS CHAT", ErrBadCell},
		{"PLACE H0 ACROSS CHAT", ErrBadCell},
		{"PLACE 0H ACROSS CHAT", ErrBadCell},
		{"PLACE HH ACROSS CHAT", ErrBadCell},
		{"PLACE H-1 ACROSS CHAT", ErrBadCell},
		{"PLACE 77 ACROSS CHAT", ErrBadCell},
		{"PLACE H7 SIDEWAYS CHAT", ErrBadDirection},
		{"PLACE H7 ACROSS CH4T", ErrBadWord},
		{"PLACE H7 ACROSS CH-AT", ErrBadWord},
		{"PLACE H7 ACROSS C(HAT", ErrBadWord},
		{"PLACE H7 ACROSS CHA)T", ErrBadWord},
		{"PLACE H7 ACROSS C((H))AT", ErrBadWord},
		{"PLACE H7 ACROSS CH[AT]", ErrBadWord},
		{"PLACE H7 ACROSS CH[]T", ErrBadWord},
		{"PLACE H7 ACROSS CH[A", ErrBadWord},
		{"PLACE H7 ACROSS ()", ErrBadWord},
		{"PLACE H7 ACROSS ANTICONSTITUTIONNELLEMENT", ErrWordTooLong},
		{"PLACE H7 ACROSS ABCDEFGHIJKLMN", ErrWordTooLong},
		{"PLACE", ErrMissingArgument},
		{"PLACE H7", ErrMissingArgument},
		{"PLACE H7 ACROSS", ErrMissingArgument},
		{"PLACE H7 CHAT", ErrMissingArgument},
		{"PLACE H7 ACROSS CHAT NOW", ErrExtraArgument},
		{"EXCHANGE", ErrMissingArgument},
		{"EXCHANGE 8", ErrBadExchange},
		{"EXCHANGE 0", ErrBadExchange},
		{"EXCHANGE 1 1", ErrBadExchange},
		{"EXCHANGE 1 A", ErrBadExchange},
		{"EXCHANGE A 1", ErrBadExchange},
		{"EXCHANGE ABCDEFGH", ErrBadExchange},
		{"EXCHANGE Q-X", ErrBadExchange},
		{"PASS NOW", ErrExtraArgument},
		{"HELP SCORING", ErrExtraArgument},
		{"HELP RULES NOW", ErrExtraArgument},
		{"AIDE ?  REGLES", ErrExtraArgument},
		{"LANG", ErrMissingArgument},
		{"LANG de", ErrBadLang},
		{"LANG en fr", ErrExtraArgument},
		{"NEW scrabble", ErrBadVariant},
		{"NEW game lexico now", ErrExtraArgument},
		{"JOIN", ErrMissingArgument},
		{"JOIN t4<2>", ErrBadTable},
		{"JOIN t_42", ErrBadTable},
		{"JOIN -t42", ErrBadTable},
		{"JOIN " + strings.Repeat("t", 33), ErrBadTable},
		{"JOIN a b", ErrExtraArgument},
		{"TZ", ErrMissingArgument},
		{"TZ Mars/Olympus", ErrBadZone},
		{"FUSEAU Paris", ErrBadZone},
		{"TZ Local", ErrBadZone},
		{"TZ ../../etc/passwd", ErrBadZone},
		{"TZ Europe/Paris Europe/Madrid", ErrExtraArgument},
		{"RESIGN t 42", ErrExtraArgument},
		{"RESIGN t_42", ErrBadTable},
		{"VACATION", ErrMissingArgument},
		{"VACATION 0", ErrBadVacation},
		{"VACATION 367", ErrBadVacation},
		{"VACATION -3", ErrBadVacation},
		{"VACATION 7 weeks", ErrExtraArgument},
		{"VACATION 2026-12-27 2026-12-20", ErrBadVacation}, // reversed
		{"VACATION 2026-02-30 2026-03-02", ErrBadVacation},
		{"VACATION 20/12/2026 27/12/2026", ErrBadVacation},
		{"VACATION 2026-01-01 2027-01-02", ErrBadVacation}, // over a year
		{"VACATION 2026-12-20", ErrBadVacation},
		{"NOTIFY", ErrMissingArgument},
		{"NOTIFY never", ErrBadNotify},
		{"NOTIFY turn t_42", ErrBadTable},
		{"NOTIFY turn t42 now", ErrExtraArgument},
		{"SAY", ErrMissingArgument},
		{"SAY:", ErrMissingArgument},
		{"SAY " + strings.Repeat("é", MaxSay+1), ErrTextTooLong},
		{"NEW lexio alice", ErrExtraArgument},
		{"NEW lexio alice@", ErrBadAddress},
		{"NEW lexio @x.org", ErrBadAddress},
		{"NEW lexio Alice <alice@x.org>", ErrExtraArgument},
		{"NEW lexio a@x.org A@X.org", ErrBadAddress}, // twice
		{"NEW lexio bot bot:medium", ErrBadAddress},  // the same seat twice
		{"NEW lexio bot:hard", ErrExtraArgument},
		{"NEW lexio a@.org", ErrBadAddress},
		{"NEW chess a@x.org", ErrBadVariant},
		{"DECLINE now", ErrExtraArgument},
		{"STANDINGS autumn spring", ErrExtraArgument},
		{"SIGNUP", ErrMissingArgument},
		{"WITHDRAW", ErrMissingArgument},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			c, err := ParseCommand(tc.in)
			if err == nil {
				t.Fatalf("ParseCommand(%q) = %q, want %v", tc.in, c, tc.kind)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("ParseCommand(%q) error = %v, want kind %v", tc.in, err, tc.kind.Kind)
			}
		})
	}
}

// TestParseLineAttempt checks which lines end the search for a command in
// a body: prose that starts with a keyword does not.
func TestParseLineAttempt(t *testing.T) {
	tests := []struct {
		in      string
		attempt bool
	}{
		{"PLACE H7 ACROSS CHAT", true},
		{"PLACE N7 ACROSS CHAT", true},
		{"Play nice, everyone", false},
		{"Pass the salt please", false},
		{"Help me understand the rules", false},
		{"Help me", false},
		{"Help, rules", false},
		{"HELP RULES", true},
		{"Aide règles", true},
		{"HELP", true},
		{"EXCHANGE 9", true},
		{"LANG de", true},
		{"TZ Mars/Olympus", true},
		{"Zona horaria de Madrid", false},
		{"New here, how does this work?", false},
		{"Thanks!", false},
		{"RESIGN t42", true},
		{"Abandon ship!", true}, // one word after it: read as RESIGN, refused for its table
		{"Abandon", true},       // alone: which tables, nothing resigned
		{"Abandon all hope, ye who enter", false},
		{"Leave me alone", false},
		{"Leave it to me", false},
		{"LEAVE 7", true},
		{"VACATION OFF", true},
		{"Vacances en Bretagne", false},
		{"Avis aux joueurs", false},
		{"AVIS tour", true},
		{"NOTIFY never", false},
		{"Say hello to Ana for me", true},
		{"Dire que j'ai failli gagner", true},
		{"NEW lexio a@x.org b@y.org c@z.org", true},
		{"Decline", true},
		{"Standings please", true},
		{"Standings of the autumn league", false},
		{"Withdraw autumn", true},
	}
	for _, tc := range tests {
		_, _, attempt := parseLine(tc.in)
		if attempt != tc.attempt {
			t.Errorf("parseLine(%q) attempt = %v, want %v", tc.in, attempt, tc.attempt)
		}
	}
}

// TestCommandRoundTrip: a command written as String reads back as the
// same command. A confirmation (EMAIL §1.7) keeps a command so written and
// does what it reads when it is confirmed, so it must be the command
// that was asked.
func TestCommandRoundTrip(t *testing.T) {
	for _, line := range []string{
		"RESIGN t42", "rendirse t42", "JOIN t7", "REJOINDRE t7", "START", "DECLINE", "STOP", "ARRÊT",
		"SAY good luck, all!", "dire   bonne   chance", "SAY > PASS", "VACATION 7", "VACACIONES 2026-12-20 2026-12-27",
		"VACATION OFF", "NOTIFY turn", "AVIS résumé t42", "NOTIFY all t9", "LANG es", "LANGUE fr", "TZ Europe/Paris",
		"TZ america/new_york", "NEW", "NEW lexico", "NOUVELLE lexio ann@example.org Bob@Example.NET", "NEW lexio bot",
		"NEW lexico bot:strong", "NEW lexio bot:easy carol@example.org", "SIGNUP autumn", "WITHDRAW autumn",
		"INSCRIRE printemps", "STANDINGS", "STANDINGS autumn", "HELP RULES", "PLACE H7 ACROSS C(HA)T",
		"EXCHANGE 1 4 7", "EXCHANGE QX?", "PASS", "REMATCH t42", "REVANCHE t7",
	} {
		c, err := ParseCommand(line)
		if err != nil {
			t.Errorf("%q: %v", line, err)
			continue
		}
		again, err := ParseCommand(c.String())
		if err != nil {
			t.Errorf("%q written %q reads as %v", line, c.String(), err)
			continue
		}
		again.Language = c.Language
		if !reflect.DeepEqual(again, c) {
			t.Errorf("%q written %q reads back as %+v, want %+v", line, c.String(), again, c)
		}
	}
}
