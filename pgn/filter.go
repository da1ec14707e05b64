package pgn

import (
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// Filter selects games the way a game database does: by player, opening
// code, result, year and a position the game reaches. Every criterion set
// must hold (they combine with AND); the zero Filter selects every game.
// `squall pgn --filter` and the board's game list both select through it,
// so they agree on what a criterion means.
type Filter struct {
	// Players must each be part of the White or the Black tag (any case):
	// two of them select the games between the two.
	Players []string
	// ECOFrom and ECOTo bound the ECO tag, both inclusive ("B90", "B99");
	// a code given as a prefix ("B9") is widened to its range. Empty:
	// any ECO, a game without one included.
	ECOFrom, ECOTo string
	// Result is the result the game must have ("1-0", "0-1", "1/2-1/2",
	// "*"); empty for any.
	Result string
	// YearFrom and YearTo bound the year of the Date tag, both inclusive;
	// 0 leaves a side open. A game whose year is unknown never matches a
	// year.
	YearFrom, YearTo int
	// Position, if not nil, is a position the game's main line must reach
	// at some ply (its start included): the same placement, side to move,
	// castling rights and en passant capture, by any move order.
	Position *chess.Position
}

// filterKeys names ParseFilter's criteria, for its errors and the help.
const filterKeys = "player, eco, result, year, fen"

// FilterHelp describes ParseFilter's criteria in one line for a flag's help.
const FilterHelp = "player=NAME (White or Black, any case, part of the name), eco=B90 or B90-B99 or B9, " +
	"result=1-0|0-1|1/2-1/2|*, year=2024 or 2000-2010, fen=FEN (the main line reaches the position); " +
	"repeat to combine (all must hold)"

// ParseFilter reads criteria written key=value, e.g. "player=Carlsen",
// "eco=B90-B99", "result=1-0", "year=2000-2010", "fen=<FEN>" (see
// FilterHelp); the criteria combine with AND. player may be repeated; the
// other keys may not.
func ParseFilter(specs []string) (Filter, error) {
	var f Filter
	seen := map[string]bool{}
	for _, spec := range specs {
		key, value, ok := strings.Cut(spec, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		if !ok || value == "" {
			return Filter{}, fmt.Errorf("filter %q: want key=value, the key one of %s", spec, filterKeys)
		}
		if seen[key] && key != "player" {
			return Filter{}, fmt.Errorf("filter %q: %s given twice", spec, key)
		}
		seen[key] = true
		var err error
		switch key {
		case "player":
			f.Players = append(f.Players, value)
		case "eco":
			f.ECOFrom, f.ECOTo, err = parseECORange(value)
		case "result":
			if !isResult(value) {
				err = fmt.Errorf("want 1-0, 0-1, 1/2-1/2 or *")
			}
			f.Result = value
		case "year":
			f.YearFrom, f.YearTo, err = parseYearRange(value)
		case "fen":
			f.Position, err = chess.ParseFEN(value)
		default:
			err = fmt.Errorf("unknown key %q, want one of %s", key, filterKeys)
		}
		if err != nil {
			return Filter{}, fmt.Errorf("filter %q: %w", spec, err)
		}
	}
	return f, nil
}

// parseECORange reads "B90", "B9", "B" or "B90-B99" as an inclusive range
// of full codes.
func parseECORange(s string) (from, to string, err error) {
	lo, hi, isRange := strings.Cut(strings.ToUpper(s), "-")
	if !isRange {
		hi = lo
	}
	if !ecoPrefix(lo) || !ecoPrefix(hi) {
		return "", "", fmt.Errorf("want an ECO code A00–E99, a prefix of one (B9) or a range (B90-B99)")
	}
	from, to = lo+"00"[:3-len(lo)], hi+"99"[:3-len(hi)]
	if from > to {
		return "", "", fmt.Errorf("the range's first code is after its last")
	}
	return from, to, nil
}

// ecoPrefix reports whether s is a letter A–E followed by up to two digits.
func ecoPrefix(s string) bool {
	if len(s) < 1 || len(s) > 3 || s[0] < 'A' || s[0] > 'E' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseYearRange reads "2024" or "2000-2010" (either side may be empty:
// "-1999", "2000-").
func parseYearRange(s string) (from, to int, err error) {
	lo, hi, isRange := strings.Cut(s, "-")
	if !isRange {
		hi = lo
	}
	year := func(s string) (int, error) {
		if s == "" && isRange {
			return 0, nil
		}
		y, err := strconv.Atoi(s)
		if err != nil || y < 1 || y > 9999 {
			return 0, fmt.Errorf("want a year (2024) or a range of years (2000-2010)")
		}
		return y, nil
	}
	if from, err = year(lo); err != nil {
		return 0, 0, err
	}
	if to, err = year(hi); err != nil {
		return 0, 0, err
	}
	if from == 0 && to == 0 || to != 0 && from > to {
		return 0, 0, fmt.Errorf("want a year (2024) or a range of years (2000-2010)")
	}
	return from, to, nil
}

// NeedsMoves reports whether the filter looks at the moves (a position),
// so that skimmed entries cannot be judged by MatchEntry alone.
func (f *Filter) NeedsMoves() bool { return f.Position != nil }

// MatchEntry reports whether a skimmed game's tags and result satisfy the
// filter's criteria other than Position.
func (f *Filter) MatchEntry(e *Entry) bool { return f.matchTags(e.Tag, e.Result) }

// Match reports whether g satisfies every criterion.
func (f *Filter) Match(g *Game) bool {
	return f.matchTags(g.Tag, g.Result) && (f.Position == nil || g.Reaches(f.Position))
}

func (f *Filter) matchTags(tag func(string) string, result string) bool {
	if f.Result != "" && result != f.Result {
		return false
	}
	for _, p := range f.Players {
		if !containsFold(tag("White"), p) && !containsFold(tag("Black"), p) {
			return false
		}
	}
	if f.ECOFrom != "" {
		eco := strings.ToUpper(strings.TrimSpace(tag("ECO")))
		if len(eco) != 3 || eco < f.ECOFrom || eco > f.ECOTo {
			return false
		}
	}
	if f.YearFrom != 0 || f.YearTo != 0 {
		y, ok := dateYear(tag("Date"))
		if !ok || f.YearFrom != 0 && y < f.YearFrom || f.YearTo != 0 && y > f.YearTo {
			return false
		}
	}
	return true
}

// containsFold reports whether sub is within s, ignoring case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// dateYear is the year of a PGN date ("2024.05.17", "2024.??.??").
func dateYear(date string) (int, bool) {
	if len(date) < 4 {
		return 0, false
	}
	y, err := strconv.Atoi(date[:4])
	return y, err == nil && y > 0
}

// Reaches reports whether the main line of g reaches the position of
// target (see SamePosition; move numbers aside) at any ply, its start
// included.
func (g *Game) Reaches(target *chess.Position) bool {
	line, err := g.MainlinePositions()
	if err != nil {
		return false
	}
	men := target.Occupied().Count()
	for p := range line {
		if SamePosition(p, target) {
			return true
		}
		if p.Occupied().Count() < men {
			return false // captures are never undone
		}
	}
	return false
}

// SamePosition reports whether a and b are the same position for
// repetition and look-up: placement, side to move, castling rights and an
// en passant square a legal move takes (which is what RepetitionKey holds;
// the rest is compared too so that a key collision cannot pass).
func SamePosition(a, b *chess.Position) bool {
	if a.RepetitionKey() != b.RepetitionKey() || a.SideToMove() != b.SideToMove() || a.Castling() != b.Castling() {
		return false
	}
	for s := chess.Square(0); s < 64; s++ {
		if a.Piece(s) != b.Piece(s) {
			return false
		}
	}
	return true
}

// MainlinePositions returns the positions of g's main line: the start, then
// the position after each move, the line stopping at a null move (a skipped
// turn is not chess to look up). The sequence yields the position before
// each move with that move, then the final position with chess.NullMove;
// the position is one, updated in place: clone it to keep it.
func (g *Game) MainlinePositions() (iter.Seq2[*chess.Position, chess.Move], error) {
	start, err := g.StartPosition()
	if err != nil {
		return nil, err
	}
	root := g.Root
	if root == nil {
		root = &Node{}
	}
	return func(yield func(*chess.Position, chess.Move) bool) {
		p := start
		var u chess.Undo
		for n := root.Next(); n != nil && n.Move != chess.NullMove; n = n.Next() {
			if !yield(p, n.Move) {
				return
			}
			p.MakeMove(n.Move, &u)
		}
		yield(p, chess.NullMove)
	}, nil
}
