// Package engine is the one seam between chess engines and the rest of
// Squall. The built-in searcher (engine/search) and external UCI engines
// (engine/uci's client) both implement Analyzer; the TUI, the SSH rooms, the
// suite runner, game review and the match runner use nothing else.
//
// Data flows one way: an Analyzer reports Info values through a callback
// while it searches and returns a Result when it stops.
package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/squall-chess/squall/engine/chess"
)

// Bound says whether a score is exact or only a bound (from an aspiration
// window that failed high or low).
type Bound uint8

const (
	Exact Bound = iota
	Lower       // the true score is at least this ("lowerbound")
	Upper       // the true score is at most this ("upperbound")
)

// Score is an evaluation from the side to move's point of view: centipawns,
// or, when Mate is non-zero, mate in Mate moves (negative: being mated).
type Score struct {
	CP    int
	Mate  int
	Bound Bound
}

// String formats like lichess: "+0.35", "-1.20", "#5", "#-3".
func (s Score) String() string {
	if s.Mate != 0 {
		return fmt.Sprintf("#%d", s.Mate)
	}
	return fmt.Sprintf("%+.2f", float64(s.CP)/100)
}

// Negate returns the score from the other side's point of view.
func (s Score) Negate() Score {
	n := Score{CP: -s.CP, Mate: -s.Mate, Bound: s.Bound}
	switch s.Bound {
	case Lower:
		n.Bound = Upper
	case Upper:
		n.Bound = Lower
	}
	return n
}

// Info is one progress report of a search, as in a UCI "info" line.
type Info struct {
	Depth    int
	SelDepth int
	MultiPV  int // 1-based line number; 1 is the best line
	Score    Score
	// WDL is win/draw/loss per mille from the side to move, if known.
	WDL      [3]int
	HasWDL   bool
	Nodes    uint64
	NPS      uint64
	HashFull int // per mille
	TBHits   uint64
	Time     time.Duration
	PV       []chess.Move
	// CurrMove is the root move being searched (with its 1-based number),
	// reported by long searches; zero when absent.
	CurrMove       chess.Move
	CurrMoveNumber int
	// String is free text ("info string …"); when set, the report is a
	// Text and other fields are empty.
	String string
}

// InfoKind is what a report is. A search reports three kinds of thing
// through one callback, as Stockfish's engine facade has one callback for
// each: Kind tells them apart, so every consumer decides the same way.
type InfoKind uint8

const (
	// Progress is a tick while a search runs: counters (nodes, nps, time,
	// hashfull, tbhits), the depth reached, the root move being searched
	// (CurrMove), any of them; no line.
	Progress InfoKind = iota
	// Line is a full report of one line: depth, score, bound and PV
	// (MultiPV says which line; 1 or 0 is the best), with the counters.
	Line
	// Text is free text from the engine (UCI "info string"); other fields
	// are empty.
	Text
)

// Kind says what the report is: Text when it has a String, Line when it
// has a PV, Progress otherwise.
func (in Info) Kind() InfoKind {
	switch {
	case in.String != "":
		return Text
	case len(in.PV) > 0:
		return Line
	}
	return Progress
}

// BestLine reports whether in is a Line of the best line (MultiPV 0 or 1):
// the report a screen takes as the engine's current choice.
func (in Info) BestLine() bool { return in.Kind() == Line && in.MultiPV <= 1 }

// Limits bound a search. Zero values mean "no limit of that kind"; with no
// limit at all the search runs until stopped (infinite analysis).
type Limits struct {
	Depth    int
	Nodes    uint64
	MoveTime time.Duration
	Mate     int // search for a mate in this many moves
	// Clock: remaining time and increment per side, moves to the next
	// time control (0 = sudden death).
	WTime, BTime time.Duration
	WInc, BInc   time.Duration
	MovesToGo    int
	Infinite     bool
	Ponder       bool // start in ponder mode; PonderHit switches to normal
	// SearchMoves restricts the root moves (empty = all).
	SearchMoves []chess.Move
	// MultiPV is the number of lines to report (0 or 1 = best line only).
	MultiPV int
}

// IsZero reports whether no field of l is set: the search it describes
// runs until stopped.
func (l Limits) IsZero() bool {
	return l.Depth == 0 && l.Nodes == 0 && l.MoveTime == 0 && l.Mate == 0 &&
		l.WTime == 0 && l.BTime == 0 && l.WInc == 0 && l.BInc == 0 && l.MovesToGo == 0 &&
		!l.Infinite && !l.Ponder && len(l.SearchMoves) == 0 && l.MultiPV == 0
}

// String names the limit that ends the search ("depth 12", "nodes 100000",
// "movetime 1s", "mate 3", "clock", "infinite"), as suite reports and
// results files show it; "no limit" when none is set.
func (l Limits) String() string {
	switch {
	case l.Depth > 0:
		return fmt.Sprintf("depth %d", l.Depth)
	case l.Nodes > 0:
		return fmt.Sprintf("nodes %d", l.Nodes)
	case l.MoveTime > 0:
		return "movetime " + l.MoveTime.String()
	case l.Mate > 0:
		return fmt.Sprintf("mate %d", l.Mate)
	case l.WTime > 0 || l.BTime > 0:
		return "clock"
	case l.Infinite:
		return "infinite"
	}
	return "no limit"
}

// Game is the position to search: the game's starting position and the
// moves played since, so that an engine sees the history (repetitions,
// the 50-move clock) and a UCI engine can be sent "position … moves …".
type Game struct {
	Start *chess.Position
	Moves []chess.Move
}

// Position replays the game and returns its current position (a fresh copy
// with the game's history).
func (g Game) Position() (*chess.Position, error) {
	if g.Start == nil {
		return nil, fmt.Errorf("engine: game has no start position")
	}
	p := g.Start.Clone()
	var u chess.Undo
	for i, m := range g.Moves {
		if !p.IsLegal(m) {
			return nil, fmt.Errorf("engine: move %d (%s) is illegal in %s", i+1, m.UCI(p.Chess960()), p.FEN())
		}
		p.MakeMove(m, &u)
	}
	return p, nil
}

// Result is how a search ended.
type Result struct {
	BestMove   chess.Move // chess.NullMove when there is no legal move
	PonderMove chess.Move // expected reply, or chess.NullMove
	Last       Info       // the last full info line (score, depth, PV)
}

// Option describes one engine setting, as a UCI "option" line does.
type Option struct {
	Name    string
	Type    string // check, spin, combo, button, string
	Default string
	Min     int
	Max     int
	Vars    []string // combo choices
	// Hidden options are left out of the list a GUI is shown (UCI's
	// "uci") but are set like any other: tuning constants that would
	// only clutter a settings dialog (search.Tunables).
	Hidden bool
}

// Check checks value against the option's type and range and returns it in
// its canonical form: trimmed; "true" or "false" for a check (in any case,
// as GUIs differ); a spin's integer as Itoa writes it; a combo choice
// spelled as the option lists it; an empty string for the "<empty>" a GUI
// was shown for one. A button takes no value and any is ignored. The error
// names the option and quotes at most 40 bytes of the value.
func (o Option) Check(value string) (string, error) {
	value = strings.TrimSpace(value)
	bad := func(why string) error {
		return fmt.Errorf("option %s: %q %s", o.Name, Clip(value, quoted), why)
	}
	switch o.Type {
	case "check":
		switch strings.ToLower(value) {
		case "true":
			return "true", nil
		case "false":
			return "false", nil
		}
		return "", bad("is not true or false")
	case "spin":
		n, err := strconv.Atoi(value)
		if err != nil {
			return "", bad("is not an integer")
		}
		if n < o.Min || n > o.Max {
			return "", bad(fmt.Sprintf("is outside %d..%d", o.Min, o.Max))
		}
		return strconv.Itoa(n), nil
	case "combo":
		for _, v := range o.Vars {
			if strings.EqualFold(v, value) {
				return v, nil
			}
		}
		return "", bad("is not one of " + strings.Join(o.Vars, ", "))
	case "button":
		return "", nil
	case "string":
		if value == "<empty>" {
			return "", nil
		}
		return value, nil
	}
	return "", fmt.Errorf("option %s: unknown type %q", o.Name, Clip(o.Type, quoted))
}

// Clip shortens text from outside (an engine's line, a user's value) to
// quote it in an error: at most n bytes, cut where a rune begins, then
// "…" when anything was cut, so that a hostile or broken line cannot make
// an error message huge. Bytes, not terminal cells, are what it bounds:
// escapes and combining marks take no cells but still make a message
// long. The engine packages' errors all clip through it, each with its
// own n.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// quoted bounds the outside text this package's errors quote (Clip): a
// value may be as long as a line.
const quoted = 40

// ErrIllegalMove is returned by an Analyzer whose engine chose a move that
// is not legal in the position (an external engine's bug): a match scores
// it as a loss for that engine, a screen says so.
var ErrIllegalMove = errors.New("engine played an illegal move")

// Analyzer is anything that can search a chess position: the built-in
// engine or an external UCI engine.
type Analyzer interface {
	// Name identifies the engine ("Squall 0.1", "Stockfish 15.1").
	Name() string
	// Options lists the settings the engine accepts.
	Options() []Option
	// SetOption changes a setting; it must not be called during Search.
	SetOption(name, value string) error
	// NewGame tells the engine that the next search is from another game
	// (clear hash tables and learned state as UCI "ucinewgame" does).
	NewGame() error
	// Search runs a search and blocks until it finishes: by reaching its
	// limits, or soon after ctx is cancelled (the result then holds the best
	// move found so far). info, if non-nil, is called from the searching
	// goroutine for each progress report and must return quickly.
	Search(ctx context.Context, g Game, lim Limits, info func(Info)) (Result, error)
	// PonderHit tells a search started with Limits.Ponder that the expected
	// move was played: it continues as a normal timed search.
	PonderHit()
	// Close releases the engine (stops its process, frees its tables).
	Close() error
}
