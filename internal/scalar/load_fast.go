//go:build 386 || amd64 || arm64 || ppc64le

package scalar

import "unsafe"

// loads returns the m bytes at p, 4 <= m <= 8, which the caller knows are
// there, as a little-endian word: two overlapping loads, the second
// shifted in place (the bytes both hold are the same). These processors
// are little-endian and load from any address.
func loads(p unsafe.Pointer, m int) uint64 {
	return uint64(*(*uint32)(p)) | uint64(*(*uint32)(unsafe.Add(p, m-4)))<<(8*(m-4)&63)
}
