//go:build !purego

package bag

import (
	"testing"
	"unsafe"
)

// TestPrefetchLayout: prefetch_amd64.s reads a key's hash at offset 16 of
// 32-byte keys and indexes slots of 32 bytes.
func TestPrefetchLayout(t *testing.T) {
	if unsafe.Sizeof(key{}) != 32 || unsafe.Offsetof(key{}.h) != 16 || unsafe.Sizeof(slot{}) != 32 {
		t.Fatalf("key %d bytes (h at %d), slot %d bytes; the assembly assumes 32 (16) and 32",
			unsafe.Sizeof(key{}), unsafe.Offsetof(key{}.h), unsafe.Sizeof(slot{}))
	}
}
