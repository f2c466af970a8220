//go:build !purego

#include "textflag.h"

// func prefetchSlots(slots *slot, mask uint64, keys *key, n int)
//
// For each of the n keys, a PREFETCHT0 of the slot its probe starts at:
// &slots[keys[i].h&mask]. A key is 32 bytes with h at offset 16, and a slot
// 32 bytes (TestPrefetchLayout).
TEXT ·prefetchSlots(SB), NOSPLIT, $0-32
	MOVQ slots+0(FP), AX
	MOVQ mask+8(FP), CX
	MOVQ keys+16(FP), SI
	MOVQ n+24(FP), DX
	TESTQ DX, DX
	JLE done
loop:
	MOVQ 16(SI), BX
	ANDQ CX, BX
	SHLQ $5, BX
	PREFETCHT0 (AX)(BX*1)
	ADDQ $32, SI
	DECQ DX
	JNZ loop
done:
	RET

// func prefetchAddrs(addrs *uintptr, n int)
//
// A PREFETCHT0 of each of the n addresses. A prefetch never faults: an
// address that is not mapped (0, for an empty string) is dropped.
TEXT ·prefetchAddrs(SB), NOSPLIT, $0-16
	MOVQ addrs+0(FP), SI
	MOVQ n+8(FP), DX
	TESTQ DX, DX
	JLE done
loop:
	MOVQ (SI), BX
	PREFETCHT0 (BX)
	ADDQ $8, SI
	DECQ DX
	JNZ loop
done:
	RET
