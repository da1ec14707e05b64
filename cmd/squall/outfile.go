package main

import (
	"fmt"
	"os"

	"github.com/squall-chess/squall/internal/atomicfile"
)

// createOutput opens the file a command writes its result to (--out,
// --reformat, --pgn), through atomicfile so that a failed run leaves it as
// it was. A file that exists is replaced only with force, and never when
// it is one of the command's inputs, whatever its name there (a hard link,
// ./x against x): the output would take the place of what was read.
// Errors quote the paths as given: printError sanitises them.
func createOutput(path string, force bool, inputs ...string) (*atomicfile.File, error) {
	if fi, err := os.Stat(path); err == nil {
		for _, in := range inputs {
			if ii, err := os.Stat(in); err == nil && os.SameFile(fi, ii) {
				if in != path {
					return nil, fmt.Errorf("%s is the input file %s under another name: write the output to another file", path, in)
				}
				return nil, fmt.Errorf("%s is the input file: write the output to another file", path)
			}
		}
		if !force {
			return nil, fmt.Errorf("%s exists: pass --force to replace it", path)
		}
	}
	return atomicfile.Create(path)
}
