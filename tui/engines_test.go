package tui

import (
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/engine/spec"
)

// TestEnginesConfig: the [engines] and [options.NAME] sections read back
// as written, names and option names with spaces quoted; a name resolves
// to its command with its options before the command line's.
func TestEnginesConfig(t *testing.T) {
	s := DefaultSettings()
	s.Engine, s.Beside = "stockfish", "squall"
	s.Engines = []NamedEngine{{"stockfish", "/usr/games/stockfish"}, {"my lc0", `lc0 --weights="a net.pb"`}}
	s.Options = map[string][]spec.Option{
		"stockfish": {{Name: "Skill Level", Value: "10"}, {Name: "Hash", Value: "128"}},
		"squall":    {{Name: "UseNNUE", Value: "false"}},
		"my lc0":    {{Name: "Backend", Value: "cuda"}},
	}
	text := s.String()
	for _, want := range []string{"engine = \"stockfish\"\nbeside = \"squall\"", "[engines]\nstockfish = \"/usr/games/stockfish\"\n\"my lc0\" = ",
		"[options.squall]\nUseNNUE = \"false\"", "[options.stockfish]\n\"Skill Level\" = \"10\"\nHash = \"128\"", `[options."my lc0"]`} {
		if !strings.Contains(text, want) {
			t.Errorf("written config lacks %q:\n%s", want, text)
		}
	}
	got, err := ParseSettings(strings.NewReader(text))
	if err != nil || !reflect.DeepEqual(got, s) {
		t.Fatalf("round trip: %+v, %v\nwant %+v", got, err, s)
	}
	sp, err := got.EngineSpec("stockfish")
	if err != nil || sp.Command != "/usr/games/stockfish" || len(sp.Options) != 2 || sp.Options[0].String() != "Skill Level=10" {
		t.Fatalf("EngineSpec(stockfish) = %+v, %v", sp, err)
	}
	given := got.Resolve(spec.Spec{Command: "stockfish", Options: []spec.Option{{Name: "Hash", Value: "16"}}})
	if last := given.Options[len(given.Options)-1]; last.String() != "Hash=16" {
		t.Errorf("--option does not come last, over the remembered: %v", given.Options)
	}
	if sp, _ := got.EngineSpec("/opt/other --uci"); sp.Command != "/opt/other --uci" || len(sp.Options) != 0 {
		t.Errorf("a command line not named: %+v", sp)
	}
	for _, bad := range []string{"[engines]\nsquall = \"x\"\n", "[engines]\nsf = \"\"\n", "[colours]\n", "[options.]\n", "[engines\n"} {
		if _, err := ParseSettings(strings.NewReader(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// optionEngine declares one option of every type.
func optionEngine() *enginetest.Engine {
	return &enginetest.Engine{ID: "Opt 1", Tick: time.Millisecond, MaxDepth: 3, WaitForStop: true, Opts: []engine.Option{
		{Name: "Hash", Type: "spin", Default: "16", Min: 1, Max: 1024},
		{Name: "Ponder", Type: "check", Default: "false"},
		{Name: "Style", Type: "combo", Default: "Normal", Vars: []string{"Solid", "Normal", "Risky"}},
		{Name: "Net", Type: "string", Default: ""},
		{Name: "Clear Hash", Type: "button"},
		{Name: "MultiPV", Type: "spin", Default: "1", Min: 1, Max: 500},
		{Name: "Secret", Type: "spin", Default: "1", Min: 1, Max: 2, Hidden: true},
	}}
}

// TestOptionsDialog: the dialog lists the engine's own options (not those
// the board sets, nor hidden ones); a spin out of its range is refused
// with spec.Check's reason and the dialog stays; the values set reach
// the engine before its next search, in canonical form, and are
// remembered for it in the config; a button is pressed, not remembered.
func TestOptionsDialog(t *testing.T) {
	e := optionEngine()
	cfg := t.TempDir() + "/config.toml"
	set := DefaultSettings()
	m := New(testRenderer(termenv.TrueColor), e, Options{Mode: Analysis, Settings: set, ConfigPath: cfg, Now: func() time.Time { return fixedNow }})
	m = send(m, tea.WindowSizeMsg{Width: 100, Height: 30}, press("esc"), press("U"), press("o"))
	d, ok := m.dialog.(*optionsDialog)
	if !ok {
		t.Fatalf("dialog %T; want the options dialog", m.dialog)
	}
	var names []string
	for _, o := range d.opts {
		names = append(names, o.Name)
	}
	if got := strings.Join(names, ","); got != "Hash,Ponder,Style,Net,Clear Hash" {
		t.Fatalf("options listed %s", got)
	}
	// Hash: typed over, 2000 is refused with the reason.
	m = send(m, press("2"), press("0"), press("0"), press("0"), press("enter"))
	if d, ok := m.dialog.(*optionsDialog); !ok || d.err != `option Hash: "2000" is outside 1..1024` {
		t.Fatalf("2000 not refused with its reason:\n%s", ansi.Strip(m.View()))
	}
	m = send(m, press("backspace"), press("backspace"), press("backspace"), press("backspace"), press("6"), press("4"),
		press("down"), press(" "), // Ponder on
		press("down"), press("left"), // Style Solid
		press("down"), press("n"), press("e"), press("t"), press(" "), press("1"), // Net "net 1"
		press("down"), press(" ")) // Clear Hash pressed
	if !strings.Contains(m.message, "Clear Hash pressed") {
		t.Errorf("button: message %q", m.message)
	}
	nm, cmd := m.Update(press("enter"))
	m = nm.(Model)
	if m.dialog != nil {
		t.Fatalf("dialog still open:\n%s", ansi.Strip(m.View()))
	}
	runCmds(cmd)
	got, err := LoadSettings(cfg)
	want := []spec.Option{{Name: "Hash", Value: "64"}, {Name: "Ponder", Value: "true"}, {Name: "Style", Value: "Solid"}, {Name: "Net", Value: "net 1"}}
	if err != nil || !reflect.DeepEqual(got.Options[spec.Builtin], want) {
		t.Fatalf("remembered %v, %v; want %v", got.Options, err, want)
	}
	// The analysis restarted with them set first.
	waitFor(t, func() bool { return len(e.Settings()) >= 5 })
	if s := strings.Join(e.Settings(), " "); !strings.Contains(s, "Clear Hash=") || !strings.Contains(s, "Hash=64 Ponder=true Style=Solid Net=net 1") {
		t.Errorf("engine settings %v", e.Settings())
	}
	m.Close()
}

// runCmds runs a command and those it batches, once each, dropping their
// messages: what they do is the test's (a file written).
func runCmds(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	if b, ok := cmd().(tea.BatchMsg); ok {
		for _, c := range b {
			runCmds(c)
		}
	}
}

// TestSwitchEngine: enter in the engine picker makes the chosen engine
// the board's: the analysis goes on with it, the engine it had (its
// caller's) is left open but its search stopped, and the choice is
// written to the config.
func TestSwitchEngine(t *testing.T) {
	alpha, beta := twoEngines()
	cfg := t.TempDir() + "/config.toml"
	set := DefaultSettings()
	set.Engines = []NamedEngine{{Name: "beta", Command: "beta-uci"}}
	opt := Options{Mode: Analysis, MultiPV: 2, Now: func() time.Time { return fixedNow }, Settings: set, ConfigPath: cfg,
		OpenEngine: func(context.Context, spec.Spec) (engine.Analyzer, error) { return beta, nil }}
	tm := teatest.NewTestModel(t, New(testRenderer(termenv.TrueColor), alpha, opt), teatest.WithInitialTermSize(100, 30))
	waitScreen(t, tm, regexp.MustCompile(`Alpha 1 · analysing`))
	tm.Send(press("esc"))
	tm.Send(press("U"))
	tm.Send(press("down"))
	tm.Send(press("enter"))
	waitScreen(t, tm, regexp.MustCompile(`(?s)Beta 2 · analysing.*depth 11/14`))
	quitProgram(tm)
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(patience)).(Model)
	fm.Close()
	if fm.eng != beta || fm.search.name != "beta" {
		t.Fatalf("board's engine %v (%q); want beta", fm.eng.Name(), fm.search.name)
	}
	if alpha.Closed() || !beta.Closed() {
		t.Errorf("closed: alpha %v (its caller's), beta %v (the board's)", alpha.Closed(), beta.Closed())
	}
	if got, err := LoadSettings(cfg); err != nil || got.Engine != "beta" {
		t.Errorf("config engine %q, %v; want beta", got.Engine, err)
	}
	if strings.Contains(ansi.Strip(fm.View()), "Alpha 1") {
		t.Error("Alpha's panel still drawn")
	}
}

// TestEngineTextSafe: an engine's name, option names and combo choices are
// outside text: the picker, the options dialog and the panels beside draw
// them through termtext, never their escapes.
func TestEngineTextSafe(t *testing.T) {
	evil := &enginetest.Engine{ID: "Evil\x1b]0;pwned\x07 1", Tick: time.Millisecond, MaxDepth: 2, Opts: []engine.Option{
		{Name: "Bad\x1b[2J", Type: "combo", Default: "x\x1b[31m", Vars: []string{"x\x1b[31m", "y"}},
	}}
	alpha, _ := twoEngines()
	m := New(testRenderer(termenv.TrueColor), alpha, Options{Mode: Analysis, Now: func() time.Time { return fixedNow }})
	defer func() { m.Close() }()
	m = send(m, tea.WindowSizeMsg{Width: 160, Height: 50},
		engineOpenedMsg{useEngineMsg: useEngineMsg{name: "evil\x1b[5m", beside: true}, a: evil})
	screens := []string{m.View()}
	m = send(m, press("esc"), press("U"))
	screens = append(screens, m.View())
	m = send(m, press("down"), press("o"))
	if _, ok := m.dialog.(*optionsDialog); !ok {
		t.Fatalf("dialog %T; want the options dialog", m.dialog)
	}
	screens = append(screens, m.View())
	for i, s := range screens {
		for _, bad := range []string{"\x1b]0;", "\x1b[2J", "\x1b[31m", "\x1b[5m", "\x07"} {
			if strings.Contains(s, bad) {
				t.Errorf("screen %d draws the engine's %q", i, bad)
			}
		}
	}
}
