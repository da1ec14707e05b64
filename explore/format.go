package explore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/squall-chess/squall/engine/chess"
)

// The index file, all integers little-endian:
//
//	preamble   magic "SQXPLORE", version uint32
//	blocks     each a run of whole groups, in key order; a group is one
//	           position: uvarint(key − previous key; the block's first key
//	           for its first group, so 0), then its moves, each
//	           uvarint(move<<4 | last<<3 | code): move is from | to<<6 |
//	           promotion<<12 (castling as king takes rook), last marks the
//	           group's last move, code 0–3 is one game won by White, drawn,
//	           won by Black or unfinished, and code 4 says four uvarint
//	           counts follow in that order
//	directory  per block: first key uint64, offset uint64, CRC-32C of
//	           the block uint32, length uint32
//	trailer    trailerSize bytes: see trailer
//
// A block is about blockTarget bytes, so a look-up reads one block (a group
// never spans two) after a binary search of the directory, which is the
// only part held in memory: 24 bytes per 4 KB of index.
const (
	magic   = "SQXPLORE"
	version = 1

	preambleSize = len(magic) + 4
	dirEntrySize = 24
	trailerSize  = 96
	blockTarget  = 4 << 10
	// maxBlock bounds a block's length: the largest group (every legal
	// move of a position, each with four counts) is far smaller.
	maxBlock = 1 << 20
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Outcomes of a game, as counted per move.
const (
	whiteWins = iota
	draw
	blackWins
	unfinished
	outcomes
)

// trailer is the index's description of itself and of the PGN file it was
// built from.
type trailer struct {
	// PGNSize and PGNModTime (Unix nanoseconds) are the PGN file's when
	// the build began: either differing means the index is stale.
	PGNSize, PGNModTime int64
	// StartKey is the engine's key of the start position: the keys are
	// the engine's, so an engine with other keys must rebuild.
	StartKey uint64
	// Plies is how many plies of each game were indexed (0: all).
	Plies uint32
	// Games counts the games indexed; Skipped the games left out (variants,
	// errors).
	Games, Skipped uint64
	// Positions and Moves count the distinct positions and
	// position-move pairs.
	Positions, Moves uint64
	Blocks           uint64
	DirOffset        uint64
	DirCRC           uint32
}

// encode writes t as trailerSize bytes, checksummed.
func (t *trailer) encode() []byte {
	b := make([]byte, 0, trailerSize)
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, version)
	b = binary.LittleEndian.AppendUint32(b, t.Plies)
	for _, v := range []uint64{uint64(t.PGNSize), uint64(t.PGNModTime), t.StartKey, t.Games, t.Skipped,
		t.Positions, t.Moves, t.Blocks, t.DirOffset} {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	b = binary.LittleEndian.AppendUint32(b, t.DirCRC)
	b = append(b, make([]byte, trailerSize-4-len(b))...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable))
}

// errCorrupt is wrapped by every error about the index's own bytes.
var errCorrupt = errors.New("corrupt index")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errCorrupt, fmt.Sprintf(format, args...))
}

// decodeTrailer reads a trailer written by encode.
func decodeTrailer(b []byte) (trailer, error) {
	var t trailer
	if len(b) != trailerSize || string(b[:len(magic)]) != magic {
		return t, corrupt("no trailer")
	}
	if v := binary.LittleEndian.Uint32(b[len(magic):]); v != version {
		return t, fmt.Errorf("%w: index format %d, this Squall reads %d", ErrStale, v, version)
	}
	if crc32.Checksum(b[:trailerSize-4], crcTable) != binary.LittleEndian.Uint32(b[trailerSize-4:]) {
		return t, corrupt("trailer checksum")
	}
	t.Plies = binary.LittleEndian.Uint32(b[12:])
	var v [9]uint64
	for i := range v {
		v[i] = binary.LittleEndian.Uint64(b[16+8*i:])
	}
	t.PGNSize, t.PGNModTime, t.StartKey, t.Games, t.Skipped = int64(v[0]), int64(v[1]), v[2], v[3], v[4]
	t.Positions, t.Moves, t.Blocks, t.DirOffset = v[5], v[6], v[7], v[8]
	t.DirCRC = binary.LittleEndian.Uint32(b[16+8*len(v):])
	return t, nil
}

// dirEntry locates one block.
type dirEntry struct {
	first  uint64 // the key of its first group
	offset uint64
	crc    uint32
	length uint32
}

// encodeMove packs a move into 15 bits: from, to (castling: the rook's
// square, as chess.Move has it) and promotion.
func encodeMove(m chess.Move) uint16 {
	return uint16(m.From()) | uint16(m.To())<<6 | uint16(m.Promotion())<<12
}

// entry is one position-move pair with its counts, as the build sorts,
// merges and writes them.
type entry struct {
	key uint64
	mv  uint16
	n   [outcomes]uint64
}

// appendMove appends one move of a group to a block.
func appendMove(b []byte, e *entry, last bool) []byte {
	code, single := uint64(0), 0
	for o, n := range e.n {
		if n != 0 {
			single++
			code = uint64(o)
		}
	}
	if single != 1 || e.n[code] != 1 {
		code = outcomes // the counts follow
	}
	v := uint64(e.mv)<<4 | code
	if last {
		v |= 1 << 3
	}
	b = binary.AppendUvarint(b, v)
	if code == outcomes {
		for _, n := range e.n {
			b = binary.AppendUvarint(b, n)
		}
	}
	return b
}

// blockReader decodes the groups of one block.
type blockReader struct {
	b   []byte
	key uint64
}

func (r *blockReader) uvarint() (uint64, error) {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		return 0, corrupt("bad number in a block")
	}
	r.b = r.b[n:]
	return v, nil
}

// group decodes the next group: its key, and its moves appended to moves.
// ok is false at the end of the block.
func (r *blockReader) group(moves []entry) (key uint64, _ []entry, ok bool, err error) {
	if len(r.b) == 0 {
		return 0, moves, false, nil
	}
	delta, err := r.uvarint()
	if err != nil {
		return 0, moves, false, err
	}
	r.key += delta
	for {
		v, err := r.uvarint()
		if err != nil {
			return 0, moves, false, err
		}
		e := entry{key: r.key, mv: uint16(v >> 4)}
		if v>>4 > 1<<15-1 {
			return 0, moves, false, corrupt("bad move in a block")
		}
		switch code := v & 7; {
		case code < outcomes:
			e.n[code] = 1
		case code == outcomes:
			for o := range e.n {
				if e.n[o], err = r.uvarint(); err != nil {
					return 0, moves, false, err
				}
			}
		default:
			return 0, moves, false, corrupt("bad outcome code in a block")
		}
		moves = append(moves, e)
		if v&(1<<3) != 0 {
			return r.key, moves, true, nil
		}
		if len(r.b) == 0 {
			return 0, moves, false, corrupt("a block ends inside a position")
		}
	}
}
