package game

import (
	"fmt"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/referee"
)

// State is a game as stored after each of its events: enough to resume it
// after a crash (Resume), and what every screen of it draws, on any
// server. Its moves are read back in one way (Replay), and its clocks in
// one way (Clocks).
type State struct {
	TimeControl TimeControl
	Moves       []string        // UCI, from the initial position
	MoveClocks  []time.Duration // the mover's clock after each move ([%clk])
	Left        [2]time.Duration
	Started     time.Time
	// Saved is when Left was read. A server that reads a state another
	// wrote sets it to its own clock's time of the read (the store's
	// delay aside, the clocks are as they were written): the clocks of a
	// state count from this server's clock, whoever wrote it.
	Saved time.Time
	// Offers are the offers standing and answered since the last move.
	Offers Offers `json:",omitzero"`
	// Premoves are the premoves queued and the last dropped.
	Premoves Premoves `json:",omitzero"`
	// Berserk: the side berserked (Game.Berserk), by colour.
	Berserk [2]bool `json:",omitzero"`
}

// State is the game's state at now.
func (g *Game) State(now time.Time) State {
	st := State{TimeControl: g.tc, MoveClocks: append([]time.Duration(nil), g.left...), Started: g.started, Saved: now, Offers: g.offer, Premoves: g.premove, Berserk: g.berserk}
	for _, m := range g.moves {
		st.Moves = append(st.Moves, m.UCI(false))
	}
	for _, side := range []chess.Color{chess.White, chess.Black} {
		st.Left[side] = g.clock.Remaining(side, now)
	}
	return st
}

// Replayed is a stored game's moves replayed from the initial position.
// A Replayed handed to several readers (a game's update) is read, never
// changed.
type Replayed struct {
	// Game is the game for a search: the initial position and the moves.
	Game engine.Game
	// SANs are the moves in SAN.
	SANs []string
	// Position is the position after the moves.
	Position *chess.Position
}

// Last is the last move played (the zero Move before the first).
func (r Replayed) Last() chess.Move {
	if len(r.Game.Moves) == 0 {
		return chess.Move(0)
	}
	return r.Game.Moves[len(r.Game.Moves)-1]
}

// Replayed is the game's moves as Replay gives a state's, taken from the
// game itself (copies: the game goes on).
func (g *Game) Replayed() Replayed {
	return Replayed{Game: engine.Game{Start: g.start.Clone(), Moves: g.Moves()}, SANs: g.SANs(), Position: g.Position()}
}

// Replay plays the state's moves from the initial position. A move that
// is not legal where it stands is an error that names it and its number:
// a stored game that does not replay is corrupt, and no part of it is
// taken for the game.
func (st State) Replay() (Replayed, error) {
	r := Replayed{Game: engine.Game{Start: chess.NewPosition()}, Position: chess.NewPosition()}
	var u chess.Undo
	for i, s := range st.Moves {
		m, err := r.Position.ParseUCI(s)
		if err != nil {
			return Replayed{}, fmt.Errorf("stored move %d (%q): %w", i+1, s, illegal{err})
		}
		r.SANs = append(r.SANs, r.Position.SAN(m))
		r.Game.Moves = append(r.Game.Moves, m)
		r.Position.MakeMove(m, &u)
	}
	return r, nil
}

// Clocks are both sides' times at at (on the clock Saved was read by):
// as stored, the side to move's counted down since Saved while its clock
// runs — from the first timed ply (clock.FirstTimedPly) until the game is
// over.
func (st State) Clocks(at time.Time, over bool) [2]time.Duration {
	c := st.clock(st.Saved, over)
	return [2]time.Duration{c.Remaining(chess.White, at), c.Remaining(chess.Black, at)}
}

// clock is the state's clock as stored, the side to move's running from
// since unless the game is over.
func (st State) clock(since time.Time, over bool) clock.Clock {
	c := clock.New(st.TimeControl.Base, st.TimeControl.Increment)
	for _, side := range []chess.Color{chess.White, chess.Black} {
		c.SetRemaining(side, st.Left[side], since)
		if st.Berserk[side] {
			c.DropIncrement(side)
		}
	}
	if !over {
		turn := chess.White
		if len(st.Moves)%2 == 1 {
			turn = chess.Black
		}
		c.Resume(turn, len(st.Moves), since)
	}
	return c
}

// Resume rebuilds a stored game in progress: its moves from the initial
// position (Replay), then the clocks as stored. The time between the
// store's last write and now (the server was down) is charged to nobody:
// the side to move's clock resumes from now with the time it had at
// st.Saved. A stored game that is over by its moves is returned over.
func Resume(st State, now time.Time) (*Game, error) {
	r, err := st.Replay()
	if err != nil {
		return nil, err
	}
	g := New(st.TimeControl, st.Started)
	g.pos, g.moves, g.sans = r.Position, r.Game.Moves, r.SANs
	g.left = make([]time.Duration, len(g.moves))
	if len(st.MoveClocks) == len(g.left) {
		copy(g.left, st.MoveClocks)
	}
	if res, over := referee.Judge(g.pos); over {
		g.result, g.over = res, true
	}
	g.clock = st.clock(now, g.over)
	g.berserk = st.Berserk
	g.turn = now
	if !g.over {
		g.offer, g.premove = st.Offers, st.Premoves
	}
	return g, nil
}
