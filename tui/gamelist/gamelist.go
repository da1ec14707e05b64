// Package gamelist is the board's game list: every game of a PGN file in
// a table (players, ratings, result, date, event, ECO and opening, plies)
// that sorts by any column and filters through pgn.Filter, the same
// selection as `squall pgn --filter`. The file is skimmed in the
// background (pgn's index: tags only, moves not checked), so the first
// screen shows at once and a 200 MB file is never held whole; a position
// (fen=, the board's Y) replays the games in the background too
// (position.go). A game opens on the board
// (view.GameMsg); the board's game is added to the file, and a game deleted
// or moved up or down, by rewriting the file with pgn.RewriteFile (a new
// version renamed over it, every other game byte for byte).
package gamelist

import (
	"context"
	"fmt"
	"slices"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/view"
)

// Key is the board key that opens the list.
const Key = "G"

// Entry is the board's "G" entry: the list of the file the board's game
// came from (Env.Path).
func Entry() view.Entry {
	return view.Entry{Key: Key, Games: true, Help: "game list of the PGN file: sort, filter (player=, elo=, eco=, opening=, event=, year=, result=, fen=), open, add, delete and reorder games", New: func(env view.Env) view.View {
		return New(env, env.Path)
	}}
}

// List is the game list of one file.
type List struct {
	env  view.Env
	st   *view.Styles
	path string

	rows  []row   // every game read so far, in file order
	names names   // the texts the rows hold
	tail  int64   // where the last row's game ends, once the file is read
	shown []int32 // the rows the filter selects, in the sort's order
	sel   int     // index into shown
	top   int     // first of shown on the screen
	h     int     // rows of games the screen had room for, for paging

	sortBy int  // index into columns; 0 is the file's order
	desc   bool // sorted in reverse
	filter pgn.Filter
	query  string // the filter as typed
	input  textinput.Model
	typing bool

	// The loader: its batches arrive on ch until one says done; cancel
	// stops it.
	ch      <-chan batch
	cancel  context.CancelFunc
	loading bool
	read    int64
	size    int64
	stamp   stamp
	want    int32 // the game to select when the load is done (after an edit)

	pos search // the games that reach the filter's position (position.go)

	ask      *question // a y/n question before a change to the file
	busy     bool      // a change is being written
	indexing bool      // the explorer's index is being built
	msg      string
	err      error
}

// question is a change to confirm with y.
type question struct {
	text string
	yes  func() tea.Cmd
}

// New builds the list of the PGN file at path; the board's game to add
// comes from env.PGN.
func New(env view.Env, path string) *List {
	in := textinput.New()
	in.Prompt = "filter: "
	in.Placeholder = "Carlsen elo=2700 eco=B90-B99 year=2020- result=1-0"
	in.CharLimit = 200
	// A steady cursor: a blinking one is a command that waits, and the
	// list's commands are each one piece of work.
	in.Cursor.SetMode(cursor.CursorStatic)
	return &List{env: env, st: view.NewStyles(env.Renderer, env.Theme, false), path: path, input: in}
}

// Reopen is the list again with the board's Env of now (the game to add):
// the rows already read are kept unless the file has changed since, when
// it is read again.
func (l *List) Reopen(env view.Env) view.View {
	if env.Path != "" && env.Path != l.path {
		return nil
	}
	l.env = env
	l.msg, l.err, l.ask = "", nil, nil
	return l
}

// Init starts reading the file, or reads it again if it changed since the
// list last read it.
func (l *List) Init() tea.Cmd {
	if l.path == "" {
		l.err = fmt.Errorf("no PGN file: open one with o, or start squall FILE.pgn")
		return nil
	}
	if l.loading || len(l.rows) > 0 && !l.stamp.changed(l.path) {
		if l.filter.Position != nil && !l.pos.running && !l.pos.done {
			return l.startSearch() // left unfinished when a game was opened
		}
		return nil
	}
	return l.reload(0)
}

// reload reads the file anew, selecting game want (its number) when done.
func (l *List) reload(want int32) tea.Cmd {
	l.stop()
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan batch, 4)
	go load(ctx, l.path, ch)
	l.ch, l.cancel, l.loading, l.want = ch, cancel, true, want
	l.rows, l.names, l.shown, l.sel, l.top, l.read, l.tail = nil, nil, nil, 0, 0, 0, 0
	// The games' offsets change with the file: a position is looked for
	// anew.
	recv := livecmd.Recv((<-chan batch)(ch))
	if search := l.startSearch(); search != nil {
		return tea.Batch(recv, search)
	}
	return recv
}

// stop ends the loader, if one runs.
func (l *List) stop() {
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	l.loading = false
}

// Close stops the loader and the position search; the board calls it
// when it quits.
func (l *List) Close() {
	l.stop()
	l.stopSearch()
}

// Update takes the loader's batches, the results of changes to the file
// and keys.
func (l *List) Update(msg tea.Msg) (view.View, tea.Cmd) {
	switch msg := msg.(type) {
	case livecmd.Received[batch]:
		if msg.From != l.ch || !msg.OK {
			return l, nil
		}
		l.add(msg.Value)
		if msg.Value.done {
			l.loading, l.cancel = false, nil
			return l, nil
		}
		return l, livecmd.Recv(l.ch)
	case livecmd.Received[replayBatch]:
		if msg.From != l.pos.ch || !msg.OK {
			return l, nil
		}
		l.addFound(msg.Value)
		if msg.Value.done {
			return l, nil
		}
		return l, livecmd.Recv(l.pos.ch)
	case view.PositionMsg:
		return l, l.findPosition(msg.FEN)
	case rewrittenMsg:
		l.busy = false
		if msg.err != nil {
			l.err = msg.err
			if msg.reload {
				return l, l.reload(l.selected())
			}
			return l, nil
		}
		l.msg = msg.note
		return l, l.reload(msg.sel)
	case openedMsg:
		l.busy = false
		if msg.err != nil {
			l.err = msg.err
			return l, nil
		}
		l.stop()
		l.stopSearch()
		gm := msg.game
		return l, func() tea.Msg { return gm }
	case indexedMsg:
		l.indexing = false
		if msg.err != nil {
			l.err = msg.err
		} else {
			l.msg = msg.note
		}
		return l, nil
	case tea.KeyMsg:
		return l, l.key(msg)
	}
	return l, nil
}

// add takes a batch of rows: the previous batch's last row is complete
// now, and the new rows the filter selects join the shown ones in the
// sort's order.
func (l *List) add(b batch) {
	l.read, l.size = b.read, b.size
	if b.err != nil {
		l.err = fmt.Errorf("reading %s: %w", l.path, b.err)
	}
	if b.done && b.err == nil {
		l.stamp = b.stamp
	}
	if b.done {
		l.tail = b.read
	}
	if len(l.names) == 0 {
		l.names = names{""}
	}
	if len(l.rows) == 0 && !b.done && b.read > 0 && len(b.rows) > 0 {
		// The rows of the whole file, as the first ones foretell it,
		// allocated at once: grown by appending, the list would hold
		// the old and the new copy of a large file's rows together.
		n := int(float64(len(b.rows)) * float64(b.size) / float64(b.read) * 1.05)
		l.rows = slices.Grow(l.rows, n)
		l.names = slices.Grow(l.names, n)
	}
	l.names = append(l.names, b.names...)
	from := len(l.rows)
	l.rows = append(l.rows, b.rows...)
	var fresh []int32
	for i := from; i < len(l.rows); i++ {
		if l.match(i) {
			fresh = append(fresh, int32(i))
		}
	}
	cur := l.selected()
	l.shown = l.merge(l.shown, fresh)
	if l.want > 0 && b.done {
		cur = l.want
		l.want = 0
	}
	l.selectGame(cur)
}

// end is where game i's bytes end: at the next game's first byte, the
// last game's at the end of the file (-1 while that is not yet read).
func (l *List) end(i int) int64 {
	if i+1 < len(l.rows) {
		return l.rows[i+1].offset
	}
	if l.loading {
		return -1
	}
	return l.tail
}

// less orders rows by the sort column, then by their place in the file.
func (l *List) compare(a, b int32) int {
	ra, rb := &l.rows[a], &l.rows[b]
	c := columns[l.sortBy].cmp(l.names, ra, rb)
	if l.desc {
		c = -c
	}
	if c == 0 {
		c = int(ra.num - rb.num)
	}
	return c
}

// merge returns shown with fresh added in the sort's order (both in it).
func (l *List) merge(shown, fresh []int32) []int32 {
	if len(fresh) == 0 {
		return shown
	}
	if l.sortBy == 0 && !l.desc {
		return append(shown, fresh...) // rows arrive in file order
	}
	slices.SortFunc(fresh, l.compare)
	out := make([]int32, 0, len(shown)+len(fresh))
	i, j := 0, 0
	for i < len(shown) && j < len(fresh) {
		if l.compare(shown[i], fresh[j]) <= 0 {
			out = append(out, shown[i])
			i++
		} else {
			out = append(out, fresh[j])
			j++
		}
	}
	out = append(out, shown[i:]...)
	return append(out, fresh[j:]...)
}

// refilter selects the shown rows anew (a new filter or sort), keeping
// the selection on the same game while it is still shown.
func (l *List) refilter() {
	cur := l.selected()
	var all []int32
	for i := range l.rows {
		if l.match(i) {
			all = append(all, int32(i))
		}
	}
	if l.sortBy != 0 || l.desc {
		slices.SortFunc(all, l.compare)
	}
	l.shown = all
	l.selectGame(cur)
}

// selected is the number of the selected game, 0 when none is.
func (l *List) selected() int32 {
	if l.sel < 0 || l.sel >= len(l.shown) {
		return 0
	}
	return l.rows[l.shown[l.sel]].num
}

// selectGame selects the game numbered num if it is shown, else keeps the
// selection's place.
func (l *List) selectGame(num int32) {
	if num > 0 {
		for k, i := range l.shown {
			if l.rows[i].num == num {
				l.sel = k
				return
			}
		}
	}
	l.sel = min(max(l.sel, 0), max(len(l.shown)-1, 0))
}

// Shown are the numbers (1-based, in the file's order) of the games the
// list shows, in its order: what the filter selects, sorted.
func (l *List) Shown() []int {
	out := make([]int, len(l.shown))
	for k, i := range l.shown {
		out[k] = int(l.rows[i].num)
	}
	return out
}
