#include "textflag.h"

// func adamAVX(w, g, m, v []float32, c *[8]float32)
//
// Adam's element-wise update over the first len(w) &^ 7 elements, eight lanes at a
// time, with c = {lr, b1, 1-b1, b2, 1-b2, eps, 1/sqrt(bias correction 2), scale}. Each
// operation is the one adamSpan performs, in its order and with its rounding (no
// fused multiply-add), so both give the same bits.
TEXT ·adamAVX(SB), NOSPLIT, $0-104
	MOVQ w_base+0(FP), DI
	MOVQ w_len+8(FP), CX
	MOVQ g_base+24(FP), SI
	MOVQ m_base+48(FP), R8
	MOVQ v_base+72(FP), R9
	MOVQ c+96(FP), AX
	SHRQ $3, CX
	JZ   done
	VBROADCASTSS 0(AX), Y8   // lr
	VBROADCASTSS 4(AX), Y9   // b1
	VBROADCASTSS 8(AX), Y10  // 1 - b1
	VBROADCASTSS 12(AX), Y11 // b2
	VBROADCASTSS 16(AX), Y12 // 1 - b2
	VBROADCASTSS 20(AX), Y13 // eps
	VBROADCASTSS 24(AX), Y14 // 1/sqrt(bc2)
	VBROADCASTSS 28(AX), Y15 // gradient scale (clipping)
	VXORPS Y7, Y7, Y7

loop:
	VMOVUPS (SI), Y0
	VMULPS  Y15, Y0, Y0 // gi = g * scale
	VMOVUPS (R8), Y1
	VMULPS  Y9, Y1, Y1  // b1 * m
	VMULPS  Y10, Y0, Y2 // (1-b1) * gi
	VADDPS  Y2, Y1, Y1  // m = b1*m + (1-b1)*gi
	VMOVUPS Y1, (R8)
	VMOVUPS (R9), Y3
	VMULPS  Y11, Y3, Y3 // b2 * v
	VMULPS  Y12, Y0, Y4 // (1-b2) * gi
	VMULPS  Y0, Y4, Y4  // ... * gi
	VADDPS  Y4, Y3, Y3  // v = b2*v + (1-b2)*gi*gi
	VMOVUPS Y3, (R9)
	VSQRTPS Y3, Y5
	VMULPS  Y14, Y5, Y5 // sqrt(v) * inv
	VADDPS  Y13, Y5, Y5 // ... + eps
	VMULPS  Y8, Y1, Y6  // lr * m
	VDIVPS  Y5, Y6, Y6  // lr*m / (sqrt(v)*inv + eps)
	VMOVUPS (DI), Y2
	VSUBPS  Y6, Y2, Y2
	VMOVUPS Y2, (DI)
	VMOVUPS Y7, (SI)    // g = 0
	ADDQ $32, DI
	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNZ  loop
	VZEROUPPER

done:
	RET
