package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/game"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/store/storetest"
)

// loadScript is the game every pair of the load test plays, again and
// again: 46 plies, Black mates.
var loadScript = strings.Fields(`b1a3 d7d6 b2b3 h7h5 e2e4 c7c5 g2g3 h8h6 f1g2 e8d7 e1f1 f7f6 d1e1 d7e8
	h2h3 c8h3 g3g4 h3g2 f1e2 g2h1 e1f1 h5g4 g1h3 g4h3 f2f4 h1e4 d2d3 e4d3 e2f2 d3f1 a3b1 h6h4
	c2c4 f1c4 f2g1 c4b3 c1d2 b3a2 a1a2 h4f4 a2a5 d8a5 b1a3 a5d2 g1h1 f4f1`)

// screen is what one player's or spectator's screen saw of a game: when
// each ply first reached it, and the moves, which may only grow.
type screen struct {
	mu     sync.Mutex
	seen   map[int]time.Time
	moves  []string
	over   bool
	desync string
}

// follow draws game id's updates on s until the game ends or stop; each
// update goes to onUpdate too (a player's turn, a spectator's request for
// analysis).
func follow(updates <-chan play.Update, s *screen, onUpdate func(play.Update)) {
	for u := range updates {
		now := time.Now()
		s.mu.Lock()
		for ply := len(s.moves) + 1; ply <= len(u.Game.Moves); ply++ {
			if _, ok := s.seen[ply]; !ok {
				s.seen[ply] = now
			}
		}
		if len(u.Game.Moves) < len(s.moves) || !slices.Equal(u.Game.Moves[:len(s.moves)], s.moves) {
			s.desync = fmt.Sprintf("moves %v after %v", u.Game.Moves, s.moves)
		}
		s.moves, s.over = u.Game.Moves, u.Over()
		s.mu.Unlock()
		if onUpdate != nil {
			onUpdate(u)
		}
	}
}

// loadStats gathers the test's measurements.
type loadStats struct {
	mu                  sync.Mutex
	toOpponent, toWatch []time.Duration
	games, plies        int
	problems            []string
	retried             atomic.Int64 // moves tried again while their game changed servers
	// The spectators' analysis as their panels received it: reports with
	// lines, and the positions whose search finished (Done).
	reports, finished atomic.Int64
}

// takeovers counts the servers' log lines of games taken over (passing
// them on to w): under load without failures there should be none.
type takeovers struct {
	w io.Writer
	n atomic.Int64
}

func (c *takeovers) Write(p []byte) (int, error) {
	c.n.Add(int64(bytes.Count(p, []byte("taken over here"))))
	return c.w.Write(p)
}

func (st *loadStats) problem(format string, args ...any) {
	st.mu.Lock()
	st.problems = append(st.problems, fmt.Sprintf(format, args...))
	st.mu.Unlock()
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[min(len(d)-1, int(p*float64(len(d))))]
}

// TestServeClusterLoad (issue 22, acceptance 4): two servers on a
// three-node NATS cluster, each started as squall serve starts it (its
// analysis pool at the default: one fewer engine than the cores, Squall's
// own, 2,000,000 nodes a position). Pairs of scripted players meet in the
// lobby across the servers (the seek on one, the acceptance on the other,
// so each server hosts half the games) and play the script, a move every
// ~0.5 s, game after game; four spectators a game, two on each server,
// ask for the analysis of every position they see, as their screens do.
// No move may be lost or duplicated, no two screens of a game may
// disagree, and once everyone has left the goroutines are back to what
// they were. The latencies (player → opponent's screen, player →
// spectator's screen) and the CPU are logged.
//
// By default 4 games for 20 s; the load — 50 games (100 players),
// 200 spectators, 5 minutes — with SQUALL_CLUSTER_LOAD=50x5m go test
// ./cmd/squall -run ClusterLoad -v (GAMESxDURATION). SQUALL_CLUSTER_ANALYSTS
// sets each server's analysis engines (default serve's; 0 measures the
// serving alone), SQUALL_CLUSTER_NICE their nice value (default serve's,
// 19, each engine a child process; 0 runs them in the test's process, as
// before issue 37). SQUALL_CLUSTER_ARENA=PLAYERS holds an arena at 1+0 on
// both servers at the same time (issue 37, acceptance 4), as long as the
// load rounded up to whole minutes, played by TestServeArena's players, SSH
// clients (startArenaPlayers), and checked as it checks its arenas
// (checkArena); its moves' latencies are logged apart, and with the pairs'.
func TestServeClusterLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a NATS cluster and two servers")
	}
	pairs, dur := 4, 20*time.Second
	if s := os.Getenv("SQUALL_CLUSTER_LOAD"); s != "" {
		n, d, ok := strings.Cut(s, "x")
		var err error
		if _, err = fmt.Sscan(n, &pairs); err == nil && ok {
			dur, err = time.ParseDuration(d)
		}
		if err != nil || !ok || pairs < 1 {
			t.Fatalf("SQUALL_CLUSTER_LOAD=%q: want GAMESxDURATION, e.g. 50x5m", s)
		}
	}
	analysts := max(runtime.NumCPU()-1, 1) // serve's default
	if s := os.Getenv("SQUALL_CLUSTER_ANALYSTS"); s != "" {
		if _, err := fmt.Sscan(s, &analysts); err != nil || analysts < 0 {
			t.Fatalf("SQUALL_CLUSTER_ANALYSTS=%q: want a number of engines, 0 for no analysis", s)
		}
	}
	nice := 19 // serve's default: each engine a process of its own at nice 19
	if s := os.Getenv("SQUALL_CLUSTER_NICE"); s != "" {
		if _, err := fmt.Sscan(s, &nice); err != nil {
			t.Fatalf("SQUALL_CLUSTER_NICE=%q: want 0 (engines in process) to 19", s)
		}
	}
	arenaPlayers := 0
	if s := os.Getenv("SQUALL_CLUSTER_ARENA"); s != "" {
		if _, err := fmt.Sscan(s, &arenaPlayers); err != nil || arenaPlayers < 2 {
			t.Fatalf("SQUALL_CLUSTER_ARENA=%q: want a number of arena players, at least 2", s)
		}
	}
	_, urls := storetest.Cluster(t, 3)
	storetest.Open(t, urls, 3) // the cluster has elected its JetStream leader
	var servers [2]*server.Games
	var addrs []net.Addr // their SSH addresses, for the arena's players
	moved := &takeovers{w: t.Output()}
	arenaStart := time.Now().Add(5 * time.Second).Truncate(time.Second)
	for i, node := range []string{"a", "b"} {
		o := serveOptions{threads: 1, hash: 16, natsURL: strings.Join(append(urls[i:], urls[:i]...), ","), replicas: 3, node: node,
			analysts: analysts, analysisNodes: 2_000_000, engineNice: nice}
		if arenaPlayers > 0 {
			o.arena = "Load Arena 1+0 " + lengthWords((dur + time.Minute - 1).Truncate(time.Minute))
			o.arenaStart = arenaStart.UTC().Format(time.RFC3339)
		}
		if err := o.check(); err != nil {
			t.Fatal(err)
		}
		o.ssh.Log, o.ssh.Listen, o.ssh.HostKeyPath = moved, "127.0.0.1:0", filepath.Join(t.TempDir(), "host")
		// The arena's players connect from one address: the per-address
		// cap (8) and rate (1/s) would refuse most of them.
		o.ssh.MaxSessions, o.ssh.MaxSessionsPerAddr, o.ssh.RatePerIP, o.ssh.RateBurst = 64+arenaPlayers, 64+arenaPlayers, 100, 100
		srv, err := newServer(context.Background(), o, true, io.Discard, t.Output())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Shutdown(context.Background(), "test over") })
		srv.Accept()
		servers[i] = srv.Games
		addrs = append(addrs, srv.Addr())
	}
	time.Sleep(time.Second)
	runtime.GC()
	baseline := runtime.NumGoroutine()
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	started := time.Now()
	deadline := started.Add(dur)

	engineCPU := childrenCPU()
	st := &loadStats{}
	var def arena.Definition
	var arenaSt *arenaStats
	waitArena := func() {}
	if arenaPlayers > 0 {
		var err error
		if def, err = servers[0].Arenas.Find("Load Arena"); err != nil {
			t.Fatal(err)
		}
		arenaSt, waitArena = startArenaPlayers(arenaPlayers, func() []net.Addr { return addrs }, def.End())
	}
	var wg sync.WaitGroup
	for pair := range pairs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 0; time.Now().Before(deadline); round++ {
				if !playLoadGame(t, servers, pair, round, st) {
					return
				}
			}
		}()
	}
	wg.Wait()
	pairsDone := time.Since(started)
	waitArena()
	elapsed := time.Since(started)
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano()+after.Stime.Nano()-before.Utime.Nano()-before.Stime.Nano()) * time.Nanosecond
	engineCPU = childrenCPU() - engineCPU

	for _, p := range st.problems {
		t.Error(p)
	}
	t.Logf("%d games (%d plies) in %v by %d pairs, %d spectators", st.games, st.plies, elapsed.Round(time.Second), pairs, 4*pairs)
	t.Logf("player → opponent's screen: p50 %v, p99 %v (%d moves)", percentile(st.toOpponent, 0.5), percentile(st.toOpponent, 0.99), len(st.toOpponent))
	t.Logf("player → spectator's screen: p50 %v, p99 %v (%d)", percentile(st.toWatch, 0.5), percentile(st.toWatch, 0.99), len(st.toWatch))
	gameMinutes := pairsDone.Minutes() * float64(pairs) // the pairs play without a break
	if arenaPlayers > 0 {
		res := checkArena(t, def, servers[0], arenaSt)
		res.report(t, arenaPlayers, 2, arenaSt)
		arenaMinutes := 0.0
		for _, g := range res.games {
			arenaMinutes += g.End.Sub(g.Start).Minutes()
		}
		gameMinutes += arenaMinutes
		all := append(slices.Clone(st.toOpponent), arenaSt.toOpponent...)
		t.Logf("the arena's games: %.1f game-minutes; all the moves, the pairs' and the arena's → opponent's screen: p50 %v, p99 %v (%d)",
			arenaMinutes, percentile(all, 0.5), percentile(all, 0.99), len(all))
	}
	t.Logf("analysis: %d reports with lines reached the spectators' panels, %d positions searched to the end; the engines' own processes used %v of CPU (%.2f cores)",
		st.reports.Load(), st.finished.Load(), engineCPU.Round(time.Millisecond), engineCPU.Seconds()/elapsed.Seconds())
	t.Logf("CPU of the process (both servers with %d analysis engines each at nice %d — a child's CPU not counted —, three NATS nodes, the scripted clients): %v in %v, %.2f cores; %.1f ms a game-minute of play (%.0f game-minutes)",
		analysts, nice, cpu.Round(time.Millisecond), elapsed.Round(time.Second), cpu.Seconds()/elapsed.Seconds(), float64(cpu.Milliseconds())/gameMinutes, gameMinutes)
	if st.games < pairs {
		t.Errorf("%d games finished, want at least %d", st.games, pairs)
	}
	var now int
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		runtime.GC()
		if now = runtime.NumGoroutine(); now <= baseline {
			break
		}
		if time.Now().After(end) {
			t.Errorf("goroutines: %d after everyone left, %d before anyone came", now, baseline)
			break
		}
	}
	t.Logf("games taken over by the other server: %d; moves tried again meanwhile: %d", moved.n.Load(), st.retried.Load())
	t.Logf("goroutines: %d before anyone came, %d after everyone left", baseline, now)
}

// playLoadGame plays one game of pair on the servers: White seeks on one
// server, Black accepts on the other; both play the script; four
// spectators watch. It reports the game into st, and whether to go on.
func playLoadGame(t *testing.T, servers [2]*server.Games, pair, round int, st *loadStats) bool {
	ctx := context.Background()
	white, black := fmt.Sprintf("w%d", pair), fmt.Sprintf("b%d", pair)
	ws, bs := servers[pair%2], servers[1-pair%2]
	if _, err := ws.Lobby.Seek(ctx, lobby.Seek{Handle: white, TC: game.TimeControl{Base: 5 * time.Minute, Increment: 3 * time.Second}, Color: lobby.White, Rated: true}); err != nil {
		st.problem("pair %d: seek: %v", pair, err)
		return false
	}
	var id string
	for until := time.Now().Add(10 * time.Second); id == ""; time.Sleep(20 * time.Millisecond) {
		for _, s := range bs.Lobby.Seeks(black) {
			if s.Handle == white {
				var err error
				id, _, err = bs.Lobby.Accept(ctx, black, s.ID)
				if errors.Is(err, lobby.ErrNoSeek) {
					continue // an older seek still listed here a moment: the next look has the new one
				}
				if err != nil {
					st.problem("pair %d: accept: %v", pair, err)
					return false
				}
				break
			}
		}
		if time.Now().After(until) {
			st.problem("pair %d: the seek never reached the other server", pair)
			return false
		}
	}
	// Every screen waits for the game on its server, then follows it.
	watchOn := func(p *server.Games) <-chan play.Update {
		for until := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if u, stop, err := p.Hub.Watch(id); err == nil {
				_ = stop // the channel closes with the game's end
				return u
			}
			if time.Now().After(until) {
				return nil
			}
		}
	}
	sent := make([]time.Time, len(loadScript)+1) // by ply, when its move was sent
	var sentMu sync.Mutex
	var screens []*screen
	var wg sync.WaitGroup
	rng := rand.New(rand.NewPCG(uint64(pair), uint64(round)))
	var rngMu sync.Mutex
	for side, p := range []*server.Games{ws, bs} {
		s := &screen{seen: map[int]time.Time{}}
		screens = append(screens, s)
		updates := watchOn(p)
		if updates == nil {
			st.problem("pair %d: game %s never reached %s's server", pair, id, []string{white, black}[side])
			return false
		}
		handle := []string{white, black}[side]
		moves := make(chan int, 1)
		wg.Add(2)
		go func() {
			defer wg.Done()
			defer close(moves)
			follow(updates, s, func(u play.Update) {
				if n := len(u.Game.Moves); !u.Over() && n%2 == side {
					select {
					case moves <- n:
					default:
					}
				}
			})
		}()
		go func() { // the player: a move about half a second after its turn comes
			defer wg.Done()
			last := -1
			for ply := range moves {
				if ply <= last {
					// The same turn again: a clock update, or the game
					// published anew by a server taking it over. A person
					// moves once a turn, and so does the script.
					continue
				}
				last = ply
				rngMu.Lock()
				think := 400*time.Millisecond + time.Duration(rng.IntN(200))*time.Millisecond
				rngMu.Unlock()
				time.Sleep(think)
				sentMu.Lock()
				sent[ply+1] = time.Now()
				sentMu.Unlock()
				_, err := p.Hub.Move(ctx, id, handle, loadScript[ply])
				for try := 0; errors.Is(err, play.ErrNoHost) && try < 5; try++ {
					st.retried.Add(1) // the game changing servers: a person tries again
					time.Sleep(500 * time.Millisecond)
					_, err = p.Hub.Move(ctx, id, handle, loadScript[ply])
				}
				if err != nil {
					st.problem("game %s: %s's ply %d %s: %v", id, handle, ply+1, loadScript[ply], err)
				}
			}
		}()
	}
	for i := range 4 { // two spectators on each server
		p := servers[i%2]
		s := &screen{seen: map[int]time.Time{}}
		screens = append(screens, s)
		updates := watchOn(p)
		if updates == nil {
			st.problem("game %s never reached a spectator's server", id)
			return false
		}
		if p.Analysis == nil { // no analysis (SQUALL_CLUSTER_ANALYSTS=0)
			wg.Go(func() { follow(updates, s, func(play.Update) {}) })
			continue
		}
		results, stopAnalysis := p.Analysis.Watch(id)
		wg.Add(2)
		go func() {
			defer wg.Done()
			defer stopAnalysis()
			follow(updates, s, func(u play.Update) {
				if !u.Over() {
					p.Analysis.Analyse(id, u.Replayed.Game)
				}
			})
		}()
		go func() { // the analysis panel
			defer wg.Done()
			for r := range results {
				if len(r.Lines) > 0 {
					st.reports.Add(1)
					if r.Done {
						st.finished.Add(1)
					}
				}
			}
		}()
	}
	wg.Wait()
	// Every screen saw the whole game, each ply once, in order.
	st.mu.Lock()
	defer st.mu.Unlock()
	st.games++
	st.plies += len(loadScript)
	for i, s := range screens {
		if s.desync != "" || !s.over || !slices.Equal(s.moves, loadScript) {
			st.problems = append(st.problems, fmt.Sprintf("game %s, screen %d: over %v, desync %q, saw %d plies", id, i, s.over, s.desync, len(s.moves)))
			continue
		}
		for ply := 1; ply <= len(loadScript); ply++ {
			mover := (ply - 1) % 2
			d := s.seen[ply].Sub(sent[ply])
			switch {
			case i == mover: // the mover's own screen
			case i < 2:
				st.toOpponent = append(st.toOpponent, d)
			default:
				st.toWatch = append(st.toWatch, d)
			}
		}
	}
	return true
}

// childrenCPU is the CPU time used so far by this process's children (the
// servers' engines at --engine-nice, which RUSAGE_SELF leaves out and
// RUSAGE_CHILDREN counts only once they are waited for), read from /proc
// (utime and stime, fields 14 and 15, in the kernel's 100 ticks a second);
// 0 where there is no /proc.
func childrenCPU() time.Duration {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks int64
	for _, f := range stats {
		fields := procStat(f)
		if len(fields) < 13 || fields[4-3] != strconv.Itoa(os.Getpid()) {
			continue
		}
		u, _ := strconv.ParseInt(fields[14-3], 10, 64)
		k, _ := strconv.ParseInt(fields[15-3], 10, 64)
		ticks += u + k
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
