package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/pgn"
)

// annotateGame has a variation inside a variation, for the variation keys.
const annotateGame = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6)) 2. Nf3 *\n"

// annotating opens annotateGame for analysis, with board keys, showing
// the start.
func annotating(t *testing.T, opt Options) Model {
	t.Helper()
	trees, err := ReadPGN(strings.NewReader(annotateGame), "a.pgn")
	if err != nil {
		t.Fatal(err)
	}
	opt.Games = trees
	m := newTestModel(t, opt)
	return send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"))
}

// typeText types s into whatever has the keys (a dialog here).
func typeText(m Model, s string) Model {
	for _, r := range s {
		m = send(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return m
}

// movetextOf is the board's game as saved, its movetext on one line.
func movetextOf(t *testing.T, m Model) string {
	t.Helper()
	_, moves, _ := strings.Cut(m.tree.Export().String(), "\n\n")
	return strings.Join(strings.Fields(moves), " ")
}

// goTo shows the node reached by the SANs from the root.
func goTo(t *testing.T, m Model, sans ...string) Model {
	t.Helper()
	n := m.tree.Root
	for _, s := range sans {
		if n = n.Child(s); n == nil {
			t.Fatalf("no %s in %v", s, sans)
		}
	}
	m.setCur(n)
	return m
}

// TestCommentKeys: ; opens the comment dialog on the shown move; what is
// typed (ctrl+j for a new line, a blank line between comments) is the
// comment on enter, shown in the move list without braces; ; again edits
// it, an empty text deletes it, esc changes nothing; at the start it is
// the comment before the first move; ctrl+z undoes each change.
func TestCommentKeys(t *testing.T) {
	m := annotating(t, Options{})
	orig := movetextOf(t, m)
	m = send(m, press("right"), press(";"))
	d, ok := m.dialog.(*commentDialog)
	if !ok {
		t.Fatalf("; opened %T", m.dialog)
	}
	m = typeText(m, "Best by")
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlJ})
	m = typeText(m, "test.")
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlJ}, tea.KeyMsg{Type: tea.KeyCtrlJ})
	m = typeText(m, "Second.")
	golden(t, "comment-dialog", m.View())
	if d.ta.Value() != "Best by\ntest.\n\nSecond." {
		t.Fatalf("typed %q", d.ta.Value())
	}
	m = send(m, press("enter"))
	if got := movetextOf(t, m); got != "1. e4 {Best by test.} {Second.} 1... e5 (1... c5 2. Nf3 (2. Nc3 Nc6)) 2. Nf3 *" {
		t.Fatalf("after the comment: %s", got)
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Best by test.") || strings.Contains(v, "{") {
		t.Errorf("the comment is not in the move list as text:\n%s", v)
	}
	// Opened again: the text as typed, paragraphs kept; esc keeps it.
	m = send(m, press(";"))
	if d := m.dialog.(*commentDialog); d.ta.Value() != "Best by test.\n\nSecond." {
		t.Errorf("editing shows %q", d.ta.Value())
	}
	m = send(m, press("esc"))
	// Emptied: deleted.
	m = send(m, press(";"))
	m.dialog.(*commentDialog).ta.SetValue("  ")
	m = send(m, press("enter"))
	if len(m.cur.After) != 0 || !strings.Contains(m.message, "comment deleted") {
		t.Errorf("emptied comment: %q, message %q", m.cur.After, m.message)
	}
	// Before the first move.
	m = send(m, press("up"), press(";"))
	if d := m.dialog.(*commentDialog); d.title != "Comment before the first move" {
		t.Errorf("at the start the dialog is %q", d.title)
	}
	m = typeText(m, "A game.")
	m = send(m, press("enter"))
	if got := movetextOf(t, m); !strings.HasPrefix(got, "{A game.} 1. e4 e5") {
		t.Errorf("comment before the first move: %s", got)
	}
	// Three changes, three undos.
	for i := 0; i < 3; i++ {
		m = send(m, tea.KeyMsg{Type: tea.KeyCtrlZ})
	}
	if got := movetextOf(t, m); got != orig || m.cur.SAN != "e4" {
		t.Errorf("after three undos at %q: %s", m.cur.SAN, got)
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlZ})
	if m.message != "nothing to undo" {
		t.Errorf("a fourth undo says %q", m.message)
	}
}

// TestGlyphKeys: ! opens the glyph list; a glyph typed as PGN writes it is
// set as soon as no other begins so (!? at once, ! by enter), one of each
// kind (± replaces ⩲, ? replaces !), shown after the move and written as
// $N; chosen again it goes, backspace takes them all off. ! works from
// the empty move box too.
func TestGlyphKeys(t *testing.T) {
	m := annotating(t, Options{})
	m = send(m, press("!"))
	if m.dialog != nil || !m.msgIsErr {
		t.Errorf("! at the start opened %T, message %q", m.dialog, m.message)
	}
	m = send(m, press("right"), press("!"))
	if _, ok := m.dialog.(*glyphDialog); !ok {
		t.Fatalf("! opened %T", m.dialog)
	}
	golden(t, "glyph-dialog", m.View())
	steps := []struct {
		keys []string
		want []uint8
	}{
		{[]string{"?"}, []uint8{5}}, // the dialog is open: ! ? is !?
		{[]string{"!", "+", "/", "-"}, []uint8{5, 16}},
		{[]string{"!", "+", "="}, []uint8{5, 14}},
		{[]string{"!", "?", "enter"}, []uint8{2, 14}},
		{[]string{"!", "~"}, []uint8{2, 13}},
		{[]string{"!", "~"}, []uint8{2}},
		{[]string{"!", "backspace"}, nil},
		{[]string{"!", "down", "down", "enter"}, []uint8{3}},
	}
	m = send(m, press("!"))
	for _, s := range steps {
		for _, k := range s.keys {
			m = send(m, press(k))
		}
		if !bytes.Equal(m.cur.NAGs, s.want) || m.dialog != nil {
			t.Fatalf("%q: NAGs %v, want %v (dialog %T)", s.keys, m.cur.NAGs, s.want, m.dialog)
		}
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "e4!!") {
		t.Errorf("the glyph is not in the move list:\n%s", v)
	}
	if got := movetextOf(t, m); !strings.HasPrefix(got, "1. e4 $3 e5") {
		t.Errorf("written as %s", got)
	}
	// From the move box.
	m = send(m, press("tab"), press("!"))
	if _, ok := m.dialog.(*glyphDialog); !ok {
		t.Errorf("! in the empty move box opened %T", m.dialog)
	}
}

// TestVariationKeys: P promotes the variation of the shown move one level,
// M makes it the main line, x deletes the variation, X the moves after
// the shown one, u the shown move; ctrl+z undoes them one by one back to
// the game as read, ctrl+y redoes them. In a game they refuse.
func TestVariationKeys(t *testing.T) {
	m := annotating(t, Options{})
	orig := movetextOf(t, m)
	m = goTo(t, m, "e4", "c5", "Nc3", "Nc6")
	nc6 := m.cur
	steps := []struct {
		key, want string
	}{
		{"P", "1. e4 e5 (1... c5 2. Nc3 (2. Nf3) 2... Nc6) 2. Nf3 *"},
		{"M", "1. e4 c5 (1... e5 2. Nf3) 2. Nc3 (2. Nf3) 2... Nc6 *"},
		{"M", "1. e4 c5 (1... e5 2. Nf3) 2. Nc3 (2. Nf3) 2... Nc6 *"}, // on the main line: refused
		{"left", ""},
		{"X", "1. e4 c5 (1... e5 2. Nf3) 2. Nc3 (2. Nf3) *"},
		{"]", ""},
		{"x", "1. e4 c5 (1... e5 2. Nf3) 2. Nc3 *"},
		{"u", "1. e4 e5 2. Nf3 *"},
	}
	for _, s := range steps {
		m = send(m, press(s.key))
		if s.want == "" {
			continue
		}
		if got := movetextOf(t, m); got != s.want {
			t.Fatalf("%s: %s\nwant %s", s.key, got, s.want)
		}
	}
	if !m.unsaved() {
		t.Error("the changes are not unsaved analysis")
	}
	for i := 0; i < 5; i++ {
		m = send(m, tea.KeyMsg{Type: tea.KeyCtrlZ})
	}
	if got := movetextOf(t, m); got != orig {
		t.Errorf("after undoing: %s\nwant %s", got, orig)
	}
	// ctrl+y redoes them all, then has nothing more to redo.
	for i := 0; i < 5; i++ {
		m = send(m, tea.KeyMsg{Type: tea.KeyCtrlY})
	}
	if got := movetextOf(t, m); got != "1. e4 e5 2. Nf3 *" {
		t.Errorf("after redoing: %s", got)
	}
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlY})
	if m.message != "nothing to redo" {
		t.Errorf("a sixth redo says %q", m.message)
	}
	for i := 0; i < 5; i++ {
		m = send(m, tea.KeyMsg{Type: tea.KeyCtrlZ})
	}
	if m = goTo(t, m, "e4", "c5", "Nc3", "Nc6"); m.cur != nc6 {
		t.Error("undo made new nodes")
	}

	// In a game: refused, the game unchanged.
	g := newTestModel(t, Options{Mode: TwoHumans})
	g = playAll(t, g, "e4", "e5")
	g = send(g, press("esc"), press("x"))
	if !g.msgIsErr || !strings.Contains(g.message, "is for analysis") {
		t.Errorf("x in a game: %q", g.message)
	}
	g = send(g, tea.KeyMsg{Type: tea.KeyCtrlZ})
	if !strings.Contains(g.message, "undo is for analysis") || g.cur.Ply() != 2 {
		t.Errorf("ctrl+z in a game: %q at ply %d", g.message, g.cur.Ply())
	}
}

// TestCommentInEditor: ctrl+e in the comment dialog hands the text to
// $EDITOR and takes back what the editor saved; without an editor the
// dialog stays, with the text, and the board says why.
func TestCommentInEditor(t *testing.T) {
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "")
	m := annotating(t, Options{})
	m = send(m, press("right"), press(";"))
	m = typeText(m, "typed")
	m = send(m, tea.KeyMsg{Type: tea.KeyCtrlE})
	d, ok := m.dialog.(*commentDialog)
	if !ok || d.ta.Value() != "typed" || !strings.Contains(m.message, "no $EDITOR") {
		t.Fatalf("without an editor: dialog %T, message %q", m.dialog, m.message)
	}

	// An editor that appends a line to the file it is given.
	script := filepath.Join(t.TempDir(), "ed.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '\\n\\nfrom the editor\\n' >> \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("EDITOR", script)
	nm, cmd := m.Update(tea.KeyMsg{Type: tea.KeyCtrlE})
	m = nm.(Model)
	if cmd == nil || m.dialog != nil {
		t.Fatalf("with an editor: command %v, dialog %T", cmd != nil, m.dialog)
	}
	// What the command runs, run here.
	c, done, err := editorCommand(editor(), m.cur, "typed")
	if err != nil {
		t.Fatal(err)
	}
	msg := done(c.Run())
	if _, err := os.Stat(c.Args[len(c.Args)-1]); !os.IsNotExist(err) {
		t.Errorf("the temporary file is left: %v", err)
	}
	m = send(m, msg)
	if got := m.cur.After; len(got) != 2 || got[0] != "typed" || got[1] != "from the editor" {
		t.Errorf("after the editor: %q (%s)", got, m.message)
	}
	// A failing editor changes nothing.
	c, done, _ = editorCommand([]string{"false"}, m.cur, "x")
	m = send(m, done(c.Run()))
	if !m.msgIsErr || len(m.cur.After) != 2 {
		t.Errorf("a failing editor: %q, %q", m.message, m.cur.After)
	}
}

// TestAnnotationsSavedAndKept: a comment, a glyph and a promoted
// variation are saved as standard PGN that reads back as the same tree
// and writes back byte for byte (what `squall pgn --reformat` does), and
// the unsaved-analysis session file keeps them before any save.
func TestAnnotationsSavedAndKept(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(dir, "session.json")
	m := annotating(t, Options{Session: session})
	defer func() { m.Close() }()
	m = send(m, press("right"), press(";"))
	m = typeText(m, "King's pawn {braces} and ; too")
	m = send(m, press("enter"), press("!"), press("!"), press("?"))
	m = goTo(t, m, "e4", "c5", "Nf3")
	m = send(m, press("P"), press("!"), press("+"), press("/"), press("-"))
	want := "1. e4 $5 ;King's pawn {braces} and ; too\n1... c5 (1... e5 2. Nf3) 2. Nf3 $16 (2. Nc3 Nc6) *"
	_, moves, _ := strings.Cut(m.tree.Export().String(), "\n\n")
	if strings.TrimSpace(moves) != want {
		t.Fatalf("movetext:\n%s\nwant\n%s", moves, want)
	}
	m.sessions.close() // flushed, as after a crash
	b, err := os.ReadFile(session)
	if err != nil || !strings.Contains(string(b), "$5 ;King's pawn") || !strings.Contains(string(b), "$16") {
		t.Fatalf("the session file lacks the annotations: %v\n%s", err, b)
	}
	m.sessions = newAutosaver(session)

	path := filepath.Join(dir, "annotated.pgn")
	m = saveThroughModel(t, m, path)
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	back, err := readTestPGN(t, path)
	if err != nil || len(back) != 1 {
		t.Fatalf("read back: %d games, %v", len(back), err)
	}
	if got, w := dumpTree(dropAddedOpening(back[0], m.tree)), dumpTree(m.tree); got != w {
		t.Errorf("read back:\n%s\nwant\n%s", got, w)
	}
	var again bytes.Buffer
	if err := pgn.Write(&again, back[0].Game); err != nil {
		t.Fatal(err)
	}
	if again.String() != string(saved) {
		t.Errorf("rewritten:\n%s\nsaved:\n%s", again.String(), saved)
	}
}

// TestAnnotatedGameAutosaved: a comment and a glyph given in a game, in
// play or ended, are in the autosave at once, as its moves are: quitting
// a game does not ask (it is not unsaved analysis), so they must be there.
func TestAnnotatedGameAutosaved(t *testing.T) {
	autosave := filepath.Join(t.TempDir(), "games.pgn")
	m := newTestModel(t, Options{Mode: TwoHumans, Autosave: autosave})
	m = playAll(t, m, "f3", "e5", "g4", "Qh4#")
	m = send(m, press("esc"), press(";"))
	m = typeText(m, "Fool's mate.")
	m = send(m, press("enter"), press("!"), press("!"), press("!"))
	m.Close()
	b, err := os.ReadFile(autosave)
	if err != nil || !strings.Contains(string(b), "2. g4 Qh4# $3 {Fool's mate.} 0-1") {
		t.Errorf("the autosave: %v\n%s", err, b)
	}
}

// TestUndoAfterReopen: a finished game opened as analysis (u, y) has
// nothing to undo: ctrl+z must not take the game's own moves back one by
// one (u does that, asked for).
func TestUndoAfterReopen(t *testing.T) {
	m := newTestModel(t, Options{Mode: TwoHumans})
	m = playAll(t, m, "f3", "e5", "g4", "Qh4#")
	m = send(m, press("esc"), press("u"), press("y"), tea.KeyMsg{Type: tea.KeyCtrlZ})
	if m.mode != Analysis || m.message != "nothing to undo" || len(m.tree.Mainline()) != 4 {
		t.Errorf("ctrl+z after reopening: mode %v, %q, %d moves", m.mode, m.message, len(m.tree.Mainline()))
	}
}
