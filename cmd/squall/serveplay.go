package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/server/analysis"
	"github.com/squall-chess/squall/server/chat"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/presence"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/tui"
	"github.com/squall-chess/squall/tui/serve"
	"github.com/squall-chess/squall/tui/termtext"
)

// defaultServeData keeps the server's store with Squall's data.
func defaultServeData() string {
	if d := tui.DataDir(); d != "" {
		return filepath.Join(d, "serve")
	}
	return "squall-serve"
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

// startPlay opens what games between people need — the store (games in
// progress resumed), the hub and its clock tick, Squall's seats, the
// lobby, presence, the spectators' analysis pool and chats — and returns
// them with the function that stops them all, in order.
func startPlay(ctx context.Context, o serveOptions, stdout, stderr io.Writer) (_ *serve.Play, _ func(), err error) {
	st, err := store.Open(ctx, store.Options{Dir: o.data, URL: o.natsURL, Replicas: o.replicas})
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
	logf := func(format string, args ...any) { fmt.Fprintf(o.cfg.Log, format+"\n", args...) }
	hub, err := play.NewHub(ctx, st, play.Config{Node: o.nodeName(), Site: "squall serve"})
	if err != nil {
		return nil, nil, err
	}
	hub.OnEnd(func(e play.Ended, p play.Players) {
		logf("game %s: %s vs %s: %s", e.ID, termtext.SafeLine(p.White), termtext.SafeLine(p.Black), e.Result)
	})
	// Squall's seats follow their games: taken again here with every game
	// this server takes over (after a restart, or from a server that died).
	seats := serve.NewSeats(hub, o.cfg.NewAnalyzer, func(err error) { logf("seat: %v", err) })
	stops.add(seats.Close)
	hub.OnHost(func(id string, p play.Players) {
		if err := seats.Follow(id, p); err != nil {
			logf("seat: %v", err)
		}
	})
	if n, err := hub.Restore(ctx); err != nil {
		fmt.Fprintf(stderr, "squall serve: %v\n", err)
	} else if n > 0 {
		fmt.Fprintf(stdout, "squall serve: resumed %d games in progress\n", n)
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
	chats, err := chat.NewRooms(st.Conn())
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
	return &serve.Play{
		Store: st, Hub: hub, Lobby: lb,
		Pool: pool, Delay: o.delay, Chats: chats, Seats: seats, Presence: pres,
		NewEngine: o.cfg.NewAnalyzer, Reviews: make(chan struct{}, max(o.maxReviews, 0)),
	}, stops.stop, nil
}

// nodeName is the server's name among a cluster's: --node, or "squall"
// alone with the embedded NATS, or host and --listen with --nats (unique
// per running server, and the same after a restart, when the server takes
// its games back at once).
func (o serveOptions) nodeName() string {
	switch {
	case o.node != "":
		return o.node
	case o.natsURL == "":
		return "squall"
	}
	host, err := os.Hostname()
	if err != nil {
		host = "squall"
	}
	return host + "-" + o.cfg.Listen
}

// analysisPool starts the spectators' analysis: o.analysts engines of the
// rooms' kind, each watched position searched to o.analysisNodes; stops
// ends the pool's goroutines and closes its engines. Nil with no analysts.
func analysisPool(o serveOptions, stops *stopper) (*analysis.Pool, error) {
	var engines []engine.Analyzer
	stops.add(func() {
		for _, a := range engines {
			a.Close()
		}
	})
	for range max(o.analysts, 0) {
		a, err := o.cfg.NewAnalyzer()
		if err != nil {
			return nil, fmt.Errorf("analysis pool: %w", err)
		}
		engines = append(engines, a)
	}
	if len(engines) == 0 {
		return nil, nil
	}
	pool := analysis.New(engines, engine.Limits{Nodes: o.analysisNodes, MultiPV: 2})
	stops.goRun(pool.Run)
	return pool, nil
}

// serveExportCommand writes the server's archive of finished games.
func serveExportCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export --pgn FILE",
		Short: "write every finished game of the server's archive to a PGN file",
		Long: "Writes the archive of finished games, in the order they ended, with [%clk] on every move.\n" +
			"Reads the embedded store of --data while the server is stopped, or a running server's NATS (--nats).",
		Args: argsBetween(0, 0, "no arguments"),
	}
	out := cmd.Flags().String("pgn", "", "PGN file to write (required)")
	force := cmd.Flags().Bool("force", false, "replace the file if it exists")
	data := cmd.Flags().String("data", defaultServeData(), "directory of the server's store")
	url := cmd.Flags().String("nats", "", "read the store from this NATS server instead")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if *out == "" {
			return usagef("want --pgn FILE")
		}
		if _, err := os.Stat(*out); err == nil && !*force {
			return fmt.Errorf("%s exists: pass --force to replace it", *out)
		}
		st, err := store.Open(cmd.Context(), store.Options{Dir: *data, URL: *url})
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		defer st.Close()
		f, err := atomicfile.Create(*out)
		if err != nil {
			return err
		}
		defer f.Discard()
		n, err := st.ExportPGN(cmd.Context(), f)
		if err != nil {
			return err
		}
		if err := f.Commit(); err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "%s: %d games\n", *out, n)
		return nil
	}
	return cmd
}
