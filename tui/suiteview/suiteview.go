package suiteview

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/epd"
	"github.com/squall-chess/squall/engine/live"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/boardview"
	"github.com/squall-chess/squall/tui/livecmd"
	"github.com/squall-chess/squall/tui/view"
)

// Options say which suite the suite view runs and how.
type Options struct {
	Name    string
	Records []*epd.Record
	// Choices, when Records is empty, are the suites (bundled names or EPD
	// files) offered in a picker as the view opens, Name the one selected
	// first; the chosen one opens as if given in Records.
	Choices []string
	Limits  engine.Limits
	// Out is where "e" exports the results (.json or .csv); empty means
	// NAME-results.json in the current directory.
	Out string
	// AutoRun starts running every position as the view opens.
	AutoRun bool
	// Finished, when set, is called in Update with each position's
	// outcome as its search ends (again if it is run again; not for a
	// search stopped by "s"): a host can report the results when the view
	// closes.
	Finished func(epd.Outcome)
}

// Entry is the "S" entry of the board: a picker of the bundled suites
// (and suite, a bundled name or an EPD file, selected first), then the
// chosen one at the given limits.
func Entry(suite string, lim engine.Limits) view.Entry {
	choices := Choices(suite)
	return view.Entry{Key: "S", Help: "test suite runner (" + strings.Join(choices, ", ") + ")", New: func(env view.Env) view.View {
		return New(env, Options{Name: suite, Choices: choices, Limits: lim})
	}}
}

// suiteStatus is where a position stands.
type suiteStatus uint8

const (
	suitePending suiteStatus = iota
	suiteRunning
	suiteSolved
	suiteFailed
)

// suiteRow is one position of the table.
type suiteRow struct {
	status  suiteStatus
	out     epd.Outcome
	live    engine.Info // the running search's last report
	hasLive bool
}

// observe keeps the last report of the principal variation.
func (r *suiteRow) observe(infos []engine.Info) {
	for _, in := range infos {
		if in.BestLine() {
			r.live, r.hasLive = in, true
		}
	}
}

// suiteView runs an EPD suite position by position through the engine
// seam, one search at a time in a background goroutine whose reports
// arrive as messages, and shows a table, the selected position's board
// (the expected move highlighted) and the live principal variation.
type suiteView struct {
	env  view.Env
	st   *view.Styles
	opt  Options
	rows []suiteRow
	sel  int
	top  int
	w, h int

	// queue is what is left to run after the current position: the
	// indices in order. run is the search in progress (nil when idle).
	queue   []int
	run     *suiteRun
	stopped uint64 // the search "s" cancelled: its outcome is not a result
	message string
	// follow moves the selection to each position as it starts running
	// (a run of all, or from here), until the user moves it.
	follow bool
	// picker is the choice of suite, shown until one is opened (nil when
	// the suite was given).
	picker *picker
}

// suiteRun is the handle on one position's search: the search on the
// Runner and the tracker that judges it, fed in Update.
type suiteRun struct {
	index   int
	s       *live.Search
	tracker *epd.Tracker
}

// New builds the suite runner view.
func New(env view.Env, opt Options) view.View {
	v := &suiteView{env: env, st: view.NewStyles(env.Renderer, env.Theme, false), opt: opt, w: 80, h: 24}
	if len(opt.Records) == 0 && len(opt.Choices) > 0 {
		v.picker = newPicker(opt.Choices, opt.Name)
		return v
	}
	v.open(&epd.Suite{Name: opt.Name, Records: opt.Records})
	return v
}

// Init starts the queue (when AutoRun asked for it).
func (v *suiteView) Init() tea.Cmd { return v.next() }

// Close stops the search; the root model calls it when the program ends.
func (v *suiteView) Close() {
	if v.run != nil {
		v.run.s.Stop()
		<-v.run.s.Done()
	}
}

// next starts the first queued position if nothing runs.
func (v *suiteView) next() tea.Cmd {
	if v.run != nil || len(v.queue) == 0 || v.env.Runner == nil {
		return nil
	}
	i := v.queue[0]
	v.queue = v.queue[1:]
	v.rows[i] = suiteRow{status: suiteRunning}
	if v.follow {
		v.sel = i // the table scrolls to keep it in view
	}
	rec := v.opt.Records[i]
	// The search gets its own copy of the position: the view reads the
	// original while the engine plays moves on its game.
	s := v.env.Start(live.Job{
		Game: engine.Game{Start: rec.Position.Clone()}, Limits: v.opt.Limits,
		Setup: func(a engine.Analyzer) error {
			if err := a.NewGame(); err != nil {
				return fmt.Errorf("new game: %w", err)
			}
			return nil
		},
	})
	v.run = &suiteRun{index: i, s: s, tracker: epd.NewTracker(rec)}
	return livecmd.Wait(s)
}

func (v *suiteView) Update(msg tea.Msg) (view.View, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		v.w, v.h = msg.Width, msg.Height
	case livecmd.Msg:
		if v.run == nil || msg.Gen != v.run.s.Gen {
			return v, nil
		}
		row := &v.rows[v.run.index]
		row.observe(msg.Infos)
		for _, in := range msg.Infos {
			v.run.tracker.Observe(in)
		}
		if !msg.Done {
			return v, livecmd.Wait(v.run.s)
		}
		out := v.run.tracker.Finish(v.run.index, msg.Result, msg.Err)
		stopped := v.stopped == msg.Gen
		v.run = nil
		row.out = out
		row.status = suiteFailed
		if out.Solved {
			row.status = suiteSolved
		}
		if stopped {
			*row = suiteRow{} // interrupted: still to be run
		} else if v.opt.Finished != nil {
			v.opt.Finished(out)
		}
		return v, v.next()
	case tea.KeyMsg:
		if v.picker != nil {
			return v, v.pickKey(msg)
		}
		return v, v.key(msg)
	}
	return v, nil
}

func (v *suiteView) key(k tea.KeyMsg) tea.Cmd {
	n := len(v.rows)
	switch k.String() {
	case "up", "k", "down", "j", "pgup", "pgdown", "home", "g", "end", "G":
		v.follow = false // the user's selection stays where it is put
	case "a", "f":
		v.follow = true
	}
	switch k.String() {
	case "esc", "q":
		v.Close()
		return view.Close
	case "up", "k":
		v.sel = max(0, v.sel-1)
	case "down", "j":
		v.sel = max(0, min(n-1, v.sel+1))
	case "pgup":
		v.sel = max(0, v.sel-10)
	case "pgdown":
		v.sel = max(0, min(n-1, v.sel+10))
	case "home", "g":
		v.sel = 0
	case "end", "G":
		v.sel = max(0, n-1)
	case "a": // run all that are not done
		v.queue = v.queue[:0]
		for i := range v.rows {
			if v.rows[i].status == suitePending {
				v.queue = append(v.queue, i)
			}
		}
		return v.next()
	case "f": // run from here to the end
		v.queue = v.queue[:0]
		for i := v.sel; i < n; i++ {
			v.queue = append(v.queue, i)
		}
		return v.next()
	case "enter", " ": // run the selected position (again)
		if n > 0 {
			v.queue = append([]int{v.sel}, v.queue...)
			return v.next()
		}
	case "s": // stop
		v.queue = v.queue[:0]
		if v.run != nil {
			v.stopped = v.run.s.Gen
			v.run.s.Stop()
		}
	case "e":
		v.message = v.export()
	}
	return nil
}

// export saves the finished outcomes.
func (v *suiteView) export() string {
	res := &epd.Results{Suite: v.opt.Name, Date: time.Now().UTC(), Limits: v.opt.Limits.String()}
	if v.env.Runner != nil {
		res.Engine = v.env.Runner.Analyzer().Name()
	}
	for _, r := range v.rows {
		if r.status == suiteSolved || r.status == suiteFailed {
			res.Outcomes = append(res.Outcomes, r.out)
			res.Total++
			if r.out.Solved {
				res.Solved++
			}
			res.Points += r.out.Points
		}
	}
	path := v.opt.Out
	if path == "" {
		path = strings.NewReplacer("/", "_", " ", "_").Replace(v.opt.Name) + "-results.json"
	}
	if err := res.Save(path); err != nil {
		return "export: " + err.Error()
	}
	return fmt.Sprintf("%d %s written to %s", res.Total, plural(res.Total, "result", "results"), path)
}

// View draws the header, the table beside the board and the key help.
func (v *suiteView) View(width, height int) string {
	if width < view.MinWidth || height < view.MinHeight {
		return view.TooSmall("suite view", view.MinWidth, view.MinHeight, width, height, "esc goes back")
	}
	if v.picker != nil {
		return v.pickerView(width, height)
	}
	st := v.st
	done, solved, pts, maxPts := 0, 0, 0, 0
	for _, r := range v.rows {
		if r.status == suiteSolved || r.status == suiteFailed {
			done++
			pts += r.out.Points
			maxPts += r.out.MaxPoints
		}
		if r.status == suiteSolved {
			solved++
		}
	}
	n := len(v.rows)
	head := view.SearchTitle(st, "Suite "+termtext.SafeLine(v.opt.Name), v.env.Runner, v.opt.Limits)
	barW := 24
	fill := 0
	if n > 0 {
		fill = done * barW / n
	}
	score := fmt.Sprintf("solved %d/%d", solved, done)
	if maxPts > 0 {
		score += fmt.Sprintf(" · points %d/%d", pts, maxPts)
	}
	prog := st.Accent.Render(strings.Repeat("█", fill)) + st.Muted.Render(strings.Repeat("░", barW-fill)) +
		st.Text.Render(fmt.Sprintf(" %d/%d  ", done, n)) + st.Bold.Render(score)

	// The board: 5×2 squares when there is room, else 3×1.
	sz := boardview.Size{W: 3, H: 1}
	if height >= 2+8*2+1+4+2 && width >= 2+8*5+48 {
		sz = boardview.Size{W: 5, H: 2}
	}
	var right []string
	if n > 0 {
		rec := v.opt.Records[v.sel]
		row := v.rows[v.sel]
		sc := boardview.NewScene(rec.Position)
		if bm := rec.BestMoves(); len(bm) > 0 {
			sc.Hint = bm[0]
		}
		if row.status == suiteSolved || row.status == suiteFailed {
			if m, err := rec.Position.ParseSAN(row.out.Move); err == nil {
				sc.Last = m
			}
		}
		right = strings.Split(st.Board.Board(sc, sz), "\n")
		right = append(append(right, ""), v.detail(rec, row)...)
	}
	boardW := sz.Width()
	bodyH := height - 4
	tableW := width - boardW - 2
	left := v.table(tableW, bodyH)
	lines := []string{view.Pad(head, width), view.Pad(prog, width)}
	lines = append(lines, view.BesideRows(left, right, tableW, boardW, bodyH)...)
	// The message is one line cut to the width, whatever it says: a line
	// break or an overlong line would push the screen out of place.
	msg := st.Muted.Render(termtext.SafeLine(v.message))
	lines = append(lines, view.Pad(msg, width))
	lines = append(lines, view.Pad(st.Muted.Render("↑/↓ j/k select · enter run one · f run from here · a run all · s stop · e export · esc back"), width))
	return strings.Join(lines, "\n")
}

// detail is the text under the board: the record, then the engine's line.
func (v *suiteView) detail(rec *epd.Record, row suiteRow) []string {
	st := v.st
	p := rec.Position
	want := "bm " + strings.Join(view.SANList(p, rec.BestMoves()), " ")
	if n, ok := rec.Mate(); ok {
		want = fmt.Sprintf("bm #%d", n)
	} else if len(rec.BestMoves()) == 0 {
		want = "am " + strings.Join(view.SANList(p, rec.AvoidMoves()), " ")
	}
	id := termtext.SafeLine(rec.ID())
	if id == "" {
		id = fmt.Sprintf("#%d", v.sel+1)
	}
	out := []string{st.Bold.Render(id) + "  " + st.Text.Render(want) + st.Muted.Render(" · "+p.SideToMove().Name()+" to move")}
	var info engine.Info
	have := false
	switch row.status {
	case suiteRunning:
		info, have = row.live, row.hasLive
	case suiteSolved, suiteFailed:
		if row.out.Error != "" {
			return append(out, st.Err.Render("error: "+termtext.SafeLine(row.out.Error)))
		}
		out = append(out, v.verdict(row)+st.Text.Render(fmt.Sprintf(" %s %s, depth %d, %s", row.out.Move, row.out.Score, row.out.Depth,
			view.Seconds(time.Duration(row.out.Time)))))
		info, have = row.live, row.hasLive
	default:
		return append(out, st.Muted.Render("not run yet"))
	}
	if have {
		out = append(out, st.Muted.Render(fmt.Sprintf("depth %d · %s", info.Depth, info.Score))+" "+
			st.Text.Render(view.PVSAN(p, info.PV, 8)))
	}
	return out
}

func (v *suiteView) verdict(row suiteRow) string {
	if row.status == suiteSolved {
		return v.st.Accent.Render("✓ solved")
	}
	return v.st.Err.Render("✗ failed")
}

// table is the list of positions, scrolled to keep the selection in view.
func (v *suiteView) table(w, h int) []string {
	st := v.st
	// Time and depth are where a solved position's answer was first found
	// (and stayed); a failed one has none.
	out := []string{
		st.Muted.Render(fmt.Sprintf("%-4s %-12s %-9s %-9s %-2s %13s", "", "", "", "", "", "first found at")),
		st.Muted.Render(fmt.Sprintf("%-4s %-12s %-9s %-9s %-2s %7s %5s", "#", "id", "expected", "engine", "", "time", "depth")),
	}
	h -= 2
	if v.sel < v.top {
		v.top = v.sel
	}
	if v.sel >= v.top+h {
		v.top = v.sel - h + 1
	}
	for i := v.top; i < len(v.rows) && len(out)-2 < h; i++ {
		rec, row := v.opt.Records[i], v.rows[i]
		id := termtext.SafeLine(rec.ID())
		want := strings.Join(view.SANList(rec.Position, rec.BestMoves()), " ")
		if n, ok := rec.Mate(); ok {
			want = fmt.Sprintf("#%d", n)
		} else if want == "" {
			want = "!" + strings.Join(view.SANList(rec.Position, rec.AvoidMoves()), " ")
		}
		mv, mark, tm, depth := "", "", "", ""
		style := st.Text
		switch row.status {
		case suiteRunning:
			mark, style = "…", st.Accent
			if row.hasLive {
				mv = rec.Position.SAN(row.live.PV[0])
				depth = fmt.Sprint(row.live.Depth)
				tm = view.Seconds(row.live.Time)
			}
		case suiteSolved:
			mark, mv = "✓", row.out.Move
			tm, depth = view.Seconds(time.Duration(row.out.SolveTime)), fmt.Sprint(row.out.SolveDepth)
		case suiteFailed:
			// Its last move, in the engine column; its whole search is
			// under the board.
			mark, mv, style = "✗", row.out.Move, st.Err
			tm = "not found"
			if row.out.Error != "" {
				tm = "error"
			}
		}
		found := fmt.Sprintf("%7s %5s", tm, depth)
		if depth == "" {
			found = fmt.Sprintf("%13s", tm)
		}
		line := fmt.Sprintf("%-4d %-12s %-9s %-9s %-2s %s", i+1, termtext.Cut(id, 12), termtext.Cut(want, 9), termtext.Cut(mv, 9), mark, found)
		line = view.Pad(line, w)
		if i == v.sel {
			out = append(out, st.Selected.Render(line))
		} else {
			out = append(out, style.Render(line))
		}
	}
	if len(v.rows) == 0 {
		out = append(out, st.Err.Render("no positions: "+termtext.SafeLine(v.opt.Name)))
	}
	return out
}
