//go:build amd64 && !purego

package nnue

import "golang.org/x/sys/cpu"

// useAVX2 selects the hand-written AVX2 loops (simd_amd64.s), decided once
// from the processor: a precomputed fact, like a table.
var useAVX2 = cpu.X86.HasAVX2

// Each loop takes n lanes (a multiple of HiddenStep, at least one step)
// from the int16 each pointer points at.

// dst = src + a - s, 16 lanes at a time.
//
//go:noescape
func addSubAVX2(dst, src, a, s *int16, n int)

// dst = src + a - s1 - s2.
//
//go:noescape
func addSubSubAVX2(dst, src, a, s1, s2 *int16, n int)

// dst = src + a1 + a2 - s1 - s2.
//
//go:noescape
func addAddSubSubAVX2(dst, src, a1, a2, s1, s2 *int16, n int)

// Σ clamp(v,0,QA)·w·clamp(v,0,QA), as screluDot.
//
//go:noescape
func screluDotAVX2(v, w *int16, n int) int32
