package tune

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/match"
	"github.com/squall-chess/squall/engine/spec"
)

// SPSAMatch plays an SPSA iteration's games in process with the built-in
// engine, through match: Pairs openings, each played twice with colours
// swapped, between the engine set to θ+ and to θ−.
type SPSAMatch struct {
	State    *SPSAState        // the parameters' names
	Openings []*chess.Position // drawn at random for each iteration
	Pairs    int
	// Nodes bounds every move (deterministic and the same on any
	// machine); TC, when set, is the clock instead or as well.
	Nodes uint64
	TC    clock.TimeControl
	// Concurrency is the number of games played at once.
	Concurrency int
	// Hash is each engine's table in MB: small, the searches are.
	Hash int
	// MaxPlies adjudicates a long game a draw (0 = never).
	MaxPlies int
}

// Play implements SPSAGames.
func (m SPSAMatch) Play(ctx context.Context, p Perturbation) (wins, draws, losses int, err error) {
	rng := rand.New(rand.NewPCG(p.Seed, spsaSeed))
	openings := make([]*chess.Position, m.Pairs)
	for i := range openings {
		openings[i] = m.Openings[rng.IntN(len(m.Openings))]
	}
	cfg := match.Config{
		Players:     [2]match.Player{m.player("plus", p.Plus), m.player("minus", p.Minus)},
		Openings:    openings,
		Games:       2 * m.Pairs,
		TC:          m.TC,
		Margin:      spsaMargin,
		Nodes:       m.Nodes,
		MaxPlies:    m.MaxPlies,
		Concurrency: m.Concurrency,
	}
	rep, err := match.Run(ctx, cfg)
	if err != nil {
		return 0, 0, 0, err
	}
	if rep.Stats.Games != cfg.Games {
		return 0, 0, 0, fmt.Errorf("%d of %d games played", rep.Stats.Games, cfg.Games)
	}
	return rep.Wins, rep.Draws, rep.Losses, nil
}

// spsaMargin forgives a busy machine's overruns of a small clock, as
// squall match's default --margin does.
const spsaMargin = 50 * time.Millisecond

// player is the built-in engine with the state's parameters at values.
func (m SPSAMatch) player(name string, values []float64) match.Player {
	s := spec.Spec{Command: spec.Builtin}
	for i, q := range m.State.Params {
		s.Options = append(s.Options, spec.Option{Name: q.Name, Value: strconv.Itoa(roundValue(values[i]))})
	}
	return match.Player{Name: name, New: func() (engine.Analyzer, error) {
		return s.Open(context.Background(), spec.Option{Name: "Hash", Value: strconv.Itoa(max(m.Hash, 1))}, spec.Option{Name: "Threads", Value: "1"})
	}}
}
