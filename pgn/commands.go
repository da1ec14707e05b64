package pgn

import (
	"strconv"
	"strings"
	"time"
)

// addComment records a comment read after a move: embedded [%...] commands
// go to *c (allocated on the first one), the remaining text (whitespace
// collapsed) to the returned list. A comment that held only commands adds
// no text.
func addComment(list []string, c **Commands, raw string, parseCommands bool) []string {
	if parseCommands && strings.Contains(raw, "[%") {
		var rest strings.Builder
		for {
			i := strings.Index(raw, "[%")
			if i < 0 {
				break
			}
			j := strings.IndexByte(raw[i:], ']')
			if j < 0 {
				break
			}
			rest.WriteString(raw[:i])
			rest.WriteByte(' ')
			if *c == nil {
				*c = new(Commands)
			}
			(*c).add(raw[i : i+j+1])
			raw = raw[i+j+1:]
		}
		rest.WriteString(raw)
		text := collapse(rest.String())
		if text == "" {
			return list
		}
		return append(list, text)
	}
	return append(list, collapse(raw))
}

// collapse trims s and turns every run of whitespace into one space; it
// returns s itself (no allocation) when there is nothing to change.
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
	return strings.Join(strings.Fields(s), " ")
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// add parses one command "[%name args]" into c, keeping it verbatim in
// Other when it is unknown, malformed or a repeat of one already set.
func (c *Commands) add(cmd string) {
	// Collapsed, so a command wrapped across lines reads the same.
	body := collapse(cmd[2 : len(cmd)-1])
	name, arg, _ := strings.Cut(body, " ")
	arg = strings.TrimSpace(arg)
	switch name {
	case "clk":
		if d, ok := parseClock(arg); ok && !c.HasClock {
			c.Clock, c.HasClock = d, true
			return
		}
	case "emt":
		if d, ok := parseClock(arg); ok && !c.HasEMT {
			c.EMT, c.HasEMT = d, true
			return
		}
	case "eval":
		if e, ok := parseEval(arg); ok && c.Eval.Kind == NoEval {
			c.Eval = e
			return
		}
	}
	c.Other = append(c.Other, collapse(cmd))
}

// parseClock reads H:MM:SS, M:SS or S, each with an optional fraction.
func parseClock(s string) (time.Duration, bool) {
	if s == "" || len(s) > 20 {
		return 0, false
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	var d time.Duration
	for i, part := range strings.Split(whole, ":") {
		if i > 2 || part == "" || len(part) > 6 {
			return 0, false
		}
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			return 0, false
		}
		d = d*60 + time.Duration(n)
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
