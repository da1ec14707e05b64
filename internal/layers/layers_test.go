// Package layers holds the test that keeps Squall's imports pointing down
// the layers docs/ARCHITECTURE.md lists: a package may import its own
// layer or a lower one, never a higher one (the server never imports the
// screens, the engine never imports the server).
package layers

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/squall-chess/squall"

// layer is the layer of a package of the module, by its path in the
// repository; the first matching prefix wins.
func layer(pkg string) int {
	for _, l := range []struct {
		prefix string
		n      int
	}{
		{"engine/chess", 1}, {"internal/", 1}, {"termtext", 1}, {"themes", 1},
		{"clock", 2}, {"referee", 2}, {"pgn", 2}, {"engine", 2},
		{"review", 3}, {"explore", 3},
		{"server", 4},
		{"tui", 5},
		{"cmd/", 6},
	} {
		if pkg == strings.TrimSuffix(l.prefix, "/") || strings.HasPrefix(pkg, strings.TrimSuffix(l.prefix, "/")+"/") {
			return l.n
		}
	}
	return 0
}

// TestLayers reads every non-test Go file's imports and fails on an import
// of a higher layer, or on a package no layer names (add it to layer and
// to ARCHITECTURE.md's list).
func TestLayers(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	imports := map[string]map[string]bool{} // package → the module's packages it imports
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(rel)
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if imports[pkg] == nil {
			imports[pkg] = map[string]bool{}
		}
		for _, spec := range f.Imports {
			ip, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if own, ok := strings.CutPrefix(ip, module+"/"); ok {
				imports[pkg][own] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(imports) < 40 {
		t.Fatalf("found %d packages: not the repository's root?", len(imports))
	}
	for pkg, deps := range imports {
		from := layer(pkg)
		if from == 0 {
			t.Errorf("%s is in no layer", pkg)
			continue
		}
		for dep := range deps {
			if to := layer(dep); to > from {
				t.Errorf("%s (layer %d) imports %s (layer %d)", pkg, from, dep, to)
			}
		}
	}
}
