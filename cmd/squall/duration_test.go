package main

import (
	"bytes"

	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestDurationFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		err  string
	}{
		{"500", 500 * time.Millisecond, ""},
		{"0", 0, ""},
		{"1s", time.Second, ""},
		{"1m30s", 90 * time.Second, ""},
		{" 250ms ", 250 * time.Millisecond, ""},
		{"-1", 0, "negative"},
		{"-1s", 0, "negative"},
		{"soon", 0, "want a duration such as 500ms"},
	} {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		d := durationFlag(fs, "movetime", time.Hour, "")
		err := fs.Parse([]string{"--movetime", c.in})
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: error %v, want one with %q", c.in, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%q: %v", c.in, err)
		case c.err == "" && *d != c.want:
			t.Errorf("%q: %v, want %v", c.in, *d, c.want)
		}
	}
	// Every time flag takes the bare milliseconds: review's --movetime.
	dir := t.TempDir()
	game := dir + "/g.pgn"
	if err := os.WriteFile(game, []byte("[Event \"x\"]\n\n1. e4 e5 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"review", game, "--out", dir + "/r.pgn", "--movetime", "5"}, &out, &errOut); code != 0 {
		t.Errorf("review --movetime 5: exit %d, %s", code, errOut.String())
	}
}
