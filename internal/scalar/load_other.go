//go:build !(386 || amd64 || arm64 || ppc64le)

package scalar

import (
	"encoding/binary"
	"unsafe"
)

// loads returns the m bytes at p, 4 <= m <= 8, which the caller knows are
// there, as a little-endian word, byte order and alignment aside.
func loads(p unsafe.Pointer, m int) uint64 {
	lo := binary.LittleEndian.Uint32((*[4]byte)(p)[:])
	hi := binary.LittleEndian.Uint32((*[4]byte)(unsafe.Add(p, m-4))[:])
	return uint64(lo) | uint64(hi)<<(8*(m-4)&63)
}
