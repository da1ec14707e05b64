//go:build race

package pgn

// raceBuild: the race detector's shadow memory multiplies a process's
// resident size several times over, so TestBigFileMemory's RSS bound, a
// property of the reader, is checked only in normal builds; under -race the
// test still reads the whole file and checks every count.
const raceBuild = true
