package serve

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/squall-chess/squall/server/arena"
)

// TestExecArena: `ssh host arena` lists the arenas, `arena NAME` prints
// one's standings as the log makes them, and `arena ID --pgn` every
// finished game of it, as the archive keeps them; an unknown arena is an
// error.
func TestExecArena(t *testing.T) {
	ts, p := startPlayServer(t)
	ctx := context.Background()
	spec, err := arena.ParseSpec("Club Bullet 1+0 10m")
	if err != nil {
		t.Fatal(err)
	}
	def, err := p.Arenas.Ensure(ctx, spec, time.Now().Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"ann", "bob"} {
		if err := p.Arenas.Join(ctx, def.ID, h); err != nil {
			t.Fatal(err)
		}
	}
	var id string
	waitUntil(t, "the arena's first game", func() bool { id, _ = p.Hub.GameOf("ann"); return id != "" })
	g, err := p.Hub.Game(id)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []string{"f2f3", "e7e5", "g2g4", "d8h4"} {
		if _, err := p.Hub.Move(ctx, id, []string{g.White, g.Black}[i%2], m); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "the game's end in the arena", func() bool {
		st, err := p.Arenas.State(def.ID)
		return err == nil && len(st.Standings) == 2 && st.Standings[0].Score == 2
	})
	key := newSigner(t)
	out, errOut, code := runExec(t, ts.addr, key, "arena")
	if code != 0 || !strings.Contains(out, def.ID) || !strings.Contains(out, "Club Bullet · 1+0 · 10m") {
		t.Fatalf("arena: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	out, errOut, code = runExec(t, ts.addr, key, "arena Club Bullet")
	winner := g.Black
	if code != 0 || !strings.Contains(out, "  1. "+winner) || !strings.Contains(out, "2 players") {
		t.Fatalf("arena Club Bullet: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	t.Logf("arena Club Bullet:\n%s", out)
	out, errOut, code = runExec(t, ts.addr, key, "arena "+def.ID+" --pgn")
	games := readGames(t, "arena --pgn", out)
	if code != 0 || len(games) != 1 || games[0].Tag("Event") != "Club Bullet Arena" || games[0].Tag("Result") != "0-1" {
		t.Fatalf("arena --pgn: exit %d, stderr %q, %d games:\n%s", code, errOut, len(games), out)
	}
	if _, errOut, code := runExec(t, ts.addr, key, "arena Nothing Here"); code != 1 || !strings.Contains(errOut, "no such arena") {
		t.Fatalf("an unknown arena: exit %d, %q", code, errOut)
	}
}
