package main

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// vtScreen is a terminal's screen as a script reads it: the bytes a
// program writes to its terminal (an SSH session's output) drawn into
// rows×cols cells, as a terminal draws them — the cursor moves, erases
// and line feeds bubbletea's renderer sends, its styles dropped — so that
// a script reads what a person sees, not a stream of repaints. The
// sequences are decoded by x/ansi's parser (the renderer's own module);
// only what the server's screens use is drawn: printing, CR, LF, BS, the
// CSI cursor moves (CUU, CUD, CUF, CUB, CNL, CPL, CHA, VPA, CUP), erases
// (ED, EL), the save and restore of the cursor and the alternate
// screen's switch (a clear); the title (OSC 0 or 2) is kept.
type vtScreen struct {
	mu       sync.Mutex
	rows     int
	cols     int
	cells    [][]string // "" for the second cell of a wide character
	row, col int
	saved    [2]int
	title    string
	pending  []byte // an unfinished sequence or character, for the next write
	parser   *ansi.Parser
	// changed is signalled on every write, for a reader waiting on the
	// screen to change.
	changed chan struct{}
}

func newVTScreen(rows, cols int) *vtScreen {
	s := &vtScreen{rows: rows, cols: cols, parser: ansi.NewParser(), changed: make(chan struct{}, 1)}
	s.cells = make([][]string, rows)
	for r := range s.cells {
		s.cells[r] = s.blankRow()
	}
	return s
}

func (s *vtScreen) blankRow() []string {
	row := make([]string, s.cols)
	for i := range row {
		row[i] = " "
	}
	return row
}

// Write draws p.
func (s *vtScreen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := append(s.pending, p...)
	s.pending = nil
	var state byte
	for len(b) > 0 {
		if b[0] >= 0xC0 && !utf8.FullRune(b) {
			break // a character cut between two writes
		}
		seq, width, n, next := ansi.DecodeSequence(b, state, s.parser)
		if n == len(b) && next != ansi.NormalState {
			break // a sequence cut between two writes
		}
		s.draw(seq, width)
		b, state = b[n:], ansi.NormalState
	}
	s.pending = append([]byte(nil), b...)
	select {
	case s.changed <- struct{}{}:
	default:
	}
	return len(p), nil
}

// draw applies one decoded sequence or character.
func (s *vtScreen) draw(seq []byte, width int) {
	if width > 0 {
		if s.col+width > s.cols {
			s.col = 0
			s.lineFeed()
		}
		s.cells[s.row][s.col] = string(seq)
		for i := 1; i < width; i++ {
			s.cells[s.row][s.col+i] = ""
		}
		s.col += width
		return
	}
	if len(seq) == 1 {
		switch seq[0] {
		case '\r':
			s.col = 0
		case '\n':
			s.lineFeed()
		case '\b':
			s.col = max(s.col-1, 0)
		case '\t':
			s.col = min((s.col/8+1)*8, s.cols-1)
		}
		return
	}
	switch {
	case ansi.HasCsiPrefix(seq):
		s.csi()
	case ansi.HasOscPrefix(seq):
		if cmd := s.parser.Command(); cmd == 0 || cmd == 2 {
			data := string(s.parser.Data())
			if _, t, ok := strings.Cut(data, ";"); ok {
				s.title = t
			}
		}
	case string(seq) == "\x1b7":
		s.saved = [2]int{s.row, s.col}
	case string(seq) == "\x1b8":
		s.row, s.col = s.saved[0], s.saved[1]
	}
}

// csi applies the control sequence the parser holds.
func (s *vtScreen) csi() {
	cmd := ansi.Cmd(s.parser.Command())
	n, _ := s.parser.Param(0, 1)
	n = max(n, 1)
	if cmd.Prefix() == '?' { // modes: the alternate screen's switch clears it
		if p, _ := s.parser.Param(0, 0); (p == 1049 || p == 47 || p == 1047) && (cmd.Final() == 'h' || cmd.Final() == 'l') {
			s.erase(0, 0, s.rows-1, s.cols-1)
		}
		return
	}
	switch cmd.Final() {
	case 'A':
		s.row = max(s.row-n, 0)
	case 'B':
		s.row = min(s.row+n, s.rows-1)
	case 'C':
		s.col = min(s.col+n, s.cols-1)
	case 'D':
		s.col = max(s.col-n, 0)
	case 'E':
		s.row, s.col = min(s.row+n, s.rows-1), 0
	case 'F':
		s.row, s.col = max(s.row-n, 0), 0
	case 'G':
		s.col = min(n-1, s.cols-1)
	case 'd':
		s.row = min(n-1, s.rows-1)
	case 'H', 'f':
		c, _ := s.parser.Param(1, 1)
		s.row, s.col = min(n-1, s.rows-1), min(max(c, 1)-1, s.cols-1)
	case 'J':
		switch p, _ := s.parser.Param(0, 0); p {
		case 0:
			s.erase(s.row, s.col, s.rows-1, s.cols-1)
		case 1:
			s.erase(0, 0, s.row, s.col)
		default:
			s.erase(0, 0, s.rows-1, s.cols-1)
		}
	case 'K':
		switch p, _ := s.parser.Param(0, 0); p {
		case 0:
			s.erase(s.row, s.col, s.row, s.cols-1)
		case 1:
			s.erase(s.row, 0, s.row, s.col)
		default:
			s.erase(s.row, 0, s.row, s.cols-1)
		}
	}
}

// erase blanks the cells from (r0, c0) to (r1, c1), in reading order.
func (s *vtScreen) erase(r0, c0, r1, c1 int) {
	for r := r0; r <= r1; r++ {
		from, to := 0, s.cols-1
		if r == r0 {
			from = c0
		}
		if r == r1 {
			to = c1
		}
		for c := from; c <= to && c < s.cols; c++ {
			s.cells[r][c] = " "
		}
	}
}

func (s *vtScreen) lineFeed() {
	if s.row < s.rows-1 {
		s.row++
		return
	}
	s.cells = append(s.cells[1:], s.blankRow())
}

// Lines is the screen as text, a line a row, from column from on, each
// without its trailing blanks.
func (s *vtScreen) Lines(from int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, s.rows)
	for r, row := range s.cells {
		out[r] = strings.TrimRight(strings.Join(row[min(from, s.cols):], ""), " ")
	}
	return out
}

// String is the whole screen as text.
func (s *vtScreen) String() string { return strings.Join(s.Lines(0), "\n") }

// Title is the terminal's title as last set.
func (s *vtScreen) Title() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.title
}

// TestVTScreen: a frame repainted as bubbletea's renderer repaints it
// (up to its top, changed lines rewritten and erased to their end,
// unchanged ones stepped over with a line feed, the rest erased) reads as
// the new frame, styles, titles and sequences cut between writes and all.
func TestVTScreen(t *testing.T) {
	s := newVTScreen(4, 20)
	for _, chunk := range []string{
		"\x1b[?1049h\x1b[H", "\x1b[1mSquall\x1b[0m · game\x1b[K\r\nWhite ann\x1b[K\r\nBlack bob 1:00\x1b[K\r",
		"\x1b[2A", "\r\n\x1b[38;5;2m▶ ", "Wh", "ite ann\x1b[K\r\nBlack bob\x1b[K\x1b[J\r",
		"\x1b]2;▶ your move · vs bob\a", "\x1b[1;", "8H🔥x", "\xe2", "\x99\x9e",
	} {
		s.Write([]byte(chunk))
	}
	want := []string{"Squall 🔥x♞me", "▶ White ann", "Black bob", ""}
	got := s.Lines(0)
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %q, want %q\n%s", i, got[i], want[i], s.String())
		}
	}
	if s.Title() != "▶ your move · vs bob" {
		t.Errorf("title %q", s.Title())
	}
	if right := s.Lines(2)[1]; right != "White ann" {
		t.Errorf("from column 2: %q", right)
	}
}
