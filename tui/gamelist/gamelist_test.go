package gamelist

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/internal/tuitest"
	"github.com/squall-chess/squall/tui/view"
)

const twic = "../../pgn/testdata/pgn-parser/twic-01-232games.pgn"

// copyTWIC puts a copy of the TWIC games in a temporary directory.
func copyTWIC(t testing.TB) (string, []byte) {
	t.Helper()
	data, err := os.ReadFile(twic)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "twic.pgn")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

func testEnv() view.Env {
	return view.Env{Renderer: tuitest.Renderer(termenv.Ascii), Theme: themes.Monochrome()}
}

// run runs cmd and the commands its messages lead to, the way bubbletea
// would, until none is left; it returns the messages the list did not
// take (a view.GameMsg, view.CloseMsg).
func run(t *testing.T, l *List, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	for cmd != nil {
		msg := cmd()
		switch msg := msg.(type) {
		case view.GameMsg, view.CloseMsg:
			return append(out, msg)
		case tea.BatchMsg:
			for _, c := range msg {
				out = append(out, run(t, l, c)...)
			}
			return out
		}
		_, cmd = l.Update(msg)
	}
	return out
}

// press sends keys (each a key name or runes) and runs what they start.
func press(t *testing.T, l *List, keys ...string) []tea.Msg {
	t.Helper()
	var out []tea.Msg
	for _, k := range keys {
		_, cmd := l.Update(tuitest.Press(k))
		out = append(out, run(t, l, cmd)...)
	}
	return out
}

// open makes the list of path and reads the file.
func open(t *testing.T, path string, env view.Env) *List {
	t.Helper()
	l := New(env, path)
	run(t, l, l.Init())
	if l.loading || l.err != nil {
		t.Fatalf("list not read: loading %v, %v", l.loading, l.err)
	}
	return l
}

// TestListFilterSort: the list's filter is pgn.Filter on each game's tags
// (the games it selects are the ones MatchEntry selects on the file's
// index), typed as squall pgn --filter takes it; sorting orders them by a
// column, ties in the file's order.
func TestListFilterSort(t *testing.T) {
	path, data := copyTWIC(t)
	entries, err := pgn.Index(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	l := open(t, path, testEnv())
	if len(l.rows) != 232 || len(l.Shown()) != 232 {
		t.Fatalf("%d rows, %d shown", len(l.rows), len(l.Shown()))
	}
	for _, q := range []string{"carlsen", "player=Ding player=Carlsen", "elo=2750", "eco=B90-B99 result=1-0", "opening=Berlin", "event=lindores year=2020"} {
		press(t, l, "/", "ctrl+u")
		l.input.SetValue(q)
		press(t, l, "enter")
		if l.err != nil {
			t.Fatalf("%q: %v", q, l.err)
		}
		f, err := ParseQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		for i := range entries {
			if f.MatchEntry(&entries[i]) {
				want = append(want, i+1)
			}
		}
		if len(want) == 0 || len(want) == len(entries) {
			t.Fatalf("%q selects %d games: the test proves little", q, len(want))
		}
		if got := l.Shown(); !slices.Equal(got, want) {
			t.Errorf("%q: list shows %v, want %v", q, got, want)
		}
	}
	// Sort by White's rating, highest first, then by the players.
	press(t, l, "esc") // clears the filter
	if len(l.Shown()) != 232 {
		t.Fatalf("esc left %d games shown", len(l.Shown()))
	}
	press(t, l, "s", "s", "r")
	if columns[l.sortBy].title != "Elo" || !l.desc {
		t.Fatalf("sorted by %s desc %v", columns[l.sortBy].title, l.desc)
	}
	got := l.Shown()
	for k := 1; k < len(got); k++ {
		a, b := &l.rows[got[k-1]-1], &l.rows[got[k]-1]
		if a.welo < b.welo || a.welo == b.welo && a.num > b.num {
			t.Fatalf("rows %d, %d out of order: %d then %d", a.num, b.num, a.welo, b.welo)
		}
	}
	press(t, l, "s")
	got = l.Shown()
	for k := 1; k < len(got); k++ {
		if a, b := l.names[l.rows[got[k-1]-1].black], l.names[l.rows[got[k]-1].black]; strings.ToLower(a) > strings.ToLower(b) {
			t.Fatalf("Black %q before %q", a, b)
		}
	}
}

// TestParseQuery: the filter line is squall pgn --filter's criteria, a
// value running to the next key, words before any key a player.
func TestParseQuery(t *testing.T) {
	f, err := ParseQuery("Carlsen, Magnus elo=2700-2800 event=World Cup eco=B9")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := pgn.ParseFilter([]string{"player=Carlsen, Magnus", "elo=2700-2800", "event=World Cup", "eco=B9"})
	if !slices.Equal(f.Players, want.Players) || f.EloFrom != want.EloFrom || f.EloTo != want.EloTo || f.Event != want.Event || f.ECOFrom != want.ECOFrom || f.ECOTo != want.ECOTo {
		t.Errorf("ParseQuery = %+v, want %+v", f, want)
	}
	if _, err := ParseQuery("elo=strong"); err == nil {
		t.Errorf("a bad rating was taken")
	}
}

// span is game i's bytes in data (its entry's offset up to the next).
func span(data []byte, es []pgn.Entry, i int) []byte {
	end := int64(len(data))
	if i+1 < len(es) {
		end = es[i+1].Offset
	}
	return data[es[i].Offset:end]
}

// TestListEdits deletes, moves and adds games through the keys, each
// asked first: every game not changed stays byte for byte, and a file
// changed behind the list's back is not written over.
func TestListEdits(t *testing.T) {
	path, data := copyTWIC(t)
	es, _ := pgn.Index(bytes.NewReader(data))
	board := pgn.NewGame()
	board.SetTag("White", "Board")
	board.Root.AddChild(0, "e4")
	env := testEnv()
	env.PGN = board
	l := open(t, path, env)

	press(t, l, "down", "down", "d") // game 3
	if l.ask == nil || !strings.Contains(l.ask.text, "Delete game 3") {
		t.Fatalf("no question before deleting: %+v", l.ask)
	}
	press(t, l, "n")
	if b, _ := os.ReadFile(path); !bytes.Equal(b, data) {
		t.Fatal("n changed the file")
	}
	press(t, l, "d", "y")
	press(t, l, "down", "K") // game 3 (was 4) up to 2
	press(t, l, "end", "a", "y")
	if l.err != nil || len(l.rows) != 232 {
		t.Fatalf("%d rows, %v", len(l.rows), l.err)
	}
	if got := l.rows[l.shown[l.sel]]; l.names[got.white] != "Board" || got.num != 232 {
		t.Errorf("selected after adding: game %d, White %q", got.num, l.names[got.white])
	}
	out, _ := os.ReadFile(path)
	var want []byte
	want = append(want, span(data, es, 0)...)
	want = append(want, span(data, es, 3)...)
	want = append(want, span(data, es, 1)...)
	for i := 4; i < len(es); i++ {
		want = append(want, span(data, es, i)...)
	}
	if !bytes.HasSuffix(want, []byte("\n\n")) {
		want = append(want, '\n') // the file ends in one newline: a blank line before the new game
	}
	want = append(want, board.String()...)
	if !bytes.Equal(out, want) {
		t.Errorf("file after delete, move and add differs from the games' own bytes in the new order")
	}
	// The file changes behind the list: a change is refused and the file
	// read again.
	changed := append(bytes.Clone(out), "\n[Event \"Behind\"]\n\n1. d4 *\n"...)
	if err := os.WriteFile(path, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	press(t, l, "home", "d", "y")
	if b, _ := os.ReadFile(path); !bytes.Equal(b, changed) {
		t.Errorf("a changed file was written over")
	}
	if len(l.rows) != 233 || l.err == nil || !strings.Contains(l.err.Error(), "changed") {
		t.Errorf("after a refused change: %d rows, %v", len(l.rows), l.err)
	}
}

// TestListOpens: enter reads the selected game for the board, with where
// it is in the file and the file's hash once the list has read it all.
func TestListOpens(t *testing.T) {
	path, data := copyTWIC(t)
	es, _ := pgn.Index(bytes.NewReader(data))
	l := open(t, path, testEnv())
	msgs := press(t, l, "down", "enter")
	if len(msgs) != 1 {
		t.Fatalf("messages %v", msgs)
	}
	gm, ok := msgs[0].(view.GameMsg)
	if !ok || gm.Err != nil || gm.Number != 2 || gm.Offset != es[1].Offset || gm.End != es[2].Offset || gm.Sum == nil || gm.Path != path {
		t.Fatalf("%T %+v", msgs[0], msgs[0])
	}
	if gm.Game.Tag("White") != es[1].Tag("White") || len(gm.Game.Mainline()) != es[1].Plies {
		t.Errorf("game %q with %d plies, want %q with %d", gm.Game.Tag("White"), len(gm.Game.Mainline()), es[1].Tag("White"), es[1].Plies)
	}
	// The last game runs to the end of the file.
	msgs = press(t, l, "end", "enter")
	if gm := msgs[0].(view.GameMsg); gm.End != -1 || gm.Number != 232 {
		t.Errorf("last game: number %d, end %d", gm.Number, gm.End)
	}
	if msgs := press(t, l, "esc"); len(msgs) != 1 || msgs[0] != view.Close() {
		t.Errorf("esc: %v", msgs)
	}
}

// TestListShowsBeforeRead: the first rows come before the file is read to
// its end, so the first screen does not wait for a large file.
func TestListShowsBeforeRead(t *testing.T) {
	_, data := copyTWIC(t)
	path := filepath.Join(t.TempDir(), "big.pgn")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ { // 23,200 games, 20 MB
		f.Write(data)
		f.Write([]byte("\n"))
	}
	f.Close()
	l := New(testEnv(), path)
	cmd := l.Init()
	_, cmd = l.Update(cmd())
	if !l.loading || len(l.rows) < firstRows-1 || len(l.rows) > 1000 {
		t.Fatalf("first batch: loading %v, %d rows", l.loading, len(l.rows))
	}
	screen := ansi.Strip(l.View(100, 30))
	if !strings.Contains(screen, "Carlsen,M") || !strings.Contains(screen, "reading") {
		t.Errorf("first screen:\n%s", screen)
	}
	run(t, l, cmd)
	if len(l.rows) != 23200 || l.loading {
		t.Errorf("%d rows, loading %v", len(l.rows), l.loading)
	}
	l.Close()
}

// TestListView: the list at 100×30, every text through termtext (a
// player's name holding an escape sequence is drawn with it made
// harmless).
func TestListView(t *testing.T) {
	path, data := copyTWIC(t)
	data = bytes.Replace(data, []byte(`[White "Carlsen,M"]`), []byte("[White \"Carlsen\x1b]0;pwned\x07,M\"]"), 1)
	os.WriteFile(path, data, 0o644)
	l := open(t, path, testEnv())
	l.path = "twic.pgn" // the golden names no temporary directory
	out := l.View(100, 30)
	if strings.Contains(out, "\x1b]0;") {
		t.Errorf("an escape sequence from the file reached the screen")
	}
	tuitest.Golden(t, tuitest.GoldenDir(), "list-100x30", out)
	press(t, l, "/")
	l.input.SetValue("carlsen")
	press(t, l, "enter", "s")
	tuitest.Golden(t, tuitest.GoldenDir(), "list-filtered-80x24", l.View(80, 24))
}

// TestListRefusesDirectory: the list of a directory says so by name, as
// squall pgn and the board's file opening do (pgn.OpenFile), rather than
// "read X: is a directory" from its first read.
func TestListRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	l := New(testEnv(), dir)
	run(t, l, l.Init())
	if l.err == nil || !strings.Contains(l.err.Error(), dir+" is a directory, not a PGN file") {
		t.Fatalf("list of a directory: %v", l.err)
	}
	if screen := ansi.Strip(l.View(240, 30)); !strings.Contains(screen, "is a directory, not a PGN file") {
		t.Errorf("screen:\n%s", screen)
	}
	l.Close()
}
