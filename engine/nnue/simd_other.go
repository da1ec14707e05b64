//go:build !amd64 || purego

package nnue

// useAVX2 is false where there is no AVX2 path: the portable loops run.
const useAVX2 = false

func addSubAVX2(dst, src, a, s *int16, n int)                 { panic("nnue: no AVX2 path") }
func addSubSubAVX2(dst, src, a, s1, s2 *int16, n int)         { panic("nnue: no AVX2 path") }
func addAddSubSubAVX2(dst, src, a1, a2, s1, s2 *int16, n int) { panic("nnue: no AVX2 path") }
func screluDotAVX2(v, w *int16, n int) int32                  { panic("nnue: no AVX2 path") }
