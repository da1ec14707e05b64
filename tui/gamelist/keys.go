package gamelist

import (
	"errors"
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
			l.setFilter("")
			return nil
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
		if err := l.setFilter(l.input.Value()); err != nil {
			l.err = err
			return nil
		}
		l.typing = false
		l.input.Blur()
		return nil
	}
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(k)
	return cmd
}

// setFilter applies a filter written as squall pgn --filter takes it
// (ParseQuery).
func (l *List) setFilter(q string) error {
	f, err := ParseQuery(q)
	if err != nil {
		return err
	}
	l.filter, l.query = f, strings.TrimSpace(q)
	l.refilter()
	return nil
}

// ParseQuery reads the list's filter line: the criteria of `squall pgn
// --filter` (pgn.ParseFilter: player=, elo=, eco=, opening=, event=,
// year=, result=) separated by spaces, a value running up to the next
// key=, so that "player=Carlsen, Magnus eco=B90" is two criteria; words
// before the first key are a player. A position (fen=) is refused: the
// list has no moves to look at (squall pgn --filter and the explorer
// have).
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
	f, err := pgn.ParseFilter(specs)
	if err != nil {
		return pgn.Filter{}, err
	}
	if f.NeedsMoves() {
		return pgn.Filter{}, errors.New("the list filters by tags: find games by position with squall pgn --filter fen=… or the explorer")
	}
	return f, nil
}
