// Package ics writes a player's turn as an entry of their calendar: an
// iTIP message (RFC 5546) in iCalendar (RFC 5545), the attachment notice
// puts in a turn's mail. Its bytes depend only on the event and its title.
//
// It knows nothing of mail, games or languages: the title comes written
// (templates.Set.CalendarTitle).
package ics

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Event is one turn of one player as an entry of their calendar, sent as
// an iTIP message (RFC 5546) in iCalendar (RFC 5545): a REQUEST while the
// turn is the player's — sent again, with the same UID, when it is
// announced again or its deadline moves — and a CANCEL once it is over.
type Event struct {
	// UID names the turn: the same for every mail about it.
	UID string
	// Sequence is the version of the event: a REQUEST of a higher
	// Sequence replaces the one in the calendar (RFC 5546 §2.1.4).
	Sequence int
	// Cancel removes the event: the turn is over.
	Cancel bool
	// Table, with Deadline and TZ, is what the title says; Encode is
	// given the title written.
	Table string
	// Deadline is when the turn ends; a cancel does not need it.
	Deadline time.Time
	// Stamp is the DTSTAMP: when the mail was written.
	Stamp time.Time
	// Organizer and Attendee are the service's and the player's
	// addresses; OrganizerName is the service's display name, if any.
	Organizer, OrganizerName, Attendee string
	// TZ is the zone of the time in the title; nil is UTC.
	TZ *time.Location
}

// Method is the iTIP method of the event, for the METHOD property and the
// method= parameter of the text/calendar part that carries it.
func (e Event) Method() string {
	if e.Cancel {
		return "CANCEL"
	}
	return "REQUEST"
}

// Encode writes e as an iCalendar object titled title ("Lexio t42: your
// turn ends …"). A request holds one event of the half hour before the
// deadline, transparent (it books no time), with an alarm an hour before
// the deadline; a cancel holds the same UID with STATUS CANCELLED. Times
// are UTC, lines end with CRLF and are folded at 75 octets. The bytes
// depend only on e and title.
func Encode(e Event, title string) []byte {
	const stamp = "20060102T150405Z"
	organizer := "ORGANIZER"
	if e.OrganizerName != "" {
		organizer += ";CN=" + icsParam(e.OrganizerName)
	}
	organizer += ":mailto:" + e.Organizer
	lines := []string{
		"BEGIN:VCALENDAR",
		"VERSION:2.0",
		"PRODID:-//lexio-mail//lexio//EN",
		"CALSCALE:GREGORIAN",
		"METHOD:" + e.Method(),
		"BEGIN:VEVENT",
		"UID:" + icsText(e.UID),
		"SEQUENCE:" + strconv.Itoa(e.Sequence),
		"DTSTAMP:" + e.Stamp.UTC().Format(stamp),
		organizer,
		"ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=FALSE:mailto:" + e.Attendee,
		"SUMMARY:" + icsText(title),
	}
	if e.Cancel {
		lines = append(lines, "STATUS:CANCELLED")
	} else {
		end := e.Deadline.UTC()
		lines = append(lines,
			"DTSTART:"+end.Add(-30*time.Minute).Format(stamp),
			"DTEND:"+end.Format(stamp),
			"STATUS:CONFIRMED",
			"TRANSP:TRANSPARENT",
			"BEGIN:VALARM",
			"ACTION:DISPLAY",
			"DESCRIPTION:"+icsText(title),
			"TRIGGER;RELATED=END:-PT1H",
			"END:VALARM",
		)
	}
	lines = append(lines, "END:VEVENT", "END:VCALENDAR")
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

// icsParam writes a parameter value (RFC 5545 §3.2): quoted when it holds
// a colon, semicolon or comma; a double quote and control characters,
// which it cannot hold, are dropped.
func icsParam(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '"' || r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if strings.ContainsAny(s, ":;,") {
		return `"` + s + `"`
	}
	return s
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
