package pgn

import (
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// Filter selects games the way a game database does: by player, rating,
// opening (code or name), event, result, year and a position the game
// reaches. Every criterion set
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
	// EloFrom and EloTo bound both players' ratings (WhiteElo and
	// BlackElo), both inclusive; 0 leaves a side open. A game with a
	// player unrated never matches a rating.
	EloFrom, EloTo int
	// Opening and Event, if set, must be part of the Opening (or
	// Variation) and the Event tag (any case).
	Opening, Event string
	// Position, if not nil, is a position the game's main line must reach
	// at some ply (its start included): the same placement, side to move,
	// castling rights and en passant capture, by any move order.
	Position *chess.Position
}

// filterKeyNames are ParseFilter's criteria, for its errors and
// IsFilterKey.
var filterKeyNames = [...]string{"player", "elo", "eco", "opening", "event", "result", "year", "fen"}

// filterKeys names ParseFilter's criteria, for its errors.
var filterKeys = strings.Join(filterKeyNames[:], ", ")

// IsFilterKey reports whether k (any case) names a criterion ParseFilter
// reads: for a caller that splits a line of criteria (the game list's).
func IsFilterKey(k string) bool {
	return slices.Contains(filterKeyNames[:], strings.ToLower(strings.TrimSpace(k)))
}

// FilterHelp describes ParseFilter's criteria in one line for a flag's help.
const FilterHelp = "player=NAME (White or Black, any case, part of the name), elo=2500 or 2400-2600 (both players; " +
	"2500 alone means at least), eco=B90 or B90-B99 or B9, opening=NAME and event=NAME (part of the tag), " +
	"result=1-0|0-1|1/2-1/2|*, year=2024 or 2000-2010, fen=FEN (the main line reaches the position); " +
	"repeat to combine (all must hold)"

// ParseFilter reads criteria written key=value, e.g. "player=Carlsen",
// "elo=2500-", "eco=B90-B99", "opening=Sicilian", "event=Olympiad",
// "result=1-0", "year=2000-2010", "fen=<FEN>" (see FilterHelp); the
// criteria combine with AND. player may be repeated; the
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
		case "elo":
			f.EloFrom, f.EloTo, err = parseEloRange(value)
		case "opening":
			f.Opening = value
		case "event":
			f.Event = value
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

// parseEloRange reads "2500" (at least 2500), "2400-2600", "-2000" or
// "2400-".
func parseEloRange(s string) (from, to int, err error) {
	lo, hi, isRange := strings.Cut(s, "-")
	elo := func(s string) (int, error) {
		if s == "" && isRange {
			return 0, nil
		}
		e, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || e < 1 || e > 4000 {
			return 0, fmt.Errorf("want a rating (2500: at least) or a range of ratings (2400-2600)")
		}
		return e, nil
	}
	if from, err = elo(lo); err != nil {
		return 0, 0, err
	}
	if isRange {
		if to, err = elo(hi); err != nil {
			return 0, 0, err
		}
	}
	if from == 0 && to == 0 || to != 0 && from > to {
		return 0, 0, fmt.Errorf("want a rating (2500: at least) or a range of ratings (2400-2600)")
	}
	return from, to, nil
}

// NeedsMoves reports whether the filter looks at the moves (a position),
// so that skimmed entries cannot be judged by MatchEntry alone.
func (f *Filter) NeedsMoves() bool { return f.Position != nil }

// MatchEntry reports whether a skimmed game's tags and result satisfy the
// filter's criteria other than Position.
func (f *Filter) MatchEntry(e *Entry) bool { return f.MatchTags(e.Tag, e.Result) }

// Match reports whether g satisfies every criterion.
func (f *Filter) Match(g *Game) bool {
	return f.MatchTags(g.Tag, g.Result) && (f.Position == nil || g.Reaches(f.Position))
}

// MatchTags reports whether a game whose tags tag returns ("" for an
// absent one) and whose result is result satisfies the criteria other
// than Position: for a caller that keeps a game's tags its own way (the
// board's game list keeps only the ones it shows).
func (f *Filter) MatchTags(tag func(string) string, result string) bool {
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
	if f.EloFrom != 0 || f.EloTo != 0 {
		for _, side := range [2]string{"WhiteElo", "BlackElo"} {
			e, ok := Elo(tag(side))
			if !ok || f.EloFrom != 0 && e < f.EloFrom || f.EloTo != 0 && e > f.EloTo {
				return false
			}
		}
	}
	if f.Opening != "" && !containsFold(tag("Opening"), f.Opening) && !containsFold(tag("Variation"), f.Opening) {
		return false
	}
	if f.Event != "" && !containsFold(tag("Event"), f.Event) {
		return false
	}
	return true
}

// Elo reads a rating tag's value ("2750"); ok is false for an unrated
// player ("", "?", "-", "0").
func Elo(v string) (int, bool) {
	e, err := strconv.Atoi(strings.TrimSpace(v))
	return e, err == nil && e > 0
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
	_, ok := g.ReachesAt(target)
	return ok
}

// ReachesAt is Reaches, also giving the main line's node of the move
// played from the first ply at target: nil when the line ends there. The
// game list shows that move beside each game found by position, by the
// same rule as Filter.Position.
func (g *Game) ReachesAt(target *chess.Position) (next *Node, ok bool) {
	line, err := g.MainlinePositions()
	if err != nil {
		return nil, false
	}
	men := target.Occupied().Count()
	n := g.Root // the node whose position p is, in step with line
	for p := range line {
		if SamePosition(p, target) {
			if n == nil {
				return nil, true
			}
			next = n.Next()
			if next != nil && next.Move == chess.NullMove {
				next = nil // the line stops at a null move
			}
			return next, true
		}
		if p.Occupied().Count() < men {
			return nil, false // captures are never undone
		}
		if n != nil {
			n = n.Next()
		}
	}
	return nil, false
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
