package play

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/store"
)

// stepArena runs one of Run's steps on arena id now.
func stepArena(t *testing.T, s *Arenas, id string) {
	t.Helper()
	r, err := s.run(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.step(context.Background(), r); err != nil {
		t.Fatal(err)
	}
}

// arenaGames are the arena's games in progress on the hub, by player.
func arenaGames(h *Hub, id string) map[string]store.GameRecord {
	out := map[string]store.GameRecord{}
	for _, g := range h.Games() {
		if g.Arena == id {
			out[g.White], out[g.Black] = g, g
		}
	}
	return out
}

// TestArenaOnHub: an arena kept in the store pairs its players on the hub
// as rated games of the arena, writes each game's end into its log as the
// game's record has it, and pairs the players again; after a restart the
// standings are the log's, the server pairs on, and the checkers agree
// with the archive.
func TestArenaOnHub(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)
	clk := &fakeClock{now: t0.Add(-time.Minute)}
	dir := t.TempDir()
	h, st := newHub(t, dir, clk)
	s, err := NewArenas(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	def := arena.Definition{ID: "hourly-1", Name: "Hourly Bullet", Start: t0, Length: 10 * time.Minute,
		Control: arena.Definition{}.Control}
	def.Control.Base = time.Minute
	if err := s.Create(ctx, def); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ann", "bob", "cy", "dee"} {
		if err := s.Join(ctx, def.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Join(ctx, def.ID, "ann"); err == nil {
		t.Fatal("ann joined twice")
	}
	stepArena(t, s, def.ID)
	if g := arenaGames(h, def.ID); len(g) != 0 {
		t.Fatalf("paired before the start: %v", g)
	}
	clk.Advance(time.Minute)
	stepArena(t, s, def.ID)
	games := arenaGames(h, def.ID)
	if len(games) != 4 {
		t.Fatalf("at the start %d players in games, want 4", len(games))
	}
	first := map[string]string{} // game id → its winner
	for _, g := range []store.GameRecord{games["ann"], games["cy"]} {
		if !g.Rated || g.ArenaName != def.Name {
			t.Fatalf("game %+v: want rated, of the arena", g.Players)
		}
		clk.Advance(2 * time.Second)
		for i, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
			if _, err := h.Move(ctx, g.ID, []string{g.White, g.Black}[i%2], m); err != nil {
				t.Fatal(err)
			}
		}
		first[g.ID] = g.Black
	}
	stepArena(t, s, def.ID)
	state, err := s.State(def.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range state.Standings[:2] {
		if x.Score != 2 || x.Wins != 1 {
			t.Fatalf("standings %+v: want both winners with 2", state.Standings)
		}
	}
	if g := arenaGames(h, def.ID); len(g) != 0 {
		t.Fatalf("paired again before the wait: %v", g)
	}
	for id := range first {
		text, ok, err := st.ArchivedGame(ctx, id)
		if err != nil || !ok || !strings.Contains(text, `[Event "Hourly Bullet Arena"]`) {
			t.Fatalf("archived %s: %v %v\n%s", id, ok, err, text)
		}
	}

	clk.Advance(arena.WaitBeforePairing(def.Control))
	stepArena(t, s, def.ID)
	again := arenaGames(h, def.ID)
	if len(again) != 4 {
		t.Fatalf("after the wait %d players in games, want 4", len(again))
	}
	for _, p := range []string{"ann", "cy"} {
		if g := again[p]; opponent(g, p) == opponent(games[p], p) {
			t.Fatalf("%s meets the same opponent again: %+v", p, g.Players)
		}
	}
	g := again["ann"]
	for i, m := range []string{"e2e4", "e7e5"} {
		if _, err := h.Move(ctx, g.ID, []string{g.White, g.Black}[i], m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.Resign(ctx, g.ID, "ann"); err != nil {
		t.Fatal(err)
	}
	before := state.Standings

	// A restart: the same server comes back, reads the arena and its log,
	// takes its lease back and writes the end it had not seen.
	s.release()
	st.Close()
	clk.Advance(5 * time.Second)
	h2, _ := newHub(t, dir, clk)
	if _, err := h2.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	s2, err := NewArenas(ctx, h2)
	if err != nil {
		t.Fatal(err)
	}
	mid, err := s2.State(def.ID)
	if err != nil || !reflect.DeepEqual(mid.Standings, mustState(t, s, def.ID).Standings) {
		t.Fatalf("after the restart %+v, %v", mid.Standings, err)
	}
	stepArena(t, s2, def.ID)
	after := mustState(t, s2, def.ID)
	if reflect.DeepEqual(after.Standings, before) || len(after.Playing) != 1 {
		t.Fatalf("the resigned game not counted after the restart: %+v playing %v", after.Standings, after.Playing)
	}

	log, err := s2.Log(ctx, def.ID)
	if err != nil {
		t.Fatal(err)
	}
	verified, err := arena.Verify(def, log)
	if err != nil || !reflect.DeepEqual(verified, after.Standings) {
		t.Fatalf("Verify: %v\n%+v\n%+v", err, verified, after.Standings)
	}
	var texts []string
	finished, err := s2.Games(ctx, def.ID, func(text string) { texts = append(texts, text) })
	if err != nil || len(finished) != 3 || len(texts) != 3 {
		t.Fatalf("games %+v, %d texts, %v", finished, len(texts), err)
	}
	if err := arena.Check(def, finished, after.Standings); err != nil {
		t.Fatal(err)
	}
}

// writeWave writes the wave due at into arena id's log, its first game
// named game — as the pairing server does, though this wave is not
// checked against the players in games elsewhere (busyElsewhere) — and,
// if begin, starts its games as the pairing server then does (begin).
func writeWave(t *testing.T, s *Arenas, id, game string, at time.Time, begin bool) {
	t.Helper()
	ctx := context.Background()
	r, err := s.run(id)
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	wave, err := s.write(ctx, r, func(a *arena.Arena) []arena.Event {
		p := a.Pair(at)
		p[0].Game = game
		return []arena.Event{{Kind: arena.Pair, At: at, Pairs: p}}
	})
	if err == nil && begin {
		err = s.begin(ctx, r, wave)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func opponent(g store.GameRecord, handle string) string {
	if g.White == handle {
		return g.Black
	}
	return g.White
}

func mustState(t *testing.T, s *Arenas, id string) ArenaState {
	t.Helper()
	st, err := s.State(id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestArenaMissingGame: a wave in the log whose games never began (its
// server died between writing the wave and starting them) ends as
// aborted MissingGame after its pairing, and its players are paired
// again.
func TestArenaMissingGame(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)
	clk := &fakeClock{now: t0}
	h, _ := newHub(t, t.TempDir(), clk)
	s, err := NewArenas(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	def := arena.Definition{ID: "a", Name: "Lost", Start: t0, Length: 10 * time.Minute}
	def.Control.Base = time.Minute
	if err := s.Create(ctx, def); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ann", "bob"} {
		if err := s.Join(ctx, def.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	writeWave(t, s, def.ID, "never-started", t0, false)
	clk.Advance(MissingGame - time.Second)
	stepArena(t, s, def.ID)
	if st := mustState(t, s, def.ID); len(st.Playing) != 1 {
		t.Fatalf("the game ended before MissingGame: %+v", st.Playing)
	}
	clk.Advance(time.Second)
	stepArena(t, s, def.ID)
	log, err := s.Log(ctx, def.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e := log[len(log)-1]; e.Kind != arena.Finish || e.Result != "*" || e.Game != "never-started" {
		t.Fatalf("last event %+v, want the missing game aborted", e)
	}
	clk.Advance(arena.WaitBeforePairing(def.Control))
	stepArena(t, s, def.ID)
	if g := arenaGames(h, def.ID); len(g) != 2 {
		t.Fatalf("not paired again (the duel of a small arena): %v", g)
	}
}

// berserkWin plays an arena game at 3+2 between ann and bob in which
// the berserker's side berserks (half its clock, checked) and wins in 14
// plies by the other's resignation; the arena has not seen its end yet.
func berserkWin(t *testing.T, berserker chess.Color) (*Hub, *store.Store, *Arenas, arena.Definition, store.GameRecord) {
	t.Helper()
	ctx := context.Background()
	t0 := time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)
	clk := &fakeClock{now: t0}
	def := arena.Definition{ID: "b", Name: "Berserk Blitz", Start: t0, Length: 30 * time.Minute, Control: blitz}
	h, st, s := arenaOn(t, clk, def, "ann", "bob")
	stepArena(t, s, def.ID)
	g := arenaGames(h, def.ID)["ann"]
	sides := g.Handles()
	if _, err := h.Berserk(ctx, g.ID, sides[berserker]); err != nil {
		t.Fatal(err)
	}
	u, err := h.Game(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !u.Game.Berserk[berserker] || u.Game.Left[berserker] != 90*time.Second || u.Game.Left[1-berserker] != 3*time.Minute {
		t.Fatalf("after %s's berserk: berserk %v, clocks %v", berserker.Name(), u.Game.Berserk, u.Game.Left)
	}
	for i, m := range strings.Fields("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8c5 c2c3 d7d6 b1d2 a7a6 h2h3 h7h6") {
		clk.Advance(time.Second)
		if _, err := h.Move(ctx, g.ID, sides[i%2], m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := h.Resign(ctx, g.ID, sides[1-berserker]); err != nil {
		t.Fatal(err)
	}
	return h, st, s, def, g
}

// TestArenaBerserk: an arena's player berserks before their first move —
// half the clock, no increment, stored with the game — and their win of
// 14 plies scores 3; a berserk outside an arena is refused.
func TestArenaBerserk(t *testing.T) {
	ctx := context.Background()
	h, _, s, def, g := berserkWin(t, chess.White)
	stepArena(t, s, def.ID)
	st := mustState(t, s, def.ID)
	if top := st.Standings[0]; top.Handle != g.White || top.Score != 3 || top.Berserks != 1 {
		t.Fatalf("standings %+v: want %s with 3, a berserk point", st.Standings, g.White)
	}
	games, err := s.Games(ctx, def.ID, nil)
	if err != nil || len(games) != 1 || !games[0].WhiteBerserk {
		t.Fatalf("games %+v, %v", games, err)
	}
	if err := arena.Check(def, games, st.Standings); err != nil {
		t.Fatal(err)
	}
	other, err := h.Start(ctx, "cy", "dee", blitz, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Berserk(ctx, other, "cy"); !errors.Is(err, ErrNotArena) {
		t.Fatalf("a berserk outside an arena: %v", err)
	}
}

// TestArenaBerserkFromArchive: a berserker's win that the pairing server
// finds only in the archive (the game's record dropped: its host died, or
// the record was swept before the arena saw the end) still scores its
// berserk point — the archived PGN says who berserked, as lichess's does
// ([WhiteBerserk "true"]) — and arena.Check, from the archive's games
// alone, makes the same standings.
func TestArenaBerserkFromArchive(t *testing.T) {
	ctx := context.Background()
	_, st, s, def, g := berserkWin(t, chess.Black)
	if err := st.DropGame(ctx, g.ID); err != nil { // only the archive has it now
		t.Fatal(err)
	}
	text, _, err := st.ArchivedGame(ctx, g.ID)
	if err != nil || !strings.Contains(text, `[BlackBerserk "true"]`) || strings.Contains(text, "WhiteBerserk") {
		t.Fatalf("archived, %v:\n%s", err, text)
	}
	stepArena(t, s, def.ID)
	standings := mustState(t, s, def.ID).Standings
	if top := standings[0]; top.Handle != g.Black || top.Score != 3 || top.Berserks != 1 {
		t.Fatalf("standings %+v: want %s with 3, a berserk point, from the archived game", standings, g.Black)
	}
	games, err := s.Games(ctx, def.ID, nil)
	if err != nil || len(games) != 1 || !games[0].BlackBerserk || games[0].WhiteBerserk {
		t.Fatalf("games %+v, %v: want Black's berserk", games, err)
	}
	if err := arena.Check(def, games, standings); err != nil {
		t.Fatal(err)
	}
}

// TestArenaNoStart: an arena's game cannot be aborted by its players; one
// aborted by its clock (White never moved) scores nothing, and White is
// paused, as lichess withdraws a player who does not start their game.
func TestArenaNoStart(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)
	clk := &fakeClock{now: t0}
	h, _ := newHub(t, t.TempDir(), clk)
	s, err := NewArenas(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	def := arena.Definition{ID: "n", Name: "No Start", Start: t0, Length: 30 * time.Minute}
	def.Control.Base = time.Minute
	if err := s.Create(ctx, def); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ann", "bob"} {
		if err := s.Join(ctx, def.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	stepArena(t, s, def.ID)
	g := arenaGames(h, def.ID)["ann"]
	if _, err := h.Abort(ctx, g.ID, g.Black); !errors.Is(err, ErrArenaAbort) {
		t.Fatalf("an abort in an arena: %v", err)
	}
	clk.Advance(time.Minute)
	if _, err := h.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	stepArena(t, s, def.ID)
	st := mustState(t, s, def.ID)
	for _, x := range st.Standings {
		if x.Score != 0 || x.Paused != (x.Handle == g.White) || x.Elsewhere {
			t.Fatalf("standings %+v: want nothing scored and %s (who never moved) paused, by their own doing", st.Standings, g.White)
		}
	}
}

// TestArenaPlayerBusyElsewhere: a player of an arena who begins a game
// outside it (the lobby's, or Squall's) is paused in the arena, as lichess
// pairs only the players waiting on the arena's page, and the others are
// paired at once: no pairing of theirs waits for a game that cannot start.
func TestArenaPlayerBusyElsewhere(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)
	clk := &fakeClock{now: t0}
	h, _ := newHub(t, t.TempDir(), clk)
	s, err := NewArenas(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	def := arena.Definition{ID: "b", Name: "Busy", Start: t0, Length: 30 * time.Minute}
	def.Control.Base = time.Minute
	if err := s.Create(ctx, def); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"ann", "bob", "cat", "dan"} {
		if err := s.Join(ctx, def.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	lobbyGame, err := h.Start(ctx, "ann", "eve", def.Control, false)
	if err != nil {
		t.Fatal(err)
	}
	stepArena(t, s, def.ID)
	games := arenaGames(h, def.ID)
	if _, paired := games["ann"]; paired {
		t.Fatalf("ann, playing %s outside the arena, was paired in it: %v", lobbyGame, games["ann"].ID)
	}
	if len(games) != 2 {
		t.Fatalf("the arena's games by player %v: want one pairing of bob, cat and dan started", games)
	}
	for _, x := range mustState(t, s, def.ID).Standings {
		if x.Paused != (x.Handle == "ann") || x.Elsewhere != x.Paused {
			t.Fatalf("standings %+v: want ann (in a lobby game) paused as she plays elsewhere, nobody else", mustState(t, s, def.ID).Standings)
		}
	}
}

// arenaOn is arena def on a hub of its own at clk's time, with the
// handles joined and no wave paired yet.
func arenaOn(t *testing.T, clk *fakeClock, def arena.Definition, handles ...string) (*Hub, *store.Store, *Arenas) {
	t.Helper()
	ctx := context.Background()
	h, st := newHub(t, t.TempDir(), clk)
	s, err := NewArenas(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, def); err != nil {
		t.Fatal(err)
	}
	for _, p := range handles {
		if err := s.Join(ctx, def.ID, p); err != nil {
			t.Fatal(err)
		}
	}
	return h, st, s
}

// runningArena is a 1+0 arena under way at clk's time (arenaOn).
func runningArena(t *testing.T, clk *fakeClock, handles ...string) (*Hub, *Arenas, arena.Definition) {
	t.Helper()
	def := arena.Definition{ID: "e", Name: "Elsewhere", Start: clk.Now().Add(-time.Minute), Length: 30 * time.Minute}
	def.Control.Base = time.Minute
	h, _, s := arenaOn(t, clk, def, handles...)
	return h, s, def
}

// TestArenaPausedToPlayElsewhere: a player waiting in an arena under way
// who begins a game outside it is paused in the arena as the game begins
// — the pause is in the arena's log before the game is — so that no wave,
// on any server, pairs them while they play there.
func TestArenaPausedToPlayElsewhere(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)}
	h, s, def := runningArena(t, clk, "ann", "bob", "cat", "dan")
	lobbyGame, err := h.Start(ctx, "ann", "eve", def.Control, false)
	if err != nil {
		t.Fatal(err)
	}
	log, err := s.Log(ctx, def.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e := log[len(log)-1]; e.Kind != arena.Pause || e.Player != "ann" || !e.At.Equal(clk.Now()) || !e.Elsewhere {
		t.Fatalf("ann began %s outside the arena; the arena's log ends with %+v, want ann's pause then, marked elsewhere", lobbyGame, e)
	}
	if got := s.PausedIn("ann"); len(got) != 1 || got[0].Arena.ID != def.ID || !got[0].Elsewhere {
		t.Fatalf("ann is paused in %+v, want %s as she plays elsewhere", got, def.ID)
	}
	if err := s.Withdraw(ctx, def.ID, "bob"); err != nil {
		t.Fatal(err)
	}
	if got := s.PausedIn("bob"); len(got) != 1 || got[0].Elsewhere {
		t.Fatalf("bob withdrew after the start: paused in %+v, want %s by his own doing", got, def.ID)
	}
	stepArena(t, s, def.ID)
	if g := arenaGames(h, def.ID); len(g) != 2 || g["cat"].ID == "" || g["ann"].ID != "" {
		t.Fatalf("the arena's games by player %v: want cat and dan's pairing, not ann's or bob's", g)
	}
}

// TestArenaPairedBeforePlayingElsewhere: a wave that paired a player a
// moment before they began a game outside the arena (its game not begun
// yet: the pairing server writes the wave, then starts its games) comes
// first: the game elsewhere is refused as the hub refuses a second game,
// and they stay in the arena, to play the game it paired them in.
func TestArenaPairedBeforePlayingElsewhere(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)}
	h, s, def := runningArena(t, clk, "ann", "bob")
	writeWave(t, s, def.ID, "paired-a-moment-ago", clk.Now(), false)
	if id, err := h.Start(ctx, "ann", "eve", def.Control, false); !errors.Is(err, ErrBusy) {
		t.Fatalf("ann, paired in the arena a moment ago, began %q outside it: %v, want ErrBusy", id, err)
	}
	for _, x := range mustState(t, s, def.ID).Standings {
		if x.Paused || x.Playing != "paired-a-moment-ago" {
			t.Fatalf("standings %+v: want both in the game paired, neither paused", mustState(t, s, def.ID).Standings)
		}
	}
}

// TestArenaGameThatCannotBegin: a wave's game the hub refuses (a player
// in a game begun elsewhere before the arena started, not yet seen by the
// server deciding the wave) is written aborted at once — nobody is left
// paired in it for MissingGame — and that player is paused before the
// next wave.
func TestArenaGameThatCannotBegin(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)
	clk := &fakeClock{now: t0.Add(-time.Second)}
	def := arena.Definition{ID: "c", Name: "Cannot", Start: t0, Length: 30 * time.Minute}
	def.Control.Base = time.Minute
	h, _, s := arenaOn(t, clk, def, "ann", "bob")
	if _, err := h.Start(ctx, "ann", "eve", def.Control, false); err != nil { // before the start: no pause
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	writeWave(t, s, def.ID, "cannot-begin", t0, true)
	log, err := s.Log(ctx, def.ID)
	if err != nil {
		t.Fatal(err)
	}
	if e := log[len(log)-1]; e.Kind != arena.Finish || e.Game != "cannot-begin" || e.Result != "*" || !e.At.Equal(t0) {
		t.Fatalf("the log ends with %+v: want the game that cannot begin aborted at once", e)
	}
	clk.Advance(arena.WaitBeforePairing(def.Control))
	stepArena(t, s, def.ID)
	for _, x := range mustState(t, s, def.ID).Standings {
		if x.Playing != "" || x.Paused != (x.Handle == "ann") {
			t.Fatalf("standings %+v: want ann (in a game elsewhere) paused, nobody playing", mustState(t, s, def.ID).Standings)
		}
	}
}

// TestArenaPauseTakenBack (issue 37): a pause for a game elsewhere stands
// only if the game begins. ann's rated game at a control too fast to rate
// is refused after her pause was written: she is waiting in the arena as
// before, and the next wave pairs her. A player waiting in two arenas,
// refused in one (paired there a moment ago), is not left paused in the
// other.
func TestArenaPauseTakenBack(t *testing.T) {
	ctx := context.Background()
	clk := &fakeClock{now: time.Date(2026, 11, 27, 18, 0, 0, 0, time.UTC)}
	h, s, def := runningArena(t, clk, "ann", "bob", "cat", "dan")
	tooFast := def.Control
	tooFast.Base = 12 * time.Second
	if id, err := h.Start(ctx, "ann", "eve", tooFast, true); err == nil {
		t.Fatalf("test premise: a rated game at 0.2+0 began: %s", id)
	}
	for _, x := range mustState(t, s, def.ID).Standings {
		if x.Paused {
			t.Fatalf("standings %+v: ann's game elsewhere did not begin, and %s is paused", mustState(t, s, def.ID).Standings, x.Handle)
		}
	}
	stepArena(t, s, def.ID)
	if g := arenaGames(h, def.ID); len(g) != 4 {
		t.Errorf("the arena's games by player %v: want all four paired, ann too", g)
	}

	other := arena.Definition{ID: "o", Name: "Other", Start: def.Start, Length: def.Length, Control: def.Control}
	if err := s.Create(ctx, other); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"fay", "gus"} {
		for _, id := range []string{def.ID, other.ID} {
			if err := s.Join(ctx, id, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	writeWave(t, s, other.ID, "paired-in-other", clk.Now(), false)
	if _, err := h.Start(ctx, "fay", "eve", def.Control, false); !errors.Is(err, ErrBusy) {
		t.Fatalf("fay, paired in Other a moment ago, began a game elsewhere: %v, want ErrBusy", err)
	}
	for _, x := range mustState(t, s, def.ID).Standings {
		if x.Handle == "fay" && x.Paused {
			t.Errorf("fay's game elsewhere was refused (paired in Other), and she is paused in %s", def.Name)
		}
	}
}
