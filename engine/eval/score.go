package eval

// Score packs a middlegame and an endgame value into one integer so that a
// term is added once and both phases move together (Stockfish's trick): the
// endgame half lives in the upper 16 bits, the middlegame half in the lower,
// and ordinary integer addition adds both halves at once.
type Score int32

// S makes a Score from its middlegame and endgame values.
func S(mg, eg int) Score { return Score(int32(uint32(int32(eg))<<16) + int32(mg)) }

// MG is the middlegame half.
func (s Score) MG() int { return int(int16(uint16(uint32(s)))) }

// EG is the endgame half. Adding 0x8000 first undoes the borrow a negative
// middlegame half took from it.
func (s Score) EG() int { return int(int16(uint16((uint32(s) + 0x8000) >> 16))) }

// Times multiplies both halves by n.
func (s Score) Times(n int) Score { return Score(int32(s) * int32(n)) }
