// Package parser turns one raw email into one typed command, or a reason
// why not (EMAIL §2.3–2.6, §3). It does no I/O and knows nothing of games:
// whether a token is valid, a move legal or a command allowed is for the
// service and the engine.
//
// # Reading a message
//
// Parse reads the message with package mailtext: its header, whether it
// must be ignored (EMAIL §2.3), its reply token, and the lines of its
// text part the player wrote, without quotes, attributions, signatures
// and phone footers (EMAIL §2.4).
//
// The first of those lines that is a command is the command; only it
// counts. A line that starts with a keyword but reads as prose ("Pass the
// salt", "Play nice", "Help me with …") is skipped; a line that is clearly
// meant as a command but is wrong ("PLACE N7 ACROSS CHAT") ends the search
// with its error. With no command in the body, the subject is tried,
// without its Re:/RE:/Fwd:/AW:/SV:/TR:/RV:/WG:… prefixes (repeated) and
// its [Lexio …] tag. A body that cannot be read (an unknown charset,
// binary junk, broken MIME) still lets a command in the subject through;
// otherwise its error is reported.
//
// # Commands (EMAIL §3)
//
// Keywords are case-insensitive, accents optional. The synonyms read are
// those of EMAIL §3 plus a few natural forms (marked +):
//
//	PLACE     PLAY; COLOCAR, JUGAR; POSER, JOUER, +PLACER
//	EXCHANGE  SWAP; CAMBIAR, +INTERCAMBIAR; ÉCHANGER, +CHANGER
//	PASS      PASAR, +PASO; PASSER, +PASSE
//	PREVIEW   SCORE; VALOR; APERÇU
//	BOARD     STATUS; TABLERO, +ESTADO; PLATEAU, +ÉTAT
//	LOG       HISTORY; REGISTRO, +HISTORIAL; HISTORIQUE, +JOURNAL
//	GAMES     PARTIDAS; PARTIES
//	LANG      +LANGUAGE; IDIOMA; LANGUE
//	HELP      AYUDA; AIDE
//	NEW       NUEVA; NOUVELLE
//	JOIN      UNIRSE; REJOINDRE
//	START     EMPEZAR, +COMENZAR; COMMENCER, +DÉMARRER
//	TZ        +TIMEZONE; ZONA; FUSEAU
//	REMATCH   REVANCHA; REVANCHE
//	GIVE      DAR; DONNER
//	NOTE      NOTA; NOTE, +NOTER
//
// Placement (PLACE and PREVIEW): cell, direction, word; the word may also
// come before the direction. The cell is a column A–M and a row 1–13,
// either way round (H7, 7H). An arrow may be glued to the cell (H7→).
// Directions:
//
//	across  ACROSS A H HORIZONTAL HORIZ RIGHT → -> ; HORIZONTALMENTE DERECHA ; HORIZONTALEMENT DROITE
//	down    DOWN D V VERTICAL VERT ↓ ; VERTICALMENTE ABAJO ; VERTICALEMENT BAS
//
// The word is written whole, at most 13 letters; letters already on the
// board may be put in parentheses, C(HA)T; a blank is a letter in square
// brackets, CH[A]T, or a lowercase letter in a word that also has
// capitals, CHaT (an all-lowercase word is ordinary tiles). Accents and
// ligatures are folded by dict.Normalize (été → ETE, cœur → COEUR).
//
// EXCHANGE takes letters with ? for a blank (QX?, Q X ?, Q,X,?), rack
// slots 1–7 (3, 1 4 7, 1,4,7) or ALL (TODO, TODOS, TODAS, TOUT, TOUTES,
// TOUS). A single word that is one of those means all tiles: to exchange
// the letters A, L, L write them apart, A L L. LANG takes en, es, fr or a
// language's name (english, español, français …). NEW takes an optional
// word GAME/PARTIDA/PARTIE/TABLE/MESA and an optional variant lexio or
// lexico. HELP takes an optional topic, RULES (REGLAS, RÈGLES; also
// RULE, REGLA, RÈGLE): HELP RULES. Another word after HELP is an error,
// and not an attempt at a command, since "Help me" is prose. JOIN takes
// a table name by tablename.Check's rule; REMATCH takes one or none (the
// table whose mail it answers, as the service decides). TZ takes
// an IANA time zone (Europe/Paris, America/New_York, UTC) in any case,
// given back in its canonical spelling; a name the tz database does not
// know is BadZone. GIVE takes a table name, or none, and a time: whole numbers each
// followed by a unit, hours (H, HOUR(S), HORA(S), HEURE(S)) or days (D,
// DAY(S), DÍA(S), J, JOUR(S)), together or apart (24h, 2d, 2j, 1d12h,
// "1 day 12 hours"); anything else is BadDuration. Its canonical form
// counts hours, GIVE t42 36h; the bounds on the time are the service's.
// NOTE takes a table's name, or none, and the rest of the line, at most
// MaxNote characters, its runs of spaces made one; a character that is
// neither printable nor a space is BadNote, refused rather than dropped;
// OFF (or FIN, FINI, ARRÊT … as after VACATION) alone removes the note.
// Whether a NOTE's or a GIVE's first word names a table ("NOTE t42 keep
// the S") or begins its argument ("NOTE garder le S") depends on the
// sender's tables, which the parser does not know: where both readings
// parse, Command is the first and Command.Unnamed the second.
//
// Command.String gives the canonical English form (PLACE H7 ACROSS CHaT,
// EXCHANGE 1 4 7, NEW lexico, TZ Europe/Paris …), a contract of
// `lexio parse --json`, and always parses back to the same command.
//
// # Errors
//
// Every error is an *Error with a Kind (stable snake_case names) and a
// Detail naming the offending input; errors.Is matches the sentinels
// (ErrNoCommand, ErrBadCell …) by kind. What the player is told is the
// templates' sentence for the Kind, in their language.
package parser
