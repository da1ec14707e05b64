// Package tuitest holds what the tests of the board and of its views share:
// a renderer that writes exact escape sequences, key presses, golden files
// and a check that no goroutine outlives a test.
package tuitest

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"
)

// Patience bounds a wait for something that must happen (a search to
// start on another goroutine): generous for a loaded machine, and never
// reached when the code is right.
const Patience = 15 * time.Second

// Updating reports whether -update was given: rewrite the golden files.
// The flag is x/exp/golden's (teatest imports it), so one -update rewrites
// both kinds of golden file; it is registered here only if that package is
// ever dropped.
func Updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

// Renderer renders in profile p into a buffer, so golden files show the
// exact escape sequences a terminal of that profile gets.
func Renderer(p termenv.Profile) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(&strings.Builder{}, termenv.WithProfile(p))
	r.SetColorProfile(p)
	r.SetHasDarkBackground(true)
	return r
}

// Press is the key message of a key name ("enter", "esc", "left", …) or
// of the runes of s.
func Press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// GoldenDir is where a package's golden files are, absolute so that a test
// may change its working directory.
func GoldenDir() string {
	dir, _ := filepath.Abs(filepath.Join("testdata", "golden"))
	return dir
}

// Golden compares a view with dir/name.golden (escape codes kept) and the
// plain text with name.txt, for a reader of the diff; with -update it
// writes them.
func Golden(t *testing.T, dir, name, view string) {
	t.Helper()
	plain := ansi.Strip(view)
	for _, f := range []struct{ ext, data string }{{".golden", view}, {".txt", plain}} {
		path := filepath.Join(dir, name+f.ext)
		if Updating() {
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(path, []byte(f.data), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run the test with -update)", err)
		}
		if string(want) != f.data {
			t.Errorf("%s differs from %s; got:\n%s", name, path, plain)
			return
		}
	}
}

// WaitGoroutines fails the test if goroutines with a frame in the package
// pkg (searches, their wait commands, an autosave writer) outlive what the
// test ran. teatest keeps a SIGINT watcher per test model, so a bare count
// of goroutines cannot return to its baseline.
func WaitGoroutines(t *testing.T, pkg string) {
	t.Helper()
	deadline := time.Now().Add(Patience)
	for {
		left := Goroutines(pkg)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines still run %s code:\n%s", len(left), pkg, strings.Join(left, "\n\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Goroutines are the stacks of goroutines, other than running tests, that
// have a frame in the package pkg (its import path).
func Goroutines(pkg string) []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, pkg+".") && !strings.Contains(g, "testing.tRunner") {
			out = append(out, g)
		}
	}
	return out
}

// Run runs cmd and the commands its messages lead to, and theirs, until
// none is left, as bubbletea would run them (every command of a batch in
// turn): update takes each message and returns its command. A view's or a
// board's background work (searches one after another) runs to its end.
// Commands that only wait (ticks, a blinking cursor) must not be among
// them.
func Run(t testing.TB, cmd tea.Cmd, update func(tea.Msg) tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100_000 {
			t.Fatal("commands without end")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if b, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, b...)
			continue
		}
		queue = append(queue, update(msg))
	}
}

// WaitScreen waits until the program's output, escape codes stripped,
// matches re.
func WaitScreen(t *testing.T, tm *teatest.TestModel, re *regexp.Regexp) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return re.MatchString(ansi.Strip(string(b))) },
		teatest.WithDuration(Patience), teatest.WithCheckInterval(10*time.Millisecond))
}
