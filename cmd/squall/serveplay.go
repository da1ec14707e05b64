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

// startPlay opens what games between people need — the store (games in
// progress resumed), the hub and its clock tick, the spectators' analysis
// pool, Squall's seats, presence, chats and the lobby — and returns them
// with the function that stops them all, in order.
func startPlay(ctx context.Context, o serveOptions, stdout, stderr io.Writer) (*serve.Play, func(), error) {
	st, err := store.Open(ctx, store.Options{Dir: o.data, URL: o.natsURL, Replicas: o.replicas})
	if err != nil {
		return nil, nil, fmt.Errorf("store: %w", err)
	}
	var stops []func() // run last first
	stop := func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	stops = append(stops, func() { st.Close() })
	hub, err := play.NewHub(ctx, st, play.Config{Node: o.nodeName(), Site: "squall serve"})
	if err != nil {
		stop()
		return nil, nil, err
	}
	chats := chat.NewRooms()
	hub.OnEnd(func(e play.Ended, p play.Players) {
		chats.Forget(e.ID) // a game's chat ends with it
		fmt.Fprintf(o.cfg.Log, "game %s: %s vs %s: %s\n", e.ID, termtext.SafeLine(p.White), termtext.SafeLine(p.Black), e.Result)
	})
	// Squall's seats follow their games: taken again here with every game
	// this server takes over (after a restart, or from a server that died).
	seats := serve.NewSeats(hub, o.cfg.NewAnalyzer, func(err error) { fmt.Fprintf(o.cfg.Log, "seat: %v\n", err) })
	stops = append(stops, seats.Close)
	hub.OnHost(func(id string, p play.Players) {
		if err := seats.Follow(id, p); err != nil {
			fmt.Fprintf(o.cfg.Log, "seat: %v\n", err)
		}
	})
	if n, err := hub.Restore(ctx); err != nil {
		fmt.Fprintf(stderr, "squall serve: %v\n", err)
	} else if n > 0 {
		fmt.Fprintf(stdout, "squall serve: resumed %d games in progress\n", n)
	}
	hubCtx, stopHub := context.WithCancel(context.Background())
	hubDone := make(chan struct{})
	go func() {
		defer close(hubDone)
		hub.Run(hubCtx, 100*time.Millisecond, func(_ *play.Ended, err error) {
			if err != nil { // the ends themselves are logged by OnEnd
				fmt.Fprintf(o.cfg.Log, "game store: %v\n", err)
			}
		})
	}()
	stops = append(stops, func() { stopHub(); <-hubDone })
	pool, stopPool, err := analysisPool(o)
	if err != nil {
		stop()
		return nil, nil, err
	}
	stops = append(stops, stopPool)
	presence := serve.NewPresence(nil)
	for _, g := range hub.Games() { // nobody is connected yet: the grace runs from the restart
		presence.Away(g.Players.White)
		presence.Away(g.Players.Black)
	}
	return &serve.Play{
		Store: st, Hub: hub, Lobby: lobby.New(hub, nil, uint64(time.Now().UnixNano())),
		Pool: pool, Delay: o.delay, Chats: chats, Seats: seats, Presence: presence,
		NewEngine: o.cfg.NewAnalyzer, Reviews: make(chan struct{}, max(o.maxReviews, 0)),
	}, stop, nil
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
// rooms' kind, each watched position searched to o.analysisNodes. stop
// ends the pool's goroutines and closes its engines.
func analysisPool(o serveOptions) (*analysis.Pool, func(), error) {
	var engines []engine.Analyzer
	closeAll := func() {
		for _, a := range engines {
			a.Close()
		}
	}
	for range max(o.analysts, 0) {
		a, err := o.cfg.NewAnalyzer()
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("analysis pool: %w", err)
		}
		engines = append(engines, a)
	}
	if len(engines) == 0 {
		return nil, func() {}, nil
	}
	pool := analysis.New(engines, engine.Limits{Nodes: o.analysisNodes, MultiPV: 2})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { pool.Run(ctx); close(done) }()
	return pool, func() { cancel(); <-done; closeAll() }, nil
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
