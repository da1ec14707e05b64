package tui

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/opening"
	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
)

// The board reads and writes PGN only through package pgn, and works on
// its game tree (Tree embeds the pgn.Game).

// TreeFromGame takes a game read by package pgn onto the board. A null
// move ("--") cannot be shown or searched from, so a line is cut where one
// is played; a FEN tag without the SetUp tag the standard wants with it
// gets one. The error is non-nil only when the start position (the FEN
// tag) is unusable.
func TreeFromGame(g *pgn.Game) (*Tree, error) {
	start, err := g.StartPosition()
	if err != nil {
		return nil, err
	}
	if g.Tag("FEN") != "" && g.Tag("SetUp") == "" {
		// Added here, before FEN, rather than by the first save.
		i := slices.IndexFunc(g.Tags, func(t pgn.Tag) bool { return t.Name == "FEN" })
		g.Tags = slices.Insert(g.Tags, i, pgn.Tag{Name: "SetUp", Value: "1"})
	}
	if g.Result == "" {
		g.SetTag("Result", pgn.Unknown)
	}
	if g.Root == nil {
		g.Root = &pgn.Node{}
	}
	cutNullMoves(g.Root)
	return &Tree{Game: g, Start: start}, nil
}

// cutNullMoves removes the null moves below n, with what follows them.
func cutNullMoves(n *pgn.Node) {
	n.Children = slices.DeleteFunc(n.Children, func(c *pgn.Node) bool { return c.Move == chess.NullMove })
	for _, c := range n.Children {
		cutNullMoves(c)
	}
}

// Export is the game ready to write: the tree's, with Result, and SetUp and
// FEN for a game that does not start from the initial position, set from
// the tree; the other tags keep their order. It shares the tree's moves
// and annotations: write it, do not change it.
//
// A game Squall created gets ECO and Opening tags from the opening list
// (the deepest named position of the main line, the name the panel shows
// there), as most databases expect; a game it was given keeps the tags it
// came with and gets none of Squall's choosing (issue 32, W8).
func (t *Tree) Export() *pgn.Game {
	g := t.header()
	g.Root = t.Root
	if t.created {
		nameOpening(g, t.Start)
	}
	return g
}

// header is the game without moves: tags, result and start position.
func (t *Tree) header() *pgn.Game {
	g := *t.Game
	g.Root = &pgn.Node{}
	g.Tags = slices.Clone(t.Tags)
	g.SetTag("Result", cmp.Or(t.Result, pgn.Unknown))
	if fen := t.Start.FEN(); fen != chess.StartFEN || t.Start.Chess960() {
		g.SetTag("SetUp", "1")
		g.SetTag("FEN", fen)
		if t.Start.Chess960() && !g.Chess960() {
			g.SetTag("Variant", "Chess960")
		}
	} else if g.Tag("FEN") != "" {
		// A FEN tag naming the initial position adds nothing; one naming
		// another would contradict the tree.
		g.SetTag("FEN", fen)
	}
	return &g
}

// nameOpening sets g's ECO and Opening tags where absent from the opening
// of its main line (played from start): the deepest named position on it,
// so a game known by its opening keeps that name after leaving the list.
// A line that reaches no named position gets neither.
func nameOpening(g *pgn.Game, start *chess.Position) {
	if g.Tag("ECO") != "" && g.Tag("Opening") != "" {
		return
	}
	var line []chess.Move
	for n := g.Root; len(n.Children) > 0; {
		n = n.Children[0]
		line = append(line, n.Move)
	}
	o, ok := opening.Name(start, line)
	if !ok {
		return
	}
	eco := g.Tag("ECO")
	if eco == "" {
		g.SetTag("ECO", o.ECO)
	}
	// A name beside another classifier's ECO code could contradict it
	// (lists draw the lines between codes differently): the Opening tag
	// is added only where the code is absent or agrees.
	if g.Tag("Opening") == "" && (eco == "" || eco == o.ECO) {
		g.SetTag("Opening", o.Name)
	}
}

// ReadPGN reads every game of a PGN stream. A game with a bad move (an
// illegal or ambiguous one, broken movetext) is read up to the problem:
// its tree holds the moves before it and Partial says where and why it
// stopped (issue 32, D3: one illegal move used to drop the whole game). A
// game that cannot be read at all (a bad FEN tag, a variant) is left out.
// Either way the error, which names name:line:column and the move, is
// joined into the returned error, and the other games are returned all the
// same. Reading stops at an I/O error.
//
// Each game remembers its place in the stream (its bytes, up to the next
// game's first byte) and the hash of the whole stream, so that the board
// can save it back in place when name is a file.
func ReadPGN(r io.Reader, name string) ([]*Tree, error) {
	var trees []*Tree
	var errs []error
	h := sha256.New()
	file := &pgnFile{path: name}
	var prev *gameSource // the game before, whose end is this one's start
	n := 0
	for g, err := range pgn.NewReader(io.TeeReader(r, h), name).All() {
		n++
		if prev != nil && g != nil {
			prev.end = g.Offset
		}
		prev = nil // a rejected game ends the one before, and is not saved
		if err != nil {
			errs = append(errs, err)
			if g == nil || errors.Is(err, pgn.ErrVariant) {
				continue
			}
		}
		t, terr := TreeFromGame(g)
		if terr != nil {
			if err == nil {
				errs = append(errs, fmt.Errorf("%s:%d: %w", name, g.Line, terr))
			}
			continue
		}
		t.partial = err
		t.source = &gameSource{file: file, number: n, offset: g.Offset, end: -1}
		file.games = append(file.games, t.source)
		prev = t.source
		trees = append(trees, t)
	}
	copy(file.sum[:], h.Sum(nil))
	return trees, errors.Join(errs...)
}

// loadProblems sums up, in one line, what went wrong reading a file whose
// games (some of them read only in part) open: how many games were read in
// part or skipped, and the first error in full.
func loadProblems(err error, games []*Tree) string {
	more, first := firstError(err)
	partial := 0
	for _, t := range games {
		if t.partial != nil {
			partial++
		}
	}
	skipped := more + 1 - partial
	total := len(games) + skipped
	var parts []string
	if partial > 0 {
		parts = append(parts, fmt.Sprintf("%d of %s read only up to an error", partial, plural.Count(total, "game")))
	}
	if skipped > 0 {
		parts = append(parts, fmt.Sprintf("skipped %d of %s", skipped, plural.Count(total, "game")))
	}
	s := strings.Join(parts, ", ") + fmt.Sprintf(": %v", first)
	if more > 0 {
		s += fmt.Sprintf(" (+%d more)", more)
	}
	return s
}

// problemsDialog shows every problem of a file that opened with some, in
// full (the message line has room for the first one only, cut).
func problemsDialog(path string, err error, games []*Tree) *choiceDialog {
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	const shown = 6
	var lines []string
	for i, e := range errs {
		if i == shown {
			lines = append(lines, fmt.Sprintf("… and %d more (squall pgn %s lists them all)", len(errs)-shown, termtext.SafeLine(path)))
			break
		}
		lines = append(lines, "• "+termtext.SafeLine(e.Error()))
	}
	return &choiceDialog{
		title:    "Problems reading " + termtext.SafeLine(path),
		question: loadSummary(games, err) + "\n" + strings.Join(lines, "\n"),
		choices:  []choice{{key: "enter", label: "ok"}},
	}
}

// loadSummary says in words what was read: the games opened, those read in
// part, those skipped.
func loadSummary(games []*Tree, err error) string {
	more, _ := firstError(err)
	partial := 0
	for _, t := range games {
		if t.partial != nil {
			partial++
		}
	}
	s := plural.Count(len(games), "game") + " opened"
	if partial > 0 {
		s += fmt.Sprintf(", %d of them read only up to the error marked ⚠ in its move list", partial)
	}
	if skipped := more + 1 - partial; skipped > 0 {
		s += fmt.Sprintf("; %d could not be read at all", skipped)
	}
	return s + "."
}

// firstError splits an error joined by errors.Join (ReadPGN's, one per
// game) into its first part and the number of others.
func firstError(err error) (more int, first error) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		if errs := j.Unwrap(); len(errs) > 0 {
			return len(errs) - 1, errs[0]
		}
	}
	return 0, err
}

// appendPGN appends the tree in PGN export format to b.
func (t *Tree) appendPGN(b []byte) ([]byte, error) {
	return pgn.AppendGame(b, t.Export())
}
