//go:build !race

package search

// raceBuild: see race_test.go.
const raceBuild = false
