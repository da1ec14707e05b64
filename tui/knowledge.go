package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/book"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/engine/tablebase"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// knowledge is what Squall knows about the shown position without
// searching: the opening it belongs to, the book's moves, the tablebase's
// verdict. It is looked up once per shown position (setCur), so drawing
// the screen costs nothing more.
type knowledge struct {
	// opening names the line to the shown position (its deepest named
	// position, so a game that has left the list keeps its name);
	// inTheory says the shown position itself is named.
	opening   opening.Opening
	hasOpen   bool
	inTheory  bool
	bookKey   uint64           // Polyglot key of the shown position
	cands     []book.Candidate // the book's moves, heaviest first
	sans      []string         // their SAN
	bookSel   int              // the book move under consideration (b, B)
	weightSum int
	// The Syzygy verdict comes later, from a command (tbMsg): a DTZ probe
	// may read and decompress table blocks from disk, which Update must not
	// wait for. tbWant says the shown position is to be probed, tbAsked
	// that the command has been issued.
	tbWant, tbAsked bool
	hasTB           bool
	wdl, dtz        int // Syzygy values for the side to move
	hasDTZ          bool
}

// tbMsg is the Syzygy verdict of the position whose key it carries.
type tbMsg struct {
	key           uint64
	wdl, dtz      int
	hasTB, hasDTZ bool
}

// probeTB probes p (a copy the command owns) off the Update goroutine.
func probeTB(tb *tablebase.Tablebase, p *chess.Position) tea.Cmd {
	return func() tea.Msg {
		msg := tbMsg{key: p.Key()}
		msg.wdl, msg.hasTB = tb.ProbeWDL(p)
		if msg.hasTB {
			msg.dtz, msg.hasDTZ = tb.ProbeDTZ(p)
		}
		return msg
	}
}

// askTables issues the probe of the shown position, once.
func (m *Model) askTables() tea.Cmd {
	if !m.know.tbWant || m.know.tbAsked {
		return nil
	}
	m.know.tbAsked = true
	return probeTB(m.opt.Tablebase, m.pos.Clone())
}

// handleTB takes a verdict if it is the shown position's; one for a
// position left meanwhile is dropped.
func (m *Model) handleTB(msg tbMsg) {
	if msg.key != m.pos.Key() || !m.know.tbWant {
		return
	}
	m.know.hasTB, m.know.wdl = msg.hasTB, msg.wdl
	m.know.hasDTZ, m.know.dtz = msg.hasDTZ, msg.dtz
}

// lookUp gathers the knowledge of the shown position: the opening and the
// book's moves at once (both in memory), the tables' verdict by a command
// (askTables).
func (m *Model) lookUp() knowledge {
	var k knowledge
	k.opening, k.hasOpen = opening.Name(m.tree.Start, m.tree.Line(m.cur))
	_, k.inTheory = opening.Lookup(m.pos)
	m.lookUpBook(&k)
	// A finished position needs no table: the status line says how it
	// ended. ProbeWDL itself refuses castling rights and too many pieces.
	k.tbWant = m.opt.Tablebase != nil && m.pos.HasLegalMoves()
	return k
}

// lookUpBook sets k's book moves for the shown position (none without a
// book). Polyglot books hold standard chess only (their castling keys
// assume the standard start).
func (m *Model) lookUpBook(k *knowledge) {
	k.bookKey, k.cands, k.sans, k.weightSum, k.bookSel = 0, nil, nil, 0, 0
	if b := m.opt.Book; b != nil && !m.pos.Chess960() {
		k.bookKey = book.Key(m.pos)
		k.cands = b.Candidates(m.pos, m.opt.BookLearning)
		for _, c := range k.cands {
			k.weightSum += int(c.Weight)
			k.sans = append(k.sans, m.pos.SAN(c.Move))
		}
	}
}

// lines draws the knowledge in w cells: the opening, the book moves, the
// tablebase result, each only when there is something to say.
func (k *knowledge) lines(st *view.Styles, w int) []string {
	var out []string
	if k.hasOpen {
		// The whole name, the one a saved game gets (W8: the panel cut it
		// to its family, "C69 Ruy Lopez", while the file said "Ruy Lopez:
		// Exchange Variation, Normal Variation"), on two rows if need be.
		lines := view.WrapWords(k.opening.String(), w)
		if len(lines) > 2 {
			lines = append(lines[:1], termtext.Cut(strings.Join(lines[1:], " "), w))
		}
		// The shown position's own name in the text colour; a name the
		// line carries from an earlier position, muted.
		sty := st.Muted
		if k.inTheory {
			sty = st.Text
		}
		for _, l := range lines {
			out = append(out, sty.Render(l))
		}
	}
	if len(k.cands) > 0 {
		out = append(out, k.bookLine(st, w))
	}
	if k.hasTB {
		out = append(out, st.Text.Render(termtext.Cut(tbText(k.wdl, k.dtz, k.hasDTZ), w)))
	}
	return out
}

// bookLine is "book: e4 45% d4 35% …": the book's moves with their share of
// the position's weight, never/always marks as ✗/✓ and the move under
// consideration underlined. When that move would fall off the end, the
// list starts from it instead.
func (k *knowledge) bookLine(st *view.Styles, w int) string {
	items := make([]string, len(k.cands))
	for i, c := range k.cands {
		s := k.sans[i]
		if k.weightSum > 0 {
			s += fmt.Sprintf(" %d%%", (int(c.Weight)*100+k.weightSum/2)/k.weightSum)
		}
		switch c.Mark {
		case book.Always:
			s += "✓"
		case book.Never:
			s += "✗"
		}
		items[i] = s
	}
	first := 0
	const head = "book:"
	for {
		used, last := len(head), first-1
		if first > 0 {
			used += 2 // " …"
		}
		for i := first; i < len(items); i++ {
			n := 1 + len([]rune(items[i]))
			if i < len(items)-1 {
				n += 2 // room for a trailing " …"
			}
			if used+n > w {
				break
			}
			used, last = used+n, i
		}
		if last >= k.bookSel || first >= k.bookSel {
			var b strings.Builder
			b.WriteString(st.Muted.Render(head))
			if first > 0 {
				b.WriteString(st.Muted.Render(" …"))
			}
			for i := first; i <= last; i++ {
				sty := st.Text
				if i == k.bookSel {
					sty = sty.Underline(true)
				}
				b.WriteString(" " + sty.Render(items[i]))
			}
			if last < len(items)-1 {
				b.WriteString(st.Muted.Render(" …"))
			}
			return termtext.Cut(b.String(), w)
		}
		first = k.bookSel
	}
}

// tbText is the tablebase line: "TB: win, DTZ 13", "TB: draw",
// "TB: loss, DTZ 8", for the side to move. Wins and losses the 50-move
// rule turns into draws are "cursed" and "blessed" (Syzygy's words); their
// DTZ counts from 100 as Syzygy's does.
func tbText(wdl, dtz int, hasDTZ bool) string {
	s := map[int]string{-2: "loss", -1: "blessed loss", 0: "draw", 1: "cursed win", 2: "win"}[wdl]
	if wdl != 0 && hasDTZ {
		s += fmt.Sprintf(", DTZ %d", max(dtz, -dtz))
	}
	return "TB: " + s
}

// nextBookMove makes the next book move the one under consideration.
func (m *Model) nextBookMove() tea.Cmd {
	k := &m.know
	if err := m.bookHere(); err != nil {
		m.setError(err)
		return nil
	}
	k.bookSel = (k.bookSel + 1) % len(k.cands)
	m.setMessage(fmt.Sprintf("book move %s (%d of %d): B marks it always/never", k.sans[k.bookSel], k.bookSel+1, len(k.cands)))
	return nil
}

// markBookMove cycles the mark of the book move under consideration:
// none → always → never → none, and saves the learning file. The save is
// done here, in Update, because the learning table is the model's and not
// safe to read from another goroutine; it is a few lines of text.
func (m *Model) markBookMove() tea.Cmd {
	if err := m.bookHere(); err != nil {
		m.setError(err)
		return nil
	}
	l := m.opt.BookLearning
	if l == nil {
		m.setError(fmt.Errorf("book marks need a learning file"))
		return nil
	}
	k := &m.know
	c, san := k.cands[k.bookSel], k.sans[k.bookSel]
	next := map[book.Mark]book.Mark{book.Unmarked: book.Always, book.Always: book.Never, book.Never: book.Unmarked}[c.Mark]
	l.SetMark(k.bookKey, c.Code, next)
	if err := l.Save(); err != nil {
		// The mark stays for this session; the engine reads the file.
		m.setError(fmt.Errorf("book mark %s %s not saved: %w", san, next, err))
	} else if next == book.Unmarked {
		m.setMessage(fmt.Sprintf("book move %s: mark cleared", san))
	} else {
		m.setMessage(fmt.Sprintf("book move %s marked %s", san, next))
	}
	// Effective weights and order follow the marks: look again, keeping
	// the same move under consideration.
	sel := m.know.cands[m.know.bookSel].Move
	m.lookUpBook(k) // the same position: opening and tables stand
	for i, c := range m.know.cands {
		if c.Move == sel {
			m.know.bookSel = i
		}
	}
	return nil
}

// bookHere reports why the book keys cannot act on the shown position.
func (m *Model) bookHere() error {
	switch {
	case m.opt.Book == nil:
		return fmt.Errorf("no opening book: start with --book FILE or set book in the config")
	case len(m.know.cands) == 0:
		return fmt.Errorf("no book moves in this position")
	}
	return nil
}
