package match

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// Player is one side of a match: a name and a way to start an instance of
// its engine. Every concurrent game slot starts its own instances, and a
// crashed one is replaced by a new one, so New is called several times.
type Player struct {
	// Name labels the engine in reports and PGN; "" takes the first
	// instance's Analyzer.Name.
	Name string
	// New starts an engine, with its options already set.
	New func() (engine.Analyzer, error)
}

// Config describes a match between Players[0] (the first engine, whose
// point of view the results take) and Players[1].
type Config struct {
	Players [2]Player
	// Openings are the starting positions. Opening k is played by games
	// 2k−1 and 2k with colours swapped (the first engine has White in the
	// odd game); when there are more pairs than openings they repeat.
	Openings []*chess.Position
	// Games is the number of games; an odd number is rounded up so that
	// every opening is played from both sides.
	Games int
	// TC is the clock. With a zero TC a game has no clock and moves are
	// bounded by Nodes or Depth only.
	TC clock.TimeControl
	// Margin is how far an engine may overrun its clock before it loses
	// on time, to forgive the scheduling noise of a busy machine.
	Margin time.Duration
	// Nodes and Depth, when set, bound every search as well as the clock.
	Nodes uint64
	Depth int
	// MoveTime, when set, gives every move this long (UCI "go movetime"),
	// for games without a clock; overrunning it by more than Margin
	// forfeits.
	MoveTime time.Duration
	// FirstToMove plays each opening once, with the first engine as the
	// side to move, instead of once with each colour: for tests of one
	// side of a position (converting a won ending, holding a drawn one).
	// Games is then not rounded up, and Stats.Pairs stays empty.
	FirstToMove bool
	// MaxPlies adjudicates a draw after this many plies (0 = never).
	MaxPlies int
	// Concurrency is the number of games played at once (at least 1).
	Concurrency int
	// SPRT, when set, stops the match as soon as the test decides.
	SPRT *SPRT
	// Finished, when set, is given each game as it finishes, with the
	// players' names (index 0 the first engine), from one goroutine at a
	// time, in the order the games end; an error stops the match and is
	// its error. The caller records the games (squall match writes PGN
	// through package pgn): the match knows games, not file formats.
	Finished func(g *Game, names [2]string) error
	// Progress, when set, is called after each finished game, from one
	// goroutine at a time; it must return quickly.
	Progress func(Progress)
}

// Stats are the results so far, from the first engine's point of view.
type Stats struct {
	Games               int
	Wins, Losses, Draws int
	Pairs               Pentanomial // complete pairs only
}

// Score is the first engine's mean score per game.
func (s Stats) Score() float64 {
	if s.Games == 0 {
		return 0.5
	}
	return (float64(s.Wins) + float64(s.Draws)/2) / float64(s.Games)
}

// Progress is reported after each game.
type Progress struct {
	Names [2]string
	Stats
	Total     int   // games the match will play if not stopped early
	Game      *Game // the game just finished
	Incidents int   // incidents so far
	LLR       float64
}

// Report is the outcome of a match.
type Report struct {
	Names [2]string
	Stats
	Games     []*Game // finished games, by number
	Incidents []Incident
	// LLR and Verdict are the SPRT's state at the end (when Config.SPRT
	// is set); Verdict is "" if the test did not decide.
	LLR     float64
	Verdict string
}

// job is one game to play.
type job struct {
	number, opening, white int
	start                  *chess.Position
}

// done is a worker's answer for one job.
type done struct {
	game *Game
	err  error
}

type runner struct {
	cfg   Config
	names [2]string
}

// Run plays the match. It returns the report of the games finished even
// when it stops early: when the SPRT decides (err nil), when ctx is
// cancelled (err is ctx's), or when an engine cannot be started (err
// says which). Games interrupted by the stop are void and not counted.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := check(&cfg); err != nil {
		return &Report{}, err
	}
	r := &runner{cfg: cfg}
	// Start the first slot's engines here: a bad command fails at once,
	// and unnamed players are named after their engines.
	first := [2]*seat{{player: cfg.Players[0]}, {player: cfg.Players[1]}}
	for i, s := range first {
		a, err := s.get()
		if err != nil {
			first[0].discard()
			return &Report{}, fmt.Errorf("match: start engine %d: %w", i+1, err)
		}
		r.names[i] = cfg.Players[i].Name
		if r.names[i] == "" {
			r.names[i] = a.Name()
		}
	}
	rep := &Report{Names: r.names}

	parent := ctx
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	total := (cfg.Games + 1) / 2 * 2
	if cfg.FirstToMove {
		total = cfg.Games
	}
	jobs := make(chan job)
	results := make(chan done)
	go func() {
		defer close(jobs)
		for n := 1; n <= total; n++ {
			pair := (n - 1) / 2
			j := job{number: n, opening: pair % len(cfg.Openings), white: (n - 1) % 2}
			if cfg.FirstToMove {
				j.opening = (n - 1) % len(cfg.Openings)
				j.white = 0
				if cfg.Openings[j.opening].SideToMove() == chess.Black {
					j.white = 1
				}
			}
			// Each game gets its own copy: a Position is not safe for
			// concurrent use, not even for reading (SAN makes moves).
			j.start = cfg.Openings[j.opening].Clone()
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range min(cfg.Concurrency, total) {
		seats := first
		if w > 0 {
			seats = [2]*seat{{player: cfg.Players[0]}, {player: cfg.Players[1]}}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx, jobs, results, seats)
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var runErr error
	pending := map[int]*Game{} // first game of a pair, waiting for its twin
	byNumber := map[int]*Game{}
	for d := range results {
		if d.err != nil {
			if runErr == nil {
				runErr = d.err
			}
			stop()
			continue
		}
		if ctx.Err() != nil {
			// Stopped (by the SPRT, an error or the caller): games that
			// finished meanwhile are void, so the count is where it stopped.
			continue
		}
		g := d.game
		byNumber[g.Number] = g
		rep.record(g)
		// With FirstToMove a game has no twin: each is its own test.
		if pair := (g.Number - 1) / 2; !cfg.FirstToMove {
			if twin, ok := pending[pair]; ok {
				delete(pending, pair)
				rep.Pairs[twin.Points()+g.Points()]++
			} else {
				pending[pair] = g
			}
		}
		if cfg.Finished != nil && runErr == nil {
			if err := cfg.Finished(g, r.names); err != nil {
				runErr = fmt.Errorf("match: game %d: %w", g.Number, err)
				stop()
			}
		}
		if cfg.SPRT != nil {
			rep.LLR = cfg.SPRT.LLR(rep.Pairs)
			if rep.Verdict == "" {
				if rep.Verdict = cfg.SPRT.Verdict(rep.Pairs); rep.Verdict != "" {
					stop()
				}
			}
		}
		if cfg.Progress != nil {
			cfg.Progress(Progress{Names: r.names, Stats: rep.Stats, Total: total, Game: g, Incidents: len(rep.Incidents), LLR: rep.LLR})
		}
	}
	for n := 1; n <= total; n++ {
		if g, ok := byNumber[n]; ok {
			rep.Games = append(rep.Games, g)
		}
	}
	if runErr == nil && rep.Verdict == "" {
		runErr = parent.Err() // interrupted by the caller, if at all
	}
	return rep, runErr
}

// record adds a finished game to the statistics.
func (rep *Report) record(g *Game) {
	rep.Stats.Games++
	switch g.Points() {
	case 2:
		rep.Wins++
	case 1:
		rep.Draws++
	default:
		rep.Losses++
	}
	if g.Incident != nil {
		rep.Incidents = append(rep.Incidents, *g.Incident)
	}
}

// work plays jobs with one pair of engine instances, restarting an engine
// that failed, until the jobs run out or ctx ends.
func (r *runner) work(ctx context.Context, jobs <-chan job, results chan<- done, seats [2]*seat) {
	defer seats[0].discard()
	defer seats[1].discard()
	for j := range jobs {
		g := &Game{Number: j.number, Opening: j.opening, White: j.white, Start: j.start}
		broken, err := r.play(ctx, g, seats)
		for i, b := range broken {
			if b {
				seats[i].discard()
			}
		}
		if ctx.Err() != nil {
			return // the match is over; this game is void
		}
		select {
		case results <- done{game: g, err: err}:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// check validates cfg and fills in defaults.
func check(cfg *Config) error {
	for i, p := range cfg.Players {
		if p.New == nil {
			return fmt.Errorf("match: engine %d has no way to start", i+1)
		}
	}
	if len(cfg.Openings) == 0 {
		return errors.New("match: no openings")
	}
	if cfg.Games < 1 {
		return errors.New("match: no games to play")
	}
	if cfg.TC.Base <= 0 && cfg.Nodes == 0 && cfg.Depth == 0 && cfg.MoveTime <= 0 {
		return errors.New("match: no time control, move time, node or depth limit: games would never end")
	}
	if cfg.TC.Base > 0 && cfg.MoveTime > 0 {
		return errors.New("match: both a clock and a move time: choose one")
	}
	if cfg.TC.Base < 0 || cfg.TC.Increment < 0 || cfg.Margin < 0 || cfg.MoveTime < 0 {
		return errors.New("match: negative time")
	}
	cfg.Concurrency = max(cfg.Concurrency, 1)
	return nil
}
