package nnue

import (
	_ "embed"
	"sync"
)

// defaultFile is the network built into the binary: the newest network
// that has been measured stronger than the one before it (docs/NNUE.md).
//
//go:embed nets/r6-256b8.sqnn
var defaultFile []byte

// DefaultName names the built-in network where an engine reports which
// network it evaluates with.
const DefaultName = "r6-256b8.sqnn (built in)"

// Default is the built-in network, parsed once on first use: a
// precomputed table, shared read-only by every search.
var Default = sync.OnceValue(func() *Net {
	n, err := Parse(defaultFile)
	if err != nil {
		panic("nnue: the built-in network does not read: " + err.Error()) // TestDefault keeps this from shipping
	}
	return n
})
