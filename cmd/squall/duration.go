package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// durationValue is a duration flag that takes Go's form (500ms, 1s, 1m30s)
// or a bare number of milliseconds (500), as UCI's movetime counts: every
// command's time flags read the same.
type durationValue time.Duration

func (d *durationValue) String() string { return time.Duration(*d).String() }

func (d *durationValue) Set(s string) error {
	s = strings.TrimSpace(s)
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		if ms < 0 {
			return fmt.Errorf("%d: a duration may not be negative", ms)
		}
		*d = durationValue(time.Duration(ms) * time.Millisecond)
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q: want a duration such as 500ms, 1s or 1m30s, or milliseconds (500)", s)
	}
	if v < 0 {
		return fmt.Errorf("%q: a duration may not be negative", s)
	}
	*d = durationValue(v)
	return nil
}

// Type names the value in a usage line.
func (d *durationValue) Type() string { return "DURATION" }

// durationVar defines a duration flag on fs (see durationValue).
func durationVar(fs *pflag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fs.Var((*durationValue)(p), name, usage)
}

// durationFlag is durationVar returning the variable.
func durationFlag(fs *pflag.FlagSet, name string, def time.Duration, usage string) *time.Duration {
	p := new(time.Duration)
	durationVar(fs, p, name, def, usage)
	return p
}
