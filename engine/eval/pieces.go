package eval

import "github.com/squall-chess/squall/engine/chess"

// attackInfo is what one evaluation learns about attacks, shared by the
// terms that follow.
type attackInfo struct {
	by     [2][7]chess.Bitboard // squares attacked by colour and piece type; [c][0] by any
	twice  [2]chess.Bitboard    // squares attacked at least twice
	zone   [2]chess.Bitboard    // c's king zone
	units  [2]int               // attack units against c's king
	count  [2]int               // pieces attacking c's king zone
	passed [2]chess.Bitboard    // passed pawns (from the pawn hash)
}

// Attack units a piece type brings when it attacks the enemy king zone, and
// for a safe check (monsoon's attack table idea, units fed to the tuned
// non-linear king-danger table).
var (
	zoneUnits  = [7]int{chess.Knight: 2, chess.Bishop: 2, chess.Rook: 3, chess.Queen: 5}
	checkUnits = [7]int{chess.Knight: 3, chess.Bishop: 2, chess.Rook: 4, chess.Queen: 4}
)

// initAttacks sets up pawn and king attacks and the king zones.
func (e *Evaluator) initAttacks(p *chess.Position) {
	a := &e.at
	for c := chess.White; c <= chess.Black; c++ {
		pa := chess.PawnAttacksBB(p.Pieces(c, chess.Pawn), c)
		k := p.KingSquare(c)
		ka := chess.KingAttacks(k)
		a.by[c] = [7]chess.Bitboard{chess.Pawn: pa, chess.King: ka}
		a.by[c][0] = pa | ka
		a.twice[c] = pa & ka
		zone := ka | chess.SquareBB(k)
		a.zone[c] = zone | zone.Forward(c)
		a.units[c], a.count[c] = 0, 0
	}
}

// pieces scores c's knights, bishops, rooks and queens: mobility (squares not
// held by own pawns or king and not attacked by enemy pawns), outposts, bad
// bishops, rooks on open files and the 7th, trapped pieces; and records
// their attacks and king-zone attack units.
func (e *Evaluator) pieces(p *chess.Position, c chess.Color) {
	o := c.Other()
	a := &e.at
	occ := p.Occupied()
	ownPawns, theirPawns := p.Pieces(c, chess.Pawn), p.Pieces(o, chess.Pawn)
	area := ^(ownPawns | p.Pieces(c, chess.King) | a.by[o][chess.Pawn])
	for t := chess.Knight; t <= chess.Queen; t++ {
		for b := p.Pieces(c, t); b != 0; {
			s := b.PopLSB()
			att := chess.PieceAttacks(t, s, occ)
			a.twice[c] |= a.by[c][0] & att
			a.by[c][t] |= att
			a.by[c][0] |= att
			mob := (att & area).Count()
			e.add(c, mobilityStart[t]+mob, 1)
			if att&a.zone[o] != 0 {
				a.units[o] += zoneUnits[t]
				a.count[o]++
			}
			rel := relative(c, s)
			switch t {
			case chess.Knight, chess.Bishop:
				r := s.RelativeRank(c)
				if r >= 3 && r <= 5 && a.by[c][chess.Pawn].Has(s) && theirPawns&attackSpan[c][s] == 0 {
					if t == chess.Knight {
						e.add(c, WKnightOutpost, 1)
					} else {
						e.add(c, WBishopOutpost, 1)
					}
				}
				if t == chess.Bishop {
					colour := chess.LightSquares
					if !colour.Has(s) {
						colour = chess.DarkSquares
					}
					if n := (ownPawns & colour).Count(); n > 0 {
						e.add(c, WBadBishop, n)
					}
					// A bishop on a7 shut in by a pawn on b6 (and mirrors).
					if (rel == chess.Square(48) && theirPawns.Has(relative(c, 41))) ||
						(rel == chess.Square(55) && theirPawns.Has(relative(c, 46))) {
						e.add(c, WBishopTrapped, 1)
					}
				}
			case chess.Rook:
				file := chess.FileBB(s.File())
				switch {
				case (ownPawns|theirPawns)&file == 0:
					e.add(c, WRookOpen, 1)
				case ownPawns&file == 0:
					e.add(c, WRookHalfOpen, 1)
				}
				if s.RelativeRank(c) == 6 && (p.KingSquare(o).RelativeRank(c) == 7 || theirPawns&relRank(c, 6) != 0) {
					e.add(c, WRookSeventh, 1)
				}
				// A rook boxed in by its own uncastled king.
				if mob <= 3 && s.RelativeRank(c) == 0 {
					kf := p.KingSquare(c).File()
					if p.KingSquare(c).RelativeRank(c) == 0 && ((kf >= 4 && s.File() > kf) || (kf <= 3 && s.File() < kf)) {
						e.add(c, WRookTrapped, 1)
					}
				}
			}
		}
	}
}

// relRank is rank r as seen from c.
func relRank(c chess.Color, r int) chess.Bitboard {
	if c == chess.Black {
		r = 7 - r
	}
	return chess.RankBB(r)
}

// kingSafety scores c's king: pawn shield and storm on its three files,
// open files near it, and the king danger from the attack units the enemy
// gathered on its zone plus safe checks, through the tuned danger table.
func (e *Evaluator) kingSafety(p *chess.Position, c chess.Color) {
	o := c.Other()
	a := &e.at
	k := p.KingSquare(c)
	ownPawns, theirPawns := p.Pieces(c, chess.Pawn), p.Pieces(o, chess.Pawn)
	kf := min(max(k.File(), 1), 6)
	for f := kf - 1; f <= kf+1; f++ {
		file := chess.FileBB(f)
		mine := ownPawns & file & (relRank(c, 1) | relRank(c, 2))
		switch {
		case mine&relRank(c, 1) != 0:
			e.add(c, WShield, 1)
		case mine != 0:
			e.add(c, WShield+1, 1)
		default:
			e.add(c, WShield+2, 1)
		}
		if storm := theirPawns & file & passedSpanOrRank(c, k); storm != 0 {
			// the nearest storming pawn, in ranks from the king
			var s chess.Square
			if c == chess.White {
				s = storm.LSB()
			} else {
				s = storm.MSB()
			}
			if d := abs(s.Rank() - k.Rank()); d >= 1 && d <= 4 {
				e.add(c, WStorm+d, 1)
			}
		}
		switch {
		case (ownPawns|theirPawns)&file == 0:
			e.add(c, WKingOpenFile, 1)
		case ownPawns&file == 0:
			e.add(c, WKingHalfOpenFile, 1)
		}
	}
	// Safe checks: squares from which an enemy piece would check, that
	// it attacks, that c does not defend and c does not occupy.
	occ := p.Occupied()
	safe := ^p.ByColor(o) & (^a.by[c][0] | (a.twice[o] &^ a.twice[c] & a.by[c][chess.King]))
	units := a.units[c]
	bishopLines, rookLines := chess.BishopAttacks(k, occ), chess.RookAttacks(k, occ)
	if chess.KnightAttacks(k)&a.by[o][chess.Knight]&safe != 0 {
		units += checkUnits[chess.Knight]
	}
	if bishopLines&a.by[o][chess.Bishop]&safe != 0 {
		units += checkUnits[chess.Bishop]
	}
	if rookLines&a.by[o][chess.Rook]&safe != 0 {
		units += checkUnits[chess.Rook]
	}
	if (bishopLines|rookLines)&a.by[o][chess.Queen]&safe != 0 {
		units += checkUnits[chess.Queen]
	}
	// Zone squares the enemy attacks and only the king defends.
	units += (a.zone[c] & a.by[o][0] &^ (a.by[c][0] &^ a.by[c][chess.King])).Count()
	if p.Pieces(o, chess.Queen) == 0 || a.count[c] < 2 {
		units /= 2 // one attacker, or no queen, rarely mates
	}
	e.add(c, WKingDanger+min(units, KingUnits-1), 1)
}

// passedSpanOrRank is the three files around k ahead of it from c's view,
// plus its own rank: where storming enemy pawns stand.
func passedSpanOrRank(c chess.Color, k chess.Square) chess.Bitboard {
	return passedSpan[c][k] | chess.RankBB(k.Rank())
}

// threats scores c's attacks on enemy pieces: hanging ones, pawn attacks on
// pieces, minor attacks, rooks on the queen.
func (e *Evaluator) threats(p *chess.Position, c chess.Color) {
	o := c.Other()
	a := &e.at
	for t := chess.Pawn; t <= chess.Queen; t++ {
		theirs := p.Pieces(o, t)
		if theirs == 0 {
			continue
		}
		if n := (theirs & a.by[c][0] &^ a.by[o][0]).Count(); n > 0 {
			e.add(c, WHanging+int(t), n)
		}
		if t != chess.Pawn {
			if n := (theirs & a.by[c][chess.Pawn]).Count(); n > 0 {
				e.add(c, WPawnThreat+int(t), n)
			}
		}
		if n := (theirs & (a.by[c][chess.Knight] | a.by[c][chess.Bishop])).Count(); n > 0 {
			e.add(c, WMinorThreat+int(t), n)
		}
	}
	if n := (p.Pieces(o, chess.Queen) & a.by[c][chess.Rook]).Count(); n > 0 {
		e.add(c, WRookThreatQueen, n)
	}
}

// spaceMask is the centre files (c–f) on each side's 2nd to 4th ranks.
var spaceMask = [2]chess.Bitboard{
	(chess.FileBB(2) | chess.FileBB(3) | chess.FileBB(4) | chess.FileBB(5)) & (chess.Rank2 | chess.Rank3 | chess.Rank4),
	(chess.FileBB(2) | chess.FileBB(3) | chess.FileBB(4) | chess.FileBB(5)) & (chess.Rank7 | chess.Rank6 | chess.Rank5),
}

// space counts the safe central squares behind c's pawn chain: room for
// pieces to manoeuvre, worth something while pieces remain.
func (e *Evaluator) space(p *chess.Position, c chess.Color) {
	o := c.Other()
	own := p.Pieces(c, chess.Pawn)
	behind := own
	for i := 0; i < 3; i++ {
		if c == chess.White {
			behind |= behind.South()
		} else {
			behind |= behind.North()
		}
	}
	safe := spaceMask[c] &^ own &^ e.at.by[o][chess.Pawn] & behind
	if n := safe.Count(); n > 0 {
		e.add(c, WSpace, n)
	}
}
