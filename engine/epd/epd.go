// Package epd reads and writes Extended Position Description records (the
// format of test suites such as WAC, ECM, WCSAC, Bratko-Kopec and STS) and
// runs such suites against any engine.Analyzer.
//
// A record is the first four FEN fields followed by operations: an opcode
// and zero or more operands, each operation ended by a semicolon. Move
// operands (bm, am, pm, sm, pv, sv) may be SAN or long algebraic
// ("Bc8-f5", "e2e4") and are checked against the position when the record
// is read; string operands (id, c0–c9, v0–v9, …) are quoted on output.
package epd

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
)

// Operation is one opcode with its operands, in file order.
type Operation struct {
	Opcode   string
	Operands []string
}

// Record is one EPD line.
type Record struct {
	Position *chess.Position
	Ops      []Operation
	// Line is the 1-based line number the record was read from (0 if it was
	// built in memory).
	Line int
}

// LineError reports a line that could not be read; reading continues with
// the next line.
type LineError struct {
	Line int
	Text string
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// moveOpcodes take move operands, each legal in the record's position.
var moveOpcodes = map[string]bool{"bm": true, "am": true, "pm": true, "sm": true}

// seqOpcodes take a move sequence played out from the record's position.
var seqOpcodes = map[string]bool{"pv": true, "sv": true}

// intOpcodes take exactly one integer operand.
var intOpcodes = map[string]bool{
	"acd": true, "acs": true, "ce": true, "dm": true, "fmvn": true, "hmvc": true,
	"rc": true,
}

// uintOpcodes take one non-negative integer (node counts).
var uintOpcodes = map[string]bool{"acn": true}

// isStringOpcode reports whether an opcode's operand is a string, written in
// quotes.
func isStringOpcode(op string) bool {
	if len(op) == 2 && (op[0] == 'c' || op[0] == 'v') && op[1] >= '0' && op[1] <= '9' {
		return true
	}
	switch op {
	case "id", "eco", "nic", "tcgs", "tcri", "tcsi", "noop":
		return true
	}
	return false
}

// Read reads every record of an EPD stream. Blank lines and lines starting
// with '#' are skipped. Each bad line yields a *LineError in errs and the
// rest of the stream still loads; a read failure of r itself ends reading
// and is the last error.
func Read(r io.Reader) (recs []*Record, errs []error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\ufeff"))
		if line == "" || line[0] == '#' {
			continue
		}
		rec, err := ParseLine(line)
		if err != nil {
			errs = append(errs, &LineError{Line: n, Text: line, Err: err})
			continue
		}
		rec.Line = n
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, fmt.Errorf("epd: reading after line %d: %w", n, err))
	}
	return recs, errs
}

// ParseLine reads one EPD record.
func ParseLine(line string) (*Record, error) {
	rest := strings.TrimSpace(line)
	var fields [4]string
	for i := range fields {
		f, r, ok := cutField(rest)
		if !ok {
			return nil, fmt.Errorf("epd: want 4 position fields, found %d", i)
		}
		fields[i], rest = f, r
	}
	// Some files write full FENs: two bare numbers (the clocks) before the
	// operations.
	clocks := ""
	if h, r, ok := cutField(rest); ok && isUint(h) {
		if f, r2, ok := cutField(r); ok && isUint(strings.TrimSuffix(f, ";")) {
			clocks, rest = " "+h+" "+strings.TrimSuffix(f, ";"), r2
		}
	}
	pos, err := chess.ParseFEN(strings.Join(fields[:], " ") + clocks)
	if err != nil {
		return nil, fmt.Errorf("epd: position: %w", err)
	}
	if err := checkEnPassant(pos); err != nil {
		return nil, err
	}
	ops, err := parseOps(rest)
	if err != nil {
		return nil, err
	}
	rec := &Record{Position: pos, Ops: ops}
	if err := rec.check(); err != nil {
		return nil, err
	}
	return rec, nil
}

func cutField(s string) (field, rest string, ok bool) {
	s = strings.TrimLeft(s, " \t")
	if s == "" {
		return "", "", false
	}
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, "", true
	}
	return s[:i], s[i:], true
}

func isUint(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}

// parseOps splits "bm Qd1+; id \"BK.01\";" into operations. A quoted
// operand may hold spaces and semicolons; the final semicolon is optional.
func parseOps(s string) ([]Operation, error) {
	var ops []Operation
	var cur *Operation
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == ';':
			if cur == nil {
				return nil, fmt.Errorf("epd: empty operation before ';' at column %d", i+1)
			}
			ops = append(ops, *cur)
			cur = nil
			i++
		case c == '"':
			if cur == nil {
				return nil, fmt.Errorf("epd: quoted string where an opcode belongs at column %d", i+1)
			}
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("epd: %s: unterminated string", cur.Opcode)
			}
			cur.Operands = append(cur.Operands, s[i+1:i+1+j])
			i += j + 2
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != ';' && s[j] != '"' {
				j++
			}
			tok := s[i:j]
			i = j
			if cur == nil {
				if !validOpcode(tok) {
					return nil, fmt.Errorf("epd: bad opcode %q", tok)
				}
				cur = &Operation{Opcode: tok}
			} else {
				cur.Operands = append(cur.Operands, tok)
			}
		}
	}
	if cur != nil {
		ops = append(ops, *cur)
	}
	return ops, nil
}

// validOpcode: a letter then letters, digits or underscores, at most 15
// characters (the EPD standard's rule).
func validOpcode(s string) bool {
	if s == "" || len(s) > 15 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if i == 0 && !letter || !letter && c != '_' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// check validates operands of the opcodes whose form is standard.
func (r *Record) check() error {
	seen := map[string]bool{}
	for _, op := range r.Ops {
		if seen[op.Opcode] {
			return fmt.Errorf("epd: opcode %s appears twice", op.Opcode)
		}
		seen[op.Opcode] = true
		switch {
		case op.Opcode == "bm" && len(op.Operands) == 1 && isMateOperand(op.Operands[0]):
			// matetrack's convention: "bm #N" is a forced mate in N, not a
			// move (negative: the side to move gets mated).
		case moveOpcodes[op.Opcode]:
			if len(op.Operands) == 0 {
				return fmt.Errorf("epd: %s: no moves", op.Opcode)
			}
			for _, s := range op.Operands {
				if _, err := r.Position.ParseSAN(s); err != nil {
					return fmt.Errorf("epd: %s %s: %w", op.Opcode, s, err)
				}
			}
		case seqOpcodes[op.Opcode]:
			if _, err := r.line(op.Operands); err != nil {
				return fmt.Errorf("epd: %s: %w", op.Opcode, err)
			}
		case intOpcodes[op.Opcode], uintOpcodes[op.Opcode]:
			if len(op.Operands) != 1 {
				return fmt.Errorf("epd: %s: want one number, have %d operands", op.Opcode, len(op.Operands))
			}
			n, err := strconv.ParseInt(op.Operands[0], 10, 64)
			if err != nil || uintOpcodes[op.Opcode] && n < 0 {
				return fmt.Errorf("epd: %s: %q is not a number", op.Opcode, op.Operands[0])
			}
		case op.Opcode == "c0" && len(op.Operands) == 1 && strings.Contains(op.Operands[0], "="):
			if _, err := r.Points(); err != nil {
				return err
			}
		}
	}
	return nil
}

// line plays out a move sequence (pv, sv) and returns its moves.
func (r *Record) line(sans []string) ([]chess.Move, error) {
	p := r.Position.Clone()
	moves := make([]chess.Move, 0, len(sans))
	var u chess.Undo
	for i, s := range sans {
		m, err := p.ParseSAN(s)
		if err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, s, err)
		}
		moves = append(moves, m)
		p.MakeMove(m, &u)
	}
	return moves, nil
}

// Get returns the operands of an opcode and whether it is present.
func (r *Record) Get(opcode string) ([]string, bool) {
	for _, op := range r.Ops {
		if op.Opcode == opcode {
			return op.Operands, true
		}
	}
	return nil, false
}

// Set replaces (or appends) an operation.
func (r *Record) Set(opcode string, operands ...string) {
	for i := range r.Ops {
		if r.Ops[i].Opcode == opcode {
			r.Ops[i].Operands = operands
			return
		}
	}
	r.Ops = append(r.Ops, Operation{Opcode: opcode, Operands: operands})
}

// String returns the first operand of an opcode ("" if absent): the id, a
// comment.
func (r *Record) String(opcode string) string {
	if v, ok := r.Get(opcode); ok && len(v) > 0 {
		return v[0]
	}
	return ""
}

// ID is the record's "id" operand.
func (r *Record) ID() string { return r.String("id") }

// Int returns an integer operand (acd, acs, ce, dm, …).
func (r *Record) Int(opcode string) (int, bool) {
	v, ok := r.Get(opcode)
	if !ok || len(v) != 1 {
		return 0, false
	}
	n, err := strconv.Atoi(v[0])
	return n, err == nil
}

// Moves returns the moves of a move opcode (bm, am, pm, sm) or the line of
// a sequence opcode (pv, sv); nil when absent.
func (r *Record) Moves(opcode string) []chess.Move {
	v, ok := r.Get(opcode)
	if !ok {
		return nil
	}
	if seqOpcodes[opcode] {
		ms, _ := r.line(v)
		return ms
	}
	ms := make([]chess.Move, 0, len(v))
	for _, s := range v {
		if m, err := r.Position.ParseSAN(s); err == nil {
			ms = append(ms, m)
		}
	}
	return ms
}

// isMateOperand reports whether s is a mate distance, "#3" or "#-12".
func isMateOperand(s string) bool {
	if len(s) < 2 || s[0] != '#' {
		return false
	}
	n, err := strconv.Atoi(s[1:])
	return err == nil && n != 0
}

// Mate returns N for a record whose "bm" is the mate distance "#N"
// (matetrack's files: mate in N, negative when the side to move is mated).
func (r *Record) Mate() (int, bool) {
	v, ok := r.Get("bm")
	if !ok || len(v) != 1 || !isMateOperand(v[0]) {
		return 0, false
	}
	n, _ := strconv.Atoi(v[0][1:])
	return n, true
}

// SolvesScore reports whether a search score answers a "bm #N" record: a
// mate in at most N moves for the side to move, or, when it is being
// mated, exactly N (a shorter one means the engine missed the best
// defence). It is false for records of other kinds.
func (r *Record) SolvesScore(s engine.Score) bool {
	n, ok := r.Mate()
	switch {
	case !ok || s.Mate == 0 || s.Bound != engine.Exact:
		return false
	case n > 0:
		return s.Mate > 0 && s.Mate <= n
	}
	return s.Mate == n
}

// BestMoves is "bm"; AvoidMoves is "am".
func (r *Record) BestMoves() []chess.Move  { return r.Moves("bm") }
func (r *Record) AvoidMoves() []chess.Move { return r.Moves("am") }

// Points reads STS-style scoring from c0 ("f5=10, Be5+=2, Bf2=3"): the
// points each listed move earns. It returns nil, nil when c0 holds no such
// list.
func (r *Record) Points() (map[chess.Move]int, error) {
	c0 := r.String("c0")
	if !strings.Contains(c0, "=") {
		return nil, nil
	}
	pts := map[chess.Move]int{}
	for _, item := range strings.Split(c0, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		// Split at the last '=' so that promotions ("e8=Q=10") survive.
		k := strings.LastIndexByte(item, '=')
		if k <= 0 {
			return nil, fmt.Errorf("epd: c0: %q is not MOVE=POINTS", item)
		}
		n, err := strconv.Atoi(strings.TrimSpace(item[k+1:]))
		if err != nil {
			return nil, fmt.Errorf("epd: c0: %q: points are not a number", item)
		}
		m, err := r.Position.ParseSAN(strings.TrimSpace(item[:k]))
		if err != nil {
			return nil, fmt.Errorf("epd: c0: %q: %w", item, err)
		}
		pts[m] = n
	}
	return pts, nil
}

// Solves reports whether m answers the record: one of the bm moves, or,
// for an am-only record, none of the am moves. A record with neither
// cannot be solved.
func (r *Record) Solves(m chess.Move) bool {
	if m == chess.NullMove {
		return false
	}
	bm, am := r.BestMoves(), r.AvoidMoves()
	for _, b := range bm {
		if b == m {
			return true
		}
	}
	if len(bm) > 0 || len(am) == 0 {
		return false
	}
	for _, a := range am {
		if a == m {
			return false
		}
	}
	return true
}

// checkEnPassant enforces the EPD rule (PGN standard 16.2.3.4) that differs
// from FEN: an en passant square is written only when an en passant capture
// is actually possible. FEN allows it after any double step, so ParseFEN
// does not check this.
func checkEnPassant(p *chess.Position) error {
	ep := p.EnPassant()
	if ep == chess.NoSquare {
		return nil
	}
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Moves[:ml.N] {
		if m.IsEnPassant() {
			return nil
		}
	}
	return fmt.Errorf("epd: position: en passant square %s, but no en passant capture is possible there", ep)
}
