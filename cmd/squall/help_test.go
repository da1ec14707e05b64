package main

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/squall-chess/squall/engine/epd"
	"github.com/squall-chess/squall/themes"
	"github.com/squall-chess/squall/tui"
)

// TestHelpAndMisspeltFlags: every command's -h prints its usage on stdout
// and exits 0; a misspelt flag is answered in two lines on stderr — the
// error and where to look — not with the whole usage (21 lines before).
func TestHelpAndMisspeltFlags(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" || sub.Name() == "completion" {
				continue
			}
			p := append(append([]string(nil), path...), sub.Name())
			paths = append(paths, p)
			walk(sub, p)
		}
	}
	walk(newRoot(), nil)
	paths = append(paths, nil) // squall itself: the board
	if len(paths) < 18 {
		t.Fatalf("only %d commands: %v", len(paths), paths)
	}
	for _, path := range paths {
		name := strings.Join(append([]string{"squall"}, path...), " ")
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(append(path, "-h"), &out, &errOut); code != 0 || out.Len() == 0 || errOut.Len() != 0 {
				t.Errorf("%s -h: exit %d, %d bytes on stdout, stderr %q", name, code, out.Len(), errOut.String())
			}
			if !strings.Contains(out.String(), "squall") {
				t.Errorf("%s -h does not name the command:\n%s", name, out.String())
			}
			out.Reset()
			errOut.Reset()
			code := run(append(path, "--no-such-flag"), &out, &errOut)
			lines := strings.Split(strings.TrimRight(errOut.String(), "\n"), "\n")
			if code != 1 || len(lines) > 2 || !strings.Contains(lines[0], "no-such-flag") || !strings.Contains(errOut.String(), name+" -h'") {
				t.Errorf("%s --no-such-flag: exit %d, stderr:\n%s", name, code, errOut.String())
			}
		})
	}
}

// TestBoardHelpListsItsOptions: plain squall is the board, so squall -h
// lists the board's own options beside the commands.
func TestBoardHelpListsItsOptions(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"--theme", "--clock", "--engine", "--broadcast", "suite", "match", "completion"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("squall -h lacks %q:\n%s", want, out.String())
		}
	}
}

// TestFlagsAfterArguments: flags may follow the positional arguments, as
// `squall book probe BOOK --fen …` does (it failed with the flag package).
func TestFlagsAfterArguments(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"perft", "2", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"}, &out, &errOut)
	if code != 0 || !strings.Contains(out.String(), "Nodes searched: 9\n") {
		t.Errorf("perft 2 --fen …: exit %d\n%s%s", code, out.String(), errOut.String())
	}
}

// TestMisspeltCommand: an argument that is neither a PGN file nor a
// command is a misspelt command, with a suggestion, not a file to open —
// with more arguments after it too (`squall prft 3` said "want at most
// one PGN file"); a misspelt flag suggests the flag meant.
func TestMisspeltCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"sutie"}, `squall: unknown command "sutie"; did you mean "suite"?`},
		{[]string{"prft", "3"}, `squall: unknown command "prft"; did you mean "perft"?`},
		{[]string{"book", "biuld"}, `squall book: unknown command "biuld"; did you mean "build"?`},
		{[]string{"serve", "exprot"}, `squall serve: unknown command "exprot"; did you mean "export"?`},
		{[]string{"--levle", "3"}, `squall: unknown flag --levle; did you mean --level?`},
		{[]string{"perft", "--fne", "8/8/8/8/8/8/8/K6k w - - 0 1", "1"}, `squall perft: unknown flag --fne; did you mean --fen?`},
		{[]string{"match", "--game", "2"}, `squall match: unknown flag --game; did you mean --games?`},
	} {
		var out, errOut bytes.Buffer
		code := run(c.args, &out, &errOut)
		lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
		if code != 1 || lines[0] != c.want || len(lines) > 2 {
			t.Errorf("squall %s: exit %d, stderr:\n%s\nwant first line %s", strings.Join(c.args, " "), code, errOut.String(), c.want)
		}
	}
}

// TestRangeErrors: a number outside its range is refused with the range
// in the error, on every command (--multipv 9 was clamped to 5 silently
// while --level 9 said "want 1-8").
func TestRangeErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--multipv", "9"}, "squall: --multipv 9: out of range 1–5"},
		{[]string{"--multipv", "0"}, "squall: --multipv 0: out of range 1–5"},
		{[]string{"--level", "9"}, "squall: --level 9: out of range 1–8"},
		{[]string{"tui", "--level", "x"}, "squall tui: --level x: not a whole number"},
		{[]string{"perft", "25"}, "squall perft: DEPTH 25: out of range 1–20"},
		{[]string{"bench", "0"}, "squall bench: DEPTH 0: out of range 1–100"},
		{[]string{"bench", "--threads", "0", "1"}, "squall bench: --threads 0: out of range: at least 1"},
		{[]string{"match", "--concurrency", "0"}, "squall match: --concurrency 0: out of range: at least 1"},
		{[]string{"suite", "wac", "--threads", "0"}, "squall suite: --threads 0: out of range: at least 1"},
		{[]string{"review", "x.pgn", "--hash", "0"}, "squall review: --hash 0: out of range: at least 1"},
		{[]string{"suite", "wac", "--depth", "-1"}, "squall suite: --depth -1: out of range: at least 1"},
		{[]string{"datagen", "--threads", "0"}, "squall datagen: --threads 0: out of range: at least 1"},
		{[]string{"train", "--lambda", "2"}, "squall train: --lambda 2: out of range 0–1"},
		{[]string{"tune", "--lambda", "-0.5"}, "squall tune: --lambda -0.5: out of range 0–1"},
		{[]string{"endgames", "--count", "0"}, "squall endgames: --count 0: out of range: at least 1"},
	} {
		var out, errOut bytes.Buffer
		code := run(c.args, &out, &errOut)
		if first, _, _ := strings.Cut(errOut.String(), "\n"); code != 1 || first != c.want {
			t.Errorf("squall %s: exit %d, stderr:\n%s\nwant first line %s", strings.Join(c.args, " "), code, errOut.String(), c.want)
		}
	}
}

// TestCompletion: the shell completions come from the same definitions.
func TestCompletion(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"completion", "bash"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "__start_squall") {
		t.Errorf("completion bash: exit %d, %d bytes, stderr %q", code, out.Len(), errOut.String())
	}
	out.Reset()
	// Cobra's hidden completion request: the flags of `squall match`.
	if code := run([]string{"__complete", "match", "--ga"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "--games") {
		t.Errorf("completing match --ga: exit %d:\n%s", code, out.String())
	}
}

// helpPaths are the command lines of every command: squall itself, each
// subcommand of newRoot's tree, and cobra's own help and completion.
func helpPaths() [][]string {
	paths := [][]string{nil, {"help"}, {"completion"}, {"completion", "bash"}}
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		for _, sub := range c.Commands() {
			if sub.Hidden {
				continue
			}
			p := append(append([]string(nil), path...), sub.Name())
			paths = append(paths, p)
			walk(sub, p)
		}
	}
	walk(newRoot(), nil)
	return paths
}

// severalEngines are the commands that take more than one engine: only
// their --engine says it may be repeated, and only their --option numbers
// the engine.
var severalEngines = map[string]bool{"squall match": true, "squall endgames": true}

// singleDash is a flag written with one dash (-material) in help text.
var singleDash = regexp.MustCompile(`(^|[\s(,"'])-[a-z][a-z0-9]+(-[a-z0-9]+)*\b`)

// TestHelpText: every command's -h starts with a capitalised sentence
// (and its Short with a capital),
// states no default twice, shows a placeholder after every flag that takes
// a value (pflag's: the back-quoted word of the usage, else the value's
// type, in capitals: --board SIZE, --engine CMD) and none after a switch,
// shows each usage as written (fang capitalises the first word: "PGN file"
// must not become "Pgn file"), writes flags with two dashes, and says
// --engine is repeatable only where the command takes several engines.
func TestHelpText(t *testing.T) {
	for _, path := range helpPaths() {
		name := strings.Join(append([]string{"squall"}, path...), " ")
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run(append(path, "-h"), &out, &errOut); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			help := out.String()
			first := strings.TrimSpace(help)
			if r, _ := utf8.DecodeRuneInString(first); !unicode.IsUpper(r) {
				t.Errorf("help starts %q, not with a capital", strings.SplitN(first, "\n", 2)[0])
			}
			if m := singleDash.FindString(help); m != "" {
				t.Errorf("help writes a flag with one dash: %q", strings.TrimSpace(m))
			}
			cmd, _, err := newRoot().Find(path)
			if err != nil || len(path) > 0 && path[0] == "completion" || len(path) > 0 && path[0] == "help" {
				return // cobra's own commands: only the text above is checked
			}
			// A command's Short is shown in its parent's list (capitalised
			// there by fang) and as its own help without a Long: capitals
			// in the source, the same on every command.
			if r, _ := utf8.DecodeRuneInString(cmd.Short); !unicode.IsUpper(r) {
				t.Errorf("Short %q does not start with a capital", cmd.Short)
			}
			cmd.InitDefaultHelpFlag()
			cmd.Flags().VisitAll(func(f *pflag.Flag) {
				line := helpLine(help, "--"+f.Name)
				if line == "" {
					t.Errorf("--%s: no line in the help", f.Name)
					return
				}
				placeholder, _ := pflag.UnquoteUsage(f)
				switch {
				case f.NoOptDefVal != "": // a switch
					if strings.Contains(f.Usage, "`") {
						t.Errorf("switch --%s shows a placeholder: %s", f.Name, line)
					}
				case placeholder == "" || placeholder != strings.ToUpper(placeholder) || !strings.Contains(line, "--"+f.Name+" "+placeholder+" "):
					t.Errorf("--%s shows no value placeholder: %s", f.Name, line)
				}
				if _, usage := pflag.UnquoteUsage(f); !strings.Contains(line, upperFirst(usage)) {
					t.Errorf("--%s: the help line does not read %q: %s", f.Name, upperFirst(usage), line)
				}
				if strings.Contains(strings.ToLower(line), "default") && strings.HasSuffix(line, " ("+f.DefValue+")") {
					t.Errorf("--%s states its default twice: %s", f.Name, line)
				}
				if f.Name == "engine" && strings.Contains(f.Usage, "repeatable") != severalEngines[name] {
					t.Errorf("--engine on %s (several engines: %v): %s", name, severalEngines[name], line)
				}
			})
		})
	}
}

// helpLine is the line of help's FLAGS section that describes flag
// (--name), trimmed.
func helpLine(help, flag string) string {
	_, flags, _ := strings.Cut(help, "\n  FLAGS")
	for _, l := range strings.Split(flags, "\n") {
		l = strings.TrimSpace(l)
		if _, rest, ok := strings.Cut(l, " "); ok && len(l) > 1 && l[1] != '-' {
			l = rest // -h --help
		}
		if l == flag || strings.HasPrefix(l, flag+" ") {
			return l
		}
	}
	return ""
}

// upperFirst is s with its first letter a capital, the rest as written.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// TestCompletionValues: the shell completes the values of the flags and
// arguments that have a fixed set — themes, modes, levels, suites.
func TestCompletionValues(t *testing.T) {
	levels := make([]string, len(tui.Levels))
	for i := range levels {
		levels[i] = strconv.Itoa(i + 1)
	}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--theme", ""}, themes.Names()},
		{[]string{"tui", "--theme", ""}, themes.Names()},
		{[]string{"--mode", ""}, []string{"engine", "watch", "humans", "analysis"}},
		{[]string{"--level", ""}, levels},
		{[]string{"--pieces", ""}, []string{"glyphs", "letters"}},
		{[]string{"--board", ""}, []string{"auto", "small", "large"}},
		{[]string{"suite", ""}, epd.Bundled()},
	} {
		var out, errOut bytes.Buffer
		if code := run(append([]string{"__complete"}, c.args...), &out, &errOut); code != 0 {
			t.Errorf("__complete %q: exit %d: %s", c.args, code, errOut.String())
			continue
		}
		got := map[string]bool{}
		for _, l := range strings.Split(out.String(), "\n") {
			v, _, _ := strings.Cut(l, "\t")
			got[v] = true
		}
		var missing []string
		for _, w := range c.want {
			if !got[w] {
				missing = append(missing, w)
			}
		}
		if len(missing) > 0 {
			t.Errorf("completing %q: %q not offered; the completion:\n%s", strings.Join(c.args, " "), missing, out.String())
		}
	}
}
