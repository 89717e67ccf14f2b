package templates

import "time"

// calendarTitle is the data of the cal.turn and cal.over phrases.
type calendarTitle struct {
	Table string
	At    time.Time
	TZ    *time.Location
}

// CalendarTitle is the title of a turn's calendar entry in lang ("Lexio
// t42: your turn ends …", the deadline in tz, nil UTC), or, over, of the
// entry that cancels it; notice/ics writes the entry around it.
func (s *Set) CalendarTitle(lang, table string, deadline time.Time, tz *time.Location, over bool) (string, error) {
	phrase := "cal.turn"
	if over {
		phrase = "cal.over"
	}
	return s.Phrase(lang, phrase, calendarTitle{Table: table, At: deadline, TZ: tz})
}
