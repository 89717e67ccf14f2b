package parser

// This file declares the mail commands once: each kind's keyword and its
// synonyms in each language (EMAIL §3, doc.go), and whether it changes
// anything when it acts, which decides whether it needs proof of its
// sender (EMAIL §1.7). Parsing, the canonical form and the confirmation
// round trip read these declarations.

// Proof is what a command needs of its sender before it acts.
type Proof int

const (
	// Changes: it changes state, and needs proof that its sender reads
	// the player's mail (a reply token, DKIM/DMARC, or a confirmation).
	// An undeclared kind changes state.
	Changes Proof = iota
	// Answers: it only answers its sender (HELP, BOARD…), or needs a
	// table's reply address anyway (moves), or is the confirmation
	// itself.
	Answers
	// ChangesNamed: it changes a table it names; naming none, it acts
	// on the table of a reply address alone, or only answers (RESIGN
	// alone lists lines, NOTE, GIVE and REMATCH at the plain address ask
	// which table).
	ChangesNamed
)

// decl is one command's declaration.
type decl struct {
	kind Kind
	// words are its keywords, folded (uppercase, accents dropped), by
	// language; the first English word is its canonical name.
	en, es, fr []string
	proof      Proof
}

// decls are the mail commands, in Kind order.
var decls = [...]decl{
	{KindPlace, words("PLACE", "PLAY"), words("COLOCAR", "JUGAR"), words("POSER", "JOUER", "PLACER"), Answers},
	{KindExchange, words("EXCHANGE", "SWAP"), words("CAMBIAR", "INTERCAMBIAR"), words("ECHANGER", "CHANGER"), Answers},
	{KindPass, words("PASS"), words("PASAR", "PASO"), words("PASSER", "PASSE"), Answers},
	{KindPreview, words("PREVIEW", "SCORE"), words("VALOR"), words("APERCU"), Answers},
	{KindBoard, words("BOARD", "STATUS"), words("TABLERO", "ESTADO"), words("PLATEAU", "ETAT"), Answers},
	{KindLog, words("LOG", "HISTORY"), words("REGISTRO", "HISTORIAL"), words("HISTORIQUE", "JOURNAL"), Answers},
	{KindGames, words("GAMES"), words("PARTIDAS"), words("PARTIES"), Answers},
	{KindLang, words("LANG", "LANGUAGE"), words("IDIOMA"), words("LANGUE"), Changes},
	{KindHelp, words("HELP"), words("AYUDA"), words("AIDE"), Answers},
	{KindNew, words("NEW"), words("NUEVA"), words("NOUVELLE"), Changes},
	{KindJoin, words("JOIN"), words("UNIRSE"), words("REJOINDRE"), Changes},
	{KindStart, words("START"), words("EMPEZAR", "COMENZAR"), words("COMMENCER", "DEMARRER"), Changes},
	{KindZone, words("TZ", "TIMEZONE"), words("ZONA"), words("FUSEAU"), Changes},
	{KindResign, words("RESIGN", "ABANDON"), words("RENDIRSE"), words("ABANDONNER"), ChangesNamed},
	{KindVacation, words("VACATION", "LEAVE"), words("VACACIONES"), words("VACANCES", "CONGE", "CONGES"), Changes},
	{KindNotify, words("NOTIFY"), words("AVISOS"), words("AVIS"), Changes},
	{KindSay, words("SAY"), words("DECIR"), words("DIRE"), Changes},
	{KindDecline, words("DECLINE"), words("RECHAZAR"), words("DECLINER", "REFUSER"), Changes},
	{KindStandings, words("STANDINGS"), words("CLASIFICACION"), words("CLASSEMENT"), Answers},
	{KindSignup, words("SIGNUP"), words("INSCRIBIR", "INSCRIBIRSE"), words("INSCRIRE"), Changes},
	{KindWithdraw, words("WITHDRAW"), words("RETIRAR", "RETIRARSE"), words("RETIRER"), Changes},
	{KindConfirm, words("CONFIRM", "YES"), words("CONFIRMAR", "SI"), words("CONFIRMER", "OUI"), Answers},
	{KindNoInvite, words("STOP"), words("BAJA"), words("ARRET"), Changes},
	{KindRematch, words("REMATCH"), words("REVANCHA"), words("REVANCHE"), ChangesNamed},
	{KindGive, words("GIVE"), words("DAR"), words("DONNER"), ChangesNamed},
	// NOTE is the French word too.
	{KindNote, words("NOTE"), words("NOTA"), words("NOTER"), ChangesNamed},
}

func words(w ...string) []string { return w }

// keywords maps each folded keyword to its kind and language; built once
// from decls and never written after (TestDecls holds decls to Kind order
// and each word to one command).
var keywords = func() map[string]kindLang {
	m := make(map[string]kindLang)
	for _, d := range decls {
		for lang, ws := range map[string][]string{"en": d.en, "es": d.es, "fr": d.fr} {
			for _, w := range ws {
				m[w] = kindLang{d.kind, lang}
			}
		}
	}
	return m
}()

type kindLang struct {
	kind Kind
	lang string
}

// keyword maps a folded (uppercase, accentless) word to its command and
// the language it belongs to.
func keyword(w string) (Kind, string) {
	k, ok := keywords[w]
	if !ok {
		return 0, ""
	}
	return k.kind, k.lang
}

// String returns the English keyword, e.g. "PLACE".
func (k Kind) String() string {
	if k <= 0 || int(k) > len(decls) {
		return ""
	}
	return decls[k-1].en[0]
}

// IsMove reports whether k is a move (PLACE, EXCHANGE, PASS): what ends a
// turn, which only the player on move may make.
func (k Kind) IsMove() bool { return k == KindPlace || k == KindExchange || k == KindPass }

// Proof is what the kind needs of its sender before it acts.
func (k Kind) Proof() Proof {
	if k <= 0 || int(k) > len(decls) {
		return Changes
	}
	return decls[k-1].proof
}

// ChangesState reports whether c changes anything when it acts, and so
// needs proof that its sender reads the player's mail (EMAIL §1.7).
func (c *Command) ChangesState() bool {
	switch c.Kind.Proof() {
	case Answers:
		return false
	case ChangesNamed:
		return c.Table != ""
	}
	return true
}
