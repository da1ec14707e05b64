package book

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/squall-chess/squall/engine/chess"
)

// twicBook builds, as `squall book build --max-ply 40` does, a book from the
// repository's 232 TWIC games and writes it to a temporary file: a large
// real book (thousands of positions, castling and every piece moving) to
// read back with the package and with the test's own decoder.
func twicBook(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "twic.bin")
	if err := buildTWIC(t, readTWIC(t), BuildOptions{MaxPly: 40, MinGames: 1}).WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// specRecord is one book entry as the test's own reader decodes it, written
// straight from the Polyglot specification without the package's code: a
// 16-byte big-endian record of key (8 bytes), move (2), weight (2) and
// learn (4).
type specRecord struct {
	key    uint64
	move   uint16
	weight uint16
	learn  uint32
}

func specRead(t testing.TB, data []byte) []specRecord {
	t.Helper()
	if len(data)%16 != 0 {
		t.Fatalf("book of %d bytes is not whole 16-byte records", len(data))
	}
	be := func(b []byte) uint64 {
		var v uint64
		for _, c := range b {
			v = v<<8 | uint64(c)
		}
		return v
	}
	var out []specRecord
	for i := 0; i+16 <= len(data); i += 16 {
		r := data[i : i+16]
		out = append(out, specRecord{
			key:    be(r[0:8]),
			move:   uint16(be(r[8:10])),
			weight: uint16(be(r[10:12])),
			learn:  uint32(be(r[12:16])),
		})
	}
	return out
}

// specMoveUCI decodes a Polyglot move field in the position it belongs to,
// from the specification: bits 0-2 to file, 3-5 to row, 6-8 from file,
// 9-11 from row, 12-14 promotion (1 knight, 2 bishop, 3 rook, 4 queen).
// Castling is written as the king taking its own rook (e1h1, e1a1, e8h8,
// e8a8); standard UCI moves the king two squares instead.
func specMoveUCI(p *chess.Position, m uint16) string {
	toFile, toRow := int(m&7), int(m>>3&7)
	fromFile, fromRow := int(m>>6&7), int(m>>9&7)
	promo := int(m >> 12 & 7)
	from := chess.MakeSquare(fromFile, fromRow)
	if pc := p.Piece(from); pc.Type() == chess.King && fromFile == 4 && (fromRow == 0 || fromRow == 7) && toRow == fromRow {
		switch toFile {
		case 7:
			toFile = 6
		case 0:
			toFile = 2
		}
	}
	s := string([]byte{'a' + byte(fromFile), '1' + byte(fromRow), 'a' + byte(toFile), '1' + byte(toRow)})
	if promo >= 1 && promo <= 4 {
		s += string("nbrq"[promo-1])
	}
	return s
}

func readBookFile(t testing.TB, path string) ([]byte, *Book) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return data, b
}

// TestReadMatchesSpecReader compares every entry the package reads with the
// test's own decoding of the file, and every key's Lookup with a linear scan.
func TestReadMatchesSpecReader(t *testing.T) {
	for _, path := range []string{filepath.Join("testdata", "lasker-trap.bin"), twicBook(t)} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, b := readBookFile(t, path)
			want := specRead(t, data)
			got := b.Entries()
			if len(got) != len(want) {
				t.Fatalf("read %d entries, the file holds %d", len(got), len(want))
			}
			byKey := map[uint64][]specRecord{}
			for i, w := range want {
				g := got[i]
				if g.Key != w.key || g.Move != w.move || g.Weight != w.weight || g.Learn != w.learn {
					t.Fatalf("entry %d: read %016x %04x w%d l%d, file has %016x %04x w%d l%d",
						i, g.Key, g.Move, g.Weight, g.Learn, w.key, w.move, w.weight, w.learn)
				}
				if i > 0 && w.key < want[i-1].key {
					t.Fatalf("entry %d: file not sorted by key", i)
				}
				byKey[w.key] = append(byKey[w.key], w)
			}
			// Lookup (binary search) against the linear grouping, for every
			// key in the file and for keys that fall between and beyond them.
			for k, ws := range byKey {
				es := b.Lookup(k)
				if len(es) != len(ws) {
					t.Fatalf("Lookup(%016x): %d entries, file has %d", k, len(es), len(ws))
				}
				for i := range es {
					if es[i].Move != ws[i].move || es[i].Weight != ws[i].weight {
						t.Fatalf("Lookup(%016x)[%d] = %04x w%d, file has %04x w%d", k, i, es[i].Move, es[i].Weight, ws[i].move, ws[i].weight)
					}
				}
				if _, in := byKey[k+1]; !in && len(b.Lookup(k+1)) != 0 {
					t.Fatalf("Lookup(%016x) found entries for a key not in the file", k+1)
				}
			}
			if len(b.Lookup(0)) != 0 && len(byKey[0]) == 0 {
				t.Errorf("Lookup(0) found entries")
			}
			t.Logf("%d entries, %d positions", len(want), len(byKey))
		})
	}
}

// TestBookMovesDecode walks every position reachable through a large
// book's moves (twicBook) from the start position and checks that the
// moves the package decodes (legal Move values, castling included) are the
// ones the specification decoding names, with the file's weights.
func TestBookMovesDecode(t *testing.T) {
	data, b := readBookFile(t, twicBook(t))
	byKey := map[uint64][]specRecord{}
	for _, r := range specRead(t, data) {
		byKey[r.key] = append(byKey[r.key], r)
	}
	seen := map[uint64]bool{}
	queue := []*chess.Position{chess.NewPosition()}
	positions, moves, castles, promotions := 0, 0, 0, 0
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		k := Key(p)
		if seen[k] {
			continue
		}
		seen[k] = true
		recs := byKey[k]
		cands := b.Candidates(p, nil)
		if len(recs) == 0 {
			if len(cands) != 0 {
				t.Fatalf("%s: %d candidates for a key not in the file", p.FEN(), len(cands))
			}
			continue
		}
		positions++
		type mw struct {
			uci    string
			weight uint16
			learn  uint32
		}
		var want, got []mw
		for _, r := range recs {
			want = append(want, mw{specMoveUCI(p, r.move), r.weight, r.learn})
		}
		for _, c := range cands {
			got = append(got, mw{c.Move.UCI(false), c.Weight, c.Learn})
			if c.Move.IsCastle() {
				castles++
			}
			if c.Move.Promotion() != chess.NoPieceType {
				promotions++
			}
		}
		cmp := func(a, b mw) int {
			if a.uci < b.uci {
				return -1
			}
			if a.uci > b.uci {
				return 1
			}
			return int(a.weight) - int(b.weight)
		}
		slices.SortFunc(want, cmp)
		slices.SortFunc(got, cmp)
		if !slices.Equal(want, got) {
			t.Fatalf("%s: package decodes %v, the file holds %v", p.FEN(), got, want)
		}
		for _, c := range cands {
			moves++
			q := p.Clone()
			var u chess.Undo
			q.MakeMove(c.Move, &u)
			queue = append(queue, q)
		}
	}
	t.Logf("walked %d book positions, %d moves (%d castling, %d promotions) of %d keys in the file", positions, moves, castles, promotions, len(byKey))
	if positions < 1000 || castles == 0 {
		t.Errorf("walk reached %d positions and %d castling moves: too few to have tested decoding", positions, castles)
	}
}

// TestKnownPositions checks the listings of a book named in advance:
// lasker-trap.bin holds only Black's moves of the trap in the Albin
// Countergambit, each with weight 2, ending in an underpromotion.
func TestKnownPositions(t *testing.T) {
	_, lasker := readBookFile(t, filepath.Join("testdata", "lasker-trap.bin"))
	if n := len(lasker.Candidates(chess.NewPosition(), nil)); n != 0 {
		t.Errorf("start position: %d book moves, the file has none", n)
	}
	line := []string{"d2d4", "d7d5", "c2c4", "e7e5", "d4e5", "d5d4", "e2e3", "f8b4", "c1d2", "d4e3", "d2b4", "e3f2", "e1e2", "f2g1n"}
	p := chess.NewPosition()
	for i, s := range line {
		cs := lasker.Candidates(p, nil)
		if i%2 == 0 {
			if len(cs) != 0 {
				t.Errorf("ply %d (White): %d book moves, want none", i+1, len(cs))
			}
		} else if len(cs) != 1 || cs[0].Move.UCI(false) != s || cs[0].Weight != 2 {
			t.Errorf("ply %d: book lists %v, want only %s with weight 2", i+1, cs, s)
		}
		m, err := p.ParseUCI(s)
		if err != nil {
			t.Fatalf("ply %d %s: %v", i+1, s, err)
		}
		var u chess.Undo
		p.MakeMove(m, &u)
	}
}

// TestParseRejectsTruncated: a file that is not whole entries is refused,
// and one out of key order is still searchable.
func TestParseRejectsTruncated(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "lasker-trap.bin"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 15, 17, len(data) - 1} {
		if _, err := Parse(data[:n]); err == nil {
			t.Errorf("Parse of %d bytes: no error", n)
		}
	}
	// Swap the first and last entries: Parse sorts them back.
	sw := slices.Clone(data)
	last := len(sw) - 16
	tmp := slices.Clone(sw[:16])
	copy(sw[:16], sw[last:])
	copy(sw[last:], tmp)
	b, err := Parse(sw)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range specRead(t, data) {
		if es := b.Lookup(r.key); len(es) != 1 || es[0].Move != r.move {
			t.Errorf("unsorted book: Lookup(%016x) = %v", r.key, es)
		}
	}
}
