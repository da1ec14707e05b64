package reviewview

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// askPrompt is the line that asks for the review's limits before it runs
// (Options.Ask): the depth, nodes or time of each position's search, as
// `squall review` takes --depth, --nodes or --movetime.
type askPrompt struct {
	in  textinput.Model
	err string
}

func newAskPrompt(lim engine.Limits) *askPrompt {
	in := textinput.New()
	in.Prompt = "each position: "
	in.Placeholder = "depth 12, 0.5s or nodes 100000"
	in.SetValue(limitsText(lim))
	in.CharLimit = 40
	in.Width = 24
	in.Cursor.SetMode(cursor.CursorStatic) // no blink: no tick outlives the prompt
	in.Focus()
	return &askPrompt{in: in}
}

// view is the prompt with an example, or the last error.
func (a *askPrompt) view(st *view.Styles) string {
	in := a.in
	in.PromptStyle = st.Accent
	note := st.Muted.Render("  depth 12 · 0.5s · nodes 100000")
	if a.err != "" {
		note = "  " + st.Err.Render(a.err)
	}
	return in.View() + note
}

// askKey edits the prompt; enter starts the review with the limits typed
// (kept for the next review), esc goes back to the board.
func (v *reviewView) askKey(k tea.KeyMsg) tea.Cmd {
	switch k.String() {
	case "esc":
		return view.Close
	case "enter":
		lim, err := parseLimits(v.asking.in.Value())
		if err != nil {
			v.asking.err = termtext.SafeLine(err.Error())
			return nil
		}
		v.opt.Limits = lim
		*v.opt.Ask = lim
		v.asking = nil
		return v.next()
	}
	v.asking.err = ""
	var cmd tea.Cmd
	v.asking.in, cmd = v.asking.in.Update(k)
	return cmd
}

// limitsText is the limits as the prompt offers them (parseLimits reads
// it back).
func limitsText(l engine.Limits) string {
	switch {
	case l.Depth > 0:
		return fmt.Sprintf("depth %d", l.Depth)
	case l.Nodes > 0:
		return fmt.Sprintf("nodes %d", l.Nodes)
	case l.MoveTime > 0:
		return strconv.FormatFloat(l.MoveTime.Seconds(), 'f', -1, 64) + "s"
	}
	return ""
}

// maxReviewDepth and maxReviewTime bound what the prompt takes: beyond
// them a review of a game takes hours, which is a typing slip.
const (
	maxReviewDepth = 99
	maxReviewTime  = time.Minute
)

// parseLimits reads the limits of each position's search: "depth 12" (or
// d12), "nodes 100000" (or n100000), or a time per position, "0.5s",
// "500ms", "2s" (a bare number is seconds).
func parseLimits(s string) (engine.Limits, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	word, num := "", s
	for _, w := range []string{"depth", "nodes", "movetime", "d", "n"} {
		if rest, ok := strings.CutPrefix(s, w); ok && rest != "" && (rest[0] == ' ' || rest[0] >= '0' && rest[0] <= '9') {
			word, num = w, strings.TrimSpace(rest)
			break
		}
	}
	switch word {
	case "depth", "d":
		d, err := strconv.Atoi(num)
		if err != nil || d < 1 || d > maxReviewDepth {
			return engine.Limits{}, fmt.Errorf("depth %q: a whole number from 1 to %d", num, maxReviewDepth)
		}
		return engine.Limits{Depth: d}, nil
	case "nodes", "n":
		n, err := strconv.ParseUint(num, 10, 64)
		if err != nil || n < 1 {
			return engine.Limits{}, fmt.Errorf("nodes %q: a whole number, at least 1", num)
		}
		return engine.Limits{Nodes: n}, nil
	}
	if num == "" {
		return engine.Limits{}, fmt.Errorf("say depth 12, 0.5s or nodes 100000")
	}
	if f, err := strconv.ParseFloat(num, 64); err == nil {
		num = strconv.FormatFloat(f, 'f', -1, 64) + "s"
	}
	d, err := time.ParseDuration(num)
	if err != nil || d < time.Millisecond || d > maxReviewTime {
		return engine.Limits{}, fmt.Errorf("%q: depth 12, nodes 100000, or a time from 1ms to %v a position (0.5s)", num, maxReviewTime)
	}
	return engine.Limits{MoveTime: d}, nil
}
