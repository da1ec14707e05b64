// Package tbtest finds the 3–4 piece Syzygy tables that the repository
// bundles for tests (engine/tablebase/testdata/syzygy/3-4, 4.3 MB; see
// docs/DATA.md), so that every package's tablebase tests run in a plain
// clone and none of them spells out a path across the tree.
package tbtest

import (
	"path/filepath"
	"runtime"
)

// testdata is engine/tablebase/testdata, found from this file's own path:
// tests run with their package's directory as the working directory, which
// differs from package to package.
func testdata() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata")
}

// Dir is the directory of the bundled 3–4 piece tables (all 35 endings,
// WDL and DTZ). They are part of the repository: a test that cannot open
// them fails rather than skips.
func Dir() string { return filepath.Join(testdata(), "syzygy", "3-4") }

// Positions is the file of 200 3–4 piece positions labelled by the tables
// ("FEN wdl_table N; wdl N; dtz N;" lines).
func Positions() string { return filepath.Join(testdata(), "endgame_wdl_dtz.epd") }
