//go:build !unix

package tablebase

import "os"

// mapFile reads the whole table where memory mapping is not available
// without cgo.
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }
