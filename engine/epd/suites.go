package epd

import (
	"bytes"
	"embed"
	"fmt"
	"os"
	"sort"
	"strings"
)

// The classic suites, bundled so that `squall suite wac` needs no files.
// Sources are listed in docs/DATA.md.
//
//go:embed suites/*.epd
var bundled embed.FS

// Suite is a named list of records.
type Suite struct {
	Name    string
	Records []*Record
	// Errors are the lines that could not be read (each a *LineError).
	Errors []error
}

// Bundled lists the names of the embedded suites: bk, ecm, wac, wcsac.
func Bundled() []string {
	ents, _ := bundled.ReadDir("suites")
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".epd"))
	}
	sort.Strings(names)
	return names
}

// Load opens a bundled suite by name ("wac", "ecm", "wcsac", "bk") or
// else an EPD file by path. Bad lines do not fail the load: they are in
// Suite.Errors. The error is for a suite that cannot be opened at all.
func Load(nameOrPath string) (*Suite, error) {
	data, err := bundled.ReadFile("suites/" + strings.ToLower(nameOrPath) + ".epd")
	name := strings.ToLower(nameOrPath)
	if err != nil {
		data, err = os.ReadFile(nameOrPath)
		if err != nil {
			return nil, fmt.Errorf("suite %q is neither bundled (%s) nor a readable file: %w",
				nameOrPath, strings.Join(Bundled(), ", "), err)
		}
		name = nameOrPath
	}
	recs, errs := Read(bytes.NewReader(data))
	return &Suite{Name: name, Records: recs, Errors: errs}, nil
}
