package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelpAndMisspeltFlags: every command's -h prints its usage on stdout
// and exits 0; a misspelt flag is answered in two lines on stderr — the
// error and where to look — not with the whole usage (21 lines before).
func TestHelpAndMisspeltFlags(t *testing.T) {
	cmds := commands()
	sub := map[string][]string{"book": {"book", "probe"}, "tb": {"tb", "probe"}}
	for name := range cmds {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := run([]string{name, "-h"}, &out, &errOut); code != 0 || out.Len() == 0 || errOut.Len() != 0 {
				t.Errorf("%s -h: exit %d, %d bytes on stdout, stderr %q", name, code, out.Len(), errOut.String())
			}
			if name == "uci" {
				return // takes no flags at all
			}
			args := []string{name}
			if s, ok := sub[name]; ok {
				args = s
			}
			out.Reset()
			errOut.Reset()
			code := run(append(args, "--no-such-flag"), &out, &errOut)
			lines := strings.Split(strings.TrimRight(errOut.String(), "\n"), "\n")
			if code != 1 || len(lines) > 2 || !strings.Contains(lines[0], "no-such-flag") || !strings.Contains(errOut.String(), "-h'") {
				t.Errorf("%v --no-such-flag: exit %d, stderr:\n%s", args, code, errOut.String())
			}
		})
	}
}
