package book

import (
	"encoding/binary"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// EntrySize is the size of one Polyglot entry on disk.
const EntrySize = 16

// Entry is one Polyglot book entry: a move playable in the position with
// the given key, its weight (relative frequency of choice) and the learn
// field (32 bits most tools leave zero; Squall keeps its learning in a side
// file instead, see Learning).
type Entry struct {
	Key    uint64
	Move   uint16 // Polyglot move code, see EncodeMove
	Weight uint16
	Learn  uint32
}

// Book is an in-memory Polyglot book: entries sorted by key (then by
// descending weight, as Polyglot writes them).
type Book struct {
	entries []Entry
}

// Open reads a Polyglot book file.
func Open(path string) (*Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	b, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("book %s: %w", path, err)
	}
	return b, nil
}

// Parse decodes a Polyglot book image. A length not a multiple of 16 is an
// error; entries out of key order are sorted (Polyglot requires the order,
// but a hand-merged file may break it and sorting loses nothing).
func Parse(data []byte) (*Book, error) {
	if len(data)%EntrySize != 0 {
		return nil, fmt.Errorf("size %d is not a multiple of %d bytes (truncated or not a Polyglot book)", len(data), EntrySize)
	}
	n := len(data) / EntrySize
	es := make([]Entry, n)
	sorted := true
	for i := range es {
		r := data[i*EntrySize:]
		es[i] = Entry{
			Key:    binary.BigEndian.Uint64(r[0:8]),
			Move:   binary.BigEndian.Uint16(r[8:10]),
			Weight: binary.BigEndian.Uint16(r[10:12]),
			Learn:  binary.BigEndian.Uint32(r[12:16]),
		}
		if i > 0 && es[i].Key < es[i-1].Key {
			sorted = false
		}
	}
	if !sorted {
		sort.SliceStable(es, func(i, j int) bool { return es[i].Key < es[j].Key })
	}
	return &Book{entries: es}, nil
}

// FromEntries makes a book of the given entries (sorted into book order).
func FromEntries(es []Entry) *Book {
	es = append([]Entry(nil), es...)
	sortEntries(es)
	return &Book{entries: es}
}

// sortEntries puts entries in Polyglot file order: key ascending, then
// weight descending, then move, so output is deterministic.
func sortEntries(es []Entry) {
	sort.Slice(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		if a.Weight != b.Weight {
			return a.Weight > b.Weight
		}
		return a.Move < b.Move
	})
}

// Len is the number of entries.
func (b *Book) Len() int { return len(b.entries) }

// Entries returns the book's entries in file order (a copy).
func (b *Book) Entries() []Entry { return append([]Entry(nil), b.entries...) }

// Lookup returns the entries for a key by binary search (a sub-slice of
// the book: do not modify).
func (b *Book) Lookup(key uint64) []Entry {
	lo := sort.Search(len(b.entries), func(i int) bool { return b.entries[i].Key >= key })
	hi := lo
	for hi < len(b.entries) && b.entries[hi].Key == key {
		hi++
	}
	return b.entries[lo:hi:hi]
}

// Marshal encodes entries as a Polyglot image, in the order given.
func Marshal(es []Entry) []byte {
	out := make([]byte, len(es)*EntrySize)
	for i, e := range es {
		w := out[i*EntrySize:]
		binary.BigEndian.PutUint64(w[0:8], e.Key)
		binary.BigEndian.PutUint16(w[8:10], e.Move)
		binary.BigEndian.PutUint16(w[10:12], e.Weight)
		binary.BigEndian.PutUint32(w[12:16], e.Learn)
	}
	return out
}

// EncodeMove returns the Polyglot code of a move: to file (bits 0-2), to
// rank (3-5), from file (6-8), from rank (9-11), promotion (12-14: 1 knight
// … 4 queen). Castling is king-takes-rook (e1h1), which is also how
// engine/chess represents it, so To() is used as is.
func EncodeMove(m chess.Move) uint16 {
	from, to := m.From(), m.To()
	code := uint16(to.File()) | uint16(to.Rank())<<3 | uint16(from.File())<<6 | uint16(from.Rank())<<9
	if pr := m.Promotion(); pr != chess.NoPieceType {
		code |= uint16(pr-chess.Pawn) << 12
	}
	return code
}

// DecodeMove finds the legal move of p with the given Polyglot code. Old
// books write castling as e1g1 rather than e1h1; both are accepted.
func DecodeMove(p *chess.Position, code uint16) (chess.Move, bool) {
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves[:ml.N] {
		if EncodeMove(m) == code {
			return m, true
		}
	}
	// King-to-destination castling as some writers emit it.
	for _, m := range ml.Moves[:ml.N] {
		if m.IsCastle() {
			k := m.KingTo()
			alt := uint16(k.File()) | uint16(k.Rank())<<3 | uint16(m.From().File())<<6 | uint16(m.From().Rank())<<9
			if alt == code {
				return m, true
			}
		}
	}
	return chess.NullMove, false
}

// CodeString writes a Polyglot move code in coordinate form (castling as
// king takes rook, e.g. e1h1), readable without a position.
func CodeString(code uint16) string {
	sq := func(f, r uint16) string { return string([]byte{'a' + byte(f), '1' + byte(r)}) }
	s := sq(code>>6&7, code>>9&7) + sq(code&7, code>>3&7)
	if pr := code >> 12 & 7; pr >= 1 && pr <= 4 {
		s += string("nbrq"[pr-1])
	}
	return s
}

// ParseCode is the inverse of CodeString.
func ParseCode(s string) (uint16, error) {
	if len(s) != 4 && len(s) != 5 {
		return 0, fmt.Errorf("move %q: want from and to squares, e.g. e2e4", s)
	}
	from, ok1 := chess.ParseSquare(s[0:2])
	to, ok2 := chess.ParseSquare(s[2:4])
	if !ok1 || !ok2 {
		return 0, fmt.Errorf("move %q: bad square", s)
	}
	code := uint16(to.File()) | uint16(to.Rank())<<3 | uint16(from.File())<<6 | uint16(from.Rank())<<9
	if len(s) == 5 {
		i := strings.IndexByte("nbrq", s[4])
		if i < 0 {
			return 0, fmt.Errorf("move %q: bad promotion piece", s)
		}
		code |= uint16(i+1) << 12
	}
	return code, nil
}
