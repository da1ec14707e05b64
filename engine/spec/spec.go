// Package spec names an engine the one way every command takes it: the
// built-in searcher ("squall") or an external UCI engine's command line,
// plus Name=Value options, and starts it with one factory. The board,
// suite, review, match, datagen, endgames and serve all read --engine and
// --option through it, so a bad option gives the same one-line error on
// each.
package spec

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/search"
	"github.com/squall-chess/squall/engine/uci"
)

// Builtin is the command that means Squall's own searcher, in process.
const Builtin = "squall"

// startTimeout bounds an external engine's start: the process, "uci" …
// "uciok" and the options' "isready" … "readyok".
const startTimeout = 15 * time.Second

// Option is one Name=Value engine setting.
type Option struct{ Name, Value string }

func (o Option) String() string { return o.Name + "=" + o.Value }

// ParseOption reads "Name=Value". The value may be empty (a string option
// cleared) and may contain '='; the name may not be empty.
func ParseOption(s string) (Option, error) {
	k, v, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return Option{}, fmt.Errorf("option %q is not Name=Value", engine.Clip(s, quoted))
	}
	return Option{Name: strings.TrimSpace(k), Value: strings.TrimSpace(v)}, nil
}

// Spec is one engine and the options to set on it.
type Spec struct {
	// Command is Builtin or a command line (program and arguments, quoted
	// as a shell would for simple cases: "lc0 --weights='my net.pb'").
	Command string
	// Options are set in order, after the command's own defaults
	// (Threads, Hash) and before the first search.
	Options []Option
	// Nice, from 1 to 19, runs an external engine at a lower scheduling
	// priority (uci.Config.Nice); the built-in engine, which shares this
	// process, cannot be: run Squall's own binary ("squall uci") instead.
	Nice int
}

// Parse checks a command: empty is an error, Builtin (in any case) is the
// built-in engine, anything else must split into a program and arguments.
func Parse(command string) (Spec, error) {
	command = strings.TrimSpace(command)
	if command == "" {
		return Spec{}, fmt.Errorf("engine command is empty (%q for the built-in engine)", Builtin)
	}
	if strings.EqualFold(command, Builtin) {
		return Spec{Command: Builtin}, nil
	}
	if _, _, err := uci.ParseCommand(command); err != nil {
		return Spec{}, err
	}
	return Spec{Command: command}, nil
}

// IsBuiltin reports whether s is Squall's own searcher.
func (s Spec) IsBuiltin() bool { return s.Command == "" || strings.EqualFold(s.Command, Builtin) }

// String is the command as the user gave it ("squall" for the built-in).
func (s Spec) String() string {
	if s.IsBuiltin() {
		return Builtin
	}
	return s.Command
}

// Open starts the engine and sets its options. defaults are the command's
// own settings (--threads, --hash): each is set only on an engine that
// declares it, before the spec's options, which may override it. An
// option the engine does not have, or a value its declared type or range
// refuses, is an error naming the engine, the option and the value, and
// the engine is closed: nothing searches with settings other than those
// asked for.
func (s Spec) Open(ctx context.Context, defaults ...Option) (engine.Analyzer, error) {
	var a engine.Analyzer
	if s.IsBuiltin() {
		if s.Nice != 0 {
			return nil, fmt.Errorf("the built-in engine runs in this process and cannot be niced: run it as %q", "squall uci")
		}
		a = search.New()
	} else {
		path, args, err := uci.ParseCommand(s.Command)
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithTimeout(ctx, startTimeout)
		defer cancel()
		c, err := uci.Start(ctx, uci.Config{Path: path, Args: args, Nice: s.Nice})
		if err != nil {
			return nil, err // it names the engine
		}
		a = c
	}
	var own []Option
	for _, o := range defaults {
		if Has(a, o.Name) {
			own = append(own, o)
		}
	}
	if err := Apply(a, append(own, s.Options...)); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// Apply sets opts on a, checking each against the option the engine
// declares (Check). The error is one line: "engine NAME: option X: …".
func Apply(a engine.Analyzer, opts []Option) error {
	declared := a.Options()
	for _, o := range opts {
		c, err := Check(declared, o)
		if err != nil {
			return fmt.Errorf("engine %s: %w", engine.Clip(a.Name(), quoted), err)
		}
		if err := a.SetOption(c.Name, c.Value); err != nil {
			return fmt.Errorf("engine %s: option %s: %w", engine.Clip(a.Name(), quoted), c.Name, err)
		}
	}
	return nil
}

// Check checks o against the options an engine declares: the name must
// be one of them (in any case) and the value one its type and range
// take (engine.Option.Check). It returns o as the engine spells it, the
// value in its canonical form. Apply checks every option through it, and
// a screen that lets the user set options checks each as it is typed,
// so the reasons are the same everywhere.
func Check(declared []engine.Option, o Option) (Option, error) {
	i := indexOption(declared, o.Name)
	if i < 0 {
		return Option{}, fmt.Errorf("no option %q", engine.Clip(o.Name, quoted))
	}
	d := declared[i]
	v, err := d.Check(o.Value)
	if err != nil {
		return Option{}, err
	}
	return Option{Name: d.Name, Value: v}, nil
}

// Has reports whether a declares an option called name (in any case).
func Has(a engine.Analyzer, name string) bool { return indexOption(a.Options(), name) >= 0 }

func indexOption(opts []engine.Option, name string) int {
	for i, o := range opts {
		if strings.EqualFold(o.Name, name) {
			return i
		}
	}
	return -1
}

// Int is an option with an integer value, for a command's defaults:
// Int("Threads", 2). It is nil when n is not above zero (the flag unset).
func Int(name string, n int) []Option {
	if n <= 0 {
		return nil
	}
	return []Option{{name, strconv.Itoa(n)}}
}

// quoted bounds the text this package's errors quote (engine.Clip).
const quoted = 60
