//go:build race

package chess

// raceBuild: the race detector slows this package's single-threaded walks
// tenfold and finds nothing in them, so under -race they check a sample
// (go test -race ./... has to finish within the default 10 minutes on a
// loaded two-core machine); normal builds check everything.
const raceBuild = true
