//go:build !race

package pgn

// raceBuild reports a build with the race detector (see race_test.go).
const raceBuild = false
