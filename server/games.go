package server

import (
	"context"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/server/analysis"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/chat"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/presence"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
)

// Games are the services of games between people, as the screens use
// them (`ssh -t host play`, `watch`): the store of accounts and games, the
// lobby, the hub, Squall's seats and the rest. Nil on a server of rooms
// alone.
type Games struct {
	Store *store.Store
	Lobby *lobby.Lobby
	Hub   *play.Hub
	// Arenas are the arena tournaments, kept in the store and paired by
	// one server of the cluster.
	Arenas *play.Arenas
	// Analysis analyses the games spectators watch (`ssh -t host
	// watch`); nil: spectators see no analysis.
	Analysis Analysis
	// Delay is how far behind the game spectators see it (a broadcast
	// delay, so that no one relays the analysis to a player in time).
	Delay time.Duration
	// Chats are the games' chats (nil: no chat).
	Chats *chat.Rooms
	// Seats let a player sit against Squall from the lobby (nil: not
	// offered).
	Seats *play.Seats
	// Presence knows who is connected, for claims against a player who
	// left (nil: no claims).
	Presence *presence.Presence
	// NewEngine opens the engine of a finished game's review (nil: no
	// review); the session closes it when the review ends.
	NewEngine func() (engine.Analyzer, error)
	// Reviews bounds the reviews running at once: each holds a slot of
	// the channel while open (nil: no review).
	Reviews chan struct{}
}

// Analysis is the spectators' analysis: each screen watches its game's
// results and asks for the position it shows (an analysis.Relay on a
// server, which asks the game's host; a lone analysis.Pool in tests).
type Analysis interface {
	Watch(id string) (<-chan analysis.Result, func())
	Analyse(id string, g engine.Game)
}

// GamesOptions configure the games of a server (Options.Games).
type GamesOptions struct {
	Store store.Options
	// Node names the server among those on one NATS (play.Config.Node);
	// Site names it in the archive.
	Node, Site string
	// NewEngine opens an engine: Squall's seats, the analysis pool's and
	// the reviews'.
	NewEngine func() (engine.Analyzer, error)
	// Analysts is the analysis pool's engines (0: no analysis), each
	// position searched within AnalysisBudget.
	Analysts       int
	AnalysisBudget engine.Limits
	// Delay is how far behind the game spectators see it.
	Delay time.Duration
	// MaxReviews is how many finished games may be in review at once.
	MaxReviews int
	// Arena, if not nil, is the arena this server schedules (squall serve
	// --arena): made at the start unless the store has it (Arenas.Ensure).
	Arena *ArenaSchedule
	// Stdout and Stderr hear of the games resumed at the start.
	Stdout, Stderr io.Writer
}

// ArenaSchedule is an arena a server is started with: its spec and its
// start (zero: the next whole minute, or the one of that spec under way).
type ArenaSchedule struct {
	Spec  arena.Spec
	Start time.Time
}

// openGames opens what games between people need — the store (games in
// progress resumed), the hub and its clock tick, Squall's seats, the
// arenas, the lobby, presence, the spectators' analysis and chats — with their
// goroutines in s's group and what they hold closed with s (atClose). logw is the
// server's log, which hears of games ending and of errors.
func (s *Server) openGames(ctx context.Context, o GamesOptions, logw io.Writer) (*Games, error) {
	st, err := store.Open(ctx, o.Store)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s.atClose(func() { st.Close() })
	logf := log.New(logw, "", log.LstdFlags).Printf // as the connection log
	hub, err := play.NewHub(ctx, st, play.Config{Node: o.Node, Site: o.Site})
	if err != nil {
		return nil, err
	}
	hub.OnEnd(func(e play.Ended, p play.Players) {
		logf("game %s: %s vs %s: %s", e.ID, termtext.SafeLine(p.White), termtext.SafeLine(p.Black), e.Result)
	})
	// Squall's seats follow their games: taken again here with every game
	// this server takes over (after a restart, or from a server that died).
	seats := play.NewSeats(hub, o.NewEngine, func(err error) { logf("seat: %v", err) })
	s.atClose(seats.Close)
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
	s.run(func(ctx context.Context) {
		hub.Run(ctx, 100*time.Millisecond, func(_ *play.Ended, err error) {
			if err != nil { // the ends themselves are logged by OnEnd
				logf("game store: %v", err)
			}
		})
	})
	arenas, err := play.NewArenas(ctx, hub)
	if err != nil {
		return nil, err
	}
	if o.Arena != nil {
		def, err := arenas.Ensure(ctx, o.Arena.Spec, o.Arena.Start)
		if err != nil {
			return nil, fmt.Errorf("arena: %w", err)
		}
		fmt.Fprintf(o.Stdout, "squall serve: arena %q (%s, %v) starts %s; ssh host arena %s\n",
			def.Name, def.Control, def.Length, def.Start.UTC().Format("2006-01-02 15:04 UTC"), def.ID)
	}
	s.run(func(ctx context.Context) {
		arenas.Run(ctx, 250*time.Millisecond, func(err error) { logf("arenas: %v", err) })
	})
	lb, err := lobby.New(ctx, hub, st, nil, uint64(time.Now().UnixNano()))
	if err != nil {
		return nil, err
	}
	s.run(func(ctx context.Context) { lb.Run(ctx, func(err error) { logf("lobby: %v", err) }) })
	pres, err := presence.New(ctx, st, hub.Node(), nil)
	if err != nil {
		return nil, err
	}
	s.run(func(ctx context.Context) { pres.Run(ctx, func(err error) { logf("%v", err) }) })
	for _, g := range hub.Games() { // nobody is connected yet: the grace runs from the restart
		pres.Away(g.Players.White)
		pres.Away(g.Players.Black)
	}
	chats, err := chat.NewRooms(st.Conn(), st) // kept in the store: a crash loses no line or mute
	if err != nil {
		return nil, err
	}
	s.atClose(chats.Close)
	s.run(func(ctx context.Context) { // a game's chat ends with it, wherever it was hosted
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
	pool, err := s.analysisPool(o)
	if err != nil {
		return nil, err
	}
	var spectators Analysis // none with --analysts 0
	if pool != nil {
		relay := analysis.NewRelay(pool, st.Conn(), hub.Hosts)
		s.run(func(ctx context.Context) {
			if err := relay.Run(ctx); err != nil {
				logf("analysis: %v", err)
			}
		})
		spectators = relay
	}
	return &Games{
		Store: st, Hub: hub, Lobby: lb, Arenas: arenas,
		Analysis: spectators, Delay: o.Delay, Chats: chats, Seats: seats, Presence: pres,
		NewEngine: o.NewEngine, Reviews: make(chan struct{}, max(o.MaxReviews, 0)),
	}, nil
}

// analysisPool starts the spectators' analysis: o.Analysts engines, each
// watched position searched within o.AnalysisBudget, closed with the
// server. Nil with no analysts.
func (s *Server) analysisPool(o GamesOptions) (*analysis.Pool, error) {
	var engines []engine.Analyzer
	s.atClose(func() {
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
	s.run(pool.Run)
	return pool, nil
}
