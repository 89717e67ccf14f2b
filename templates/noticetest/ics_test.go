package noticetest

import (
	"strings"
	"testing"
)

func TestParseICS(t *testing.T) {
	good := "BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nBEGIN:VEVENT\r\nSUMMARY:a\\, b\\;\r\n  c\\nd\r\n" +
		"ATTENDEE;CN=\"x:y;z\";RSVP=FALSE:mailto:b@c\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
	c, err := ParseICS([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	ev := c.Sub("VEVENT")
	if c.Get("METHOD") != "REQUEST" || ev == nil || ev.Get("SUMMARY") != "a, b; c\nd" {
		t.Fatalf("read %+v", c)
	}
	if p := ev.Prop("ATTENDEE"); p.Value != "mailto:b@c" || p.Params["CN"] != "x:y;z" || p.Params["RSVP"] != "FALSE" {
		t.Errorf("ATTENDEE %+v", p)
	}
	for name, bad := range map[string]string{
		"bare LF":       strings.Replace(good, "METHOD:REQUEST\r\n", "METHOD:REQUEST\n", 1),
		"no final CRLF": strings.TrimSuffix(good, "\r\n"),
		"76 octets":     strings.Replace(good, "SUMMARY:a", "SUMMARY:"+strings.Repeat("x", 68), 1),
		"split UTF-8":   strings.Replace(good, "SUMMARY:a", "SUMMARY:\xc3\r\n \xa9", 1),
		"comma":         strings.Replace(good, `a\,`, "a,", 1),
		"unclosed":      strings.Replace(good, "END:VEVENT\r\n", "", 1),
		"misnested":     strings.Replace(good, "END:VEVENT", "END:VALARM", 1),
	} {
		if _, err := ParseICS([]byte(bad)); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}
