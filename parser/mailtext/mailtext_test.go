package mailtext

import (
	"strings"
	"testing"
)

func TestSubjectText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"PASS", "PASS"},
		{"Re: PASS", "PASS"},
		{"RE: AW: Fwd: SV: TR: RV: pass", "pass"},
		{"Re: [Lexio t42] PASS", "PASS"},
		{"Re:[Lexio t42 TOK] ÉCHANGER QX?", "ÉCHANGER QX?"},
		{"Re[2]: [Lexio t42] Your turn", "Your turn"},
		{"[Lexio t42] Re: board", "board"},
		{"Réponse: x", "Réponse: x"},
		{"Relax: PASS", "Relax: PASS"},
	}
	for _, tc := range tests {
		if got := SubjectText(tc.in); got != tc.want {
			t.Errorf("SubjectText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPlayerLines(t *testing.T) { // EMAIL §2.4
	tests := []struct {
		name, in, want string
	}{
		{"quote", "PASS\n> BOARD\n>> LOG", "PASS"},
		{"bottom-posted", "> BOARD\n> LOG\n\nPASS", "PASS"},
		{"signature", "PASS\n-- \nBOARD", "PASS"},
		{"signature no space", "PASS\n--\nBOARD", "PASS"},
		{"en attribution", "PASS\nOn Mon, 3 Jun 2024, Lexio <l@x> wrote:\n> BOARD", "PASS"},
		{"en attribution 2 lines", "PASS\nOn Mon, 3 Jun 2024 at 10:12, Lexio <l@x>\nwrote:\n> BOARD", "PASS"},
		{"en attribution 3 lines", "PASS\nOn Mon, 3 Jun 2024 at 10:12, A Very Long Name\n<lexio+abc@example.org>\nwrote:\n> BOARD", "PASS"},
		{"es attribution", "PASS\nEl lun, 3 jun 2024 a las 10:12, Lexio (<l@x>) escribió:\n> BOARD", "PASS"},
		{"fr attribution", "PASS\nLe lun. 3 juin 2024 à 10:12, Lexio <l@x> a écrit :\n> BOARD", "PASS"},
		{"de attribution", "PASS\nAm Mo., 3. Juni 2024 um 10:12 Uhr schrieb Lexio <l@x>:\n> BOARD", "PASS"},
		{"unquoted original", "PASS\nOn Mon, 3 Jun 2024, Lexio <l@x> wrote:\nBOARD", "PASS"},
		{"outlook en", "PASS\n-----Original Message-----\nFrom: Lexio\nBOARD", "PASS"},
		{"outlook fr", "PASS\n-----Message d'origine-----\nBOARD", "PASS"},
		{"outlook es", "PASS\n-----Mensaje original-----\nBOARD", "PASS"},
		{"outlook de", "PASS\n-----Ursprüngliche Nachricht-----\nBOARD", "PASS"},
		{"gmail forward", "PASS\n---------- Forwarded message ---------\nBOARD", "PASS"},
		{"apple forward", "PASS\nBegin forwarded message:\nBOARD", "PASS"},
		{"header block en", "PASS\nFrom: Lexio <l@x>\nSent: Monday\nTo: me\nSubject: x\nBOARD", "PASS"},
		{"header block fr", "PASS\nDe : Lexio <l@x>\nEnvoyé : lundi\nÀ : moi\nObjet : x\nBOARD", "PASS"},
		{"header block es", "PASS\nDe: Lexio <l@x>\nEnviado: lunes\nPara: yo\nAsunto: x\nBOARD", "PASS"},
		{"header block de", "PASS\nVon: Lexio <l@x>\nGesendet: Montag\nAn: ich\nBetreff: x\nBOARD", "PASS"},
		{"header block bold", "PASS\n*From:* Lexio <l@x>\n*Date:* Monday\nBOARD", "PASS"},
		{"a lone From: line is text", "PASS\nFrom: the heart", "PASS\nFrom: the heart"},
		{"iphone en", "PASS\nSent from my iPhone", "PASS"},
		{"iphone es", "PASS\nEnviado desde mi iPhone", "PASS"},
		{"iphone fr", "PASS\nEnvoyé de mon iPhone", "PASS"},
		{"android", "PASS\nSent from my Android device", "PASS"},
		{"galaxy fr", "PASS\nEnvoyé depuis mon appareil Galaxy", "PASS"},
		{"outlook mobile", "PASS\nGet Outlook for iOS<https://aka.ms/o0ukef>", "PASS"},
		{"outlook mobile fr", "PASS\nTélécharger Outlook pour Android", "PASS"},
		{"german phone", "PASS\nVon meinem iPhone gesendet", "PASS"},
		{"rule", "PASS\n________________________________", "PASS"},
		{"blank lines squeezed", "\n\nPASS\n\n\n\nBob\n\n", "PASS\n\nBob"},
		{"crlf", "PASS\r\n> x\r\n", "PASS"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(playerLines(tc.in), "\n"); got != tc.want {
				t.Errorf("playerLines(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestHTMLToText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"paragraphs", "<p>PASS</p><p>Bob</p>", "PASS\nBob"},
		{"br and entities", "PLACE&nbsp;H7&nbsp;ACROSS CH&#65;T<br>x", "PLACE H7 ACROSS CHAT\nx"},
		{"inline tags", "<div>PLACE <b>H7</b> <i>ACROSS</i> CHAT</div>", "PLACE H7 ACROSS CHAT"},
		{"blockquote", "PASS<blockquote>BOARD<blockquote>LOG</blockquote></blockquote>after", "PASS\n> BOARD\n> > LOG\nafter"},
		{"gmail quote", `<div>PASS</div><div class="gmail_quote">On x wrote:<br>BOARD</div>`, "PASS\n> On x wrote:\n> BOARD"},
		{"skipped", "<head><title>PASS</title><style>p{}</style></head><script>BOARD</script>LOG", "LOG"},
		{"pre", "<pre>PASS\n  BOARD</pre>", "PASS\n  BOARD"},
		{"broken", "<div><p>PASS<div", "PASS"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.TrimSpace(htmlToText(tc.in))
			if got != tc.want {
				t.Errorf("htmlToText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestUnflow(t *testing.T) { // RFC 3676
	tests := []struct {
		name  string
		in    string
		delsp bool
		want  string
	}{
		{"joined", "PLACE H7 \r\nACROSS CHAT\r\n", false, "PLACE H7 ACROSS CHAT\n"},
		{"delsp", "PLACE H7 ACR\r\nOSS CHAT\r\n", true, "PLACE H7 ACR\nOSS CHAT\n"},
		{"delsp joined", "PLACE H7 ACR \r\nOSS CHAT\r\n", true, "PLACE H7 ACROSS CHAT\n"},
		{"stuffed", " From here\r\n", false, "From here\n"},
		{"quoted", "> a \r\n> b\r\nc\r\n", false, "> a b\nc\n"},
		{"depth change", "> a \r\nb\r\n", false, "> a \nb\n"},
		{"signature", "-- \r\nBob\r\n", false, "-- \nBob\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := unflow(tc.in, tc.delsp); strings.TrimRight(got, "\n") != strings.TrimRight(tc.want, "\n") {
				t.Errorf("unflow(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
