package gamelist

import (
	"errors"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/explore"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// openedMsg is a game read for the board, or why it could not be.
type openedMsg struct {
	game view.GameMsg
	err  error
}

// rewrittenMsg reports a change written to the file: sel is the game to
// select once the file is read again. reload asks for that reading after a
// failure too (the file had changed).
type rewrittenMsg struct {
	note   string
	sel    int32
	err    error
	reload bool
}

// current is the selected row, nil when none is.
func (l *List) current() *row {
	if l.sel < 0 || l.sel >= len(l.shown) {
		return nil
	}
	return &l.rows[l.shown[l.sel]]
}

// open reads the selected game (its moves, checked) for the board.
func (l *List) open() tea.Cmd {
	r := l.current()
	if r == nil || l.busy {
		return nil
	}
	path, e, end, num := l.path, pgn.Entry{Offset: r.offset, Line: int(r.line)}, l.end(int(r.num)-1), int(r.num)
	var sum *[32]byte
	if !l.loading && l.stamp.size > 0 {
		s := l.stamp.sum
		sum = &s
	}
	if end == l.stamp.size {
		end = -1 // the last game: to the end of the file
	}
	l.busy = true
	return func() tea.Msg {
		f, err := os.Open(path)
		if err != nil {
			return openedMsg{err: err}
		}
		defer f.Close()
		g, err := pgn.ReadGameAt(f, e, path)
		if g == nil {
			return openedMsg{err: err}
		}
		return openedMsg{game: view.GameMsg{Game: g, Err: err, Path: path, Number: num, Offset: e.Offset, End: end, Sum: sum}}
	}
}

// editable says why the file cannot be changed now ("" when it can): the
// list must have read all of it, and nothing else may be being written.
func (l *List) editable() string {
	switch {
	case l.busy:
		return "a change is being written"
	case l.loading:
		return "the list is still reading the file"
	case l.err != nil && len(l.rows) == 0:
		return "the file could not be read"
	}
	return ""
}

// askAdd asks before the board's game is added at the end of the file.
func (l *List) askAdd() tea.Cmd {
	if why := l.editable(); why != "" {
		l.msg = "not now: " + why
		return nil
	}
	g := l.env.PGN
	if g == nil || g.Root == nil || len(g.Root.Children) == 0 {
		l.msg = "the board's game has no moves to add"
		return nil
	}
	l.ask = &question{
		text: fmt.Sprintf("Add the board's game (%s – %s) at the end of %s? y/n", termtext.SafeLine(g.Tag("White")), termtext.SafeLine(g.Tag("Black")), termtext.SafeLine(l.path)),
		yes: func() tea.Cmd {
			pieces := l.pieces(func(i int) bool { return true })
			pieces = append(pieces, pgn.Piece{Game: g})
			return l.rewrite(pieces, fmt.Sprintf("added the board's game as game %d", len(l.rows)+1), int32(len(l.rows)+1))
		},
	}
	return nil
}

// askDelete asks before the selected game is deleted from the file.
func (l *List) askDelete() tea.Cmd {
	r := l.current()
	if r == nil {
		return nil
	}
	if why := l.editable(); why != "" {
		l.msg = "not now: " + why
		return nil
	}
	num := r.num
	l.ask = &question{
		text: fmt.Sprintf("Delete game %d (%s – %s) from %s? y/n", num, termtext.SafeLine(l.names[r.white]), termtext.SafeLine(l.names[r.black]), termtext.SafeLine(l.path)),
		yes: func() tea.Cmd {
			pieces := l.pieces(func(i int) bool { return l.rows[i].num != num })
			return l.rewrite(pieces, fmt.Sprintf("deleted game %d", num), max(num-1, 1))
		},
	}
	return nil
}

// move swaps the selected game with the one before (by -1) or after it
// in the file. The list must be in the file's order: elsewhere "up" would
// mean another game than the file's neighbour.
func (l *List) move(by int) tea.Cmd {
	r := l.current()
	if r == nil {
		return nil
	}
	if l.sortBy != 0 || l.desc {
		l.msg = "games move in the file's order: press s until the list is sorted by #"
		return nil
	}
	if why := l.editable(); why != "" {
		l.msg = "not now: " + why
		return nil
	}
	i := int(r.num) - 1
	j := i + by
	if j < 0 || j >= len(l.rows) {
		return nil
	}
	order := make([]int, len(l.rows))
	for k := range order {
		order[k] = k
	}
	order[i], order[j] = order[j], order[i]
	pieces := []pgn.Piece{pgn.Span(0, l.rows[0].offset)}
	for _, k := range order {
		pieces = append(pieces, pgn.Span(l.rows[k].offset, l.end(k)))
	}
	l.busy = true
	return l.rewrite(pieces, fmt.Sprintf("moved game %d to %d", i+1, j+1), int32(j+1))
}

// pieces are the file's bytes before its first game, then the games keep
// selects (by index into rows), each its own bytes.
func (l *List) pieces(keep func(i int) bool) []pgn.Piece {
	var first int64
	if len(l.rows) > 0 {
		first = l.rows[0].offset
	} else {
		first = l.stamp.size
	}
	out := []pgn.Piece{pgn.Span(0, first)}
	for i := range l.rows {
		if keep(i) {
			out = append(out, pgn.Span(l.rows[i].offset, l.end(i)))
		}
	}
	return out
}

// errChanged is a change refused because the file is not the one read.
var errChanged = errors.New("the file has changed since the list read it; it is read again, nothing was written")

// rewrite writes pieces over the file, unless it changed since it was
// read, and reports with note, selecting game sel once read again.
func (l *List) rewrite(pieces []pgn.Piece, note string, sel int32) tea.Cmd {
	path, st := l.path, l.stamp
	return func() tea.Msg {
		if st.changed(path) {
			return rewrittenMsg{err: errChanged, reload: true}
		}
		if err := pgn.RewriteFile(path, pieces); err != nil {
			return rewrittenMsg{err: err}
		}
		return rewrittenMsg{note: note + " in " + path, sel: sel}
	}
}

// indexedMsg reports the explorer's index built.
type indexedMsg struct {
	note string
	err  error
}

// buildIndex builds the opening explorer's index of the file
// (explore.Build: FILE.pgn.sqx beside it), which the board's explorer
// panel reads; the list stays usable meanwhile.
func (l *List) buildIndex() tea.Cmd {
	if l.indexing || l.path == "" {
		return nil
	}
	l.indexing = true
	path := l.path
	return func() tea.Msg {
		start := time.Now()
		info, err := explore.Build(path, explore.Options{})
		if err != nil {
			return indexedMsg{err: err}
		}
		note := fmt.Sprintf("indexed %s for the explorer (%s, %s) in %v: Z on the board shows it",
			plural.Count(int(info.Games), "game"), plural.Count(int(info.Positions), "position"),
			explore.IndexPath(path), time.Since(start).Round(100*time.Millisecond))
		return indexedMsg{note: note}
	}
}
