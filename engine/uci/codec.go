// Package uci speaks the Universal Chess Interface: the server side (Squall
// as an engine process, server.go, which wraps its engine in package
// knowledge's book and tables) and the client side (other engines as processes,
// client.go). Every message both sides exchange is written and read in one
// place, a Format/Parse pair: "info" and "option" here, "position" in
// position.go, "go" in gocmd.go, "bestmove" in bestmove.go.
package uci

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// FormatInfo renders info as a UCI "info …" line (without a newline). Fields
// that are zero are left out, except that a line with a depth always carries
// its score. chess960 selects "king takes rook" castling in the PV.
func FormatInfo(info engine.Info, chess960 bool) string {
	if info.Kind() == engine.Text {
		return "info string " + info.String
	}
	var b strings.Builder
	b.WriteString("info")
	if info.Depth > 0 {
		fmt.Fprintf(&b, " depth %d", info.Depth)
		if info.SelDepth > 0 {
			fmt.Fprintf(&b, " seldepth %d", info.SelDepth)
		}
		if info.MultiPV > 0 {
			fmt.Fprintf(&b, " multipv %d", info.MultiPV)
		}
		if info.Score.Mate != 0 {
			fmt.Fprintf(&b, " score mate %d", info.Score.Mate)
		} else {
			fmt.Fprintf(&b, " score cp %d", info.Score.CP)
		}
		switch info.Score.Bound {
		case engine.Lower:
			b.WriteString(" lowerbound")
		case engine.Upper:
			b.WriteString(" upperbound")
		}
		if info.HasWDL {
			fmt.Fprintf(&b, " wdl %d %d %d", info.WDL[0], info.WDL[1], info.WDL[2])
		}
	}
	if info.CurrMove != chess.NullMove {
		fmt.Fprintf(&b, " currmove %s", info.CurrMove.UCI(chess960))
		if info.CurrMoveNumber > 0 {
			fmt.Fprintf(&b, " currmovenumber %d", info.CurrMoveNumber)
		}
	}
	if info.Nodes > 0 || info.Depth > 0 {
		fmt.Fprintf(&b, " nodes %d nps %d", info.Nodes, info.NPS)
	}
	if info.Depth > 0 {
		fmt.Fprintf(&b, " hashfull %d", info.HashFull)
	}
	if info.TBHits > 0 {
		fmt.Fprintf(&b, " tbhits %d", info.TBHits)
	}
	if info.Depth > 0 || info.Time > 0 {
		fmt.Fprintf(&b, " time %d", info.Time.Milliseconds())
	}
	writeMoves(&b, "pv", info.PV, chess960)
	return b.String()
}

// writeMoves appends " key m1 m2 …" to b, the moves in UCI notation, and
// nothing when there are no moves: the form of every move list in UCI
// (pv, position … moves, go searchmoves).
func writeMoves(b *strings.Builder, key string, moves []chess.Move, chess960 bool) {
	if len(moves) == 0 {
		return
	}
	b.WriteByte(' ')
	b.WriteString(key)
	for _, m := range moves {
		b.WriteByte(' ')
		b.WriteString(m.UCI(chess960))
	}
}

// infoKeywords are the words that start a field of an info line; a move
// list (pv, refutation, currline) runs until the next of them.
var infoKeywords = map[string]bool{
	"depth": true, "seldepth": true, "time": true, "nodes": true, "pv": true,
	"multipv": true, "score": true, "currmove": true, "currmovenumber": true,
	"hashfull": true, "nps": true, "tbhits": true, "sbhits": true,
	"cpuload": true, "string": true, "refutation": true, "currline": true,
	"wdl": true,
}

// ParseInfo reads a UCI "info …" line. PV and currmove moves are decoded
// against root (the position the search started from; nil skips move
// decoding). Fields Squall has no use for (cpuload, sbhits, refutation,
// currline) are skipped. On a malformed line it returns the fields read
// before the bad token together with an error naming that token, so a caller
// may still use a partial line (for instance a PV cut at an illegal move).
func ParseInfo(line string, root *chess.Position) (engine.Info, error) {
	var info engine.Info
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "info" {
		return info, fmt.Errorf("uci: not an info line: %q", engine.Clip(line, quoted))
	}
	if len(f) > 1 && f[1] == "string" {
		// The text after "string" is kept verbatim (minus surrounding space).
		i := strings.Index(line, "string")
		info.String = strings.TrimSpace(line[i+len("string"):])
		if info.String == "" {
			info.String = " "
		}
		return info, nil
	}
	// next reads the number at f[i] as the value of field name, checks it
	// against lo..hi and steps past it. Counters (hi = MaxInt64) can only
	// be wrong by their sign, and their error says so.
	i := 1
	next := func(name string, lo, hi int64) (int64, error) {
		if i >= len(f) {
			return 0, fmt.Errorf("uci: info %s: missing value", name)
		}
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("uci: info %s: bad number %q", name, engine.Clip(f[i], quoted))
		}
		if v < lo || v > hi {
			if hi == math.MaxInt64 {
				return 0, fmt.Errorf("uci: info %s: negative %d", name, v)
			}
			return 0, fmt.Errorf("uci: info %s: out of range %d", name, v)
		}
		i++
		return v, nil
	}
	for i < len(f) {
		key := f[i]
		i++
		switch key {
		case "depth", "seldepth", "multipv", "hashfull", "currmovenumber", "cpuload":
			v, err := next(key, 0, 1<<30)
			if err != nil {
				return info, err
			}
			switch key {
			case "depth":
				info.Depth = int(v)
			case "seldepth":
				info.SelDepth = int(v)
			case "multipv":
				info.MultiPV = int(v)
			case "hashfull":
				info.HashFull = int(v)
			case "currmovenumber":
				info.CurrMoveNumber = int(v)
			}
		case "nodes", "nps", "tbhits", "sbhits", "time":
			v, err := next(key, 0, math.MaxInt64)
			if err != nil {
				return info, err
			}
			switch key {
			case "nodes":
				info.Nodes = uint64(v)
			case "nps":
				info.NPS = uint64(v)
			case "tbhits":
				info.TBHits = uint64(v)
			case "time":
				info.Time = time.Duration(v) * time.Millisecond
			}
		case "score":
			if i >= len(f) {
				return info, fmt.Errorf("uci: info score: missing kind")
			}
			kind := f[i]
			i++
			v, err := next("score "+kind, -1<<30, 1<<30)
			if err != nil {
				return info, err
			}
			switch kind {
			case "cp":
				info.Score = engine.Score{CP: int(v)}
			case "mate":
				info.Score = engine.Score{Mate: int(v)}
				if v == 0 {
					// "mate 0": the side to move is already mated; Score
					// cannot say "mate in 0", so it becomes a lost score.
					info.Score = engine.Score{CP: -MatedCP}
				}
			default:
				return info, fmt.Errorf("uci: info score: unknown kind %q", engine.Clip(kind, quoted))
			}
			for i < len(f) && (f[i] == "lowerbound" || f[i] == "upperbound") {
				if f[i] == "lowerbound" {
					info.Score.Bound = engine.Lower
				} else {
					info.Score.Bound = engine.Upper
				}
				i++
			}
		case "wdl":
			for k := range 3 {
				v, err := next("wdl", 0, 1000)
				if err != nil {
					return info, err
				}
				info.WDL[k] = int(v)
			}
			info.HasWDL = true
		case "currmove":
			if i >= len(f) {
				return info, fmt.Errorf("uci: info currmove: missing move")
			}
			if root != nil {
				m, err := root.ParseUCI(f[i])
				if err != nil {
					return info, fmt.Errorf("uci: info currmove %q: %w", engine.Clip(f[i], quoted), err)
				}
				info.CurrMove = m
			}
			i++
		case "pv":
			var p *chess.Position
			if root != nil {
				p = root.Clone()
			}
			var u chess.Undo
			for ; i < len(f) && !infoKeywords[f[i]]; i++ {
				if p == nil {
					continue
				}
				m, err := p.ParseUCI(f[i])
				if err != nil {
					return info, fmt.Errorf("uci: info pv move %d %q: %w", len(info.PV)+1, engine.Clip(f[i], quoted), err)
				}
				info.PV = append(info.PV, m)
				p.MakeMove(m, &u)
			}
		case "refutation", "currline":
			for i < len(f) && !infoKeywords[f[i]] {
				i++
			}
		case "string":
			// "string" in the middle: the rest of the line is text.
			idx := strings.Index(line, " string")
			info.String = strings.TrimSpace(line[idx+len(" string"):])
			return info, nil
		default:
			return info, fmt.Errorf("uci: info: unknown token %q", engine.Clip(key, quoted))
		}
	}
	return info, nil
}

// MatedCP is the centipawn value ParseInfo gives "score mate 0" (the
// side to move is mated), beyond any real evaluation.
const MatedCP = 32000

// FormatOption renders an option as a UCI "option name … type …" line.
func FormatOption(o engine.Option) string {
	var b strings.Builder
	fmt.Fprintf(&b, "option name %s type %s", o.Name, o.Type)
	switch o.Type {
	case "button":
	case "spin":
		fmt.Fprintf(&b, " default %s min %d max %d", o.Default, o.Min, o.Max)
	case "string":
		d := o.Default
		if d == "" {
			d = "<empty>"
		}
		fmt.Fprintf(&b, " default %s", d)
	default:
		fmt.Fprintf(&b, " default %s", o.Default)
		for _, v := range o.Vars {
			fmt.Fprintf(&b, " var %s", v)
		}
	}
	return b.String()
}

// ParseOption reads a UCI "option name … type …" line. Names and values may
// contain spaces; a string default of "<empty>" becomes "".
func ParseOption(line string) (engine.Option, error) {
	var o engine.Option
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "option" || f[1] != "name" {
		return o, fmt.Errorf("uci: not an option line: %q", engine.Clip(line, quoted))
	}
	// Split the line into keyword → value (words up to the next keyword).
	// "name" ends only at "type", since names like "Skill Level" or even
	// "Min Depth" may hold other keywords' words.
	i := 2
	var name []string
	for ; i < len(f) && f[i] != "type"; i++ {
		name = append(name, f[i])
	}
	if len(name) == 0 {
		return o, fmt.Errorf("uci: option: empty name")
	}
	o.Name = strings.Join(name, " ")
	if i+1 >= len(f) {
		return o, fmt.Errorf("uci: option %q: missing type", o.Name)
	}
	o.Type = f[i+1]
	switch o.Type {
	case "check", "spin", "combo", "button", "string":
	default:
		return o, fmt.Errorf("uci: option %q: unknown type %q", o.Name, engine.Clip(o.Type, quoted))
	}
	i += 2
	isKey := func(s string) bool { return s == "default" || s == "min" || s == "max" || s == "var" }
	haveMin, haveMax := false, false
	for i < len(f) {
		key := f[i]
		if !isKey(key) {
			return o, fmt.Errorf("uci: option %q: unknown token %q", o.Name, engine.Clip(key, quoted))
		}
		i++
		var val []string
		for ; i < len(f) && !isKey(f[i]); i++ {
			val = append(val, f[i])
		}
		v := strings.Join(val, " ")
		switch key {
		case "default":
			if v == "<empty>" {
				v = ""
			}
			o.Default = v
		case "var":
			o.Vars = append(o.Vars, v)
		case "min", "max":
			n, err := strconv.Atoi(v)
			if err != nil {
				return o, fmt.Errorf("uci: option %q: bad %s %q", o.Name, key, engine.Clip(v, quoted))
			}
			if key == "min" {
				o.Min, haveMin = n, true
			} else {
				o.Max, haveMax = n, true
			}
		}
	}
	if o.Type == "spin" {
		if !haveMin || !haveMax {
			return o, fmt.Errorf("uci: option %q: spin without min and max", o.Name)
		}
		if o.Min > o.Max {
			return o, fmt.Errorf("uci: option %q: min %d > max %d", o.Name, o.Min, o.Max)
		}
	}
	return o, nil
}

// quoted bounds the text from the other side that this package's errors
// quote (engine.Clip), so a hostile line cannot make an error message
// huge.
const quoted = 40
