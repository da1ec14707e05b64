package uci

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// FormatGo writes lim as a "go" command. No limit at all is "go infinite"
// (engine.Limits: analysis until stopped); ParseGo reads it back.
func FormatGo(lim engine.Limits, chess960 bool) string {
	var b strings.Builder
	b.WriteString("go")
	if lim.Ponder {
		b.WriteString(" ponder")
	}
	ms := func(d time.Duration) int64 { return d.Milliseconds() }
	if lim.WTime > 0 || lim.BTime > 0 {
		fmt.Fprintf(&b, " wtime %d btime %d", ms(lim.WTime), ms(lim.BTime))
		if lim.WInc > 0 || lim.BInc > 0 {
			fmt.Fprintf(&b, " winc %d binc %d", ms(lim.WInc), ms(lim.BInc))
		}
		if lim.MovesToGo > 0 {
			fmt.Fprintf(&b, " movestogo %d", lim.MovesToGo)
		}
	}
	if lim.Depth > 0 {
		fmt.Fprintf(&b, " depth %d", lim.Depth)
	}
	if lim.Nodes > 0 {
		fmt.Fprintf(&b, " nodes %d", lim.Nodes)
	}
	if lim.Mate > 0 {
		fmt.Fprintf(&b, " mate %d", lim.Mate)
	}
	if lim.MoveTime > 0 {
		fmt.Fprintf(&b, " movetime %d", ms(lim.MoveTime))
	}
	// No limit means analysis until stopped (engine.Limits), which UCI
	// spells "infinite"; searchmoves goes last because its list of moves
	// runs to the end of the command in some engines' parsers.
	limited := lim.WTime > 0 || lim.BTime > 0 || lim.Depth > 0 || lim.Nodes > 0 || lim.Mate > 0 || lim.MoveTime > 0
	if lim.Infinite || !limited {
		b.WriteString(" infinite")
	}
	writeMoves(&b, "searchmoves", lim.SearchMoves, chess960)
	return b.String()
}

// ParseGo reads the arguments of "go" (after the word) for position p,
// which searchmoves are checked against. A negative clock (a GUI's, after a
// flag fall) reads as 1 ms, a negative increment as none; any other
// negative, unknown or malformed value is an error naming it.
func ParseGo(f []string, p *chess.Position) (engine.Limits, error) {
	var lim engine.Limits
	for i := 0; i < len(f); i++ {
		key := f[i]
		switch key {
		case "infinite":
			lim.Infinite = true
			continue
		case "ponder":
			lim.Ponder = true
			continue
		case "searchmoves":
			for i+1 < len(f) {
				m, err := p.ParseUCI(f[i+1])
				if err != nil {
					break
				}
				lim.SearchMoves = append(lim.SearchMoves, m)
				i++
			}
			if len(lim.SearchMoves) == 0 {
				return lim, fmt.Errorf("go searchmoves: no legal move given")
			}
			continue
		}
		if i+1 >= len(f) {
			return lim, fmt.Errorf("go %s: missing value", engine.Clip(key, quoted))
		}
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil {
			return lim, fmt.Errorf("go %s: bad number %q", engine.Clip(key, quoted), engine.Clip(f[i+1], quoted))
		}
		i++
		ms := time.Duration(v) * time.Millisecond
		nonNeg := func() error {
			if v < 0 {
				return fmt.Errorf("go %s: negative value %d", key, v)
			}
			return nil
		}
		switch key {
		case "wtime":
			lim.WTime = max(ms, time.Millisecond) // a GUI may send a negative clock
		case "btime":
			lim.BTime = max(ms, time.Millisecond)
		case "winc":
			lim.WInc = max(ms, 0)
		case "binc":
			lim.BInc = max(ms, 0)
		case "movestogo", "depth", "mate", "nodes", "movetime":
			if err := nonNeg(); err != nil {
				return lim, err
			}
			switch key {
			case "movestogo":
				lim.MovesToGo = int(min(v, 1<<20))
			case "depth":
				lim.Depth = int(min(v, 1<<20))
			case "mate":
				lim.Mate = int(min(v, 1<<20))
			case "nodes":
				lim.Nodes = uint64(v)
			case "movetime":
				lim.MoveTime = ms
			}
		default:
			return lim, fmt.Errorf("go: unknown parameter %q", engine.Clip(key, quoted))
		}
	}
	return lim, nil
}
