package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/spec"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui"
	"github.com/squall-chess/squall/tui/serve"
)

// shutdownGrace is how long a stopping server waits for sessions to end.
const shutdownGrace = 30 * time.Second

// serveCommand shares live analysis over SSH until SIGINT or SIGTERM.
// ready, if not nil, is called with the bound address once connections
// are accepted (tests listen on port 0).
func serveCommand(ready func(net.Addr)) *cobra.Command {
	var o serveOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve Squall over SSH: play people, watch their games, share live analysis",
		Long: "Serves rooms of live analysis over SSH until SIGINT or SIGTERM.\n" +
			"`ssh -p PORT host` opens the home screen: play, watch games, analysis rooms, leaderboard, profiles, help;\n" +
			"each is also a command (`ssh -t -p PORT host play`, `watch`, `rooms`, `room NAME`, `leaderboard`),\n" +
			"`ssh -p PORT host pgn ID > game.pgn` or `games HANDLE` print finished games, and `profile HANDLE`\n" +
			"a player's ratings and results (`help` lists them).",
		// An argument can only be a misspelt subcommand (serve exprot).
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return nil
		},
	}
	o.register(cmd.Flags())
	cmd.Flags().StringVar(&o.data, "data", defaultServeData(), "the server's store, a directory `DIR` (the embedded NATS JetStream: accounts, ratings, games)")
	cmd.Flags().StringVar(&o.natsURL, "nats", "", "keep the store in the NATS server `URLS` (nats://host:4222, or several, comma-separated) instead of the embedded one")
	cmd.Flags().StringVar(&o.node, "node", "", "this server's `NAME` among the servers on one NATS (default: squall alone, HOST-LISTEN with --nats); unique per running server")
	cmd.Flags().IntVar(&o.replicas, "nats-replicas", 0, "how many NATS servers, `N`, keep each bucket (3 on a three-node cluster: any one may die); 0 leaves them as they are, 1 when new")
	cmd.Flags().IntVar(&o.analysts, "analysts", max(runtime.NumCPU()-1, 1), "`N` engines analysing the games spectators watch (a pool shared by every game)")
	cmd.Flags().Uint64Var(&o.analysisNodes, "analysis-nodes", 2_000_000, "`N` nodes a watched position is analysed to before it is left alone")
	o.delay = play.AutoDelay
	cmd.Flags().Var((*spectatorDelay)(&o.delay), "spectator-delay", "how far behind the game spectators see it and its analysis, `DELAY`: auto (casual games live, rated ones a tenth of base + 40 × increment, 15s to 3m) or a duration for every game (0: live)")
	cmd.Flags().StringVar(&o.arena, "arena", "", "an arena tournament to hold, `\"NAME CONTROL LENGTH\"` (\"Hourly Blitz 3+0 30m\"): made unless the store has it")
	cmd.Flags().StringVar(&o.arenaStart, "arena-start", "", "when --arena starts, `TIME`: RFC 3339 (2026-11-27T18:00:00Z) or HH:MM UTC, the next such time (default: the next whole minute, or the one of that spec under way)")
	cmd.Flags().IntVar(&o.maxReviews, "max-reviews", 2, "`N` finished games in review at once (each runs an engine)")
	cmd.AddCommand(serveExportCommand())
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := o.check(); err != nil {
			return err
		}
		if o.replicas > 1 && o.natsURL == "" {
			return usagef("--nats-replicas %d needs --nats: the embedded NATS server is one node", o.replicas)
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return serveUntil(ctx, stop, o, cmd.OutOrStdout(), cmd.ErrOrStderr(), ready)
	}
	return cmd
}

// serveOptions are the flags of `squall serve`.
type serveOptions struct {
	ssh sshd.Config
	// The rooms: their engine (set by check) and how many analyse at once.
	newAnalyzer room.AnalyzerFactory
	maxEngines  int
	// publicAddr is how players reach the server (serve.Config.PublicAddr).
	publicAddr string
	room       string
	fen        string
	threads    int
	hash       int
	engine     spec.Flags
	// engineNice, when not 0, runs every engine as a process of its own
	// (Squall's as selfUCI) at this nice value: analysis must never starve
	// play (issue 37).
	engineNice int
	data       string // the store's directory ("": none, as a broadcast has)
	natsURL    string
	node       string
	replicas   int
	// The spectators' analysis pool: its engines, each position's budget,
	// and the delay behind the game (play.AutoDelay: play.SpectatorDelay's
	// rule).
	analysts      int
	analysisNodes uint64
	delay         time.Duration
	maxReviews    int
	// arena is --arena and --arena-start, read by check into schedule.
	arena, arenaStart string
	schedule          *server.ArenaSchedule
}

// register defines serve's flags on fs, into o.
func (o *serveOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.ssh.Listen, "listen", "127.0.0.1:2222", "the address `ADDR` to listen on")
	fs.StringVar(&o.ssh.Listen, "addr", "127.0.0.1:2222", "the address `ADDR`, as --listen")
	fs.StringVar(&o.ssh.HostKeyPath, "host-key", defaultHostKey(), "ed25519 host key `FILE` (generated, mode 0600, if missing)")
	fs.StringVar(&o.ssh.OwnersFile, "owners", "", "the owners (who may move, load and analyse): an authorized_keys `FILE`")
	fs.StringVar(&o.ssh.OwnersFile, "owner-keys", "", "the owners' authorized_keys `FILE`, as --owners")
	fs.BoolVar(&o.ssh.Private, "private", false, "refuse everyone who is not an owner")
	fs.IntVar(&o.ssh.MaxSessions, "max-sessions", 64, "at most `N` SSH sessions at once")
	fs.IntVar(&o.ssh.MaxSessionsPerAddr, "max-sessions-per-addr", 8, "at most `N` SSH sessions open at once from one client address")
	fs.Float64Var(&o.ssh.RatePerIP, "rate", 1, "`N` new connections per second allowed from one address (after the burst)")
	fs.IntVar(&o.ssh.RateBurst, "rate-burst", 10, "`N` connections one address may open at once before --rate applies")
	fs.StringSliceVar(&o.ssh.ProxyFrom, "proxy-from", nil, "load balancers in front, `ADDRS` (addresses or CIDRs, comma-separated): their connections must begin with a PROXY protocol header giving the client's address")
	fs.IntVar(&o.maxEngines, "max-engines", 2, "at most `N` analysing rooms (each runs one engine)")
	fs.StringVar(&o.publicAddr, "public-addr", "", "how players reach the server, `HOST[:PORT]`, for the commands the screens show (ssh -p PORT HOST pgn ID); default: the address each connection came in on")
	fs.StringVar(&o.room, "room", "main", "the `ROOM` opened at start, analysing (empty: none)")
	fs.StringVar(&o.fen, "fen", "", "the position `FEN` of the opening room (default: the start position)")
	fs.IntVar(&o.threads, "threads", 1, "`N` search threads per room's engine")
	fs.IntVar(&o.hash, "hash", 64, "hash table per room's engine, in `MB`")
	o.engine.Register(fs, "the rooms' engine (default squall)")
	fs.IntVar(&o.engineNice, "engine-nice", 19, "the nice value `N` (1–19) of every engine the server runs — the rooms', the spectators' analysis, Squall's seats, the reviews — each a process of its own, so that no search delays a move on its way to the players (Unix); 0: in the server's process, at its priority")
}

// spectatorDelay is --spectator-delay: "auto" (play.AutoDelay: the rule of
// play.SpectatorDelay) or one duration for every game.
type spectatorDelay time.Duration

func (d *spectatorDelay) String() string {
	if time.Duration(*d) == play.AutoDelay {
		return "auto"
	}
	return time.Duration(*d).String()
}

func (d *spectatorDelay) Set(s string) error {
	if strings.TrimSpace(s) == "auto" {
		*d = spectatorDelay(play.AutoDelay)
		return nil
	}
	return (*durationValue)(d).Set(s)
}

// Type names the value in a usage line.
func (d *spectatorDelay) Type() string { return "auto|DURATION" }

// parseServeFlags reads serve's flags from args: the broadcast of the
// board (--broadcast-X is serve's --X) starts its server with them.
func parseServeFlags(args []string) (serveOptions, error) {
	var o serveOptions
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.register(fs)
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return o, o.check()
}

// check validates the flags and opens the engine once, so that a command
// that does not start or an option it refuses stops the server at its
// start, not each room later; it sets newAnalyzer.
func (o *serveOptions) check() error {
	if o.threads < 1 || o.hash < 1 {
		return fmt.Errorf("--threads %d --hash %d: both must be at least 1", o.threads, o.hash)
	}
	if o.fen != "" {
		if _, err := chess.ParseFEN(o.fen); err != nil {
			return fmt.Errorf("--fen: %w", err)
		}
		if o.room == "" {
			return errors.New("--fen needs a room to show it in (--room)")
		}
	}
	if err := o.checkArena(time.Now()); err != nil {
		return err
	}
	sp, err := o.engine.Spec(spec.Builtin)
	if err != nil {
		return err
	}
	if o.engineNice < 0 || o.engineNice > 19 {
		return fmt.Errorf("--engine-nice %d: want 0 (in process) to 19", o.engineNice)
	}
	if o.engineNice > 0 {
		if sp.IsBuiltin() {
			if sp.Command, err = selfUCI(); err != nil {
				return err
			}
		}
		sp.Nice = o.engineNice
	}
	defaults := append(spec.Int("Threads", o.threads), spec.Int("Hash", o.hash)...)
	a, err := sp.Open(context.Background(), defaults...)
	if err != nil {
		return err
	}
	a.Close()
	o.newAnalyzer = func() (engine.Analyzer, error) { return sp.Open(context.Background(), defaults...) }
	return nil
}

// checkArena reads --arena and --arena-start into o.schedule, now being
// the time an HH:MM start is the next of.
func (o *serveOptions) checkArena(now time.Time) error {
	if o.arena == "" {
		if o.arenaStart != "" {
			return errors.New("--arena-start needs --arena")
		}
		return nil
	}
	sp, err := arena.ParseSpec(o.arena)
	if err != nil {
		return fmt.Errorf("--arena: %w", err)
	}
	o.schedule = &server.ArenaSchedule{Spec: sp}
	if o.arenaStart == "" {
		return nil
	}
	if t, err := time.Parse(time.RFC3339, o.arenaStart); err == nil {
		o.schedule.Start = t
		return nil
	}
	hm, err := time.Parse("15:04", o.arenaStart)
	if err != nil {
		return fmt.Errorf("--arena-start %q: want RFC 3339 (2026-11-27T18:00:00Z) or HH:MM (UTC)", termtext.SafeLine(o.arenaStart))
	}
	now = now.UTC()
	start := time.Date(now.Year(), now.Month(), now.Day(), hm.Hour(), hm.Minute(), 0, 0, time.UTC)
	if !start.After(now) {
		start = start.AddDate(0, 0, 1)
	}
	o.schedule.Start = start
	return nil
}

// defaultHostKey keeps the key with Squall's data, not in whatever
// directory the server happens to start from.
func defaultHostKey() string {
	if d := tui.DataDir(); d != "" {
		return filepath.Join(d, "host_ed25519")
	}
	return "squall_host_ed25519"
}

// serveUntil runs the server until ctx ends, then shuts it down telling
// viewers why. ready, if not nil, is called with the bound address once
// connections are accepted (tests listen on port 0). onStop is called when
// shutdown begins, so that a second Ctrl-C kills the process at once.
func serveUntil(ctx context.Context, onStop func(), o serveOptions, stdout, stderr io.Writer, ready func(net.Addr)) error {
	if o.ssh.Log == nil {
		o.ssh.Log = stderr
	}
	srv, err := newServer(ctx, o, true, stdout, stderr)
	if err != nil {
		return err
	}
	if o.room != "" {
		if err := openRoom(srv.Rooms, o.room, o.fen); err != nil {
			srv.Shutdown(context.Background(), "startup failed")
			return err
		}
	}
	srv.Accept()
	addr := srv.Addr()
	fmt.Fprintf(stdout, "squall serve: listening on %s; connect with: %s (play: %s)\n", addr, sshCommand(addr, ""), strings.Replace(sshCommand(addr, ""), "ssh ", "ssh -t ", 1)+" play")
	if ready != nil {
		ready(addr)
	}

	select {
	case <-srv.Failed():
		// A part stopped on its own (the listener broke): stop the rest.
		return fmt.Errorf("serve: %w", srv.Shutdown(context.Background(), "server error"))
	case <-ctx.Done():
	}
	if onStop != nil {
		onStop()
	}
	fmt.Fprintln(stdout, "squall serve: shutting down (up to 30 s; press Ctrl-C again to force)")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx, "the server is stopping"); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// newServer assembles the server of serve's flags (server.New): the rooms,
// the games when games is set (a broadcast has none) and the SSH server
// running the screens (tui/serve), its address bound.
func newServer(ctx context.Context, o serveOptions, games bool, stdout, stderr io.Writer) (*server.Server, error) {
	opt := server.Options{
		SSH: o.ssh, NewAnalyzer: o.newAnalyzer, MaxEngines: o.maxEngines,
		Screens: func(rooms *room.Rooms, g *server.Games) sshd.Handler {
			return serve.NewScreens(serve.Config{Rooms: rooms, Games: g, PublicAddr: o.publicAddr})
		},
	}
	if games {
		opt.Games = &server.GamesOptions{
			Store: store.Options{Dir: o.data, URL: o.natsURL, Replicas: o.replicas}, Node: o.nodeName(), Site: "squall serve",
			NewEngine: o.newAnalyzer, Analysts: o.analysts, AnalysisBudget: engine.Limits{Nodes: o.analysisNodes, MultiPV: 2},
			Delay: o.delay, MaxReviews: o.maxReviews, Stdout: stdout, Stderr: stderr, Arena: o.schedule,
		}
	}
	return server.New(ctx, opt)
}

// broadcastServer is an SSH server run inside another command (the TUI's
// --broadcast) whose one room mirrors that command's game.
type broadcastServer struct {
	Broadcast *room.Broadcast // publish the game here
	Addr      net.Addr
	srv       *server.Server
}

// startBroadcast starts an SSH server in this process, configured by
// `squall serve`'s flags in args (--listen, --host-key, --owners,
// --private, --max-sessions, --max-engines, --threads, --hash; --room and
// --fen do not apply: the broadcast room is the only room opened), and
// opens the read-only broadcast room name on it. log receives the
// connection log (nil: discarded; a TUI must not let it reach its screen).
// The caller publishes to Broadcast and calls Stop when done.
func startBroadcast(name string, args []string, log io.Writer) (*broadcastServer, error) {
	o, err := parseServeFlags(args)
	if err != nil {
		return nil, fmt.Errorf("broadcast: %w", err)
	}
	o.ssh.Log = log
	if log == nil {
		o.ssh.Log = io.Discard
	}
	srv, err := newServer(context.Background(), o, false, io.Discard, io.Discard)
	if err != nil {
		return nil, fmt.Errorf("broadcast: %w", err)
	}
	b, err := srv.Rooms.Broadcast(name)
	if err != nil {
		srv.Shutdown(context.Background(), "startup failed")
		return nil, err
	}
	srv.Accept()
	return &broadcastServer{Broadcast: b, Addr: srv.Addr(), srv: srv}, nil
}

// WatchCommand is the ssh command that joins the broadcast.
func (s *broadcastServer) WatchCommand() string {
	return sshCommand(s.Addr, s.Broadcast.Room().Name())
}

// Stop shuts the server down with the broadcast, telling viewers the
// broadcaster has quit (waiting up to shutdownGrace for their sessions).
func (s *broadcastServer) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := s.srv.Shutdown(ctx, "the broadcaster has quit"); err != nil {
		return fmt.Errorf("broadcast: %w", err)
	}
	return nil
}

// sshCommand is how a viewer connects to addr: the room list, or room if
// not empty.
func sshCommand(addr net.Addr, room string) string {
	port := "PORT"
	if ta, ok := addr.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
	}
	if room == "" {
		return fmt.Sprintf("ssh -p %s %s", port, shownHost(addr))
	}
	return fmt.Sprintf("ssh -t -p %s %s room %s", port, shownHost(addr), room)
}

// openRoom creates the room shown at start and sets it analysing, so that
// the first viewer sees a live engine without an owner having to act.
func openRoom(rooms *room.Rooms, name, fen string) error {
	r, err := rooms.Create(name)
	if err != nil {
		return err
	}
	if fen != "" {
		if err := r.LoadFEN(fen); err != nil {
			return err
		}
	}
	return r.StartAnalysis()
}

// shownHost is the host a viewer is told to connect to, for the address
// the server listens on: localhost for a loopback address, HOST (for the
// user to fill in) when it listens on every interface.
func shownHost(a net.Addr) string {
	host, _, err := net.SplitHostPort(a.String())
	if err != nil || host == "" || host == "::" || host == "0.0.0.0" {
		return "HOST"
	}
	if host == "127.0.0.1" || host == "::1" {
		return "localhost"
	}
	return host
}
