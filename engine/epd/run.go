package epd

import (
	"context"
	"fmt"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// Outcome is what an engine did with one suite position.
type Outcome struct {
	Index    int      `json:"index"` // 0-based position in the suite
	ID       string   `json:"id"`
	FEN      string   `json:"fen"`
	Expected []string `json:"expected,omitempty"` // bm moves in SAN
	Avoid    []string `json:"avoid,omitempty"`    // am moves in SAN
	Move     string   `json:"move"`               // the engine's move in SAN
	Score    string   `json:"score"`              // side to move's view: "+0.35", "#3"
	CP       int      `json:"cp"`
	Mate     int      `json:"mate,omitempty"`
	Depth    int      `json:"depth"`
	Nodes    uint64   `json:"nodes"`
	Time     Duration `json:"time"`
	Solved   bool     `json:"solved"`
	// SolveTime is the first moment the engine's best move solved the
	// position and stayed so to the end (meaningful only when Solved).
	SolveTime  Duration `json:"solve_time"`
	SolveDepth int      `json:"solve_depth,omitempty"`
	Points     int      `json:"points,omitempty"`     // STS-style c0 points earned
	MaxPoints  int      `json:"max_points,omitempty"` // best available points
	Error      string   `json:"error,omitempty"`
}

// Duration is a time.Duration written as seconds in JSON.
type Duration time.Duration

// MarshalJSON writes seconds with millisecond precision.
func (d Duration) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, "%.3f", time.Duration(d).Seconds()), nil
}

// UnmarshalJSON reads seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s float64
	if _, err := fmt.Sscanf(string(b), "%g", &s); err != nil {
		return fmt.Errorf("duration %s: %w", b, err)
	}
	*d = Duration(s * float64(time.Second))
	return nil
}

// Tracker follows one search's progress reports and decides, from the
// principal variation's first move, when the position was solved. It is
// what both the headless runner and the suite view use.
type Tracker struct {
	rec     *Record
	start   time.Time
	solved  bool
	since   time.Duration
	sinceD  int
	last    engine.Info
	hasLast bool
}

// NewTracker starts tracking a search of rec that begins now.
func NewTracker(rec *Record) *Tracker { return &Tracker{rec: rec, start: time.Now()} }

// Observe records a progress report; it returns whether the current best
// move solves the position.
func (t *Tracker) Observe(info engine.Info) bool {
	if !info.BestLine() {
		return t.solved
	}
	t.last, t.hasLast = info, true
	ok := t.rec.Solves(info.PV[0])
	if _, mate := t.rec.Mate(); mate {
		ok = t.rec.SolvesScore(info.Score)
	}
	if ok && !t.solved {
		t.since, t.sinceD = t.elapsed(info), info.Depth
	}
	t.solved = ok
	return ok
}

// elapsed is the engine's own clock when it reports one, else wall time.
func (t *Tracker) elapsed(info engine.Info) time.Duration {
	if info.Time > 0 {
		return info.Time
	}
	return time.Since(t.start)
}

// Finish turns the final result into an Outcome.
func (t *Tracker) Finish(index int, res engine.Result, err error) Outcome {
	r := t.rec
	p := r.Position
	o := Outcome{Index: index, ID: r.ID(), FEN: p.FEN(), Time: Duration(time.Since(t.start))}
	for _, m := range r.BestMoves() {
		o.Expected = append(o.Expected, p.SAN(m))
	}
	mateN, isMate := r.Mate()
	if isMate {
		o.Expected = []string{fmt.Sprintf("#%d", mateN)}
	}
	for _, m := range r.AvoidMoves() {
		o.Avoid = append(o.Avoid, p.SAN(m))
	}
	if err != nil {
		o.Error = err.Error()
		return o
	}
	last := res.Last
	if len(last.PV) == 0 && t.hasLast {
		last = t.last
	}
	if res.BestMove != chess.NullMove && p.IsLegal(res.BestMove) {
		o.Move = p.SAN(res.BestMove)
	}
	o.Score, o.CP, o.Mate = last.Score.String(), last.Score.CP, last.Score.Mate
	o.Depth, o.Nodes = last.Depth, last.Nodes
	if last.Time > 0 {
		o.Time = Duration(last.Time)
	}
	o.Solved = r.Solves(res.BestMove)
	if isMate {
		o.Solved = r.SolvesScore(last.Score)
	}
	if o.Solved {
		// The final move counts even if no report showed it (a search
		// stopped before its first full iteration ended).
		if t.solved {
			o.SolveTime, o.SolveDepth = Duration(t.since), t.sinceD
		} else {
			o.SolveTime, o.SolveDepth = o.Time, o.Depth
		}
	}
	if pts, _ := r.Points(); pts != nil {
		o.Points = pts[res.BestMove]
		for _, n := range pts {
			o.MaxPoints = max(o.MaxPoints, n)
		}
	}
	return o
}

// Solve searches one record and reports its outcome. info, if non-nil,
// sees every progress report (from the searching goroutine).
func Solve(ctx context.Context, a engine.Analyzer, index int, rec *Record, lim engine.Limits, info func(engine.Info)) Outcome {
	t := NewTracker(rec)
	if err := a.NewGame(); err != nil {
		return t.Finish(index, engine.Result{}, fmt.Errorf("new game: %w", err))
	}
	res, err := a.Search(ctx, engine.Game{Start: rec.Position}, lim, func(in engine.Info) {
		t.Observe(in)
		if info != nil {
			info(in)
		}
	})
	return t.Finish(index, res, err)
}

// Run searches every record in turn, calling done after each. It stops
// early when ctx is cancelled, returning the outcomes so far.
func Run(ctx context.Context, a engine.Analyzer, recs []*Record, lim engine.Limits, done func(Outcome)) []Outcome {
	out := make([]Outcome, 0, len(recs))
	for i, r := range recs {
		if ctx.Err() != nil {
			break
		}
		o := Solve(ctx, a, i, r, lim, nil)
		if ctx.Err() != nil && o.Error == "" && !o.Solved {
			break // interrupted: not a real failure
		}
		out = append(out, o)
		if done != nil {
			done(o)
		}
	}
	return out
}

// Summary totals a run.
type Summary struct {
	Solved, Total     int
	Points, MaxPoints int
}

// Summarize counts solved positions and STS points.
func Summarize(out []Outcome) Summary {
	var s Summary
	for _, o := range out {
		s.Total++
		if o.Solved {
			s.Solved++
		}
		s.Points += o.Points
		s.MaxPoints += o.MaxPoints
	}
	return s
}
