//go:build amd64 && !purego

package nnue

import "golang.org/x/sys/cpu"

// hasAVX2: the machine can run the AVX2 path, which setAVX2 turns on and
// off for the tests that compare it with the portable one.
var hasAVX2 = cpu.X86.HasAVX2

func setAVX2(on bool) { useAVX2 = on && hasAVX2 }
