package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// pickerRows is how many games the picker lists at once.
const pickerRows = 10

// pickerDialog chooses one game of a PGN file: arrows, PgUp/PgDn and
// Home/End move, / filters by players and event as you type.
type pickerDialog struct {
	games []*Tree
	sel   int // index into the shown games
	// query filters the games (players, event, site, date); typing is
	// true while it is being edited.
	query  string
	typing bool
	shown  []int // indices of the games that match, all when no query
}

func newPicker(games []*Tree) *pickerDialog {
	d := &pickerDialog{games: games}
	d.filter()
	return d
}

// gameLabel names a game in the list: its players, or its event when the
// players are unknown, then round, date and result.
func gameLabel(t *Tree) string {
	tag := func(n string) string {
		v := termtext.SafeLine(t.Tag(n))
		if v == "?" || strings.Trim(v, "?.") == "" {
			return ""
		}
		return v
	}
	label := ""
	if w, b := tag("White"), tag("Black"); w != "" || b != "" {
		label = fmt.Sprintf("%s – %s", orQ(w), orQ(b))
	} else if e := tag("Event"); e != "" {
		label = e
	} else {
		label = "(no names)"
	}
	if r := tag("Round"); r != "" {
		label += " · " + r
	}
	if d := tag("Date"); d != "" {
		label += " · " + d
	}
	if t.partial != nil {
		label = "⚠ " + label // read only up to an error
	}
	return label + " " + t.Result
}

func orQ(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// filter recomputes the shown games for the query, keeping the selection
// on the same game when it is still shown.
func (d *pickerDialog) filter() {
	cur := -1
	if d.sel >= 0 && d.sel < len(d.shown) {
		cur = d.shown[d.sel]
	}
	q := strings.ToLower(d.query)
	d.shown = d.shown[:0]
	for i, g := range d.games {
		if q == "" || strings.Contains(strings.ToLower(gameText(g)), q) {
			d.shown = append(d.shown, i)
		}
	}
	d.sel = 0
	for k, i := range d.shown {
		if i == cur {
			d.sel = k
		}
	}
}

// gameText is what / searches: players, event, site and date.
func gameText(t *Tree) string {
	var parts []string
	for _, n := range []string{"White", "Black", "Event", "Site", "Date"} {
		parts = append(parts, t.Tag(n))
	}
	return strings.Join(parts, "\x00")
}

func (d *pickerDialog) key(k tea.KeyMsg) (bool, tea.Msg, tea.Cmd) {
	if d.typing {
		switch k.Type {
		case tea.KeyEsc:
			d.typing, d.query = false, ""
			d.filter()
		case tea.KeyEnter:
			d.typing = false
		case tea.KeyCtrlU: // as in a shell: the whole query goes
			d.query = ""
			d.filter()
		case tea.KeyBackspace:
			if r := []rune(d.query); len(r) > 0 {
				d.query = string(r[:len(r)-1])
				d.filter()
			}
		case tea.KeyRunes, tea.KeySpace:
			if len([]rune(d.query)) < 40 {
				d.query += string(k.Runes)
				d.filter()
			}
		}
		return false, nil, nil
	}
	last := len(d.shown) - 1
	switch k.String() {
	case "esc", "q":
		if d.query != "" {
			d.query = ""
			d.filter()
			return false, nil, nil
		}
		return true, nil, nil
	case "/":
		d.typing = true
	case "up", "k":
		d.sel = max(0, d.sel-1)
	case "down", "j":
		d.sel = min(last, d.sel+1)
	case "pgup":
		d.sel = max(0, d.sel-pickerRows)
	case "pgdown":
		d.sel = min(last, d.sel+pickerRows)
	case "home", "g":
		d.sel = 0
	case "end", "G":
		d.sel = max(last, 0)
	case "enter":
		if len(d.shown) == 0 {
			return false, nil, nil
		}
		t := d.games[d.shown[d.sel]]
		return true, savedFirst{"open another game", openTreeMsg{t}}, nil
	}
	return false, nil, nil
}

func (d *pickerDialog) view(st *view.Styles, width int) string {
	// Every row is cut and padded to the room inside the box, so the box
	// keeps its width while a search is typed and its border shows at any
	// width (at 80–110 columns the help row ran past it).
	inner := max(10, width-4)
	var rows []string
	row := func(s string) { rows = append(rows, view.Pad(s, inner)) }
	title := fmt.Sprintf("%d games", len(d.games))
	if d.query != "" || d.typing {
		title = fmt.Sprintf("%d of %d games", len(d.shown), len(d.games))
	}
	row(st.Title.Render(title))
	switch {
	case d.typing:
		row(st.Accent.Render("/"+termtext.SafeLine(d.query)) + st.Muted.Render("▏ ctrl+u clears"))
	case d.query != "":
		row(st.Muted.Render("/" + termtext.SafeLine(d.query) + " · esc clears"))
	default:
		row("")
	}
	from := max(0, min(d.sel-pickerRows/2, len(d.shown)-pickerRows))
	for k := from; k < len(d.shown) && k < from+pickerRows; k++ {
		i := d.shown[k]
		line := termtext.Cut(fmt.Sprintf("%d. %s", i+1, gameLabel(d.games[i])), inner)
		if k == d.sel {
			line = st.Selected.Render(line)
		}
		row(line)
	}
	if len(d.shown) == 0 {
		row(st.Muted.Render("no game matches"))
	}
	row("")
	for _, l := range view.WrapWords("↑↓ pgup/pgdn home/end · / search · enter open · esc", inner) {
		row(st.Muted.Render(l))
	}
	return st.Dialog.Render(strings.Join(rows, "\n"))
}
