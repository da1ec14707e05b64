//go:build !race

package chess

// raceBuild: see race_test.go.
const raceBuild = false
