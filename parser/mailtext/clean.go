package mailtext

import (
	"strings"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/dict"
)

// MaxBodyKept bounds Mail.Body; Lines are kept whole.
const MaxBodyKept = 16 << 10

// playerLines returns the lines the player wrote (EMAIL §2.4): quoted
// lines ('>'), attribution lines ("On … wrote:" in en/es/fr/de/pt/it/nl,
// also wrapped over two or three lines), mobile footers ("Sent from my
// iPhone" …) are dropped; an Outlook "-----Original Message-----"
// separator, a From:/Sent: header block, a forwarded-message marker or a
// signature delimiter ("-- ") ends the text. Lines below a quote are kept,
// so bottom-posted commands are found.
func playerLines(text string) []string {
	lines := strings.Split(text, "\n")
	out := make([]string, 0, 16)
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t\r")
		t := strings.TrimSpace(line)
		if t == "" {
			if len(out) > 0 && out[len(out)-1] != "" {
				out = append(out, "")
			}
			continue
		}
		if t[0] == '>' {
			continue
		}
		if t == "--" || isSeparator(t) || isHeaderBlock(lines, i) {
			break
		}
		if n := attribution(lines, i); n > 0 {
			// A bottom-posted reply quotes below the attribution; text
			// there that is not quoted is the original itself (Yahoo,
			// some webmails): it ends the player's text.
			if !quotedNext(lines, i+n) {
				break
			}
			i += n - 1
			continue
		}
		if isMobileFooter(t) || isRule(t) {
			continue
		}
		out = append(out, t)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// bodyOf joins the player's lines for Mail.Body, cut at MaxBodyKept.
func bodyOf(lines []string) string {
	s := strings.Join(lines, "\n")
	if len(s) > MaxBodyKept {
		cut := MaxBodyKept
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// fold uppercases and drops accents (dict.Normalize), as the phrases
// below are written; ASCII takes a fast path.
func fold(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			w, _ := dict.Normalize(s)
			return w
		}
	}
	return strings.ToUpper(s)
}

// foldPrefix folds the first bytes of s for the phrase matches below.
func foldPrefix(s string, n int) string {
	if len(s) > n {
		n0 := n
		for n0 > 0 && !utf8.RuneStart(s[n0]) {
			n0--
		}
		s = s[:n0]
	}
	return fold(s)
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// isSeparator recognises the lines that introduce an original or
// forwarded message in Outlook, Gmail, Apple Mail and Thunderbird.
func isSeparator(t string) bool {
	if !strings.HasPrefix(t, "--") && !strings.HasPrefix(t, "__") && !strings.HasPrefix(t, "==") &&
		!hasAnyPrefix(t, "Begin", "begin", "Début", "Debut", "début", "Inicio", "inicio", "Anfang") {
		return false
	}
	f := foldPrefix(t, 80)
	if strings.HasPrefix(f, "BEGIN FORWARDED MESSAGE") || strings.HasPrefix(f, "DEBUT DU MESSAGE REEXPEDIE") ||
		strings.HasPrefix(f, "INICIO DEL MENSAJE REENVIADO") || strings.HasPrefix(f, "ANFANG DER WEITERGELEITETEN") {
		return true
	}
	for _, p := range []string{"ORIGINAL MESSAGE", "MESSAGE D'ORIGINE", "MENSAJE ORIGINAL", "URSPRUNGLICHE NACHRICHT",
		"FORWARDED MESSAGE", "MESSAGE TRANSFERE", "MENSAJE REENVIADO", "WEITERGELEITETE NACHRICHT", "ORIGINAL-NACHRICHT"} {
		if strings.Contains(f, p) {
			return true
		}
	}
	return false
}

// headerLabel tells whether t starts a line of a quoted header block:
// "From:", "De :", "Von:" (from=true) or "Sent:", "Envoyé :", "Para:" ….
func headerLabel(t string, from bool) bool {
	t = strings.TrimLeft(t, "*")
	colon := strings.IndexByte(t, ':')
	if colon <= 0 || colon > 16 {
		return false
	}
	label := strings.TrimRight(fold(strings.TrimSpace(strings.TrimRight(t[:colon], "* "))), "*")
	if from {
		switch label {
		case "FROM", "DE", "VON", "DA", "VAN", "EXPEDITEUR":
			return true
		}
		return false
	}
	switch label {
	case "SENT", "DATE", "TO", "CC", "SUBJECT",
		"ENVIADO", "FECHA", "PARA", "ASUNTO", "ENVIADO EL",
		"ENVOYE", "A", "OBJET", "DESTINATAIRE",
		"GESENDET", "DATUM", "AN", "BETREFF":
		return true
	}
	return false
}

// isHeaderBlock recognises Outlook's quoted header block: a From:/De:/Von:
// line followed within three lines by Sent:/Date:/To:/Subject: or their
// translations.
func isHeaderBlock(lines []string, i int) bool {
	if !headerLabel(strings.TrimSpace(lines[i]), true) {
		return false
	}
	seen := 0
	for j := i + 1; j < len(lines) && seen < 3; j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" {
			continue
		}
		seen++
		if headerLabel(t, false) {
			return true
		}
	}
	return false
}

// attribution returns how many lines, from i, make an attribution line
// ("On Mon, 3 Jun 2024, Lexio <…> wrote:"), 0 if line i starts none.
func attribution(lines []string, i int) int {
	t := strings.TrimSpace(lines[i])
	if endsAttribution(t) {
		return 1
	}
	if !hasAnyPrefix(t, "On ", "El ", "Le ", "Am ", "Em ", "Il ", "Op ", "on ", "el ", "le ", "am ") {
		return 0
	}
	for n := 1; n <= 2 && i+n < len(lines); n++ {
		next := strings.TrimSpace(lines[i+n])
		if next == "" || next[0] == '>' {
			return 0
		}
		if endsAttribution(next) {
			return n + 1
		}
	}
	return 0
}

// quotedNext tells whether the first non-empty line from i is quoted.
func quotedNext(lines []string, i int) bool {
	for ; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); t != "" {
			return t[0] == '>'
		}
	}
	return true // nothing follows: nothing to cut
}

// isRule recognises separator rules (a line of '_', '-', '=' or '*').
func isRule(t string) bool {
	if len(t) < 8 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if c := t[i]; c != t[0] || (c != '_' && c != '-' && c != '=' && c != '*') {
			return false
		}
	}
	return true
}

func endsAttribution(t string) bool {
	if !strings.HasSuffix(t, ":") {
		return false
	}
	// German puts the verb before the name: "Am 3.6.24 schrieb X <x@y>:".
	if hasAnyPrefix(t, "Am ", "am ") && strings.Contains(t, " schrieb ") {
		return true
	}
	tail := t
	if len(tail) > 24 {
		cut := len(tail) - 24
		for cut < len(tail) && !utf8.RuneStart(tail[cut]) {
			cut++
		}
		tail = tail[cut:]
	}
	f := fold(tail)
	for _, s := range []string{"WROTE:", "ESCRIBIO:", "A ECRIT :", "A ECRIT:", "SCHRIEB:", "ESCREVEU:", "HA SCRITTO:", "SCHREEF:"} {
		if strings.HasSuffix(f, s) {
			return true
		}
	}
	return false
}

// isMobileFooter recognises the footers phones and mail apps add, in
// English, Spanish, French and German.
func isMobileFooter(t string) bool {
	if len(t) > 120 {
		return false
	}
	f := foldPrefix(t, 40)
	return hasAnyPrefix(f,
		"SENT FROM MY ", "SENT FROM OUTLOOK", "SENT FROM MAIL FOR", "SENT FROM YAHOO", "SENT FROM GMAIL",
		"SENT FROM SAMSUNG", "SENT FROM PROTON", "SENT VIA ", "SENT USING ", "GET OUTLOOK FOR",
		"ENVIADO DESDE ", "ENVIADO CON ", "OBTENER OUTLOOK PARA", "ENVIADO DO MEU",
		"ENVOYE DE MON", "ENVOYE DEPUIS", "ENVOYE A PARTIR D", "ENVOYE AVEC", "OBTENIR OUTLOOK POUR",
		"TELECHARGER OUTLOOK POUR",
		"VON MEINEM", "GESENDET VON", "GESENDET MIT")
}
