package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError words a mistake in cmd's flags: a value refused is "--multipv
// 9: out of range 1–5" (pflag's own words, `invalid argument "9" for
// "--multipv" flag: …`, say less and longer), and a flag that does not
// exist suggests the nearest one that does.
func flagError(cmd *cobra.Command, err error) error {
	if ive := (*pflag.InvalidValueError)(nil); errors.As(err, &ive) {
		return usagef("--%s %s: %v", ive.GetFlag().Name, ive.GetValue(), ive.Unwrap())
	}
	if nee := (*pflag.NotExistError)(nil); errors.As(err, &nee) && strings.HasPrefix(err.Error(), "unknown flag: --") {
		name := nee.GetSpecifiedName()
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		msg := "unknown flag --" + name
		if s := nearest(name, names); len(s) > 0 {
			msg += "; did you mean --" + strings.Join(s, " or --") + "?"
		}
		return usagef("%s", msg)
	}
	return usageError{err}
}

// unknownCommand is the usage error for a name that is none of cmd's
// subcommands, suggesting the nearest: `unknown command "prft"; did you
// mean "perft"?`.
func unknownCommand(cmd *cobra.Command, name string) error {
	cmd.SuggestionsMinimumDistance = 2 // cobra sets it only for its own unknown-command errors
	msg := fmt.Sprintf("unknown command %q", name)
	if s := cmd.SuggestionsFor(name); len(s) > 0 {
		for i := range s {
			s[i] = strconv.Quote(s[i])
		}
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usagef("%s", msg)
}

// nearest are the candidates closest to name by edit distance (a
// transposition, "levle" for "level", counts one), if within two edits.
func nearest(name string, candidates []string) []string {
	best, found := 3, []string(nil)
	for _, c := range candidates {
		switch d := editDistance(name, c); {
		case d < best:
			best, found = d, []string{c}
		case d == best:
			found = append(found, c)
		}
	}
	return found
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, one each.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
