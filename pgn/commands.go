package pgn

import (
	"strconv"
	"strings"
	"time"
)

// collapse trims s and turns every run of whitespace into one space; it
// returns s itself (no allocation) when there is nothing to change.
// Whitespace is ASCII's: other spaces (U+00A0 in French text, say) are kept
// as written.
func collapse(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpace(c) && (c != ' ' || i == 0 || i == len(s)-1 || s[i+1] == ' ') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return string(appendCollapsed(make([]byte, 0, len(s)), s))
}

// appendCollapsed appends s to dst as collapse returns it.
func appendCollapsed[T ~string | ~[]byte](dst []byte, s T) []byte {
	start := len(dst)
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpace(c) {
			space = len(dst) > start
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		dst = append(dst, c)
	}
	return dst
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// set parses one command "[%name args]" into c. It returns false when the
// command is unknown, malformed or a repeat of one already set, for the
// caller to keep it verbatim in c.Other. cmd does not escape, so a caller
// converting it from bytes allocates nothing for a short command.
func (c *Commands) set(cmd string) bool {
	// Collapsed, so a command wrapped across lines reads the same.
	body := collapse(cmd[2 : len(cmd)-1])
	name, arg, _ := strings.Cut(body, " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "clk":
		if d, ok := parseClock(arg); ok && !c.HasClock {
			c.Clock, c.HasClock = d, true
			return true
		}
	case "emt":
		if d, ok := parseClock(arg); ok && !c.HasEMT {
			c.EMT, c.HasEMT = d, true
			return true
		}
	case "eval":
		if e, ok := parseEval(arg); ok && c.Eval.Kind == NoEval {
			c.Eval = e
			return true
		}
	}
	return false
}

// parseClock reads H:MM:SS, M:SS or S, each with an optional fraction.
func parseClock(s string) (time.Duration, bool) {
	if s == "" || len(s) > 20 {
		return 0, false
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var d time.Duration
	for i := 0; ; i++ {
		part, rest, more := strings.Cut(whole, ":")
		if i > 2 || part == "" || len(part) > 6 {
			return 0, false
		}
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			return 0, false
		}
		d = d*60 + time.Duration(n)
		if !more {
			break
		}
		whole = rest
	}
	d *= time.Second
	if hasFrac {
		if frac == "" || len(frac) > 3 {
			return 0, false
		}
		n, err := strconv.Atoi(frac)
		if err != nil || n < 0 {
			return 0, false
		}
		for i := len(frac); i < 3; i++ {
			n *= 10
		}
		d += time.Duration(n) * time.Millisecond
	}
	return d, true
}

// formatClock writes d as H:MM:SS with a fraction only when needed, the
// form lichess and chess.com use.
func formatClock(d time.Duration) string {
	ms := int64(d / time.Millisecond)
	s := ms / 1000
	out := strconv.FormatInt(s/3600, 10) + ":" + two(s/60%60) + ":" + two(s%60)
	if f := ms % 1000; f != 0 {
		fs := strconv.FormatInt(1000+f, 10)[1:]
		out += "." + strings.TrimRight(fs, "0")
	}
	return out
}

func two(n int64) string {
	if n < 10 {
		return "0" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// parseEval reads "0.35", "-1.2", "#3", "#-2", each optionally ",depth".
func parseEval(s string) (Eval, bool) {
	v, depth, hasDepth := strings.Cut(s, ",")
	var e Eval
	if hasDepth {
		n, err := strconv.Atoi(depth)
		if err != nil || n <= 0 || n > 999 {
			return e, false
		}
		e.Depth = n
	}
	if m, ok := strings.CutPrefix(v, "#"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n > 999 || n < -999 {
			return e, false
		}
		e.Kind, e.Value = Mate, n
		return e, true
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f > 1e5 || f < -1e5 || strings.ContainsAny(v, "eEnNiIxX_") {
		return e, false
	}
	cp := f * 100
	if cp < 0 {
		cp -= 0.5
	} else {
		cp += 0.5
	}
	e.Kind, e.Value = Centipawns, int(cp)
	return e, true
}

// formatEval writes e the way parseEval reads it.
func formatEval(e Eval) string {
	var s string
	if e.Kind == Mate {
		s = "#" + strconv.Itoa(e.Value)
	} else {
		v := e.Value
		sign := ""
		if v < 0 {
			sign, v = "-", -v
		}
		s = sign + strconv.Itoa(v/100) + "." + two(int64(v%100))
	}
	if e.Depth > 0 {
		s += "," + strconv.Itoa(e.Depth)
	}
	return s
}

// text returns the commands as PGN text, typed ones first; nil for nil c.
func (c *Commands) text() []string {
	if c == nil {
		return nil
	}
	var out []string
	if c.HasClock {
		out = append(out, "[%clk "+formatClock(c.Clock)+"]")
	}
	if c.HasEMT {
		out = append(out, "[%emt "+formatClock(c.EMT)+"]")
	}
	if c.Eval.Kind != NoEval {
		out = append(out, "[%eval "+formatEval(c.Eval)+"]")
	}
	return append(out, c.Other...)
}

func isChess960(variant string) bool {
	v := strings.ToLower(strings.ReplaceAll(variant, " ", ""))
	return v == "chess960" || v == "fischerandom" || v == "fischerrandom" || v == "960"
}
