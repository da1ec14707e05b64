package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// number is the type of a bounded flag's value.
type number interface{ int | int64 | uint64 | float64 }

// boundedValue is a number flag that refuses a value outside its range when
// it is read, with the range in the error ("--multipv 9: out of range
// 1–5", see flagError), instead of a command clamping it silently.
type boundedValue[T number] struct {
	p      *T
	lo, hi T
	upper  bool // hi bounds the value; without it only lo does
}

func (b *boundedValue[T]) String() string { return formatNumber(*b.p) }

func (b *boundedValue[T]) Set(s string) error {
	v, err := parseNumber[T](s)
	if err != nil {
		return err
	}
	if err := checkRange(v, b.lo, b.hi, b.upper); err != nil {
		return err
	}
	*b.p = v
	return nil
}

// Type names the value in a usage line without a back-quoted placeholder.
func (b *boundedValue[T]) Type() string {
	var v T
	if _, ok := any(v).(float64); ok {
		return "NUMBER"
	}
	return "N"
}

// rangeVar defines a flag on fs whose value must lie in lo…hi.
func rangeVar[T number](fs *pflag.FlagSet, p *T, name string, def, lo, hi T, usage string) {
	*p = def
	fs.Var(&boundedValue[T]{p: p, lo: lo, hi: hi, upper: true}, name, usage)
}

// minVar defines a flag on fs whose value must be at least lo.
func minVar[T number](fs *pflag.FlagSet, p *T, name string, def, lo T, usage string) {
	*p = def
	fs.Var(&boundedValue[T]{p: p, lo: lo}, name, usage)
}

// minFlag is minVar returning the variable.
func minFlag[T number](fs *pflag.FlagSet, name string, def, lo T, usage string) *T {
	p := new(T)
	minVar(fs, p, name, def, lo, usage)
	return p
}

// checkRange is nil for lo <= v <= hi (without upper, lo <= v), else the
// error that states the range: every range check of the command line words
// it this way.
func checkRange[T number](v, lo, hi T, upper bool) error {
	switch {
	case upper && (v < lo || v > hi):
		return fmt.Errorf("out of range %s–%s", formatNumber(lo), formatNumber(hi))
	case v < lo:
		return fmt.Errorf("out of range: at least %s", formatNumber(lo))
	}
	return nil
}

// parseArgNumber reads the positional argument what (DEPTH) as a number in
// lo…hi: "DEPTH 25: out of range 1–20".
func parseArgNumber[T number](what, s string, lo, hi T) (T, error) {
	v, err := parseNumber[T](s)
	if err == nil {
		err = checkRange(v, lo, hi, true)
	}
	if err != nil {
		return v, usagef("%s %s: %v", what, strings.TrimSpace(s), err)
	}
	return v, nil
}

// parseNumber reads a T as pflag reads its number flags (integers in any
// base strconv takes: 10, 0x1F).
func parseNumber[T number](s string) (T, error) {
	var v T
	s = strings.TrimSpace(s)
	var err error
	switch p := any(&v).(type) {
	case *int:
		var n int64
		n, err = strconv.ParseInt(s, 0, strconv.IntSize)
		*p = int(n)
	case *int64:
		*p, err = strconv.ParseInt(s, 0, 64)
	case *uint64:
		*p, err = strconv.ParseUint(s, 0, 64)
	case *float64:
		*p, err = strconv.ParseFloat(s, 64)
	}
	if err != nil {
		if _, ok := any(v).(float64); ok {
			return v, errors.New("not a number")
		}
		return v, errors.New("not a whole number")
	}
	return v, nil
}

// formatNumber writes v as it would be typed.
func formatNumber[T number](v T) string {
	if f, ok := any(v).(float64); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}
