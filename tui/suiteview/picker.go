package suiteview

import (
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/epd"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// The suite picker: the board's S offers every bundled suite before the
// runner opens, so that the suite is the user's choice and not always WAC.

// picker is the choice of a suite, shown until one is opened.
type picker struct {
	choices []choice
	sel     int
	err     string // why the chosen suite cannot be opened
}

// choice is one suite offered, loaded to show its size.
type choice struct {
	name  string
	suite *epd.Suite
	err   error
}

// newPicker loads the suites offered (bundled names or EPD files), the
// one named first selected.
func newPicker(names []string, first string) *picker {
	p := &picker{}
	for i, name := range names {
		s, err := epd.Load(name)
		p.choices = append(p.choices, choice{name: name, suite: s, err: err})
		if strings.EqualFold(name, first) {
			p.sel = i
		}
	}
	return p
}

// Choices are the suites the board's S offers: the bundled ones, and
// suite too when it is a file of the user's.
func Choices(suite string) []string {
	names := epd.Bundled()
	if suite != "" && !slices.Contains(names, strings.ToLower(suite)) {
		names = append([]string{suite}, names...)
	}
	return names
}

// suiteTitle is what a bundled suite is ("" for another).
func suiteTitle(name string) string {
	switch name {
	case "bk":
		return "Bratko-Kopec"
	case "ecm":
		return "Encyclopedia of Chess Middlegames"
	case "wac":
		return "Win At Chess"
	case "wcsac":
		return "Winning Chess Sacrifices and Combinations"
	}
	return ""
}

// pickKey handles a key while the picker is shown.
func (v *suiteView) pickKey(k tea.KeyMsg) tea.Cmd {
	p := v.picker
	switch k.String() {
	case "esc", "q":
		return view.Close
	case "up", "k":
		p.sel = max(0, p.sel-1)
	case "down", "j":
		p.sel = min(len(p.choices)-1, p.sel+1)
	case "home", "g":
		p.sel = 0
	case "end", "G":
		p.sel = len(p.choices) - 1
	case "enter", " ":
		c := p.choices[p.sel]
		switch {
		case c.err != nil:
			p.err = c.err.Error()
		case len(c.suite.Records) == 0:
			p.err = c.name + ": no positions"
		default:
			v.open(c.suite)
			return v.next()
		}
	}
	return nil
}

// open shows the suite s in the runner, its positions waiting for a run
// key (or running at once with AutoRun).
func (v *suiteView) open(s *epd.Suite) {
	v.picker = nil
	v.opt.Name, v.opt.Records = s.Name, s.Records
	v.rows = make([]suiteRow, len(s.Records))
	v.sel, v.top = 0, 0
	v.queue = v.queue[:0]
	if v.opt.AutoRun {
		for i := range v.rows {
			v.queue = append(v.queue, i)
		}
		v.follow = true
	}
	if n := len(s.Errors); n > 0 {
		v.message = fmt.Sprintf("%s: %d unreadable %s left out", s.Name, n, plural(n, "line", "lines"))
	}
}

// pickerView draws the choice of suite.
func (v *suiteView) pickerView(width, height int) string {
	st := v.st
	p := v.picker
	lines := []string{
		view.Pad(view.SearchTitle(st, "Suite runner", v.env.Runner, v.opt.Limits), width),
		view.Pad(st.Muted.Render("Choose a test suite:"), width),
		"",
	}
	for i, c := range p.choices {
		size := ""
		switch {
		case c.err != nil:
			size = "cannot be read"
		default:
			size = fmt.Sprintf("%d %s", len(c.suite.Records), plural(len(c.suite.Records), "position", "positions"))
		}
		mark := "  "
		if i == p.sel {
			mark = "› "
		}
		line := fmt.Sprintf("%s%-8s %15s  %s", mark, termtext.Cut(termtext.SafeLine(c.name), 8), size, suiteTitle(c.name))
		line = view.Pad(line, width)
		if i == p.sel {
			lines = append(lines, st.Selected.Render(line))
		} else {
			lines = append(lines, st.Text.Render(line))
		}
	}
	for len(lines) < height-2 {
		lines = append(lines, "")
	}
	lines = lines[:height-2]
	for i := range lines {
		lines[i] = view.Pad(lines[i], width)
	}
	lines = append(lines, view.Pad(st.Err.Render(termtext.SafeLine(p.err)), width))
	lines = append(lines, view.Pad(st.Muted.Render("↑/↓ j/k choose · enter open · esc back"), width))
	return strings.Join(lines, "\n")
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
