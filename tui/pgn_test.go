package tui

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/pgn"
)

const annotatedPGN = "testdata/pgn/annotated.pgn"

// dumpTree writes everything a tree holds, one node per line, indented by
// depth, so that two trees compare as text and a difference reads plainly.
func dumpTree(t *Tree) string {
	var b strings.Builder
	fmt.Fprintf(&b, "start %s\nresult %s\n", t.Start.FEN(), t.Result)
	for _, tag := range t.Tags {
		fmt.Fprintf(&b, "[%s %q]\n", tag.Name, tag.Value)
	}
	var walk func(n *pgn.Node, depth int)
	walk = func(n *pgn.Node, depth int) {
		cmds := ""
		if n.Commands != nil {
			cmds = fmt.Sprintf("%+v", *n.Commands)
		}
		fmt.Fprintf(&b, "%s%s %v nags=%v before=%q after=%q cmds=%s\n",
			strings.Repeat("  ", depth), n.SAN, n.Move, n.NAGs, n.Before, n.After, cmds)
		for _, c := range n.Children {
			if c.Parent != n {
				fmt.Fprintf(&b, "BAD PARENT of %s\n", c.SAN)
			}
			walk(c, depth+1)
		}
	}
	walk(t.Root, 0)
	return b.String()
}

// dropAddedOpening removes from back, a tree read back from a saved file,
// the ECO and Opening tags that saving added (orig had none): the tests of
// round trips compare what the tree held; TestSaveNamesOpening checks the
// added tags.
func dropAddedOpening(back, orig *Tree) *Tree {
	for _, name := range []string{"ECO", "Opening"} {
		if orig.Tag(name) == "" {
			back.DeleteTag(name)
		}
	}
	return back
}

func readTestPGN(t *testing.T, path string) ([]*Tree, error) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return ReadPGN(f, filepath.Base(path))
}

// TestReadPGN: the good games of a file come back whole (tags in file
// order, the game comment, NAGs, embedded commands, variations and the
// comment before a variation's first move); the bad one is left out and
// named by file and line.
func TestReadPGN(t *testing.T) {
	trees, err := readTestPGN(t, annotatedPGN)
	if len(trees) != 3 {
		t.Fatalf("%d games, want 3, the last read up to its illegal move (%v)", len(trees), err)
	}
	// D3: the game with the illegal move is kept up to it.
	if last := trees[1]; last.partial == nil || countPlies(last) != 2 || trees[0].partial != nil {
		t.Errorf("the bad game: partial %v, %d moves", last.partial, countPlies(last))
	}
	var pe *pgn.Error
	if !errors.As(err, &pe) || pe.File != "annotated.pgn" || pe.Line != 23 {
		t.Fatalf("error %v, want the illegal move of annotated.pgn line 23", err)
	}
	if !strings.Contains(err.Error(), "annotated.pgn:23:") || !strings.Contains(err.Error(), "Ke3") {
		t.Errorf("error text %q does not name file:line and move", err)
	}

	g := trees[0]
	var names []string
	for _, tag := range g.Tags {
		names = append(names, tag.Name)
	}
	if got := strings.Join(names, " "); got != "Event Site Date Round White Black Result Annotator ECO" {
		t.Errorf("tags in order %q", got)
	}
	if g.Tag("Event") != `Café "quoted" match` || g.Result != "1-0" {
		t.Errorf("Event %q, result %q", g.Tag("Event"), g.Result)
	}
	if got := g.Root.After; len(got) != 1 || got[0] != "A game comment before the first move." {
		t.Errorf("game comment %q", got)
	}
	e4 := g.Root.Children[0]
	if e4.SAN != "e4" || fmt.Sprint(e4.NAGs) != "[1]" || fmt.Sprint(e4.After) != "[Best by test.]" {
		t.Errorf("1. e4: %q %v %q", e4.SAN, e4.NAGs, e4.After)
	}
	if c := e4.Commands; c == nil || !c.HasClock || c.Clock != 5*time.Minute || c.Eval.Kind != pgn.Centipawns || c.Eval.Value != 30 {
		t.Errorf("1. e4 commands %+v", c)
	}
	e5 := e4.Children[0]
	if len(e5.Children) != 2 || e5.Children[0].SAN != "Nf3" || e5.Children[1].SAN != "f4" {
		t.Fatalf("after 1... e5: %d continuations", len(e5.Children))
	}
	f4 := e5.Children[1]
	if len(f4.Children) != 2 || f4.Children[1].SAN != "d5" || fmt.Sprint(f4.Children[1].NAGs) != "[2]" ||
		f4.Children[0].Children[0].SAN != "Nf3" {
		t.Errorf("2. f4 variation: %s", dumpTree(g))
	}
	bc4 := e5.Children[0].Children[0].Children[0]
	if len(bc4.Children) != 2 || fmt.Sprint(bc4.Children[1].Before) != "[Also]" || bc4.Children[1].SAN != "Nf6" {
		t.Errorf("3... Nf6 variation with a comment before it: %s", dumpTree(g))
	}

	fen := trees[2]
	if got := fen.Start.FEN(); got != "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1" {
		t.Errorf("FEN game starts at %s", got)
	}
	if ms := fen.Mainline(); len(ms) != 4 || ms[2].SAN != "Kd2" || fmt.Sprint(ms[2].After) != "[Opposition next.]" {
		t.Errorf("FEN game: %s", dumpTree(fen))
	}
}

// saveThroughModel saves the model's game as the user does (ctrl+s, a
// path, enter) and returns the model after the save reported back.
func saveThroughModel(t *testing.T, m Model, path string) Model {
	t.Helper()
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlS})
	d, ok := m.dialog.(*promptDialog)
	if !ok {
		t.Fatalf("ctrl+s opened %T", m.dialog)
	}
	d.in.SetValue(path)
	nm, cmd := m.Update(press("enter"))
	m = nm.(Model)
	if cmd == nil {
		t.Fatal("enter in the save prompt gave no command")
	}
	m = runSave(t, m, cmd) // an existing file: answers yes to replacing it
	if m.msgIsErr || m.message != "saved "+path {
		t.Fatalf("after saving: message %q", m.message)
	}
	return m
}

// TestSavedPGNReadsBack: a game opened from a file, and a game played on
// the board to its end, are saved by the board and read back by package
// pgn as the same tree: tags, result, moves, variations and annotations.
func TestSavedPGNReadsBack(t *testing.T) {
	dir := t.TempDir()
	trees, _ := readTestPGN(t, annotatedPGN)
	for i, tr := range trees {
		want := dumpTree(tr)
		m := newTestModel(t, Options{Games: []*Tree{tr}})
		path := filepath.Join(dir, fmt.Sprintf("opened-%d.pgn", i))
		saveThroughModel(t, m, path)
		back, err := readTestPGN(t, path)
		if err != nil || len(back) != 1 {
			t.Fatalf("game %d read back: %d games, %v", i, len(back), err)
		}
		if got := dumpTree(dropAddedOpening(back[0], tr)); got != want {
			t.Errorf("game %d changed by save and read:\n%s\nwant:\n%s", i, got, want)
		}
	}

	// Played: fool's mate, so that the tags, the result and the
	// Termination tag come from the board.
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "f3", "e5", "g4", "Qh4#")
	if over, _ := m.Over(); !over || m.tree.Result != "0-1" {
		t.Fatalf("fool's mate not over: result %q", m.tree.Result)
	}
	want := dumpTree(m.tree)
	path := filepath.Join(dir, "played.pgn")
	saveThroughModel(t, m, path)
	back, err := readTestPGN(t, path)
	if err != nil || len(back) != 1 {
		t.Fatalf("played game read back: %d games, %v", len(back), err)
	}
	if got := dumpTree(dropAddedOpening(back[0], m.tree)); got != want {
		t.Errorf("played game changed by save and read:\n%s\nwant:\n%s", got, want)
	}
	if back[0].Tag("Termination") != "normal" || back[0].Tag("White") != "?" {
		t.Errorf("tags of the played game: %v", back[0].Tags)
	}
}

// TestPGNRoundTripFiles converts every readable game of the pgn package's
// test files to a tree and back, writes it and reads it again: nothing the
// tree holds may change.
func TestPGNRoundTripFiles(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "pgn", "testdata", "*", "*.pgn"))
	if len(files) == 0 {
		t.Skip("no PGN test files in ../pgn/testdata")
	}
	games := 0
	for _, f := range files {
		trees, _ := readTestPGN(t, f)
		for i, tr := range trees {
			b, err := tr.appendPGN(nil)
			if err != nil {
				t.Errorf("%s game %d: write: %v", f, i+1, err)
				continue
			}
			back, err := ReadPGN(bytes.NewReader(b), "")
			if err != nil || len(back) != 1 {
				t.Errorf("%s game %d: read back %d games, %v\n%s", f, i+1, len(back), err, b)
				continue
			}
			if got, want := dumpTree(dropAddedOpening(back[0], tr)), dumpTree(tr); got != want {
				t.Errorf("%s game %d changed:\n%s\nwant:\n%s", f, i+1, got, want)
			}
			games++
		}
	}
	if games < 200 {
		t.Errorf("only %d games round-tripped", games)
	}
}

// TestOpenReportsSkippedGames: the open dialog loads the good games of a
// file with one bad game, offers them in the picker and names the bad one
// on the message line; a file with no good game changes nothing.
func TestOpenReportsSkippedGames(t *testing.T) {
	open := func(path string) ([]*Tree, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return ReadPGN(f, path)
	}
	m := newTestModel(t, Options{Mode: TwoHumans, Open: open})
	openFile := func(m Model, path string) Model {
		m = send(m, press("esc"), press("o"))
		d, ok := m.dialog.(*promptDialog)
		if !ok {
			t.Fatalf("o opened %T", m.dialog)
		}
		d.in.SetValue(path)
		nm, cmd := m.Update(press("enter"))
		return send(nm.(Model), cmd())
	}
	m = openFile(m, annotatedPGN)
	if !m.msgIsErr || !strings.Contains(m.message, "1 of 3 games read only up to an error") || !strings.Contains(m.message, "annotated.pgn:23:") {
		t.Errorf("message %q", m.message)
	}
	// D3: the whole message, in a dialog, before the picker.
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Problems reading") || !strings.Contains(v, "Ke3: illegal") {
		t.Fatalf("no problems dialog:\n%s", v)
	}
	m = send(m, press("enter"))
	if p, ok := m.dialog.(*pickerDialog); !ok || len(p.games) != 3 {
		t.Fatalf("picker: %T", m.dialog)
	}
	m = send(m, press("enter"))
	if m.mode != Analysis || m.tree.Tag("White") != "Müller, Jürgen" {
		t.Fatalf("picked game: mode %v, White %q", m.mode, m.tree.Tag("White"))
	}
	// The move list marks NAGs and the panel shows the move's comment.
	m = send(m, press("right"))
	plain := ansi.Strip(m.View())
	if !strings.Contains(plain, "e4!") || !strings.Contains(plain, "Best by test.") {
		t.Errorf("1. e4 $1 {Best by test.} not shown:\n%s", plain)
	}

	bad := filepath.Join(t.TempDir(), "bad.pgn")
	os.WriteFile(bad, []byte("[FEN \"bad\"]\n\n1. e4 *\n\n[FEN \"worse\"]\n\n1. d4 *\n"), 0o644)
	before := m.tree
	m = openFile(m, bad)
	if m.tree != before || !m.msgIsErr || !strings.Contains(m.message, "bad.pgn:3:1: FEN tag") || !strings.Contains(m.message, "(+1 more)") {
		t.Errorf("a file of unreadable games: message %q", m.message)
	}
	if strings.Contains(m.message, "\n") {
		t.Errorf("message spans lines: %q", m.message)
	}
}

// TestAutosaveKeepsEarlierGames: the autosave file's earlier games stay
// byte for byte, even one the reader rejects and one not ended by a blank
// line, and the game in progress follows them as a readable game.
func TestAutosaveKeepsEarlierGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.pgn")
	earlier := "[Event \"old\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"older\"]\n\n1. d4 d5 1/2-1/2"
	if err := os.WriteFile(path, []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Mode: TwoHumans, Autosave: path})
	m = playAll(t, m, "e4", "c5")
	m.Close() // flushes the autosave
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), earlier+"\n\n[Event \"Squall human vs human\"]") {
		t.Fatalf("autosave file (%v):\n%s", err, data)
	}
	back, err := ReadPGN(bytes.NewReader(data), "games.pgn")
	if len(back) != 3 || err == nil || back[0].partial == nil || dumpTree(dropAddedOpening(back[2], m.tree)) != dumpTree(m.tree) {
		t.Fatalf("read back %d games (%v):\n%s", len(back), err, data)
	}
}

// TestNavigateOpenedGame: a game from a file shows its players, the moves
// played in the shown move's place, which [ and ] switch between (from
// the move input too), and its result at the end of the main line.
func TestNavigateOpenedGame(t *testing.T) {
	trees, _ := readTestPGN(t, annotatedPGN)
	m := newTestModel(t, Options{Games: trees[:1]})
	plain := ansi.Strip(m.View())
	if !strings.Contains(plain, "Müller, Jürgen") || !strings.Contains(plain, "O'Brien") {
		t.Errorf("players not shown:\n%s", plain)
	}
	m = send(m, press("right"), press("right"), press("right"))
	if m.cur.SAN != "Nf3" || !strings.Contains(ansi.Strip(m.View()), "here: 2. Nf3 f4!?") {
		t.Fatalf("at %s:\n%s", m.cur.SAN, ansi.Strip(m.View()))
	}
	m = send(m, press("]"))
	if m.cur.SAN != "f4" || onMainLine(m.cur) || !strings.Contains(m.statusLine(), "variation") {
		t.Fatalf("] went to %s", m.cur.SAN)
	}
	m = send(m, press("]")) // round to the main line
	if m.cur.SAN != "Nf3" {
		t.Fatalf("] again went to %s", m.cur.SAN)
	}
	m = send(m, press("["), press("right"), press("]"))
	if m.cur.SAN != "d5" || fmt.Sprint(m.tree.Line(m.cur)) != "[e2e4 e7e5 f2f4 d7d5]" {
		t.Fatalf("[ → exf4 → ] went to %s, line %v", m.cur.SAN, m.tree.Line(m.cur))
	}
	m = send(m, press("up"), press("right"), press("]"))
	if m.cur.SAN != "e4" || m.message != "no other move here" {
		t.Errorf("] without alternatives: at %s, message %q", m.cur.SAN, m.message)
	}
	m = send(m, press("down"))
	if !strings.Contains(ansi.Strip(m.statusLine()), "game ended 1-0") {
		t.Errorf("end of the game: %q", ansi.Strip(m.statusLine()))
	}
}

// threeGames is a 3-game file written by hand, not by Squall: its spacing
// and tag order must survive a save of another game byte for byte.
const threeGames = "[Event \"One\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7# 1-0\n\n\n" +
	"[Event \"Two\"]\n[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. d4 d5 *\n\n" +
	"[Event \"Three\"]\n[Site \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n"

// openFile reads a PGN file as the board's Open does.
func openFile(path string) ([]*Tree, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadPGN(f, path)
}

// runSave runs the commands a save issues until the file is written,
// answering a confirmation with yes.
func runSave(t *testing.T, m Model, cmd tea.Cmd) Model {
	t.Helper()
	for cmd != nil {
		msg := cmd()
		nm, next := m.Update(msg)
		m = nm.(Model)
		cmd = next
		if _, ok := msg.(existsMsg); ok {
			m, cmd = pressKey(m, "y")
		}
	}
	return m
}

func pressKey(m Model, k string) (Model, tea.Cmd) {
	nm, cmd := m.Update(press(k))
	return nm.(Model), cmd
}

// TestSaveBackIntoMultiGameFile is issue 18's B2: open a 3-game file, pick
// game 2, s, Enter on the offered name (the same file) wrote a file of one
// game. Saving a game back into its file replaces its bytes only: games 1
// and 3 stay byte for byte, game 2 changes, and a second save (the offsets
// have moved) still finds its place.
func TestSaveBackIntoMultiGameFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "three.pgn")
	if err := os.WriteFile(path, []byte(threeGames), 0o644); err != nil {
		t.Fatal(err)
	}
	games, err := openFile(path)
	if err != nil || len(games) != 3 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	m := newTestModel(t, Options{Games: games, Open: openFile})
	m, _ = pressKey(m, "down") // the picker: game 2
	m, _ = pressKey(m, "enter")
	if m.tree.Tag("Event") != "Two" {
		t.Fatalf("picked %q", m.tree.Tag("Event"))
	}
	m = send(m, press("end"))
	m = playAll(t, m, "c4")
	m = send(m, press("esc"))
	m, _ = pressKey(m, "s")
	m, cmd := pressKey(m, "enter") // the offered name: the file itself
	m = runSave(t, m, cmd)
	if m.msgIsErr {
		t.Fatalf("save: %s", m.message)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	one := threeGames[:strings.Index(threeGames, "[Event \"Two\"]")]
	three := threeGames[strings.Index(threeGames, "[Event \"Three\"]"):]
	text := string(data)
	if !strings.HasPrefix(text, one) || !strings.HasSuffix(text, three) {
		t.Fatalf("games 1 and 3 changed:\n%s", text)
	}
	back, err := openFile(path)
	if err != nil || len(back) != 3 {
		t.Fatalf("file now holds %d games (%v):\n%s", len(back), err, text)
	}
	if got := back[1].Export().String(); !strings.Contains(got, "1. d4 d5 2. c4") {
		t.Errorf("game 2 not changed:\n%s", got)
	}

	// Game 3 after game 2 grew: its place has moved with it.
	m = send(m, press("o"))
	m, cmd = typeIn(m, path)
	m = runSave(t, m, cmd)
	m, _ = pressKey(m, "down")
	m, _ = pressKey(m, "down")
	m, _ = pressKey(m, "enter")
	if m.tree.Tag("Event") != "Three" {
		t.Fatalf("picked %q", m.tree.Tag("Event"))
	}
	m.tree.SetTag("Site", "changed")
	m, _ = pressKey(m, "s")
	m, cmd = pressKey(m, "enter")
	m = runSave(t, m, cmd)
	back, err = openFile(path)
	if err != nil || len(back) != 3 || back[2].Tag("Site") != "changed" || back[0].Tag("Event") != "One" {
		t.Fatalf("after saving game 3: %d games, %v", len(back), err)
	}
}

// TestSaveAsksBeforeReplacing: saving to a file that is not the game's own
// asks first, and writes nothing until the answer is yes; a file changed
// since it was opened is not spliced.
func TestSaveAsksBeforeReplacing(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "other.pgn")
	if err := os.WriteFile(other, []byte(threeGames), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "e4")
	m = send(m, press("esc"))
	m, _ = pressKey(m, "s")
	m, cmd := typeIn(m, other)
	msg := cmd()
	if _, ok := msg.(existsMsg); !ok {
		t.Fatalf("saving over another file gave %T, want a question", msg)
	}
	nm, _ := m.Update(msg)
	m = nm.(Model)
	if _, ok := m.dialog.(*choiceDialog); !ok {
		t.Fatalf("no confirmation dialog: %T", m.dialog)
	}
	m, _ = pressKey(m, "n")
	if data, _ := os.ReadFile(other); string(data) != threeGames {
		t.Fatal("the file was written although the answer was no")
	}

	// Changed behind the board's back: not spliced.
	games, err := openFile(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte(threeGames+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m2 := newTestModel(t, Options{Games: games})
	m2, _ = pressKey(m2, "enter")
	m2 = send(m2, press("esc"))
	m2, _ = pressKey(m2, "s")
	m2, cmd = pressKey(m2, "enter")
	m2 = runSave(t, m2, cmd)
	if !m2.msgIsErr || !strings.Contains(m2.message, "changed since it was opened") {
		t.Errorf("saving into a changed file: %q", m2.message)
	}
	if data, _ := os.ReadFile(other); string(data) != threeGames+"\n" {
		t.Error("a changed file was written")
	}
}

// typeIn replaces the text of the open prompt with s and presses enter.
func typeIn(m Model, s string) (Model, tea.Cmd) {
	d, ok := m.dialog.(*promptDialog)
	if !ok {
		return m, nil
	}
	d.in.SetValue(s)
	return pressKey(m, "enter")
}

// TestMoveListTree: the move list shows the game tree as lichess's
// analysis board does: comments after their move, variations indented
// under the move they are alternatives to, nested ones in parentheses; the
// current move is marked with ◂ or ▸, not by colour alone.
func TestMoveListTree(t *testing.T) {
	trees, err := ReadPGN(strings.NewReader("[Event \"x\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3 d5) d6) 2. Nf3 Nc6 *\n"), "t.pgn")
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Mode: Analysis, Games: trees})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("right"))
	v := ansi.Strip(m.View())
	for _, want := range []string{"1. e4◂", "best by test", "1… c5 2. Nf3 (2. c3 d5) d6", "1. …", "2. Nf3"} {
		if !strings.Contains(v, want) {
			t.Errorf("the move list lacks %q:\n%s", want, v)
		}
	}
	// Into the variation: its move is the one marked.
	m = send(m, press("right"), press("]"))
	if m.cur.SAN != "c5" {
		t.Fatalf("] went to %q", m.cur.SAN)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "▸1… c5") {
		t.Errorf("the current variation move is not marked:\n%s", v)
	}
}

// TestPicker: the game picker pages (PgDn, End, Home), searches players
// and event with / (Esc clears), and labels a game whose players are
// unknown by its event.
func TestPicker(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&b, "[Event \"Open %d\"]\n[White \"Player%d\"]\n[Black \"Other%d\"]\n[Result \"*\"]\n\n1. e4 *\n\n", i, i, i)
	}
	b.WriteString("[Event \"Nameless Cup\"]\n[Result \"*\"]\n\n1. d4 *\n")
	games, err := ReadPGN(strings.NewReader(b.String()), "many.pgn")
	if err != nil || len(games) != 26 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	m := newTestModel(t, Options{Mode: Analysis, Games: games})
	d := m.dialog.(*pickerDialog)
	m = send(m, press("pgdown"))
	if d.sel != pickerRows {
		t.Errorf("pgdown: at %d", d.sel)
	}
	m = send(m, press("end"))
	if d.sel != 25 || !strings.Contains(ansi.Strip(m.View()), "26. Nameless Cup") {
		t.Errorf("end: at %d; the nameless game's label:\n%s", d.sel, ansi.Strip(m.View()))
	}
	m = send(m, press("home"), press("/"))
	for _, r := range "player1" {
		m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	m = send(m, press("enter"))
	if len(d.shown) != 11 { // Player1 and Player10–19
		t.Errorf("/player1 shows %d games, want 11", len(d.shown))
	}
	m = send(m, press("down"), press("enter"))
	if m.dialog != nil || m.tree.Tag("White") != "Player10" {
		t.Fatalf("opened %q", m.tree.Tag("White"))
	}
}

// TestGameHeader: a game opened from a file shows its event, round, site,
// date, result and its own Opening tag under the board, made safe.
func TestGameHeader(t *testing.T) {
	games, err := ReadPGN(strings.NewReader("[Event \"Tata Steel\x1b[2J\"]\n[Site \"Wijk aan Zee\"]\n[Date \"2024.01.20\"]\n[Round \"7\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[ECO \"C65\"]\n[Opening \"Ruy Lopez\"]\n[Variation \"Berlin Defence\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 1-0\n"), "g.pgn")
	if err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Mode: Analysis, Games: games})
	m = send(m, tea.WindowSizeMsg{Width: 80, Height: 24}) // the small board leaves four rows
	v := ansi.Strip(m.View())
	for _, want := range []string{"Tata Steel␛ · round 7", "Wijk aan Zee · 2024.01.20 · 1-0", "C65 · Ruy Lopez · Berlin Defence"} {
		if !strings.Contains(v, want) {
			t.Errorf("the header lacks %q:\n%s", want, v)
		}
	}
}
