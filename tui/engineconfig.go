package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine/spec"
)

// NamedEngine is a UCI engine the config offers by name: the engine
// picker (U) lists it, and "engine = NAME", "beside = NAME" and --engine
// NAME start it.
type NamedEngine struct {
	Name    string
	Command string // a UCI command line, as --engine takes it
}

// sectionKind is which part of the config file a line is in.
type sectionKind int

const (
	sectionTop     sectionKind = iota // the board's settings
	sectionEngines                    // [engines]: name = command line
	sectionOptions                    // [options.NAME]: option = value
)

// section is the config file's section a line is in: engine names the
// engine of an [options.NAME].
type section struct {
	kind   sectionKind
	engine string
}

// parseSection reads a section header: [engines] or [options.NAME], NAME
// bare or quoted ([options."my lc0"]).
func parseSection(line string) (section, error) {
	inner, ok := strings.CutSuffix(strings.TrimPrefix(line, "["), "]")
	inner = strings.TrimSpace(inner)
	switch {
	case !ok:
		return section{}, fmt.Errorf("section %q: want [engines] or [options.NAME]", line)
	case inner == "engines":
		return section{kind: sectionEngines}, nil
	}
	name, ok := strings.CutPrefix(inner, "options.")
	if !ok {
		return section{}, fmt.Errorf("unknown section %q: want [engines] or [options.NAME]", line)
	}
	name, rest, err := parseKey(name)
	if err != nil || rest != "" || name == "" {
		return section{}, fmt.Errorf("section %q: want [options.NAME], NAME quoted if it has spaces", line)
	}
	return section{kind: sectionOptions, engine: name}, nil
}

// parseKey reads a key at the start of s, bare or a quoted string, and
// returns it with what follows it, trimmed.
func parseKey(s string) (key, rest string, err error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", "", fmt.Errorf("bad quoted key %s", s)
		}
		key, _ = strconv.Unquote(q)
		return key, strings.TrimSpace(s[len(q):]), nil
	}
	end := strings.IndexAny(s, "= \t")
	if end < 0 {
		end = len(s)
	}
	return s[:end], strings.TrimSpace(s[end:]), nil
}

// parseKeyValue reads "key = value": the key bare or quoted, the value a
// quoted string or the rest of the line.
func parseKeyValue(line string) (k, v string, err error) {
	k, rest, err := parseKey(line)
	if err != nil {
		return "", "", err
	}
	v, ok := strings.CutPrefix(rest, "=")
	if !ok || k == "" {
		return "", "", fmt.Errorf("want key = value")
	}
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, `"`) {
		uq, err := strconv.Unquote(v)
		if err != nil {
			return "", "", fmt.Errorf("%s: bad string %s", k, v)
		}
		v = uq
	}
	return k, v, nil
}

// setInSection takes a line of [engines] or [options.NAME].
func (s *Settings) setInSection(sec section, k, v string) error {
	if sec.kind == sectionOptions {
		if s.Options == nil {
			s.Options = map[string][]spec.Option{}
		}
		s.Options[sec.engine] = setOption(s.Options[sec.engine], spec.Option{Name: k, Value: v})
		return nil
	}
	if strings.EqualFold(k, spec.Builtin) {
		return fmt.Errorf("engines: %q is the built-in engine's name", k)
	}
	if _, err := spec.Parse(v); err != nil {
		return fmt.Errorf("engines: %s: %w", k, err)
	}
	for i, e := range s.Engines {
		if e.Name == k {
			s.Engines[i].Command = v
			return nil
		}
	}
	s.Engines = append(s.Engines, NamedEngine{Name: k, Command: v})
	return nil
}

// setOption sets o in opts: in the place of an option of its name (in
// any case), else at the end.
func setOption(opts []spec.Option, o spec.Option) []spec.Option {
	for i, x := range opts {
		if strings.EqualFold(x.Name, o.Name) {
			opts[i] = o
			return opts
		}
	}
	return append(opts, o)
}

// enginesText writes the [engines] and [options.NAME] sections.
func (s Settings) enginesText() string {
	var b strings.Builder
	if len(s.Engines) > 0 {
		b.WriteString("\n[engines]\n")
		for _, e := range s.Engines {
			fmt.Fprintf(&b, "%s = %q\n", tomlKey(e.Name), e.Command)
		}
	}
	for _, name := range s.optionNames() {
		fmt.Fprintf(&b, "\n[options.%s]\n", tomlKey(name))
		for _, o := range s.Options[name] {
			fmt.Fprintf(&b, "%s = %q\n", tomlKey(o.Name), o.Value)
		}
	}
	return b.String()
}

// optionNames are the engines with options remembered: the built-in and
// the named ones first, in the config's order, then any other.
func (s Settings) optionNames() []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] && len(s.Options[n]) > 0 {
			names = append(names, n)
		}
		seen[n] = true
	}
	add(spec.Builtin)
	for _, e := range s.Engines {
		add(e.Name)
	}
	var rest []string
	for n := range s.Options {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	for _, n := range rest {
		add(n)
	}
	return names
}

// tomlKey writes a key bare when TOML allows it, else quoted.
func tomlKey(k string) string {
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return strconv.Quote(k)
		}
	}
	if k == "" {
		return `""`
	}
	return k
}

// EngineSpec is the engine a config name names — "squall", a name of
// Engines, or else a command line — with the options remembered for it
// (Remember). name is how the engine is known to the board: what it
// remembers options under and writes as "engine = …".
func (s Settings) EngineSpec(name string) (spec.Spec, error) {
	sp, err := spec.Parse(name)
	if err != nil {
		return spec.Spec{}, err
	}
	return s.Resolve(sp), nil
}

// Resolve is sp with a configured engine's name replaced by its command
// line and the options remembered for it put before sp's own (which may
// override them: --option over the config).
func (s Settings) Resolve(sp spec.Spec) spec.Spec {
	name := EngineName(sp)
	for _, e := range s.Engines {
		if e.Name == name {
			sp.Command = e.Command
		}
	}
	sp.Options = append(append([]spec.Option(nil), s.Options[name]...), sp.Options...)
	return sp
}

// EngineName is the name the config knows sp's engine by: "squall" for
// the built-in, else its command as given (a name or a command line).
func EngineName(sp spec.Spec) string {
	if sp.IsBuiltin() {
		return spec.Builtin
	}
	return strings.TrimSpace(sp.Command)
}

// Remember keeps opts as engine name's options, each over the one of its
// name remembered before; a button's press (an empty value of an option
// the caller says is a button) is the caller's to leave out.
func (s *Settings) Remember(name string, opts []spec.Option) {
	if len(opts) == 0 {
		return
	}
	m := make(map[string][]spec.Option, len(s.Options)+1)
	for k, v := range s.Options {
		m[k] = append([]spec.Option(nil), v...)
	}
	for _, o := range opts {
		m[name] = setOption(m[name], o)
	}
	s.Options = m
}

// EngineNames are the engines the picker offers: the built-in one, then
// the configured ones in the config's order.
func (s Settings) EngineNames() []string {
	names := []string{spec.Builtin}
	for _, e := range s.Engines {
		names = append(names, e.Name)
	}
	return names
}
