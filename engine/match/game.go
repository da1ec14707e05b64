package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/referee"
)

// Incident records an engine ending a game by misbehaving rather than by
// chess: a time forfeit (lost, or drawn when the opponent cannot mate), an
// illegal move, or a failure.
type Incident struct {
	Game   int    // game number, from 1
	Player int    // 0 for the first engine, 1 for the second
	Engine string // the engine's name
	Kind   referee.Termination
	Detail string
}

func (in Incident) String() string {
	return fmt.Sprintf("game %d: %s (engine %d): %s: %s", in.Game, in.Engine, in.Player+1, in.Kind, in.Detail)
}

// Game is a finished game.
type Game struct {
	Number  int // from 1; games 2k−1 and 2k play opening k with colours swapped
	Opening int // index into Config.Openings
	// White is the player (0 = first engine, 1 = second) who had White.
	White       int
	Start       *chess.Position
	Moves       []chess.Move
	Result      string // "1-0", "0-1" or "1/2-1/2" (referee.Result.PGN)
	Termination referee.Termination
	Detail      string    // how it ended, in words ("Black mates", "White loses on time: …")
	Incident    *Incident // set when an engine lost by misbehaving
	Date        time.Time // when the game started
}

// Points is the first engine's score in half points: 0, 1 (draw) or 2.
func (g *Game) Points() int {
	switch g.Result {
	case "1/2-1/2":
		return 1
	case "1-0":
		if g.White == 0 {
			return 2
		}
	case "0-1":
		if g.White == 1 {
			return 2
		}
	}
	return 0
}

// seat holds one engine instance for a worker, started on first use and
// restarted after a failure.
type seat struct {
	player Player
	a      engine.Analyzer
}

func (s *seat) get() (engine.Analyzer, error) {
	if s.a == nil {
		a, err := s.player.New()
		if err != nil {
			return nil, err
		}
		s.a = a
	}
	return s.a, nil
}

// discard closes a broken engine so that the next get starts a new one.
func (s *seat) discard() {
	if s.a != nil {
		_ = s.a.Close()
		s.a = nil
	}
}

// player is who moves: the index into the players of the side to move.
func (g *Game) player(side chess.Color) int {
	if side == chess.White {
		return g.White
	}
	return 1 - g.White
}

// end ends g with r, in words detail.
func (g *Game) end(r referee.Result, detail string) {
	g.Result, g.Termination, g.Detail = r.PGN(), r.Termination, detail
}

// forfeit ends g by side's misbehaving (kind: a time forfeit, an illegal
// move, a failure), recording the incident. p is the game's position: a
// flag is a loss only if the opponent can mate (referee.Flag); the rest
// always lose.
func (g *Game) forfeit(p *chess.Position, side chess.Color, kind referee.Termination, name, detail string) {
	r := referee.Loss(side, kind)
	if kind == referee.TimeForfeit {
		r = referee.Flag(p, side)
	}
	outcome := "loses by " + string(kind)
	if r.Draw {
		outcome = "draws by " + string(kind) + " (the opponent cannot mate)"
	}
	g.end(r, fmt.Sprintf("%s (%s) %s: %s", side.Name(), name, outcome, detail))
	g.Incident = &Incident{Game: g.Number, Player: g.player(side), Engine: name, Kind: kind, Detail: detail}
}

// play plays g between the two engines (indexed by player) and reports
// which of them must be restarted. A game interrupted by ctx returns
// ctx's error and is void.
func (r *runner) play(ctx context.Context, g *Game, seats [2]*seat) (broken [2]bool, err error) {
	g.Date = time.Now()
	p := g.Start.Clone()
	timed := r.cfg.TC.Base > 0
	clock := [2]time.Duration{r.cfg.TC.Base, r.cfg.TC.Base} // by colour
	for i, s := range seats {
		a, err := s.get()
		if err != nil {
			return broken, fmt.Errorf("start %s: %w", r.names[i], err)
		}
		if err := a.NewGame(); err != nil {
			// Treated like a crash: the game cannot be played by it.
			broken[i] = true
			side := chess.White
			if g.White != i {
				side = chess.Black
			}
			g.forfeit(p, side, referee.EngineFailure, r.names[i], "failed to start a new game: "+err.Error())
			return broken, nil
		}
	}
	var u chess.Undo
	for {
		if res, over := referee.Judge(p); over {
			detail := string(res.Termination)
			if res.Termination == referee.Checkmate {
				detail = res.Winner.Name() + " mates"
			}
			g.end(res, detail)
			return broken, nil
		}
		if r.cfg.MaxPlies > 0 && len(g.Moves) >= r.cfg.MaxPlies {
			g.end(referee.Draw(referee.Adjudication), "draw adjudicated after "+plural.Count(len(g.Moves), "ply"))
			return broken, nil
		}
		side := p.SideToMove()
		who := g.player(side)
		lim := engine.Limits{Nodes: r.cfg.Nodes, Depth: r.cfg.Depth, MoveTime: r.cfg.MoveTime}
		// The clock starts before the deadline is armed, so an engine
		// stopped by the deadline has always used more than its time.
		t0 := time.Now()
		sctx, cancel := ctx, context.CancelFunc(func() {})
		if r.cfg.MoveTime > 0 {
			sctx, cancel = context.WithTimeout(ctx, r.cfg.MoveTime+r.cfg.Margin)
		}
		if timed {
			lim.WTime, lim.BTime = clock[chess.White], clock[chess.Black]
			lim.WInc, lim.BInc = r.cfg.TC.Increment, r.cfg.TC.Increment
			// The deadline stops an engine that would never answer; the
			// forfeit itself is judged on the time measured below.
			sctx, cancel = context.WithTimeout(ctx, clock[side]+r.cfg.Margin)
		}
		res, serr := seats[who].a.Search(sctx, engine.Game{Start: g.Start, Moves: g.Moves}, lim, nil)
		used := time.Since(t0)
		cancel()
		if ctx.Err() != nil {
			return broken, ctx.Err()
		}
		// Anything but an illegal move leaves the engine in doubt.
		if serr != nil && !errors.Is(serr, engine.ErrIllegalMove) {
			broken[who] = true
		}
		name := r.names[who]
		switch {
		case timed && used > clock[side]+r.cfg.Margin:
			detail := fmt.Sprintf("used %v with %v on the clock", used.Round(time.Millisecond), clock[side].Round(time.Millisecond))
			if serr != nil {
				detail += " (" + serr.Error() + ")"
			}
			g.forfeit(p, side, referee.TimeForfeit, name, detail)
			return broken, nil
		case r.cfg.MoveTime > 0 && used > r.cfg.MoveTime+r.cfg.Margin:
			g.forfeit(p, side, referee.TimeForfeit, name, fmt.Sprintf("used %v of a %v move time", used.Round(time.Millisecond), r.cfg.MoveTime))
			return broken, nil
		case errors.Is(serr, engine.ErrIllegalMove):
			g.forfeit(p, side, referee.IllegalMove, name, serr.Error())
			return broken, nil
		case serr != nil:
			g.forfeit(p, side, referee.EngineFailure, name, serr.Error())
			return broken, nil
		case res.BestMove == chess.NullMove:
			g.forfeit(p, side, referee.IllegalMove, name, "returned no move in "+p.FEN())
			return broken, nil
		case !p.IsLegal(res.BestMove):
			g.forfeit(p, side, referee.IllegalMove, name, fmt.Sprintf("played %s in %s", res.BestMove.UCI(p.Chess960()), p.FEN()))
			return broken, nil
		}
		p.MakeMove(res.BestMove, &u)
		g.Moves = append(g.Moves, res.BestMove)
		if timed {
			// Time used within the margin is forgiven down to an empty
			// clock; a millisecond keeps the next search timed rather
			// than unbounded.
			clock[side] = max(clock[side]-used, 0) + r.cfg.TC.Increment
			clock[side] = max(clock[side], time.Millisecond)
		}
	}
}
