package serve

import (
	"context"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/server/analysis"
	"github.com/squall-chess/squall/server/chat"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/presence"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
)

// PlayOptions configure the play of a server (StartPlay).
type PlayOptions struct {
	Store store.Options
	// Node names the server among those on one NATS (play.Config.Node);
	// Site names it in the archive.
	Node, Site string
	// NewEngine opens an engine: Squall's seats and the analysis pool's.
	NewEngine func() (engine.Analyzer, error)
	// Analysts is the analysis pool's engines (0: no analysis), each
	// position searched within AnalysisBudget.
	Analysts       int
	AnalysisBudget engine.Limits
	// Delay is how far behind the game spectators see it.
	Delay time.Duration
	// MaxReviews is how many finished games may be in review at once.
	MaxReviews int
	// Log hears of games ending and of errors; Stdout and Stderr of the
	// games resumed at the start.
	Log, Stdout, Stderr io.Writer
}

// stopper stops what a server started, last first.
type stopper []func()

func (s *stopper) add(f func()) { *s = append(*s, f) }

// goRun runs f in a goroutine of its own until the stopper stops it, and
// waits for it then.
func (s *stopper) goRun(f func(ctx context.Context)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); f(ctx) }()
	s.add(func() { cancel(); <-done })
}

func (s stopper) stop() {
	for i := len(s) - 1; i >= 0; i-- {
		s[i]()
	}
}

// StartPlay opens what games between people need — the store (games in
// progress resumed), the hub and its clock tick, Squall's seats, the
// lobby, presence, the spectators' analysis and chats — and returns them
// with the function that stops them all, in order. Every part runs as it
// does in `squall serve` (the tests start servers with it).
func StartPlay(ctx context.Context, o PlayOptions) (_ *Play, _ func(), err error) {
	st, err := store.Open(ctx, o.Store)
	if err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	var stops stopper
	defer func() {
		if err != nil {
			stops.stop()
		}
	}()
	stops.add(func() { st.Close() })
	logf := log.New(o.Log, "", log.LstdFlags).Printf // as the connection log
	hub, err := play.NewHub(ctx, st, play.Config{Node: o.Node, Site: o.Site})
	if err != nil {
		return nil, nil, err
	}
	hub.OnEnd(func(e play.Ended, p play.Players) {
		logf("game %s: %s vs %s: %s", e.ID, termtext.SafeLine(p.White), termtext.SafeLine(p.Black), e.Result)
	})
	// Squall's seats follow their games: taken again here with every game
	// this server takes over (after a restart, or from a server that died).
	seats := play.NewSeats(hub, o.NewEngine, func(err error) { logf("seat: %v", err) })
	stops.add(seats.Close)
	hub.OnHost(func(id string, p play.Players) {
		logf("game %s: %s vs %s: taken over here", id, termtext.SafeLine(p.White), termtext.SafeLine(p.Black))
		if err := seats.Follow(id, p); err != nil {
			logf("seat: %v", err)
		}
	})
	if n, err := hub.Restore(ctx); err != nil {
		fmt.Fprintf(o.Stderr, "squall serve: %v\n", err)
	} else if n > 0 {
		fmt.Fprintf(o.Stdout, "squall serve: resumed %d games in progress\n", n)
	}
	stops.goRun(func(ctx context.Context) {
		hub.Run(ctx, 100*time.Millisecond, func(_ *play.Ended, err error) {
			if err != nil { // the ends themselves are logged by OnEnd
				logf("game store: %v", err)
			}
		})
	})
	lb, err := lobby.New(ctx, hub, st, nil, uint64(time.Now().UnixNano()))
	if err != nil {
		return nil, nil, err
	}
	stops.goRun(func(ctx context.Context) { lb.Run(ctx, func(err error) { logf("lobby: %v", err) }) })
	pres, err := presence.New(ctx, st, hub.Node(), nil)
	if err != nil {
		return nil, nil, err
	}
	stops.goRun(func(ctx context.Context) { pres.Run(ctx, func(err error) { logf("%v", err) }) })
	for _, g := range hub.Games() { // nobody is connected yet: the grace runs from the restart
		pres.Away(g.Players.White)
		pres.Away(g.Players.Black)
	}
	chats, err := chat.NewRooms(st.Conn(), st) // kept in the store: a crash loses no line or mute
	if err != nil {
		return nil, nil, err
	}
	stops.add(chats.Close)
	stops.goRun(func(ctx context.Context) { // a game's chat ends with it, wherever it was hosted
		for tk := time.NewTicker(30 * time.Second); ; {
			select {
			case <-ctx.Done():
				tk.Stop()
				return
			case <-tk.C:
			}
			var ids []string
			for _, g := range hub.Games() {
				ids = append(ids, g.ID)
			}
			chats.Keep(ids)
		}
	})
	pool, err := analysisPool(o, &stops)
	if err != nil {
		return nil, nil, err
	}
	var spectators Analysis // none with --analysts 0
	if pool != nil {
		relay := analysis.NewRelay(pool, st.Conn(), hub.Hosts)
		stops.goRun(func(ctx context.Context) {
			if err := relay.Run(ctx); err != nil {
				logf("analysis: %v", err)
			}
		})
		spectators = relay
	}
	return &Play{
		Store: st, Hub: hub, Lobby: lb,
		Analysis: spectators, Delay: o.Delay, Chats: chats, Seats: seats, Presence: pres,
		NewEngine: o.NewEngine, Reviews: make(chan struct{}, max(o.MaxReviews, 0)),
	}, stops.stop, nil
}

// analysisPool starts the spectators' analysis: o.Analysts engines, each
// watched position searched within o.AnalysisBudget; stops ends the
// pool's goroutines and closes its engines. Nil with no analysts.
func analysisPool(o PlayOptions, stops *stopper) (*analysis.Pool, error) {
	var engines []engine.Analyzer
	stops.add(func() {
		for _, a := range engines {
			a.Close()
		}
	})
	for range max(o.Analysts, 0) {
		a, err := o.NewEngine()
		if err != nil {
			return nil, fmt.Errorf("analysis pool: %w", err)
		}
		engines = append(engines, a)
	}
	if len(engines) == 0 {
		return nil, nil
	}
	pool := analysis.New(engines, o.AnalysisBudget)
	stops.goRun(pool.Run)
	return pool, nil
}
