package gamelist

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/tui/view"
)

// help is the key line under the list.
const help = "↑↓ pgup/pgdn home/end · enter open · / filter · s/S sort by the next/previous column · r reverse · " +
	"a add the board's game · d delete · K/J move up/down · x index for the explorer · esc board"

// key handles a key: the y/n question first, then the filter being typed,
// then the list's own keys.
func (l *List) key(k tea.KeyMsg) tea.Cmd {
	ks := k.String()
	if l.ask != nil {
		q := l.ask
		l.ask = nil
		if ks == "y" || ks == "Y" {
			l.busy = true
			return q.yes()
		}
		l.msg = "not changed"
		return nil
	}
	if l.typing {
		return l.typeFilter(k)
	}
	l.msg, l.err = "", nil
	last := len(l.shown) - 1
	switch ks {
	case "esc", "q":
		if l.query != "" && ks == "esc" {
			cmd, _ := l.setFilter("")
			return cmd
		}
		l.stop()
		return view.Close
	case "up", "k":
		l.sel = max(0, l.sel-1)
	case "down", "j":
		l.sel = max(0, min(last, l.sel+1))
	case "pgup", "ctrl+b":
		l.sel = max(0, l.sel-max(l.h-1, 1))
	case "pgdown", "ctrl+f", " ":
		l.sel = max(0, min(last, l.sel+max(l.h-1, 1)))
	case "home", "g":
		l.sel = 0
	case "end":
		l.sel = max(last, 0)
	case "/", "f":
		l.typing = true
		l.input.SetValue(l.query)
		l.input.CursorEnd()
		return l.input.Focus()
	case "s", "S":
		step := 1
		if ks == "S" {
			step = len(columns) - 1
		}
		l.sortBy = (l.sortBy + step) % len(columns)
		l.desc = false
		l.refilter()
	case "r":
		l.desc = !l.desc
		l.refilter()
	case "enter":
		return l.open()
	case "a":
		return l.askAdd()
	case "d", "delete":
		return l.askDelete()
	case "x":
		return l.buildIndex()
	case "K", "shift+up":
		return l.move(-1)
	case "J", "shift+down":
		return l.move(1)
	}
	return nil
}

// typeFilter edits the filter line: enter applies it, esc leaves it as it
// was.
func (l *List) typeFilter(k tea.KeyMsg) tea.Cmd {
	switch k.String() {
	case "esc":
		l.typing = false
		l.input.Blur()
		return nil
	case "enter":
		cmd, err := l.setFilter(l.input.Value())
		if err != nil {
			l.err = err
			return nil
		}
		l.typing = false
		l.input.Blur()
		return cmd
	}
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(k)
	return cmd
}

// setFilter applies a filter written as squall pgn --filter takes it
// (ParseQuery); a position other than the one searched for starts its
// search (the command).
func (l *List) setFilter(q string) (tea.Cmd, error) {
	f, err := ParseQuery(q)
	if err != nil {
		return nil, err
	}
	old := l.filter.Position
	l.filter, l.query = f, strings.TrimSpace(q)
	var cmd tea.Cmd
	if p := f.Position; p == nil || old == nil || !pgn.SamePosition(p, old) {
		cmd = l.startSearch()
	}
	l.refilter()
	return cmd, nil
}

// findPosition is the board's Y: the list filtered to the games that
// reach the position of fen, any other criterion dropped.
func (l *List) findPosition(fen string) tea.Cmd {
	l.typing = false
	l.input.Blur()
	cmd, err := l.setFilter("fen=" + fen)
	if err != nil {
		l.err = err
	}
	return cmd
}

// ParseQuery reads the list's filter line: the criteria of `squall pgn
// --filter` (pgn.ParseFilter: player=, elo=, eco=, opening=, event=,
// year=, result=, fen=) separated by spaces, a value running up to the
// next key=, so that "player=Carlsen, Magnus eco=B90" is two criteria
// and a FEN's spaces stay in it; words before the first key are a
// player.
func ParseQuery(q string) (pgn.Filter, error) {
	var specs []string
	for _, w := range strings.Fields(q) {
		key, _, ok := strings.Cut(w, "=")
		switch {
		case ok && pgn.IsFilterKey(key):
			specs = append(specs, w)
		case len(specs) == 0:
			specs = append(specs, "player="+w)
		default:
			specs[len(specs)-1] += " " + w
		}
	}
	return pgn.ParseFilter(specs)
}
