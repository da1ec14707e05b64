//go:build amd64 && !purego

#include "textflag.h"

// The accumulator loops of accumulator.go and the output layer of eval.go
// with AVX2, 16 lanes (32 bytes, one register) a step, n lanes in all (a
// multiple of 16: Net.Hidden). Written by hand: Go does not vectorise, and
// these loops are most of an evaluation.

// func addSubAVX2(dst, src, a, s *int16, n int)
TEXT ·addSubAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ a+16(FP), AX
	MOVQ s+24(FP), BX
	MOVQ n+32(FP), R9
	SHLQ $1, R9
	XORQ CX, CX

addsub:
	VMOVDQU (SI)(CX*1), Y0
	VPADDW  (AX)(CX*1), Y0, Y0
	VPSUBW  (BX)(CX*1), Y0, Y0
	VMOVDQU Y0, (DI)(CX*1)
	ADDQ    $32, CX
	CMPQ    CX, R9
	JNE     addsub
	VZEROUPPER
	RET

// func addSubSubAVX2(dst, src, a, s1, s2 *int16, n int)
TEXT ·addSubSubAVX2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ a+16(FP), AX
	MOVQ s1+24(FP), BX
	MOVQ s2+32(FP), DX
	MOVQ n+40(FP), R9
	SHLQ $1, R9
	XORQ CX, CX

addsubsub:
	VMOVDQU (SI)(CX*1), Y0
	VPADDW  (AX)(CX*1), Y0, Y0
	VPSUBW  (BX)(CX*1), Y0, Y0
	VPSUBW  (DX)(CX*1), Y0, Y0
	VMOVDQU Y0, (DI)(CX*1)
	ADDQ    $32, CX
	CMPQ    CX, R9
	JNE     addsubsub
	VZEROUPPER
	RET

// func addAddSubSubAVX2(dst, src, a1, a2, s1, s2 *int16, n int)
TEXT ·addAddSubSubAVX2(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ a1+16(FP), AX
	MOVQ a2+24(FP), R8
	MOVQ s1+32(FP), BX
	MOVQ s2+40(FP), DX
	MOVQ n+48(FP), R9
	SHLQ $1, R9
	XORQ CX, CX

addaddsubsub:
	VMOVDQU (SI)(CX*1), Y0
	VPADDW  (AX)(CX*1), Y0, Y0
	VPADDW  (R8)(CX*1), Y0, Y0
	VPSUBW  (BX)(CX*1), Y0, Y0
	VPSUBW  (DX)(CX*1), Y0, Y0
	VMOVDQU Y0, (DI)(CX*1)
	ADDQ    $32, CX
	CMPQ    CX, R9
	JNE     addaddsubsub
	VZEROUPPER
	RET

// func screluDotAVX2(v, w *int16, n int) int32
//
// Per 16 lanes: a = clamp(v, 0, 255); t = a·w in 16 bits (exact: |w| ≤
// 127); VPMADDWD adds t·a of lane pairs into 8 int32 lanes; the lanes are
// summed, wrapping, at the end.
TEXT ·screluDotAVX2(SB), NOSPLIT, $0-28
	MOVQ v+0(FP), SI
	MOVQ w+8(FP), DI
	MOVQ n+16(FP), R9
	SHLQ $1, R9
	MOVQ $255, AX
	MOVQ AX, X15
	VPBROADCASTW X15, Y15
	VPXOR Y14, Y14, Y14
	VPXOR Y0, Y0, Y0
	XORQ CX, CX

dot:
	VMOVDQU  (SI)(CX*1), Y1
	VPMAXSW  Y14, Y1, Y1
	VPMINSW  Y15, Y1, Y1
	VPMULLW  (DI)(CX*1), Y1, Y2
	VPMADDWD Y1, Y2, Y2
	VPADDD   Y2, Y0, Y0
	ADDQ     $32, CX
	CMPQ     CX, R9
	JNE      dot
	VEXTRACTI128 $1, Y0, X1
	VPADDD   X1, X0, X0
	VPSHUFD  $0x4e, X0, X1
	VPADDD   X1, X0, X0
	VPSHUFD  $0xb1, X0, X1
	VPADDD   X1, X0, X0
	MOVQ     X0, AX
	MOVL     AX, ret+24(FP)
	VZEROUPPER
	RET
