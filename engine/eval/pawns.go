package eval

import "github.com/squall-chess/squall/engine/chess"

// pawnTableSize is the number of pawn-hash entries (a power of two): 16384
// entries of 32 bytes, half a megabyte per search thread. Pawn structures
// change rarely inside a search, so monsoon-like hit rates near 99% follow.
const pawnTableSize = 1 << 14

// pawnEntry caches what depends on the pawns alone.
type pawnEntry struct {
	key    uint64
	score  Score             // pawn-structure score, White minus Black
	passed [2]chess.Bitboard // passed pawns by colour
	valid  bool
}

// pawnTable is a direct-mapped cache of pawn structures by pawn key.
type pawnTable struct {
	entries      []pawnEntry
	probes, hits uint64
}

func newPawnTable(n int) pawnTable { return pawnTable{entries: make([]pawnEntry, n)} }

// PawnHashStats reports how many pawn-hash probes this Evaluator made and
// how many hit.
func (e *Evaluator) PawnHashStats() (probes, hits uint64) { return e.pawns.probes, e.pawns.hits }

// pawnStructure scores isolated, doubled, backward, phalanx, supported,
// candidate and passed pawns (their rank bonus), through the pawn hash, and
// leaves the passed pawns in e.at.passed for the piece-dependent terms.
func (e *Evaluator) pawnStructure(p *chess.Position) {
	if e.tr != nil { // the tuner needs every coefficient: no cache
		for c := chess.White; c <= chess.Black; c++ {
			e.at.passed[c] = e.pawnsOf(p, c)
		}
		return
	}
	key := p.PawnKey()
	ent := &e.pawns.entries[key&uint64(len(e.pawns.entries)-1)]
	e.pawns.probes++
	if ent.valid && ent.key == key {
		e.pawns.hits++
		e.acc[chess.White] += ent.score
		e.at.passed = ent.passed
		return
	}
	before := e.acc[chess.White] - e.acc[chess.Black]
	for c := chess.White; c <= chess.Black; c++ {
		e.at.passed[c] = e.pawnsOf(p, c)
	}
	*ent = pawnEntry{key: key, score: e.acc[chess.White] - e.acc[chess.Black] - before, passed: e.at.passed, valid: true}
}

// pawnsOf scores c's pawn structure and returns c's passed pawns.
func (e *Evaluator) pawnsOf(p *chess.Position, c chess.Color) chess.Bitboard {
	o := c.Other()
	own, their := p.Pieces(c, chess.Pawn), p.Pieces(o, chess.Pawn)
	theirAttacks := chess.PawnAttacksBB(their, o)
	var passed chess.Bitboard
	for b := own; b != 0; {
		s := b.PopLSB()
		r := s.RelativeRank(c)
		f := s.File()
		neighbours := own & adjacentFiles[f]
		stop := pawnPush(c, s)
		supporters := own & chess.PawnAttacks(o, s)
		phalanx := neighbours & chess.RankBB(s.Rank())
		opposed := their&forwardFile[c][s] != 0
		doubled := own&forwardFile[c][s] != 0

		if phalanx != 0 {
			e.add(c, WPawnPhalanx+r, 1)
		}
		if supporters != 0 {
			e.add(c, WPawnSupported+r, 1)
		}
		if doubled {
			e.add(c, WPawnDoubled, 1)
		}
		switch {
		case neighbours == 0:
			e.add(c, WPawnIsolated, 1)
		case neighbours&^passedSpan[c][s]&^chess.RankBB(s.Rank()) == 0 && phalanx == 0 &&
			// no neighbour can come up to defend it and its stop square
			// is held by an enemy pawn: a backward pawn.
			theirAttacks.Has(stop):
			if opposed {
				e.add(c, WPawnBackward, 1)
			} else {
				e.add(c, WPawnBackwardOpen, 1)
			}
		}
		if doubled {
			continue // only the front pawn of a file can be passed
		}
		sentries := their & passedSpan[c][s]
		if sentries == 0 {
			passed |= chess.SquareBB(s)
			e.add(c, WPassed+r, 1)
			continue
		}
		// A candidate: unopposed, and its helpers outnumber the enemy
		// pawns that guard its path.
		if !opposed {
			helpers := neighbours &^ passedSpan[c][s]
			if helpers.Count() >= sentries.Count() {
				e.add(c, WPawnCandidate+r, 1)
			}
		}
	}
	return passed
}

// passed scores c's passed pawns by what depends on the pieces: a free or
// blocked path, king distances to the stop square (they matter in the
// endgame, more so the further the pawn), and runners no king can catch.
func (e *Evaluator) passed(p *chess.Position, c chess.Color) {
	o := c.Other()
	occ := p.Occupied()
	ownKing, theirKing := p.KingSquare(c), p.KingSquare(o)
	theirPieces := p.ByColor(o) &^ p.Pieces(o, chess.Pawn) &^ p.Pieces(o, chess.King)
	for b := e.at.passed[c]; b != 0; {
		s := b.PopLSB()
		r := s.RelativeRank(c)
		stop := pawnPush(c, s)
		path := forwardFile[c][s]
		switch {
		case occ.Has(stop):
			e.add(c, WPassedBlocked+r, 1)
		case path&occ == 0 && path&e.at.by[o][0] == 0:
			e.add(c, WPassedFree+r, 1)
		}
		if rf := r - 2; rf > 0 {
			e.add(c, WPassedOwnKing, distance[ownKing][stop]*rf)
			e.add(c, WPassedEnemyKing, distance[theirKing][stop]*rf)
		}
		// The rule of the square, with the pawn's first double step.
		if theirPieces == 0 && path&occ == 0 {
			promo := relative(c, chess.MakeSquare(s.File(), 7))
			steps := 7 - r
			if r == 1 {
				steps--
			}
			kd := distance[theirKing][promo]
			if p.SideToMove() == o {
				kd--
			}
			if kd > steps && path&chess.SquareBB(ownKing) == 0 {
				e.add(c, WPassedUnstoppable, 1)
			}
		}
	}
}
