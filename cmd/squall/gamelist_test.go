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
	drive := func(cmd tea.Cmd) {
		for cmd != nil {
			_, cmd = l.Update(cmd())
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
