// Package explore is an opening explorer over a PGN file: for any position
// the games of the file reach, the moves played next, each with how many
// games won, drew and lost after it, as lichess's explorer shows them for
// its databases.
//
// Build reads the file once, as a stream, and writes an index beside it
// (IndexPath: FILE.pgn.sqx) mapping the engine's Zobrist key
// (chess.Position.RepetitionKey) of each position of each game's main line to the moves played from it and their
// counts; Open reads the index's directory (a few bytes per 4 KB of index)
// and Moves answers a position with one read of a block. Memory, building
// or looking up, is bounded by the index's run size and directory, never
// by the size of the PGN file. The index records the PGN file's size and
// modification time: Ensure rebuilds it when they change, when the engine's
// keys or the format change, or when it is corrupt. The index is a cache:
// nothing is lost when it is deleted.
//
// A position is the same position here as for repetitions: placement, side
// to move, castling rights and an en passant square only when a legal move
// takes there (what RepetitionKey holds; pgn.Game.Reaches and `squall pgn
// --filter fen=` mean the same). Each game counts once for each move played from a
// position, however often it came back to it.
//
// The package stands apart from package pgn, which is the notation (reading
// and writing games), because the index is a database built on games read
// and positions keyed by the engine, like package review.
package explore

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"sort"

	"github.com/squall-chess/squall/engine/chess"
)

// IndexPath is where the index of the PGN file pgnPath is kept.
func IndexPath(pgnPath string) string { return pgnPath + ".sqx" }

// ErrStale is wrapped by Open's error for an index that no longer
// describes its PGN file or cannot be read (corrupt, another format, other
// position keys): Ensure rebuilds it.
var ErrStale = errors.New("index out of date")

// Info describes an index.
type Info struct {
	Games, Skipped   uint64 // games indexed, and left out (variants, errors)
	Positions, Moves uint64 // distinct positions, distinct position-move pairs
	Plies            int    // plies indexed per game, 0 for all
	Size             int64  // bytes of the index file
}

func (t *trailer) info() Info {
	return Info{Games: t.Games, Skipped: t.Skipped, Positions: t.Positions, Moves: t.Moves, Plies: int(t.Plies),
		Size: int64(t.DirOffset) + int64(t.Blocks)*dirEntrySize + trailerSize}
}

// Index is an open index. Moves may be called from several goroutines.
type Index struct {
	ra  io.ReaderAt
	f   *os.File // nil when opened from a reader
	t   trailer
	dir []dirEntry
}

// Open opens the index of pgnPath, failing with an error wrapping ErrStale
// if it no longer matches the file (or is corrupt) and with an
// os.ErrNotExist one if there is none.
func Open(pgnPath string) (*Index, error) {
	fi, err := os.Stat(pgnPath)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(IndexPath(pgnPath))
	if err != nil {
		return nil, err
	}
	ifi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	ix, err := read(f, ifi.Size())
	if err == nil && (ix.t.PGNSize != fi.Size() || ix.t.PGNModTime != fi.ModTime().UnixNano()) {
		err = fmt.Errorf("%w: %s changed since it was indexed", ErrStale, pgnPath)
	}
	if err != nil {
		f.Close()
		if errors.Is(err, errCorrupt) {
			err = fmt.Errorf("%w (%w)", ErrStale, err)
		}
		return nil, fmt.Errorf("explore: %s: %w", IndexPath(pgnPath), err)
	}
	ix.f = f
	return ix, nil
}

// Ensure opens the index of pgnPath, building it first when there is none
// or the one there is stale, corrupt or built with other Plies; built
// says whether it did.
func Ensure(pgnPath string, opt Options) (ix *Index, built bool, err error) {
	ix, err = Open(pgnPath)
	if err == nil && ix.t.Plies == uint32(max(opt.Plies, 0)) {
		return ix, false, nil
	}
	if ix != nil {
		ix.Close()
	}
	if err != nil && !errors.Is(err, ErrStale) && !errors.Is(err, os.ErrNotExist) {
		return nil, false, err
	}
	if _, err := os.Stat(pgnPath); err != nil {
		return nil, false, err
	}
	if _, err := Build(pgnPath, opt); err != nil {
		return nil, false, err
	}
	ix, err = Open(pgnPath)
	return ix, true, err
}

// read opens an index from its bytes, checking everything but the blocks,
// which are checked when read.
func read(ra io.ReaderAt, size int64) (*Index, error) {
	if size < int64(preambleSize+trailerSize) {
		return nil, corrupt("too short")
	}
	head := make([]byte, preambleSize)
	if _, err := ra.ReadAt(head, 0); err != nil {
		return nil, err
	}
	if string(head[:len(magic)]) != magic {
		return nil, corrupt("not an index")
	}
	if v := binary.LittleEndian.Uint32(head[len(magic):]); v != version {
		return nil, fmt.Errorf("%w: index format %d, this Squall reads %d", ErrStale, v, version)
	}
	tb := make([]byte, trailerSize)
	if _, err := ra.ReadAt(tb, size-trailerSize); err != nil {
		return nil, err
	}
	t, err := decodeTrailer(tb)
	if err != nil {
		return nil, err
	}
	dirEnd := uint64(size - trailerSize)
	if t.DirOffset < uint64(preambleSize) || t.DirOffset > dirEnd || (dirEnd-t.DirOffset)/dirEntrySize != t.Blocks ||
		(dirEnd-t.DirOffset)%dirEntrySize != 0 {
		return nil, corrupt("directory out of place")
	}
	if t.StartKey != chess.NewPosition().RepetitionKey() {
		return nil, fmt.Errorf("%w: built with other position keys", ErrStale)
	}
	db := make([]byte, dirEnd-t.DirOffset)
	if _, err := ra.ReadAt(db, int64(t.DirOffset)); err != nil {
		return nil, err
	}
	if crc32.Checksum(db, crcTable) != t.DirCRC {
		return nil, corrupt("directory checksum")
	}
	ix := &Index{ra: ra, t: t, dir: make([]dirEntry, t.Blocks)}
	next := uint64(preambleSize)
	for i := range ix.dir {
		b := db[i*dirEntrySize:]
		d := dirEntry{first: binary.LittleEndian.Uint64(b), offset: binary.LittleEndian.Uint64(b[8:]),
			crc: binary.LittleEndian.Uint32(b[16:]), length: binary.LittleEndian.Uint32(b[20:])}
		if d.offset != next || d.length == 0 || d.length > maxBlock || i > 0 && d.first <= ix.dir[i-1].first {
			return nil, corrupt("directory entry %d", i)
		}
		next += uint64(d.length)
		ix.dir[i] = d
	}
	if next != t.DirOffset {
		return nil, corrupt("blocks and directory disagree")
	}
	return ix, nil
}

// Close closes the index file.
func (ix *Index) Close() error {
	if ix.f == nil {
		return nil
	}
	return ix.f.Close()
}

// Info describes the index.
func (ix *Index) Info() Info { return ix.t.info() }

// Move is a move played from a position, with the games that played it.
type Move struct {
	Move chess.Move
	SAN  string
	// White, Draws and Black count the games won by White, drawn and won
	// by Black after the move; Unfinished those without a result ("*").
	White, Draws, Black, Unfinished uint64
}

// Games is the number of games that played the move.
func (m Move) Games() uint64 { return m.White + m.Draws + m.Black + m.Unfinished }

// Score is the mover's score over the finished games, from 0 to 1 (a win
// 1, a draw ½), and false when none finished.
func (m Move) Score(mover chess.Color) (float64, bool) {
	n := m.White + m.Draws + m.Black
	if n == 0 {
		return 0, false
	}
	won := m.White
	if mover == chess.Black {
		won = m.Black
	}
	return (float64(won) + float64(m.Draws)/2) / float64(n), true
}

// Moves returns the moves played from p in the indexed games, the most
// played first (ties in SAN order), as lichess's explorer lists them; nil
// when no game reached p. An error is a corrupt block or a failed read.
func (ix *Index) Moves(p *chess.Position) ([]Move, error) {
	entries, err := ix.lookup(p.RepetitionKey())
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	var out []Move
	for _, e := range entries {
		// A move that is not legal here belongs to another position with
		// the same key (or a corrupt block): it is not this position's.
		i := slices.IndexFunc(ml.Slice(), func(m chess.Move) bool { return encodeMove(m) == e.mv })
		if i < 0 {
			continue
		}
		m := ml.Moves[i]
		out = append(out, Move{Move: m, SAN: p.SAN(m), White: e.n[whiteWins], Draws: e.n[draw], Black: e.n[blackWins],
			Unfinished: e.n[unfinished]})
	}
	slices.SortFunc(out, func(a, b Move) int {
		if c := cmp.Compare(b.Games(), a.Games()); c != 0 {
			return c
		}
		return cmp.Compare(a.SAN, b.SAN)
	})
	return out, nil
}

// lookup returns the entries of the position with the given key.
func (ix *Index) lookup(key uint64) ([]entry, error) {
	// The last block whose first key is at most key.
	i := sort.Search(len(ix.dir), func(i int) bool { return ix.dir[i].first > key }) - 1
	if i < 0 {
		return nil, nil
	}
	r, err := ix.block(i)
	if err != nil {
		return nil, err
	}
	var moves []entry
	for {
		k, got, ok, err := r.group(moves[:0])
		if err != nil || !ok || k > key {
			return nil, err
		}
		if k == key {
			return got, nil
		}
		moves = got
	}
}

// block reads and checks block i.
func (ix *Index) block(i int) (*blockReader, error) {
	d := ix.dir[i]
	b := make([]byte, d.length)
	if _, err := ix.ra.ReadAt(b, int64(d.offset)); err != nil {
		return nil, fmt.Errorf("explore: read block %d: %w", i, err)
	}
	if crc32.Checksum(b, crcTable) != d.crc {
		return nil, fmt.Errorf("explore: block %d: %w", i, corrupt("checksum"))
	}
	return &blockReader{b: b, key: d.first}, nil
}

// each calls fn for every entry of the index in order, stopping at the
// first error (tests and fuzzing read the whole index with it).
func (ix *Index) each(fn func(entry)) error {
	for i := range ix.dir {
		r, err := ix.block(i)
		if err != nil {
			return err
		}
		var moves []entry
		for {
			_, got, ok, err := r.group(moves[:0])
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			for _, e := range got {
				fn(e)
			}
			moves = got
		}
	}
	return nil
}
