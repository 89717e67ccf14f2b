package templates

import (
	"html/template"
	"strconv"
	"strings"
)

// The rack is drawn in Go like the board, for the same reason: its two
// ranges of seven tiles were a third of a notice's template time. The
// output is the templates' of before, to the byte (the golden files).

// rackHTML writes the two rows of a non-empty rack's HTML table: the slot
// numbers over the tiles.
func rackHTML(r Rack) template.HTML {
	var sb strings.Builder
	sb.Grow(len(r) * 400)
	sb.WriteString("<tr>")
	for _, t := range r {
		sb.WriteString("\n<td style=\"padding:0;text-align:center;font-family:Arial,Helvetica,sans-serif;font-size:11px;color:#888888;\">")
		sb.WriteString(strconv.Itoa(t.Slot))
		sb.WriteString("</td>")
	}
	sb.WriteString("</tr>\n<tr>")
	for _, t := range r {
		ink := "#222222"
		if t.Blank {
			ink = colBlankInk
		}
		sb.WriteString("\n<td style=\"width:36px;height:38px;padding:0;text-align:center;vertical-align:middle;background-color:" + colTile +
			";border:2px solid " + colTileEdge + ";font-family:Arial,Helvetica,sans-serif;font-size:20px;font-weight:bold;color:" + ink + ";\">")
		sb.WriteString(escapeText(tileText(t)))
		sb.WriteString(`<span style="font-size:10px;font-weight:normal;vertical-align:sub;">`)
		sb.WriteString(strconv.Itoa(t.Value))
		sb.WriteString("</span></td>")
	}
	sb.WriteString("</tr>\n")
	return template.HTML(sb.String())
}

// rackText writes a non-empty rack as three aligned lines under the
// language's labels: slots, tiles, values.
func rackText(r Rack, slot, tile, value string) string {
	var sb strings.Builder
	line := func(label string, cell func(RackTile) string) {
		sb.WriteString("   ")
		sb.WriteString(pad(8, label))
		for _, t := range r {
			sb.WriteByte(' ')
			sb.WriteString(rpad(2, cell(t)))
		}
		sb.WriteByte('\n')
	}
	line(slot, func(t RackTile) string { return strconv.Itoa(t.Slot) })
	line(tile, tileText)
	line(value, func(t RackTile) string { return strconv.Itoa(t.Value) })
	return sb.String()
}

// The scores table's rows too: four players' rows were a quarter of a
// notice's template time. The phrases come translated from the template.

// scoresHTML writes a row per player of the HTML scores table; you, away
// and toMove are the language's phrases.
func scoresHTML(players []PlayerLine, you, away, toMove string) template.HTML {
	const td = `<td style="padding:5px 6px;border-bottom:1px solid #eeeeee;`
	var sb strings.Builder
	sb.Grow(len(players) * 600)
	for _, p := range players {
		sb.WriteString("<tr")
		if p.ToMove {
			sb.WriteString(` style="background-color:#fff6d6;"`)
		}
		sb.WriteString(">" + td)
		if p.You {
			sb.WriteString("font-weight:bold;")
		}
		sb.WriteString(`">`)
		if p.ToMove {
			sb.WriteString("&#9654;&nbsp;")
		}
		sb.WriteString(escapeText(p.Name))
		if p.You {
			sb.WriteString(` <span style="font-weight:normal;color:#777777;">` + escapeText(you) + "</span>")
		}
		sb.WriteString("</td>" + td + `text-align:right;font-weight:bold;">` + strconv.Itoa(p.Score) + "</td>")
		sb.WriteString(td + `text-align:right;">` + strconv.Itoa(p.Tiles) + "</td>")
		sb.WriteString(td + `color:#a05a00;font-size:12px;">`)
		if p.Away {
			sb.WriteString(escapeText(away))
		}
		if p.ToMove {
			sb.WriteString(escapeText(toMove))
		}
		sb.WriteString("</td></tr>\n")
	}
	return template.HTML(sb.String())
}

// scoresText writes a line per player of the text scores table.
func scoresText(players []PlayerLine, you, away string) string {
	var sb strings.Builder
	for _, p := range players {
		if p.ToMove {
			sb.WriteString(" > ")
		} else {
			sb.WriteString("   ")
		}
		name := p.Name
		if p.You {
			name += " " + you
		}
		sb.WriteString(pad(24, name) + " " + rpad(7, strconv.Itoa(p.Score)) + " " + rpad(7, strconv.Itoa(p.Tiles)))
		if p.Away {
			sb.WriteString("  (" + away + ")")
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// escapeText escapes s as html/template escapes text between tags, so
// that the rows drawn in Go read as the templates' did (TestEscapeText).
var escapeText = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "&", "&amp;", "'", "&#39;", "+", "&#43;", "<", "&lt;", ">", "&gt;").Replace
