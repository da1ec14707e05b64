package train

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/squall-chess/squall/engine/chess"
)

// The compact format (.sqg) keeps whole games rather than positions: a
// game's start position, then every move with its search score. A
// position costs about 4 bytes instead of a packed record's 32 (the idea
// of viriformat, written here for Squall's data), so a large run's output
// is small enough to keep and to move between machines. The training
// positions are derived when the file is read, by the one rule datagen
// also uses (Trainable).
//
// A file is a sequence of blocks, one per game, all little-endian:
//
//	offset size   field
//	0      4      block length n, not counting these 4 bytes (uint32)
//	4      4      game id (uint32)
//	8      1      result from White's view: 0 loss, 1 draw, 2 win
//	9      1      length f of the start FEN
//	10     f      the start position in FEN (castling and en passant kept,
//	              so that every move replays exactly)
//	10+f   4×k    k plies: move (uint16: from | to<<6 | promotion<<12, the
//	              promotion 0 knight … 3 queen) and the search score of the
//	              position before it, side to move's view (int16; ±MateScore
//	              for a mate)
//
// A block is written whole, so a run killed mid-write leaves at most one
// block cut short at the end, which readers drop (and datagen truncates
// before appending).

// GameRecord is one self-play game of the compact format.
type GameRecord struct {
	ID     int
	Start  *chess.Position
	Result float64 // White's view: 1, 0.5, 0
	Plies  []Ply
}

// Ply is a move of a game with the search's score of the position before
// it, side to move's view, in centipawns (±MateScore for a mate).
type Ply struct {
	Move  chess.Move
	Score int16
}

// MateScore stands for a mate score in a Ply: training positions are never
// taken from a position the search found a mate in.
const MateScore = 32000

// Trainable reports whether the position before move m, whose search
// scored score (side to move's view, ±MateScore for a mate), is a
// training position: quiet (not in check, the move no capture or
// promotion) and not a mate. The network learns quiet positions' scores;
// datagen's packed and EPD output and the compact format's readers all
// choose by this one rule.
func Trainable(p *chess.Position, m chess.Move, score int) bool {
	return !p.InCheck() && !m.IsCapture() && m.Promotion() == chess.NoPieceType && score > -MateScore && score < MateScore
}

// maxBlock bounds a block's length: a game of 2,000 plies and a FEN is far
// below it; a larger length is a damaged file, not a game.
const maxBlock = 1 << 16

// AppendGame appends g's block to b.
func AppendGame(b []byte, g *GameRecord) []byte {
	fen := g.Start.FEN()
	n := 4 + 1 + 1 + len(fen) + 4*len(g.Plies)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.LittleEndian.AppendUint32(b, uint32(g.ID))
	b = append(b, uint8(g.Result*2+0.5), uint8(len(fen)))
	b = append(b, fen...)
	for _, p := range g.Plies {
		b = binary.LittleEndian.AppendUint16(b, encodeMove(p.Move))
		b = binary.LittleEndian.AppendUint16(b, uint16(p.Score))
	}
	return b
}

// encodeMove packs a move in 16 bits; decodeMove finds it again among the
// legal moves of its position.
func encodeMove(m chess.Move) uint16 {
	v := uint16(m.From()) | uint16(m.To())<<6
	if pt := m.Promotion(); pt != chess.NoPieceType {
		v |= uint16(pt-chess.Knight) << 12
	}
	return v
}

func decodeMove(p *chess.Position, v uint16) (chess.Move, bool) {
	from, to, promo := chess.Square(v&63), chess.Square(v>>6&63), chess.PieceType(v>>12&3)+chess.Knight
	var ml chess.MoveList
	p.GenerateLegal(&ml)
	for _, m := range ml.Slice() {
		if m.From() == from && m.To() == to && (m.Promotion() == chess.NoPieceType || m.Promotion() == promo) {
			return m, true
		}
	}
	return chess.NullMove, false
}

// ReadGames reads the compact format, calling fn with each game whole (its
// moves checked legal as they replay). A block that cannot be a game is an
// error naming the block's number and byte offset; a block cut short at the
// end (a run stopped mid-write) is left out and its bytes counted in tail.
func ReadGames(r io.Reader, fn func(*GameRecord) error) (tail int, err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var off int64
	var head [4]byte
	buf := make([]byte, 0, 1024)
	for n := 0; ; n++ {
		k, err := io.ReadFull(br, head[:])
		if errors.Is(err, io.EOF) {
			return 0, nil
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return k, nil
		}
		if err != nil {
			return 0, err
		}
		size := int(binary.LittleEndian.Uint32(head[:]))
		if size < 6 || size > maxBlock {
			return 0, fmt.Errorf("game block %d at byte %d: length %d", n, off, size)
		}
		if cap(buf) < size {
			buf = make([]byte, size)
		}
		buf = buf[:size]
		if k, err := io.ReadFull(br, buf); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				return 4 + k, nil
			}
			return 0, err
		}
		g, err := parseGame(buf)
		if err != nil {
			return 0, fmt.Errorf("game block %d at byte %d: %w", n, off, err)
		}
		if err := fn(g); err != nil {
			return 0, err
		}
		off += int64(4 + size)
	}
}

// parseGame reads one block's content (after its length).
func parseGame(b []byte) (*GameRecord, error) {
	id, res, fl := binary.LittleEndian.Uint32(b), b[4], int(b[5])
	if res > 2 {
		return nil, fmt.Errorf("result %d", res)
	}
	if 6+fl > len(b) || (len(b)-6-fl)%4 != 0 {
		return nil, fmt.Errorf("FEN of %d bytes and %d bytes of moves", fl, len(b)-6)
	}
	start, err := chess.ParseFEN(string(b[6 : 6+fl]))
	if err != nil {
		return nil, err
	}
	g := &GameRecord{ID: int(id), Start: start, Result: float64(res) / 2}
	p := start.Clone()
	var u chess.Undo
	for i := 6 + fl; i < len(b); i += 4 {
		m, ok := decodeMove(p, binary.LittleEndian.Uint16(b[i:]))
		if !ok {
			return nil, fmt.Errorf("ply %d: no legal move %#04x in %s", len(g.Plies)+1, binary.LittleEndian.Uint16(b[i:]), p.FEN())
		}
		g.Plies = append(g.Plies, Ply{Move: m, Score: int16(binary.LittleEndian.Uint16(b[i+2:]))})
		p.MakeMove(m, &u)
	}
	return g, nil
}

// Positions are g's training positions, packed: the positions before
// its moves that Trainable takes, with their scores and g's result.
func (g *GameRecord) Positions() []Position {
	var ps []Position
	p := g.Start.Clone()
	var u chess.Undo
	for _, pl := range g.Plies {
		if Trainable(p, pl.Move, int(pl.Score)) {
			ps = append(ps, Pack(p, int(pl.Score), g.Result, g.ID))
		}
		p.MakeMove(pl.Move, &u)
	}
	return ps
}

// ReadGamePositions reads the compact format into training positions.
func ReadGamePositions(r io.Reader) (ps []Position, tail int, err error) {
	tail, err = ReadGames(r, func(g *GameRecord) error {
		ps = append(ps, g.Positions()...)
		return nil
	})
	return ps, tail, err
}
