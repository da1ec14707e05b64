//go:build unix

package tablebase

import (
	"fmt"
	"os"
	"syscall"
)

// mapFile maps a table read-only: tables can be gigabytes and are read
// sparsely, so the page cache, not the heap, should hold them. The mapping
// lives as long as the process (tables stay open for the engine's life).
func mapFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size == 0 {
		return nil, fmt.Errorf("empty file: %w", errCorrupt)
	}
	if int64(int(size)) != size {
		return nil, fmt.Errorf("file too large to map")
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("mmap: %w", err)
	}
	return data, nil
}
