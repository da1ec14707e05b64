package opening

import (
	"bufio"
	_ "embed"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// balancedEPD is the default set of starting positions for matches and
// self-play (data/balanced.epd, see docs/DATA.md).
//
//go:embed data/balanced.epd
var balancedEPD string

// Balanced is the name under which commands accept the embedded set of
// starting positions (`--openings balanced`).
const Balanced = "balanced"

// BalancedStarts returns the embedded 1,000 balanced starting positions:
// 8 plies from the start position, each within ±0.7 pawns by Stockfish at
// depth 13, meant to be played with both colours.
func BalancedStarts() []*chess.Position {
	ps, err := ReadStarts(strings.NewReader(balancedEPD), Balanced)
	if err != nil {
		panic("opening: embedded balanced.epd: " + err.Error()) // the tests read every line
	}
	return ps
}

// LoadStarts returns the starting positions a command's --openings flag
// names: Balanced for the embedded set, otherwise an EPD or FEN file.
// Either may end in ":FROM-TO" to keep only its positions FROM to TO,
// counted from 1 and inclusive ("balanced:201-400"): a match can then be
// played on openings that no earlier measurement used.
func LoadStarts(name string) ([]*chess.Position, error) {
	source, from, to, ranged, err := splitRange(name)
	if err != nil {
		return nil, err
	}
	ps, err := loadAll(source)
	if err != nil || !ranged {
		return ps, err
	}
	if to > len(ps) {
		return nil, fmt.Errorf("openings %q: %s has %d positions, not %d", name, source, len(ps), to)
	}
	return ps[from-1 : to], nil
}

// loadAll returns every position of Balanced or of the file name.
func loadAll(name string) ([]*chess.Position, error) {
	if name == Balanced {
		return BalancedStarts(), nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadStarts(f, name)
}

// splitRange takes a ":FROM-TO" suffix (two decimal numbers) off name.
// A name whose last colon is followed by anything else is a plain name,
// so a file with a colon in its name still opens.
func splitRange(name string) (source string, from, to int, ranged bool, err error) {
	i := strings.LastIndexByte(name, ':')
	if i < 0 {
		return name, 0, 0, false, nil
	}
	a, b, ok := strings.Cut(name[i+1:], "-")
	if !ok || !isDigits(a) || !isDigits(b) {
		return name, 0, 0, false, nil
	}
	from, errA := strconv.Atoi(a)
	to, errB := strconv.Atoi(b)
	if errA != nil || errB != nil || from < 1 || to < from {
		return "", 0, 0, false, fmt.Errorf("openings %q: want a range FROM-TO with 1 ≤ FROM ≤ TO", name)
	}
	return name[:i], from, to, true, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ReadStarts reads starting positions, one a line: a FEN (six fields) or
// an EPD record (four fields, then operations, which are ignored). Blank
// lines and lines starting with '#' are skipped; name is used in errors.
func ReadStarts(r io.Reader, name string) ([]*chess.Position, error) {
	var ps []*chess.Position
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if len(fs) < 4 {
			return nil, fmt.Errorf("%s:%d: not a FEN or EPD position", name, line)
		}
		fen := strings.Join(fs[:4], " ")
		// Six fields whose last two are numbers are a FEN with clocks;
		// anything else after four fields is EPD operations.
		if len(fs) >= 6 && isUint(fs[4]) && isUint(fs[5]) {
			fen = strings.Join(fs[:6], " ")
		}
		p, err := chess.ParseFEN(fen)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		ps = append(ps, p)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("%s: no positions", name)
	}
	return ps, nil
}

func isUint(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}
