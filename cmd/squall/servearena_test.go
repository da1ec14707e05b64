package main

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/store/storetest"
)

// TestServeArena (issue 37, acceptance 1): an arena of 16 scripted
// players at 1+0, held by servers started as `squall serve --arena
// NAME 1+0 LENGTH --arena-start TIME` starts them, on a three-node NATS
// cluster: once on one server, and once on two with the one pairing the
// arena (and so hosting its games) stopped halfway, while games are in
// progress: its players go on through the other, which takes the games
// and the pairing over.
// The players play through the hub as the cluster load test's do, each
// game ending as a plan drawn from its id says (Black mates at ply 46,
// a resignation, or a draw agreed, at a ply drawn too; a third of the
// games with a berserk), so that the results, streaks, quick draws and
// berserk points vary. Afterwards the log is replayed
// and every pairing wave checked against the rule (arena.Verify), the
// standings are recomputed from the archive's games alone (arena.Check:
// points, fire, sheets, order, no immediate rematch, no player in two
// games), every decided game is archived, every wave's game finished,
// and a server started afresh on the store has the same standings.
//
// By default only the arena on two servers, for a minute (the test then
// takes about 75 s); both, for the 10 minutes each, with
// SQUALL_ARENA_LOAD=10m go test ./cmd/squall -run ServeArena -v -timeout 30m.
func TestServeArena(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a NATS cluster and plays two arenas of several minutes")
	}
	length, both := time.Minute, false
	if s := os.Getenv("SQUALL_ARENA_LOAD"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d%time.Minute != 0 || d < time.Minute {
			t.Fatalf("SQUALL_ARENA_LOAD=%q: want whole minutes, e.g. 10m", s)
		}
		length, both = d, true
	}
	if both {
		t.Run("one server", func(t *testing.T) { runArena(t, "Acceptance One", length, 1) })
	}
	t.Run("two servers, one stopped halfway", func(t *testing.T) { runArena(t, "Acceptance Two", length, 2) })
}

// arenaStats gathers what the players saw.
type arenaStats struct {
	mu       sync.Mutex
	problems []string
	retried  int
	// sent is when each game's plies were sent, by game id and ply;
	// toOpponent how long each took from then to the opponent's screen.
	sent       map[string]map[int]time.Time
	toOpponent []time.Duration
}

// sending notes that ply of game id is being sent now.
func (st *arenaStats) sending(id string, ply int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.sent[id] == nil {
		st.sent[id] = map[int]time.Time{}
	}
	st.sent[id][ply] = time.Now()
}

// arrived notes that plies from+1 to to of game id, the opponent's of
// them, reached a player's screen at.
func (st *arenaStats) arrived(id string, from, to, side int, at time.Time) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for ply := from + 1; ply <= to; ply++ {
		if sent, ok := st.sent[id][ply]; ok && (ply-1)%2 != side {
			st.toOpponent = append(st.toOpponent, at.Sub(sent))
		}
	}
}

func (st *arenaStats) problem(format string, args ...any) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.problems = append(st.problems, fmt.Sprintf(format, args...))
}

// runArena holds one arena named name on n servers (the first stopped
// halfway when there are two) and checks it.
func runArena(t *testing.T, name string, length time.Duration, n int) {
	_, urls := storetest.Cluster(t, 3)
	storetest.Open(t, urls, 3) // the cluster has elected its JetStream leader
	start := time.Now().Add(5 * time.Second).Truncate(time.Second)
	open := func(node string, i int) *server.Server {
		o := serveOptions{threads: 1, hash: 16, natsURL: strings.Join(append(urls[i:], urls[:i]...), ","), replicas: 3, node: node,
			arena: fmt.Sprintf("%s 1+0 %s", name, lengthWords(length)), arenaStart: start.UTC().Format(time.RFC3339)}
		if err := o.check(); err != nil {
			t.Fatal(err)
		}
		o.ssh.Log, o.ssh.Listen, o.ssh.HostKeyPath = io.Discard, "127.0.0.1:0", filepath.Join(t.TempDir(), "host")
		srv, err := newServer(context.Background(), o, true, t.Output(), t.Output())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Shutdown(context.Background(), "test over") })
		return srv
	}
	var servers []*server.Server
	for i := range n {
		servers = append(servers, open(string(rune('a'+i)), i))
	}
	def, err := servers[0].Games.Arenas.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var mu sync.Mutex
	alive := servers
	home := func(i int) *server.Games { // the server player i connects to now
		mu.Lock()
		defer mu.Unlock()
		return alive[i%len(alive)].Games
	}
	const players = 16
	st, wait := startArenaPlayers(t, def, players, home)
	var stopped time.Time
	hostedThere := 0
	if n == 2 {
		time.Sleep(time.Until(def.Start.Add(def.Length / 2)))
		// The server pairing the arena (which hosts its games) is
		// stopped while its games are some way in.
		host := ""
		storetest.Eventually(t, "games of the arena some way in", func(context.Context) error {
			hostedThere, host = 0, ""
			for _, g := range servers[1].Games.Hub.Games() {
				if g.Arena == def.ID && len(g.Game.Moves) >= 6 {
					hostedThere++
					host = g.Host
				}
			}
			if hostedThere == 0 {
				return errors.New("none")
			}
			return nil
		})
		stop, keep := servers[0], servers[1]
		if host == "b" {
			stop, keep = keep, stop
		}
		stopped = time.Now()
		stopCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		stop.Shutdown(stopCtx, "stopped halfway")
		cancel()
		mu.Lock()
		alive = []*server.Server{keep}
		mu.Unlock()
		t.Logf("server %s, which paired the arena, stopped at %v into it, hosting %d of its games", host, time.Since(def.Start).Round(time.Second), hostedThere)
	}
	wait()
	res := checkArena(t, def, home(0), st)
	wavesAfter := 0
	for _, e := range res.log {
		if e.Kind == arena.Pair && !stopped.IsZero() && e.At.After(stopped) {
			wavesAfter++
		}
	}
	if n == 2 && wavesAfter == 0 {
		t.Error("no wave after the pairing server stopped: the other server did not take the pairing over")
	}
	// A server started afresh on the store replays the same standings.
	fresh := open("fresh", 0)
	again, err := fresh.Games.Arenas.State(def.ID)
	if err != nil || !reflect.DeepEqual(again.Standings, res.state.Standings) {
		t.Errorf("a fresh server's standings differ (%v):\n%+v\n%+v", err, again.Standings, res.state.Standings)
	}
	res.report(t, players, n, st)
	if n == 2 {
		t.Logf("after it stopped: %d waves paired by the other server", wavesAfter)
	}
	t.Logf("a fresh server's standings are the same")
}

// startArenaPlayers joins players scripted players (p00, p01, …) to arena
// def, player i through the server home(i) gives it at the time, and
// starts them playing (playArena); wait returns once every one has left,
// after the arena's end.
func startArenaPlayers(t *testing.T, def arena.Definition, players int, home func(i int) *server.Games) (st *arenaStats, wait func()) {
	for i := range players {
		if err := home(i).Arenas.Join(context.Background(), def.ID, fmt.Sprintf("p%02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	st = &arenaStats{sent: map[string]map[int]time.Time{}}
	var wg sync.WaitGroup
	for i := range players {
		wg.Go(func() { playArena(fmt.Sprintf("p%02d", i), func() *server.Games { return home(i) }, def.End(), st) })
	}
	return st, wg.Wait
}

// arenaResult is an arena checked once its players have left.
type arenaResult struct {
	state                              play.ArenaState
	log                                []arena.Event
	games                              []arena.Game
	waves, aborted, berserks, archived int
}

// checkArena waits for arena def's games to finish on g, reports the
// players' problems, and checks the arena: its log replayed makes every
// wave by the rule and the server's standings (arena.Verify), the
// archive's games alone make the standings too (arena.Check), and every
// pairing's game finished, the decided ones archived.
func checkArena(t *testing.T, def arena.Definition, g *server.Games, st *arenaStats) arenaResult {
	t.Helper()
	ctx := context.Background()
	storetest.Eventually(t, "every game of the arena finished", func(context.Context) error {
		s, err := g.Arenas.State(def.ID)
		if err == nil && len(s.Playing) > 0 {
			return fmt.Errorf("%d games in progress", len(s.Playing))
		}
		return err
	})
	for _, p := range st.problems {
		t.Error(p)
	}
	var r arenaResult
	var err error
	if r.state, err = g.Arenas.State(def.ID); err != nil {
		t.Fatal(err)
	}
	if r.log, err = g.Arenas.Log(ctx, def.ID); err != nil {
		t.Fatal(err)
	}
	verified, err := arena.Verify(def, r.log)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if !reflect.DeepEqual(verified, r.state.Standings) {
		t.Errorf("the log replayed makes other standings than the server's:\n%+v\n%+v", verified, r.state.Standings)
	}
	if r.games, err = g.Arenas.Games(ctx, def.ID, func(string) { r.archived++ }); err != nil {
		t.Fatal(err)
	}
	if err := arena.Check(def, r.games, r.state.Standings); err != nil {
		t.Errorf("Check against the archive: %v", err)
	}
	paired := 0
	for _, e := range r.log {
		switch e.Kind {
		case arena.Berserk:
			r.berserks++
		case arena.Pair:
			r.waves++
			paired += len(e.Pairs)
		}
	}
	decided := 0
	for _, g := range r.games {
		if g.Result == "*" {
			r.aborted++
		} else {
			decided++
		}
	}
	if len(r.games) != paired || r.archived != decided {
		t.Errorf("%d games paired, %d finished; %d decided, %d archived", paired, len(r.games), decided, r.archived)
	}
	return r
}

// report logs the checked arena: its games, the checks passed, its moves'
// latency, the top of the standings.
func (r arenaResult) report(t *testing.T, players, servers int, st *arenaStats) {
	t.Helper()
	def := r.state.Def
	t.Logf("%s, %v, %d players on %d servers: %d waves, %d games (%d aborted, %d berserks), %d events; moves tried again while a game moved: %d",
		def.Name, def.Length, players, servers, r.waves, len(r.games), r.aborted, r.berserks, len(r.log), st.retried)
	t.Logf("Verify: every wave is the rule's; Check: the archive's %d games make the standings", len(r.games))
	t.Logf("arena player → opponent's screen: p50 %v, p99 %v (%d moves)", percentile(st.toOpponent, 0.5), percentile(st.toOpponent, 0.99), len(st.toOpponent))
	for _, s := range r.state.Standings[:min(5, len(r.state.Standings))] {
		t.Logf("%3d. %-4s %3d  %-16s +%d =%d -%d fire %v", s.Rank, s.Handle, s.Score, s.Sheet, s.Wins, s.Draws, s.Losses, s.Fire)
	}
}

// lengthWords writes whole minutes as --arena takes them.
func lengthWords(d time.Duration) string { return fmt.Sprintf("%dm", int(d/time.Minute)) }

// arenaPlan is how a game of the test ends, drawn from its id so that
// both players know it: Black mates (the script's 46 plies), a side
// resigns, or a draw is agreed, at ply at or after.
type arenaPlan struct {
	kind    string // "mate", "resign", "draw"
	side    int    // the resigner
	at      int
	berserk int // the side that berserks before its first move; -1 none
}

func planOf(id string) arenaPlan {
	h := fnv.New64a()
	h.Write([]byte(id))
	r := h.Sum64()
	at := 4 + int(r/8%40)
	berserk := -1
	if b := int(r >> 20 % 6); b < 2 { // a third of the games, either side
		berserk = b
	}
	switch r % 8 {
	case 2, 3:
		return arenaPlan{"resign", 1, at, berserk}
	case 4:
		return arenaPlan{"resign", 0, at, berserk}
	case 5, 6:
		return arenaPlan{"draw", 0, at, berserk}
	}
	return arenaPlan{"mate", 0, len(loadScript), berserk}
}

// playArena is one player: whenever the arena gives them a game (on the
// server they connect to now), they play it as its plan says, a move a
// tenth to a quarter of a second after their turn comes; after the end,
// once no game is theirs, they leave.
func playArena(handle string, home func() *server.Games, end time.Time, st *arenaStats) {
	done := map[string]bool{}
	rng := rand.New(rand.NewPCG(fnv64(handle), 0))
	for time.Now().Before(end.Add(2 * time.Minute)) {
		g := home()
		id, ok := g.Hub.GameOf(handle)
		if !ok || done[id] {
			if !ok && time.Now().After(end) {
				return
			}
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if playArenaGame(g, home, id, handle, rng, st) {
			done[id] = true
		}
	}
	st.problem("%s: still playing two minutes after the end", handle)
}

func fnv64(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// playArenaGame plays game id for handle on g until it ends (true), or
// its updates stop coming for a few seconds (false: the server went; the
// player looks for the game again).
func playArenaGame(g *server.Games, home func() *server.Games, id, handle string, rng *rand.Rand, st *arenaStats) bool {
	ctx := context.Background()
	updates, stop, err := g.Hub.Watch(id)
	if err != nil {
		return false
	}
	defer stop()
	plan := planOf(id)
	last, seen := -1, -1 // the last ply moved, and the plies on the screen (-1: none yet)
	for {
		var u play.Update
		var ok bool
		select {
		case u, ok = <-updates:
		case <-time.After(3 * time.Second):
			return false
		}
		if !ok {
			return false
		}
		side := 0
		if u.Black == handle {
			side = 1
		}
		ply := len(u.Game.Moves)
		if seen >= 0 && ply > seen { // plies before the first update were sent before this screen came
			st.arrived(id, seen, ply, side, time.Now())
		}
		seen = max(seen, ply)
		if u.Over() {
			return true
		}
		if ply%2 != side || ply <= last {
			continue
		}
		last = ply
		time.Sleep(100*time.Millisecond + time.Duration(rng.IntN(150))*time.Millisecond)
		if plan.berserk == side && ply == side {
			if _, err := g.Hub.Berserk(ctx, id, handle); err != nil && g == home() {
				st.problem("game %s: %s's berserk: %v", id, handle, err)
			}
		}
		st.sending(id, ply+1)
		act := func() error {
			switch {
			case plan.kind == "resign" && ply >= plan.at && side == plan.side:
				_, err := g.Hub.Resign(ctx, id, handle)
				return err
			case plan.kind == "draw" && ply >= plan.at:
				if e, err := g.Hub.OfferDraw(ctx, id, handle); err != nil || e != nil {
					return err
				}
			}
			_, err := g.Hub.Move(ctx, id, handle, loadScript[ply])
			return err
		}
		err := act()
		for try := 0; errors.Is(err, play.ErrNoHost) && try < 20; try++ {
			st.mu.Lock()
			st.retried++
			st.mu.Unlock()
			time.Sleep(300 * time.Millisecond)
			err = act()
		}
		if err != nil && g != home() {
			return false // the server went with the action: the player goes to another
		}
		if err != nil && !errors.Is(err, play.ErrNoGame) {
			st.problem("game %s: %s at ply %d: %v", id, handle, ply, err)
		}
	}
}
