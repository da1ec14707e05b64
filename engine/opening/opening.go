// Package opening names chess openings: the ECO code and name of a
// position, from the lichess opening list (data/*.tsv, CC0; see docs/DATA.md).
//
// Openings are found by position, not by move order: each list line's moves
// are played out once and the resulting position's Zobrist key is indexed,
// so a game that reaches a named position by a transposition gets the same
// name as the main line. The index is built on first use (about 10 ms)
// and then only read, so every function is safe for concurrent use.
package opening

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/squall-chess/squall/engine/chess"
)

// Opening is a named opening position.
type Opening struct {
	// ECO is the Encyclopaedia of Chess Openings code, "A00" to "E99".
	ECO string
	// Name is lichess's name, "Family: Variation, Subvariation", e.g.
	// "Ruy Lopez: Morphy Defense, Closed".
	Name string
}

// String formats the opening as a PGN reader shows it: "C60 Ruy Lopez".
func (o Opening) String() string {
	if o.ECO == "" {
		return o.Name
	}
	return o.ECO + " " + o.Name
}

// Family is the name up to the first colon, "Ruy Lopez" for "Ruy Lopez:
// Morphy Defense", for displays too narrow for the whole name.
func (o Opening) Family() string {
	family, _, _ := strings.Cut(o.Name, ":")
	return family
}

// Lookup returns the opening named at p, or false when p is not a named
// position. It allocates nothing, so a display may call it on every move.
func Lookup(p *chess.Position) (Opening, bool) {
	return LookupKey(p.Key())
}

// LookupKey is Lookup by a position's Zobrist key (chess.Position.Key).
func LookupKey(key uint64) (Opening, bool) {
	es := index()
	// Hand-written binary search: no closure, so nothing escapes.
	lo, hi := 0, len(es)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if es[mid].key < key {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(es) && es[lo].key == key {
		return es[lo].Opening, true
	}
	return Opening{}, false
}

// Name plays moves from start and returns the opening of the deepest named
// position on the way (start included), the name a game is known by: a game
// that leaves the list keeps the name of where it left, and one that returns
// to a named position later takes that name. A nil start is the standard
// starting position. Play stops at the first illegal move. start is not
// changed.
func Name(start *chess.Position, moves []chess.Move) (Opening, bool) {
	var p *chess.Position
	if start == nil {
		p = chess.NewPosition()
	} else {
		p = start.Clone()
	}
	best, found := Lookup(p)
	var u chess.Undo
	for _, m := range moves {
		if !p.IsLegal(m) {
			break
		}
		p.MakeMove(m, &u)
		if o, ok := Lookup(p); ok {
			best, found = o, true
		}
	}
	return best, found
}

// Len is the number of named positions.
func Len() int { return len(index()) }

// The list, one file per ECO volume, embedded as strings so that the names
// in the index are slices of them (no copy).
var (
	//go:embed data/a.tsv
	tsvA string
	//go:embed data/b.tsv
	tsvB string
	//go:embed data/c.tsv
	tsvC string
	//go:embed data/d.tsv
	tsvD string
	//go:embed data/e.tsv
	tsvE string
)

// entry is one named position of the index.
type entry struct {
	key uint64
	Opening
}

// The index: entries sorted by key, built once on first use.
var (
	indexOnce    sync.Once
	indexEntries []entry
)

func index() []entry {
	indexOnce.Do(func() {
		es, err := build()
		if err != nil {
			// The list is compiled in and checked line by line by the
			// tests, so this is a broken build, not a runtime condition.
			panic(err)
		}
		indexEntries = es
	})
	return indexEntries
}

// build parses the embedded list into a sorted index.
func build() ([]entry, error) {
	var es []entry
	for _, f := range []struct{ name, text string }{
		{"a.tsv", tsvA}, {"b.tsv", tsvB}, {"c.tsv", tsvC}, {"d.tsv", tsvD}, {"e.tsv", tsvE},
	} {
		lines, err := parse(f.name, f.text)
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			es = append(es, entry{key: l.key, Opening: l.Opening})
		}
	}
	return sortIndex(es)
}

// sortIndex sorts entries by key. The list names every position once; two
// lines reaching one position would make its name depend on the order of
// the files, so they are an error.
func sortIndex(es []entry) ([]entry, error) {
	slices.SortStableFunc(es, func(a, b entry) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	for i := 1; i < len(es); i++ {
		if es[i].key == es[i-1].key {
			return nil, fmt.Errorf("opening: %q and %q name the same position", es[i-1].Opening, es[i].Opening)
		}
	}
	return slices.Clip(es), nil
}

// line is one parsed line of the list.
type line struct {
	Opening
	key   uint64
	plies int
	moves string // the SAN line as written
}

// parse reads one list file: a header line "eco\tname\tpgn", then one
// opening a line, its moves in SAN with move numbers ("1. e4 e5 2. Nf3").
// Errors name the file and line.
func parse(file, text string) ([]line, error) {
	var out []line
	var r replayer
	n := 0
	for l := range strings.Lines(text) {
		n++
		l = strings.TrimRight(l, "\r\n")
		if n == 1 {
			if l != "eco\tname\tpgn" {
				return nil, fmt.Errorf("opening: %s:1: header %q, want \"eco\\tname\\tpgn\"", file, l)
			}
			continue
		}
		if l == "" {
			continue
		}
		parsed, err := r.parseLine(l)
		if err != nil {
			return nil, fmt.Errorf("opening: %s:%d: %w", file, n, err)
		}
		out = append(out, parsed)
	}
	if n == 0 {
		return nil, fmt.Errorf("opening: %s: empty", file)
	}
	return out, nil
}

// replayer plays list lines. Lines sorted by name mostly extend the line
// before ("Ruy Lopez", then "Ruy Lopez: Alapin Defense"), so it takes back
// only the moves past the common prefix and plays the rest: the index is
// built in a fraction of the time a replay from the start of every line
// takes.
type replayer struct {
	p     *chess.Position
	sans  []string // the moves of the current position, as written
	moves []chess.Move
	undos []chess.Undo
	toks  []string // scratch
}

// parseLine reads "ECO\tname\tmoves" and plays the moves.
func (r *replayer) parseLine(l string) (line, error) {
	eco, rest, ok1 := strings.Cut(l, "\t")
	name, moves, ok2 := strings.Cut(rest, "\t")
	if !ok1 || !ok2 || strings.Contains(moves, "\t") {
		return line{}, fmt.Errorf("want 3 tab-separated fields in %q", l)
	}
	if !validECO(eco) {
		return line{}, fmt.Errorf("bad ECO code %q", eco)
	}
	if name == "" {
		return line{}, fmt.Errorf("empty name")
	}
	r.toks = r.toks[:0]
	for tok := range strings.FieldsSeq(moves) {
		if san := skipMoveNumber(tok); san != "" {
			r.toks = append(r.toks, san)
		}
	}
	if len(r.toks) == 0 {
		return line{}, fmt.Errorf("%s: no moves", name)
	}
	if err := r.playTo(r.toks); err != nil {
		return line{}, fmt.Errorf("%s, %w", name, err)
	}
	return line{Opening: Opening{ECO: eco, Name: name}, key: r.p.Key(), plies: len(r.toks), moves: moves}, nil
}

// playTo brings the position to the one after sans from the start.
func (r *replayer) playTo(sans []string) error {
	if r.p == nil {
		r.p = chess.NewPosition()
	}
	k := 0
	for k < len(sans) && k < len(r.sans) && sans[k] == r.sans[k] {
		k++
	}
	for len(r.sans) > k {
		i := len(r.sans) - 1
		r.p.UnmakeMove(r.moves[i], &r.undos[i])
		r.sans, r.moves, r.undos = r.sans[:i], r.moves[:i], r.undos[:i]
	}
	for _, san := range sans[k:] {
		m, err := r.p.ParseSAN(san)
		if err != nil {
			return fmt.Errorf("ply %d: %w", len(r.sans)+1, err)
		}
		r.undos = append(r.undos, chess.Undo{})
		r.p.MakeMove(m, &r.undos[len(r.undos)-1])
		r.sans, r.moves = append(r.sans, san), append(r.moves, m)
	}
	return nil
}

// skipMoveNumber strips a move number ("12." or "12...") from a token and
// returns what is left, "" for a bare number.
func skipMoveNumber(tok string) string {
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	if i == 0 || i == len(tok) || tok[i] != '.' {
		return tok // a move (or "0-0", which starts with a digit but no '.')
	}
	return strings.TrimLeft(tok[i:], ".")
}

// validECO reports whether s is an ECO code: a volume letter A–E and two
// digits.
func validECO(s string) bool {
	return len(s) == 3 && s[0] >= 'A' && s[0] <= 'E' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9'
}
