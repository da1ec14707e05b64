package spec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/squall-chess/squall/engine"
)

// Flags are the --engine and --option flags, the same on every command.
// --engine is repeated where a command takes several engines (match:
// first, second); --option is "Name=Value", or there "N:Name=Value", N the
// engine's number (1 when omitted).
type Flags struct {
	engines commands
	options options
}

// Register adds --engine and --option to fs for a command that takes one
// engine. what says what the engine is for, in the help ("the engine to
// play with").
func (f *Flags) Register(fs *pflag.FlagSet, what string) {
	fs.Var(&f.engines, "engine", what+`: "squall" (built in) or a UCI command line`)
	f.RegisterOptions(fs)
}

// RegisterEngines adds --engine and --option to fs for a command that
// takes several engines, --engine once for each, in order. what says what
// they are ("the engines, first then second").
func (f *Flags) RegisterEngines(fs *pflag.FlagSet, what string) {
	f.options.several = true
	fs.Var(&f.engines, "engine", what+`: "squall" (built in) or a UCI command line; repeatable, once per engine`)
	fs.Var(&f.options, "option", "engine option `[N:]NAME=VALUE`, N the engine's number (default 1); repeatable")
}

// RegisterOptions adds only --option to fs, for a command whose engine is
// always the built-in one (bench).
func (f *Flags) RegisterOptions(fs *pflag.FlagSet) {
	fs.Var(&f.options, "option", "engine option `NAME=VALUE`; repeatable")
}

// AddCommand appends an engine given by an alias flag (datagen's --uci).
func (f *Flags) AddCommand(command string) error { return f.engines.Set(command) }

// Given is the number of --engine flags given.
func (f *Flags) Given() int { return len(f.engines) }

// AddOption appends an option given by an alias flag (-o2 Name=Value is
// --option 2:Name=Value).
func (f *Flags) AddOption(n int, s string) error {
	return f.options.Set(strconv.Itoa(n) + ":" + s)
}

// Specs resolves the flags into n engines: the commands given, in order,
// then defaults for those not given (a command's defaults: "squall", or
// match's second engine). More commands than n, an option for an engine
// past n, or a bad command is an error.
func (f *Flags) Specs(n int, defaults ...string) ([]Spec, error) {
	if len(f.engines) > n {
		return nil, fmt.Errorf("--engine given %d times; this command takes %d", len(f.engines), n)
	}
	specs := make([]Spec, n)
	for i := range specs {
		cmd := Builtin
		switch {
		case i < len(f.engines):
			cmd = f.engines[i]
		case i < len(defaults) && strings.TrimSpace(defaults[i]) != "":
			cmd = defaults[i] // an empty default (a config file's "engine = ") is the built-in
		}
		s, err := Parse(cmd)
		if err != nil {
			return nil, fmt.Errorf("--engine: %w", err)
		}
		specs[i] = s
	}
	for _, o := range f.options.list {
		if o.n > n {
			if n == 1 {
				return nil, fmt.Errorf("--option %d:%s: this command takes one engine", o.n, o.opt)
			}
			return nil, fmt.Errorf("--option %d:%s: there are %d engines", o.n, o.opt, n)
		}
		specs[o.n-1].Options = append(specs[o.n-1].Options, o.opt)
	}
	return specs, nil
}

// Spec is Specs for a command with one engine.
func (f *Flags) Spec(def string) (Spec, error) {
	s, err := f.Specs(1, def)
	if err != nil {
		return Spec{}, err
	}
	return s[0], nil
}

// commands is the repeatable --engine flag.
type commands []string

func (c *commands) String() string { return strings.Join(*c, ", ") }
func (c *commands) Set(s string) error {
	if _, err := Parse(s); err != nil {
		return err
	}
	*c = append(*c, s)
	return nil
}

// Type names the flag's value in a usage line.
func (c *commands) Type() string { return "CMD" }

// numbered is an option for engine n.
type numbered struct {
	n   int
	opt Option
}

// options is the repeatable --option flag; the engine's number is
// written only where there are several engines.
type options struct {
	list    []numbered
	several bool
}

func (o *options) String() string {
	var parts []string
	for _, x := range o.list {
		if o.several {
			parts = append(parts, fmt.Sprintf("%d:%s", x.n, x.opt))
		} else {
			parts = append(parts, x.opt.String())
		}
	}
	return strings.Join(parts, " ")
}

func (o *options) Set(s string) error {
	n := 1
	if i := strings.IndexByte(s, ':'); i > 0 && i < strings.IndexByte(s+"=", '=') {
		v, err := strconv.Atoi(s[:i])
		if err != nil || v < 1 {
			return fmt.Errorf("%q: the engine number before ':' must be 1 or more", engine.Clip(s, quoted))
		}
		n, s = v, s[i+1:]
	}
	opt, err := ParseOption(s)
	if err != nil {
		return err
	}
	o.list = append(o.list, numbered{n, opt})
	return nil
}

// Type names the flag's value where the usage back-quotes no name.
func (o *options) Type() string { return "NAME=VALUE" }
