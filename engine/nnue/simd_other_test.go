//go:build !amd64 || purego

package nnue

// hasAVX2 is false: this build has the portable path only.
const hasAVX2 = false

func setAVX2(bool) {}
