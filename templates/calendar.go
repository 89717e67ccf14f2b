package templates

import (
	"strings"
	"time"
	"unicode/utf8"
)

// Calendar returns an iCalendar object (RFC 5545) for a turn notice's
// attachment: one event ending at the deadline, "Lexio: your turn at
// <table> ends", with an alarm an hour before. Times are UTC; lines end
// with CRLF and are folded at 75 octets. DTSTAMP is the deadline itself so
// that the same turn always yields the same bytes; uid should be unique
// per table and turn (e.g. the notice's Message-ID).
func Calendar(deadline time.Time, table, uid string) []byte {
	const stamp = "20060102T150405Z"
	end := deadline.UTC()
	start := end.Add(-30 * time.Minute)
	summary := "Lexio: your turn at " + table + " ends"
	lines := []string{
		"BEGIN:VCALENDAR",
		"VERSION:2.0",
		"PRODID:-//lexio-mail//lexio//EN",
		"CALSCALE:GREGORIAN",
		"METHOD:PUBLISH",
		"BEGIN:VEVENT",
		"UID:" + icsText(uid),
		"DTSTAMP:" + end.Format(stamp),
		"DTSTART:" + start.Format(stamp),
		"DTEND:" + end.Format(stamp),
		"SUMMARY:" + icsText(summary),
		"TRANSP:TRANSPARENT",
		"BEGIN:VALARM",
		"ACTION:DISPLAY",
		"DESCRIPTION:" + icsText(summary),
		"TRIGGER:-PT1H",
		"END:VALARM",
		"END:VEVENT",
		"END:VCALENDAR",
	}
	var b strings.Builder
	for _, l := range lines {
		fold(&b, l)
	}
	return []byte(b.String())
}

// icsText escapes a TEXT value (RFC 5545 §3.3.11).
func icsText(s string) string {
	r := strings.NewReplacer(`\`, `\\`, ";", `\;`, ",", `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)
	return r.Replace(s)
}

// fold writes one content line, folded so that no line exceeds 75 octets
// and no UTF-8 sequence is split (RFC 5545 §3.1).
func fold(b *strings.Builder, line string) {
	limit := 75
	for len(line) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		b.WriteString(line[:cut])
		b.WriteString("\r\n ")
		line = line[cut:]
		limit = 74 // the leading space counts
	}
	b.WriteString(line)
	b.WriteString("\r\n")
}
