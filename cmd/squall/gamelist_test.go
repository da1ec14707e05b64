package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui/gamelist"
	"github.com/squall-chess/squall/tui/view"
)

// listed drives the board's game list of file as a user would (/, the
// filter typed, enter) and returns the games it then shows, in the file's
// order, as the one PGN writer writes them.
func listed(t *testing.T, file, query string) string {
	t.Helper()
	l := gamelist.New(view.Env{Renderer: lipgloss.NewRenderer(&bytes.Buffer{}), Theme: themes.Monochrome()}, file)
	var drive func(cmd tea.Cmd)
	drive = func(cmd tea.Cmd) {
		for cmd != nil {
			msg := cmd()
			if batch, ok := msg.(tea.BatchMsg); ok {
				for _, c := range batch {
					drive(c)
				}
				return
			}
			_, cmd = l.Update(msg)
		}
	}
	drive(l.Init())
	keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune{'/'}}}
	for _, r := range query {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	keys = append(keys, tea.KeyMsg{Type: tea.KeyEnter})
	for _, k := range keys {
		_, cmd := l.Update(k)
		drive(cmd)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := pgn.Index(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	for _, num := range l.Shown() {
		g, err := pgn.ReadGameAt(bytes.NewReader(data), entries[num-1], file)
		if err != nil {
			t.Fatalf("game %d: %v", num, err)
		}
		if b, err = pgn.AppendGame(b, g); err != nil {
			t.Fatal(err)
		}
	}
	return string(b)
}

// TestGameListFilterMatchesPGNFilter (issue 36, acceptance 4): filtering
// the game list by player selects the same games as squall pgn --filter
// on the same file, through the same pgn.Filter; so do the list's other
// criteria.
func TestGameListFilterMatchesPGNFilter(t *testing.T) {
	twic, games32 := testPGN("pgn-parser", "twic-01-232games.pgn"), testPGN("pgn-parser", "32games.pgn")
	for _, c := range []struct {
		file  string
		specs []string // squall pgn --filter's
		query string   // the same, typed in the list
	}{
		{twic, []string{"player=carlsen"}, "carlsen"},
		{twic, []string{"player=Nakamura"}, "player=Nakamura"},
		{twic, []string{"player=so,w", "player=carlsen"}, "player=so,w player=carlsen"},
		{twic, []string{"player=an"}, "an"},
		{twic, []string{"player=So,W"}, "So,W"},
		{games32, []string{"player=a"}, "a"},
		{twic, []string{"player=a", "elo=2700-", "eco=C"}, "a elo=2700- eco=C"},
		{twic, []string{"event=lindores", "result=1-0", "year=2020"}, "event=lindores result=1-0 year=2020"},
	} {
		args := []string{c.file}
		for _, s := range c.specs {
			args = append(args, "--filter", s)
		}
		var stdout, stderr bytes.Buffer
		if code := run(append([]string{"pgn"}, args...), &stdout, &stderr); code != 0 {
			t.Fatalf("squall pgn %q: exit %d\n%s", args, code, stderr.String())
		}
		want := stdout.String()
		n := strings.Count(want, "[Event ")
		if n < 3 || n == strings.Count(exportOf(t, func(*pgn.Game) bool { return true }, c.file), "[Event ") {
			t.Fatalf("%q selects %d games: the test proves little", c.specs, n)
		}
		if got := listed(t, c.file, c.query); got != want {
			t.Errorf("list %q: %d games, squall pgn --filter %q: %d", c.query, strings.Count(got, "[Event "), c.specs, n)
		}
	}
}

// TestGameListPositionMatchesPGNFilter (issue 36, find by position): the
// game list filtered to a position (the board's Y, or fen= typed) shows
// the same games as squall pgn --filter fen= on the same file: exact
// position, any move order, the same rule (pgn.Game.ReachesAt).
func TestGameListPositionMatchesPGNFilter(t *testing.T) {
	twic, games32 := testPGN("pgn-parser", "twic-01-232games.pgn"), testPGN("pgn-parser", "32games.pgn")
	for _, c := range []struct {
		file, moves, also string
	}{
		{twic, "1. e4 e5 2. Nf3 Nc6 3. Bb5", ""},
		{twic, "1. d4 Nf6 2. c4 e6", ""},
		{twic, "1. Nf3 Nf6 2. c4", ""}, // 1. c4 Nf6 2. Nf3 reaches it too
		{twic, "1. e4 c5", "player=carlsen"},
		{games32, "1. e4", ""},
	} {
		g, err := pgn.NewReader(strings.NewReader(c.moves+" *\n"), "").Next()
		if err != nil {
			t.Fatal(err)
		}
		line := g.Mainline()
		p, err := g.PositionAfter(line[len(line)-1])
		if err != nil {
			t.Fatal(err)
		}
		fen := p.FEN()
		args := []string{"pgn", c.file, "--filter", "fen=" + fen}
		query := "fen=" + fen
		if c.also != "" {
			args = append(args, "--filter", c.also)
			query = c.also + " " + query
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("squall %q: exit %d\n%s", args, code, stderr.String())
		}
		want := stdout.String()
		if n := strings.Count(want, "[Event "); n < 2 {
			t.Fatalf("%s: %d games reach it: the test proves little", c.moves, n)
		}
		if got := listed(t, c.file, query); got != want {
			t.Errorf("list %q: %d games, squall pgn --filter: %d", query, strings.Count(got, "[Event "), strings.Count(want, "[Event "))
		}
	}
}
