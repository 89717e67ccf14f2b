package notice

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lexio-mail/lexio/internal/botseat"
	"github.com/lexio-mail/lexio/parser"
	"golang.org/x/text/unicode/norm"
)

// MaxName bounds a player's name, and the domain that qualifies it, in
// characters.
const MaxName = 32

// reservedNames are the names no human player may show: the computer's
// ("Bot (medium)") and the service's (mail.name's default, the game's
// own name).
var reservedNames = []string{"bot", "lexio"}

// DisplayName is how a player is named where no other seat is in view (a
// greeting, an invitation): Names of the one address.
func DisplayName(addr string) string { return Names([]string{addr})[0] }

// Names names players seen together — a table's seats, the rows of
// standings — in order, each one line of printable text (parser.OneLine)
// and distinct from the others whatever their case or width (nameKey). A player is named by
// the local part of their address, capitalised; where two would show the
// same name, each shows its domain too ("Alice (evil.test)"); if still
// the same, the address as written; if even that, the address and the
// position in the list ("#2"). A human whose name would read as the
// computer's or the service's ("Bot (medium)", "Lexio"), or as a name
// qualified so or as an address, is named by the address as written. The computer is
// "Bot (<level>)".
func Names(addrs []string) []string {
	level := make([]int, len(addrs))
	for i, a := range addrs {
		if !botseat.Is(a) && ReservedName(nameAt(a, 0, i)) {
			level[i] = 2
		}
	}
	out := make([]string, len(addrs))
	for {
		for i, a := range addrs {
			out[i] = nameAt(a, level[i], i)
		}
		same := make(map[string][]int, len(out))
		for i, n := range out {
			k := nameKey(n)
			same[k] = append(same[k], i)
		}
		raised := false
		for _, is := range same {
			if len(is) < 2 {
				continue
			}
			for _, i := range is {
				if !botseat.Is(addrs[i]) && level[i] < 3 {
					level[i]++
					raised = true
				}
			}
		}
		if !raised {
			return out
		}
	}
}

// nameAt is the name of addr, at position i of a list, at a level of
// Names: 0 the local part capitalised, 1 with the domain, 2 the
// address, 3 the address and the position.
func nameAt(addr string, level, i int) string {
	if _, lv, ok := botseat.Parse(addr); ok && botseat.Is(addr) {
		return "Bot (" + lv + ")"
	}
	local, domain := addr, ""
	if at := strings.LastIndexByte(addr, '@'); at >= 0 {
		local, domain = addr[:at], addr[at+1:]
	}
	local, domain = parser.OneLine(local, MaxName), parser.OneLine(domain, MaxName)
	if local == "" {
		local, domain = parser.OneLine(addr, MaxName), ""
	}
	if domain == "" && level == 1 {
		level = 2 // nothing to qualify the name with
	}
	switch level {
	case 0:
		return capitalise(local)
	case 1:
		return capitalise(local) + " (" + domain + ")"
	}
	name := local
	if domain != "" {
		name += "@" + domain
	}
	if level >= 3 {
		name += " #" + strconv.Itoa(i+1)
	}
	return name
}

// capitalise writes the first character of s in capitals: a character,
// never a byte of one.
func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// nameKey is what two names that read alike have in common: their
// compatibility form (NFKC: "Ａｌｉｃｅ" is "Alice"), in lower case.
func nameKey(name string) string { return strings.ToLower(norm.NFKC.String(name)) }

// ReservedName reports whether a human's name would read as one of
// reservedNames — the same word, whatever its case, alone or followed by
// anything but a letter ("Bot (strong)", "lexio-team"; not "Bottom") —
// or as a name Names qualified ("Alice (evil.test)") or an address:
// it holds a parenthesis or an at sign.
func ReservedName(name string) bool {
	k := nameKey(name)
	if strings.ContainsAny(k, "()@") { // "（", "﹫" … are these in NFKC
		return true
	}
	for _, w := range reservedNames {
		if rest, ok := strings.CutPrefix(k, w); ok {
			if r, _ := utf8.DecodeRuneInString(rest); rest == "" || !unicode.IsLetter(r) {
				return true
			}
		}
	}
	return false
}
