// Package tablebase probes Syzygy endgame tablebases (.rtbw win/draw/loss
// and .rtbz distance-to-zeroing files) in pure Go.
//
// Values follow Syzygy's conventions, for the side to move: WDL is -2 loss,
// -1 loss saved by the 50-move rule ("blessed loss"), 0 draw, 1 win spoiled
// by the 50-move rule ("cursed win"), 2 win. DTZ is the number of plies to
// the next capture or pawn move (zeroing the 50-move counter) with best
// play, positive when the side to move wins, negative when it loses, 0 for
// draws; cursed results add 100 to its magnitude's base, so |DTZ| > 100
// means the 50-move rule spoils the result. A DTZ can be off by one ply
// where the table stores only even values (Syzygy's own caveat).
package tablebase

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// Tablebase is a set of opened Syzygy tables. Files are found at Open and
// mapped on first use; all methods are safe for concurrent use (each caller
// with its own Position).
type Tablebase struct {
	wdl       map[uint64]*table // by material key, see materialKey
	dtz       map[uint64]*table
	maxPieces int
	files     int
}

// materialKey packs piece counts per colour (4 bits per piece type).
func materialKey(counts *[2][7]int) uint64 {
	var k uint64
	for c := 0; c < 2; c++ {
		for pt := 1; pt <= 5; pt++ {
			k |= uint64(counts[c][pt]&15) << (4 * (5*c + pt - 1))
		}
	}
	return k
}

// positionKeys returns the material key of p and of p with colours swapped.
func positionKeys(p *chess.Position) (key, swapped uint64) {
	for pt := chess.Pawn; pt <= chess.Queen; pt++ {
		w := uint64(p.Count(chess.MakePiece(chess.White, pt)))
		b := uint64(p.Count(chess.MakePiece(chess.Black, pt)))
		sh := 4 * uint(pt-1)
		key |= w<<sh | b<<(sh+20)
		swapped |= b<<sh | w<<(sh+20)
	}
	return key, swapped
}

// parseMaterial reads a table name such as "KRPvKR".
func parseMaterial(name string) (material, bool) {
	m := material{name: name}
	sides := strings.Split(name, "v")
	if len(sides) != 2 {
		return m, false
	}
	for c, s := range sides {
		if len(s) == 0 || s[0] != 'K' {
			return m, false
		}
		for i := 0; i < len(s); i++ {
			pt := strings.IndexByte("PNBRQK", s[i])
			if pt < 0 {
				return m, false
			}
			m.counts[c][pt+1]++
			m.num++
		}
		if m.counts[c][6] != 1 {
			return m, false
		}
	}
	if m.num > maxPieces {
		return m, false
	}
	return m, true
}

// Open indexes the Syzygy tables (*.rtbw, *.rtbz) in the given directories.
// A table found in several directories is taken from the first. Files are
// opened lazily, on the first probe that needs them; a missing or unreadable
// directory is an error, a directory without tables is not.
func Open(paths ...string) (*Tablebase, error) {
	tb := &Tablebase{wdl: map[uint64]*table{}, dtz: map[uint64]*table{}}
	for _, dir := range paths {
		if dir == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("tablebase: %w", err)
		}
		for _, e := range entries {
			name := e.Name()
			ext := filepath.Ext(name)
			if ext != ".rtbw" && ext != ".rtbz" {
				continue
			}
			m, ok := parseMaterial(strings.TrimSuffix(name, ext))
			if !ok {
				continue
			}
			set := tb.wdl
			if ext == ".rtbz" {
				set = tb.dtz
			}
			k := materialKey(&m.counts)
			if _, dup := set[k]; dup {
				continue
			}
			t := &table{path: filepath.Join(dir, name), dtz: ext == ".rtbz", mat: m, key: k}
			set[k] = t
			// The colour-swapped material finds the same table.
			sw := m.counts
			sw[0], sw[1] = sw[1], sw[0]
			set[materialKey(&sw)] = t
			tb.files++
			if m.num > tb.maxPieces && ext == ".rtbw" {
				tb.maxPieces = m.num
			}
		}
	}
	return tb, nil
}

// MaxPieces is the largest piece count (kings included) with a WDL table;
// 0 when no tables were found. Probe only positions with at most this many
// pieces and no castling rights.
func (tb *Tablebase) MaxPieces() int {
	if tb == nil {
		return 0
	}
	return tb.maxPieces
}

// Files is the number of table files found.
func (tb *Tablebase) Files() int { return tb.files }

// Tables lists the names of the WDL tables found, sorted.
func (tb *Tablebase) Tables() []string {
	seen := map[*table]bool{}
	var names []string
	for _, t := range tb.wdl {
		if !seen[t] {
			seen[t] = true
			names = append(names, t.mat.name)
		}
	}
	sort.Strings(names)
	return names
}
