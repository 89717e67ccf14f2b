package templates

import (
	"html/template"
	"strconv"
	"strings"
)

// gridMarks are the text grid's markers for empty cells, indexed by
// CellKind (RULES §2.4).
const gridMarks = ".#*TDtdx"

// Grid draws the board as monospaced text, as in RULES §2.4: column letters
// on top, row numbers on the left, three characters a cell. A letter is
// uppercase, a blank lowercase, and the last move's tiles are bracketed:
// "[C][H]". Lines are 43 characters wide.
func Grid(b *Board) string {
	var sb strings.Builder
	sb.WriteString("    ")
	for c := range Size {
		sb.WriteByte(' ')
		sb.WriteByte(byte('A' + c))
		sb.WriteByte(' ')
	}
	sb.WriteByte('\n')
	for r := range Size {
		n := strconv.Itoa(r + 1)
		sb.WriteString(strings.Repeat(" ", 3-len(n)))
		sb.WriteString(n)
		sb.WriteByte(' ')
		for c := range Size {
			cell := b.Cells[r][c]
			mark := byte('?')
			if int(cell.Kind) >= 0 && int(cell.Kind) < len(gridMarks) {
				mark = gridMarks[cell.Kind]
			}
			if cell.Letter != 0 {
				mark = upper(cell.Letter)
				if cell.Blank {
					mark += 'a' - 'A'
				}
			}
			if cell.Letter != 0 && b.isLast(r, c) {
				sb.WriteByte('[')
				sb.WriteByte(mark)
				sb.WriteByte(']')
			} else {
				sb.WriteByte(' ')
				sb.WriteByte(mark)
				sb.WriteByte(' ')
			}
		}
		sb.WriteByte('\n')
	}
	return strings.TrimRight(sb.String(), "\n")
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// Colours of the HTML board, one per kind of cell.
const (
	colWall     = "#3a3f44"
	colPlain    = "#e4ecd9"
	colFountain = "#5aa9e6"
	colTW       = "#c0392b"
	colDW       = "#f0a3a0"
	colTL       = "#1f5fa8"
	colDL       = "#a9cdef"
	colCross    = "#8e6bbf"
	colTile     = "#f7e3b0"
	colTileEdge = "#c9a75f"
	colLast     = "#ffd23f"
	colLastEdge = "#d35400"
	colBlankInk = "#7a4f9c"
)

// cellColours gives background and ink of an empty cell of kind k.
func cellColours(k CellKind) (bg, ink string) {
	switch k {
	case Wall:
		return colWall, colWall
	case Fountain:
		return colFountain, "#ffffff"
	case TW:
		return colTW, "#ffffff"
	case DW:
		return colDW, "#7b1f1a"
	case TL:
		return colTL, "#ffffff"
	case DL:
		return colDL, "#12406e"
	case Cross:
		return colCross, "#ffffff"
	}
	return colPlain, "#9aa88a"
}

// cellView is one cell of the HTML board, ready to draw.
type cellView struct {
	Bg     string       // the td's background colour (bgcolor)
	Style  template.CSS // the rest of the td's style; "" for a plain square
	Letter string       // the tile's letter; "" when empty
	Value  string       // the tile's value, "" for a blank or an empty cell
	Label  string       // the bonus label of an empty cell
	Blank  bool
	Last   bool
}

// The HTML board is most of a notice (Gmail clips messages over 102 KB,
// and every byte of the four notices of a move goes through the mail
// servers), so its 169 cells say only what is their own: the columns'
// widths are set once, on the letters above them; each row's height once,
// on its number; the white gaps between squares are the table's cell
// spacing; the row centres its cells vertically. A tile or a label still
// carries its own font: mail clients do not all let a cell inherit the
// table's (Gmail sets its own font on every cell).

// rows prepares the HTML board; labels are the language's bonus labels.
func rows(b *Board, labels *[8]string) [][]cellView {
	out := make([][]cellView, Size)
	for r := range Size {
		out[r] = make([]cellView, Size)
		for c := range Size {
			cell := b.Cells[r][c]
			k := cell.Kind
			if k < 0 || int(k) >= len(gridMarks) {
				k = Plain
			}
			v := cellView{}
			if cell.Letter != 0 {
				last := b.isLast(r, c)
				bg, edge := colTile, colTileEdge
				if last {
					bg, edge = colLast, colLastEdge
				}
				ink := "#222222"
				v.Letter = string(upper(cell.Letter))
				if cell.Blank {
					ink = colBlankInk
					v.Letter = strings.ToLower(v.Letter)
					v.Blank = true
				} else {
					v.Value = strconv.Itoa(cell.Value)
				}
				v.Last = last
				v.Bg = bg
				v.Style = template.CSS("border:2px solid " + edge + ";color:" + ink + ";font-size:17px;font-weight:bold")
				if cell.Blank {
					v.Style += ";font-style:italic"
				}
			} else {
				bg, ink := cellColours(k)
				v.Label = labels[k]
				v.Bg = bg
				if v.Label != "" {
					v.Style = template.CSS("color:" + ink + ";font-size:10px;font-weight:bold")
				}
			}
			out[r][c] = v
		}
	}
	return out
}

// rowsHTML writes the 13 rows of the HTML board. It is Go rather than
// template code because the board is most of a notice: 169 cells drawn by
// the template engine's reflection took most of the rendering time.
func rowsHTML(b *Board, labels *[8]string) template.HTML {
	var sb strings.Builder
	sb.Grow(Size * Size * 100)
	for i, row := range rows(b, labels) {
		sb.WriteString(`<tr valign="middle"><th height="34" style="padding:0 4px 0 0;text-align:right;font-size:11px;font-weight:normal;color:#888888;">`)
		sb.WriteString(strconv.Itoa(i + 1))
		sb.WriteString("</th>\n")
		for _, v := range row {
			sb.WriteString(`<td `)
			if v.Style != "" {
				sb.WriteString(`align="center" `)
			}
			sb.WriteString(`bgcolor="`)
			sb.WriteString(escapeText(v.Bg))
			sb.WriteString(`"`)
			if v.Style != "" {
				sb.WriteString(` style="`)
				sb.WriteString(escapeText(string(v.Style)))
				sb.WriteString(`"`)
			}
			sb.WriteString(`>`)
			switch {
			case v.Letter != "":
				sb.WriteString(escapeText(v.Letter))
				if v.Value != "" {
					sb.WriteString(`<sub style="font-size:9px;font-weight:normal">`)
					sb.WriteString(v.Value)
					sb.WriteString(`</sub>`)
				}
			case v.Label != "":
				sb.WriteString(escapeText(v.Label))
			default:
				sb.WriteString(`&nbsp;`)
			}
			// A line per cell: the HTML part travels as 7-bit lines of at
			// most 998 octets, and a line break between cells changes
			// nothing.
			sb.WriteString("</td>\n")
		}
		sb.WriteString("</tr>\n")
	}
	return template.HTML(sb.String())
}

// legendItem is one entry of the HTML board's legend.
type legendItem struct {
	Kind  CellKind
	Label string
	Style template.CSS
}

func legend(labels *[8]string) []legendItem {
	var out []legendItem
	for _, k := range []CellKind{TW, DW, TL, DL, Cross, Fountain, Wall} {
		bg, ink := cellColours(k)
		out = append(out, legendItem{Kind: k, Label: labels[k], Style: template.CSS(
			"width:22px;height:18px;padding:0;text-align:center;font-family:Arial,Helvetica,sans-serif;" +
				"font-size:9px;font-weight:bold;background-color:" + bg + ";color:" + ink + ";")})
	}
	return out
}
