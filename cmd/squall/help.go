package main

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpView draws fang's help with what fang leaves out: the placeholder of
// each flag that takes a value (--board SIZE, pflag's back-quoted word in
// the usage, as pflag's own usage lines show it), and no second default
// where the usage already states one in its own words ("(default 1s when
// no limit is given)", where fang would add "(0s)").
//
// fang sets its help function on the root only once the command line runs,
// after newRoot, so helpView takes it over then: when -h is parsed (the
// help flag below), or before any command runs (the root's
// PersistentPreRun), which covers `squall help CMD` and a command that
// shows its help itself.
type helpView struct {
	root *cobra.Command
	fang func(*cobra.Command, []string) // nil until taken over
}

// addHelp gives root and every command under it the help view.
func addHelp(root *cobra.Command) {
	h := &helpView{root: root}
	f := root.PersistentFlags().VarPF(&helpFlag{take: h.takeOver}, "help", "h", "show this help")
	f.NoOptDefVal = "true"
	root.PersistentPreRun = func(*cobra.Command, []string) { h.takeOver() }
}

// takeOver puts the view in front of the help function the root has now
// (fang's); once.
func (h *helpView) takeOver() {
	if h.fang != nil {
		return
	}
	h.fang = h.root.HelpFunc()
	h.root.SetHelpFunc(h.show)
}

// show draws c's help through fang with the flags shown as above, then
// puts the flags back as they were.
func (h *helpView) show(c *cobra.Command, args []string) {
	type saved struct {
		f                     *pflag.Flag
		name, usage, defValue string
	}
	var flags []saved
	c.Flags().VisitAll(func(f *pflag.Flag) {
		flags = append(flags, saved{f, f.Name, f.Usage, f.DefValue})
		placeholder, usage := pflag.UnquoteUsage(f)
		if placeholder != "" && f.NoOptDefVal == "" { // a switch (NoOptDefVal set) takes no value
			f.Name += " " + placeholder
			f.Usage = usage
		}
		if strings.Contains(usage, "(default") {
			f.DefValue = ""
		}
	})
	defer func() {
		for _, s := range flags {
			s.f.Name, s.f.Usage, s.f.DefValue = s.name, s.usage, s.defValue
		}
	}()
	h.fang(c, args)
}

// helpFlag is -h/--help: a switch, as cobra reads it ("bool" type), that
// also lets the help view take over when it is given.
type helpFlag struct {
	on   bool
	take func()
}

func (f *helpFlag) String() string { return strconv.FormatBool(f.on) }
func (f *helpFlag) Type() string   { return "bool" }

func (f *helpFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	f.on = v
	if v {
		f.take()
	}
	return nil
}
