package noticetest

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ICS is an iCalendar object read back by ParseICS: its components,
// nested as written.
type ICS struct {
	Name  string // VCALENDAR, VEVENT, VALARM
	Props []ICSProp
	Subs  []*ICS
}

// ICSProp is one content line: NAME;PARAM=VALUE:value, the value
// unescaped.
type ICSProp struct {
	Name   string
	Params map[string]string // names upper-case, quotes removed
	Value  string
}

// Get returns the value of the first property name, or "".
func (c *ICS) Get(name string) string {
	if p := c.Prop(name); p != nil {
		return p.Value
	}
	return ""
}

// Prop returns the first property name, or nil.
func (c *ICS) Prop(name string) *ICSProp {
	for i := range c.Props {
		if c.Props[i].Name == name {
			return &c.Props[i]
		}
	}
	return nil
}

// Sub returns the first component name, or nil.
func (c *ICS) Sub(name string) *ICS {
	for _, s := range c.Subs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// ParseICS reads one iCalendar object strictly as RFC 5545 §3.1 writes it:
// every line ends with CRLF, is at most 75 octets and valid UTF-8 (folding
// splits no character), continuation lines start with a space, and
// BEGIN/END nest. TEXT values are unescaped (§3.3.11); other values are
// kept as written.
func ParseICS(data []byte) (*ICS, error) {
	s := string(data)
	if !strings.HasSuffix(s, "\r\n") {
		return nil, fmt.Errorf("ics: does not end with CRLF")
	}
	raw := strings.Split(strings.TrimSuffix(s, "\r\n"), "\r\n")
	var lines []string
	for i, l := range raw {
		if strings.ContainsAny(l, "\r\n") {
			return nil, fmt.Errorf("ics: line %d: a bare CR or LF", i+1)
		}
		if len(l) > 75 {
			return nil, fmt.Errorf("ics: line %d: %d octets", i+1, len(l))
		}
		if !utf8.ValidString(l) {
			return nil, fmt.Errorf("ics: line %d: not UTF-8 (a character split by folding?)", i+1)
		}
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			if len(lines) == 0 {
				return nil, fmt.Errorf("ics: line %d: continuation of nothing", i+1)
			}
			lines[len(lines)-1] += l[1:]
			continue
		}
		lines = append(lines, l)
	}
	var stack []*ICS
	var root *ICS
	for i, l := range lines {
		p, err := parseProp(l)
		if err != nil {
			return nil, fmt.Errorf("ics: content line %d: %w", i+1, err)
		}
		switch p.Name {
		case "BEGIN":
			c := &ICS{Name: p.Value}
			if len(stack) > 0 {
				top := stack[len(stack)-1]
				top.Subs = append(top.Subs, c)
			} else if root != nil {
				return nil, fmt.Errorf("ics: content line %d: a second object", i+1)
			} else {
				root = c
			}
			stack = append(stack, c)
		case "END":
			if len(stack) == 0 || stack[len(stack)-1].Name != p.Value {
				return nil, fmt.Errorf("ics: content line %d: END:%s does not close the open component", i+1, p.Value)
			}
			stack = stack[:len(stack)-1]
		default:
			if len(stack) == 0 {
				return nil, fmt.Errorf("ics: content line %d: %s outside any component", i+1, p.Name)
			}
			top := stack[len(stack)-1]
			top.Props = append(top.Props, p)
		}
	}
	if root == nil || len(stack) > 0 {
		return nil, fmt.Errorf("ics: no complete object")
	}
	return root, nil
}

// textProps are the properties whose values are TEXT.
var textProps = map[string]bool{"SUMMARY": true, "DESCRIPTION": true, "UID": true, "COMMENT": true, "LOCATION": true}

func parseProp(l string) (ICSProp, error) {
	// The name and parameters end at the first colon outside quotes.
	colon, quoted := -1, false
	for i := 0; i < len(l) && colon < 0; i++ {
		switch l[i] {
		case '"':
			quoted = !quoted
		case ':':
			if !quoted {
				colon = i
			}
		}
	}
	if colon < 0 {
		return ICSProp{}, fmt.Errorf("no colon in %q", l)
	}
	head, value := l[:colon], l[colon+1:]
	parts := splitUnquoted(head, ';')
	p := ICSProp{Name: strings.ToUpper(parts[0]), Params: map[string]string{}}
	if p.Name == "" {
		return ICSProp{}, fmt.Errorf("no name in %q", l)
	}
	for _, param := range parts[1:] {
		k, v, ok := strings.Cut(param, "=")
		if !ok {
			return ICSProp{}, fmt.Errorf("parameter %q without a value", param)
		}
		p.Params[strings.ToUpper(k)] = strings.Trim(v, `"`)
	}
	if textProps[p.Name] {
		var err error
		if value, err = unescapeText(value); err != nil {
			return ICSProp{}, err
		}
	}
	p.Value = value
	return p, nil
}

// splitUnquoted splits s at every sep outside double quotes.
func splitUnquoted(s string, sep byte) []string {
	var parts []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			quoted = !quoted
		case s[i] == sep && !quoted:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// unescapeText undoes RFC 5545 §3.3.11; an unescaped comma or semicolon,
// or an unknown escape, is an error.
func unescapeText(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ',', ';':
			return "", fmt.Errorf("unescaped %q in %q", c, s)
		case '\\':
			i++
			if i == len(s) {
				return "", fmt.Errorf("a lone backslash ends %q", s)
			}
			switch s[i] {
			case '\\', ',', ';':
				b.WriteByte(s[i])
			case 'n', 'N':
				b.WriteByte('\n')
			default:
				return "", fmt.Errorf("unknown escape \\%c in %q", s[i], s)
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}
