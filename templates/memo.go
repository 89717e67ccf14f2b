package templates

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"io"
	"strconv"
	"strings"
	"sync"
	texttemplate "text/template"
)

// The notices of one move share most of their body: the four players see
// the same board, log and reply help, only the greeting, scores table and
// rack differ. A partial called through "memo" is rendered once per
// language, format and data, and the other notices reuse its output.
// The partial must depend on its argument and the language only (no
// .Now, no recipient), which holds for part.board, part.log and
// part.reply.

// memoCache keeps the rendered partials of the last few hundred calls: a
// move's notices are rendered together, so two generations suffice — a
// full current map becomes the old one.
type memoCache struct {
	mu       sync.Mutex
	cur, old map[string]*memoEntry
}

// memoLimit bounds a generation; each entry is a few KB.
const memoLimit = 256

type memoEntry struct {
	done chan struct{}
	out  string
	err  error
}

// get returns the rendered key, rendering it with render when no other
// call has: concurrent callers of one key wait for the first.
func (m *memoCache) get(key string, render func() (string, error)) (string, error) {
	m.mu.Lock()
	e, ok := m.cur[key]
	if !ok {
		if e, ok = m.old[key]; ok {
			m.cur[key] = e
		}
	}
	if !ok {
		if len(m.cur) >= memoLimit {
			m.old, m.cur = m.cur, make(map[string]*memoEntry, memoLimit)
		}
		e = &memoEntry{done: make(chan struct{})}
		m.cur[key] = e
		m.mu.Unlock()
		e.out, e.err = render()
		close(e.done)
		if e.err != nil {
			m.mu.Lock()
			if m.cur[key] == e {
				delete(m.cur, key)
			}
			m.mu.Unlock()
		}
		return e.out, e.err
	}
	m.mu.Unlock()
	<-e.done
	return e.out, e.err
}

func newMemoCache() *memoCache {
	return &memoCache{cur: make(map[string]*memoEntry, memoLimit), old: map[string]*memoEntry{}}
}

// memoKey names a partial call by template and data.
func memoKey(name string, data any) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte(0)
	switch d := data.(type) {
	case nil:
	case Board:
		d.appendKey(&b)
	case *Board:
		d.appendKey(&b)
	case []LogLine:
		for i := range d {
			d[i].appendKey(&b)
		}
	default:
		// Every field, through fmt: slower than a hand-written key but it
		// cannot forget one.
		fmt.Fprintf(&b, "%T %v", data, data)
	}
	return b.String()
}

// appendKey writes every field of the board, compactly (fmt would take as
// long as drawing it). TestBoardKeyCoversFields keeps it complete.
func (b *Board) appendKey(sb *strings.Builder) {
	sb.Grow(Size*Size*4 + 8*len(b.Last))
	for r := range Size {
		for c := range Size {
			cell := b.Cells[r][c]
			flags := byte(0)
			if cell.Blank {
				flags |= 1
			}
			if cell.Last {
				flags |= 2
			}
			sb.WriteByte(byte(cell.Kind))
			sb.WriteByte(cell.Letter)
			sb.WriteByte(flags)
			sb.WriteString(strconv.Itoa(cell.Value))
			sb.WriteByte(',')
		}
	}
	for _, p := range b.Last {
		sb.WriteString(strconv.Itoa(p.Row))
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(p.Col))
		sb.WriteByte(';')
	}
}

// executor is what both formats' template sets can do.
type executor interface {
	ExecuteTemplate(w io.Writer, name string, data any) error
}

// render returns partial name of set for data, from cache or drawn once.
func (m *memoCache) render(set executor, name string, data any) (string, error) {
	return m.get(memoKey(name, data), func() (string, error) {
		b := buffers.Get().(*bytes.Buffer)
		defer buffers.Put(b)
		b.Reset()
		err := set.ExecuteTemplate(b, name, data)
		return b.String(), err
	})
}

// memoText and memoHTML are the "memo" function of each format.
type memoText struct {
	set   *texttemplate.Template
	cache *memoCache
}

func (m *memoText) call(name string, data any) (string, error) {
	return m.cache.render(m.set, name, data)
}

type memoHTML struct {
	set   *htmltemplate.Template
	cache *memoCache
}

func (m *memoHTML) call(name string, data any) (htmltemplate.HTML, error) {
	out, err := m.cache.render(m.set, name, data)
	return htmltemplate.HTML(out), err
}

// appendKey writes every field of the line, each ended by a separator
// that no text field can hold unescaped (player names and words are
// quoted). TestLogKeyCoversFields keeps it complete.
func (l *LogLine) appendKey(sb *strings.Builder) {
	num := func(n int) {
		sb.WriteString(strconv.Itoa(n))
		sb.WriteByte(',')
	}
	num(l.Turn)
	sb.WriteString(strconv.FormatInt(l.At.UnixNano(), 36))
	sb.WriteString(l.At.Location().String())
	sb.WriteByte(',')
	num(int(l.Kind))
	sb.WriteString(strconv.Quote(l.Player))
	num(len(l.Words))
	for _, w := range l.Words {
		sb.WriteString(strconv.Quote(w.Word))
		num(w.Points)
	}
	num(l.Pos.Row)
	num(l.Pos.Col)
	if l.NoPos {
		sb.WriteByte('n')
	}
	if l.Down {
		sb.WriteByte('d')
	}
	num(l.Score)
	num(l.Bonus)
	num(l.Count)
	num(int(l.End))
	num(len(l.Adjustments))
	for _, a := range l.Adjustments {
		sb.WriteString(strconv.Quote(a.Player))
		num(a.Points)
	}
	sb.WriteByte(';')
}
