//go:build race

package search

// raceBuild: the race detector slows a search about tenfold. The deep
// single-threaded searches of TestTablebaseDrawsSearchNearZero (40 s in a
// normal build) then check a sample, so that go test -race finishes within
// the default 10 minutes; the races worth finding are in the Lazy SMP
// tests, which run in full.
const raceBuild = true
