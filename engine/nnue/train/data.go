package train

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// Position is one training position packed in 32 bytes, the record of the
// binary data format (RecordSize bytes, little-endian, no header, so that
// a file is resumable by appending and a damaged tail costs only its
// records):
//
//	offset size field
//	0      8    occupancy bitboard (bit n: square n, a1 = 0)
//	8      16   pieces, 4 bits each (chess.Piece), in occupancy order
//	            from the lowest square, the first in the low nibble
//	24     2    search score in centipawns, side to move's view (int16)
//	26     1    game result from White's view: 0 loss, 1 draw, 2 win
//	27     1    side to move: 0 White, 1 Black
//	28     4    game id (uint32), for holding whole games out
type Position struct {
	Occ    uint64
	Pieces [16]uint8
	Score  int16
	Result uint8
	STM    uint8
	Game   uint32
}

// RecordSize is the size of a packed Position.
const RecordSize = 32

// Pack packs p with its search score (side to move's view), the game's
// result from White's view (1, 0.5, 0) and the game's id.
func Pack(p *chess.Position, score int, whiteResult float64, game int) Position {
	r := Position{Occ: uint64(p.Occupied()), Score: int16(max(min(score, 32000), -32000)), STM: uint8(p.SideToMove()), Game: uint32(game)}
	r.Result = uint8(whiteResult*2 + 0.5)
	i := 0
	for occ := p.Occupied(); occ != 0; i++ {
		sq := occ.PopLSB()
		r.Pieces[i/2] |= uint8(p.Piece(sq)) << (4 * (i % 2))
	}
	return r
}

// each calls fn for every piece of r.
func (r *Position) each(fn func(pc chess.Piece, sq chess.Square)) {
	i := 0
	for occ := chess.Bitboard(r.Occ); occ != 0; i++ {
		sq := occ.PopLSB()
		fn(chess.Piece(r.Pieces[i/2]>>(4*(i%2))&15), sq)
	}
}

// Mirrored is r with the board mirrored left to right (a1 <-> h1): the
// same position for the network, which sees neither castling rights nor
// en passant, so the same score and result. Training on both halves the
// data each square's weights must be learnt from.
func (r *Position) Mirrored() Position {
	var board [64]chess.Piece
	var occ chess.Bitboard
	r.each(func(pc chess.Piece, sq chess.Square) {
		board[sq^7] = pc
		occ |= chess.Bitboard(1) << (sq ^ 7)
	})
	m := Position{Occ: uint64(occ), Score: r.Score, Result: r.Result, STM: r.STM, Game: r.Game}
	i := 0
	for b := occ; b != 0; i++ {
		m.Pieces[i/2] |= uint8(board[b.PopLSB()]) << (4 * (i % 2))
	}
	return m
}

// Target is what the network learns for r: lambda of the game result and
// 1 − lambda of the search score as a win probability, σ(score/scale),
// both from the side to move's view. lambda = 1 learns results only,
// lambda = 0 scores only; scale is Options.WDLScale.
func (r *Position) Target(lambda, scale float64) float64 {
	result := float64(r.Result) / 2
	if r.STM == 1 {
		result = 1 - result
	}
	return lambda*result + (1-lambda)*sigmoid(float64(r.Score)/scale)
}

// append appends the record in the binary format.
func (r *Position) append(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, r.Occ)
	b = append(b, r.Pieces[:]...)
	b = binary.LittleEndian.AppendUint16(b, uint16(r.Score))
	b = append(b, r.Result, r.STM)
	return binary.LittleEndian.AppendUint32(b, r.Game)
}

// WriteRecords writes positions in the binary format.
func WriteRecords(w io.Writer, ps []Position) error {
	b := make([]byte, 0, RecordSize*len(ps))
	for i := range ps {
		b = ps[i].append(b)
	}
	_, err := w.Write(b)
	return err
}

// ReadRecords reads the binary format. A record whose pieces or fields
// cannot be a position is an error naming its number; a partial record at
// the end (a run stopped mid-write) is dropped and counted in tail.
func ReadRecords(r io.Reader) (ps []Position, tail int, err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var rec [RecordSize]byte
	for n := 0; ; n++ {
		k, err := io.ReadFull(br, rec[:])
		if errors.Is(err, io.EOF) {
			return ps, 0, nil
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return ps, k, nil
		}
		if err != nil {
			return ps, 0, err
		}
		p := Position{Occ: binary.LittleEndian.Uint64(rec[0:]), Score: int16(binary.LittleEndian.Uint16(rec[24:])), Result: rec[26], STM: rec[27], Game: binary.LittleEndian.Uint32(rec[28:])}
		copy(p.Pieces[:], rec[8:24])
		if err := p.check(); err != nil {
			return ps, 0, fmt.Errorf("record %d: %w", n, err)
		}
		ps = append(ps, p)
	}
}

// check refuses a record that cannot be a position: more than 32 pieces,
// a piece code that is no piece, a result or side out of range.
func (r *Position) check() error {
	n := chess.Bitboard(r.Occ).Count()
	if n > 32 || n < 2 {
		return fmt.Errorf("%d pieces", n)
	}
	for i := range n {
		pc := chess.Piece(r.Pieces[i/2] >> (4 * (i % 2)) & 15)
		if pc.Type() == chess.NoPieceType || pc.Type() > chess.King || pc&^15 != 0 || (pc>>3) > 1 {
			return fmt.Errorf("piece code %d", pc)
		}
	}
	if r.Result > 2 || r.STM > 1 {
		return fmt.Errorf("result %d, side %d", r.Result, r.STM)
	}
	return nil
}

// ReadEPD reads datagen's EPD output (docs/TUNING.md): one position per
// line with its search score (ce, side to move's view) and the game result
// (c9, White's view), each game closed by "# game N RESULT". Lines without
// both opcodes are skipped and counted; a line that does not parse is an
// error naming its line number.
func ReadEPD(r io.Reader) (ps []Position, skipped int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var game []int // indexes of the current game's positions
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(text, "# game "); ok {
			f := strings.Fields(rest)
			if id, err := strconv.ParseUint(f[0], 10, 32); err == nil {
				for _, i := range game {
					ps[i].Game = uint32(id)
				}
			}
			game = game[:0]
			continue
		}
		if strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) < 4 {
			return ps, skipped, fmt.Errorf("line %d: not an EPD line", line)
		}
		p, err := chess.ParseFEN(strings.Join(f[:4], " ") + " 0 1")
		if err != nil {
			return ps, skipped, fmt.Errorf("line %d: %w", line, err)
		}
		ops := strings.Join(f[4:], " ")
		ce, okCE := opcode(ops, "ce")
		c9, okC9 := opcode(ops, "c9")
		score, errCE := strconv.Atoi(ce)
		var result float64
		switch strings.Trim(c9, `"`) {
		case "1-0":
			result = 1
		case "0-1":
			result = 0
		case "1/2-1/2":
			result = 0.5
		default:
			okC9 = false
		}
		if !okCE || !okC9 || errCE != nil {
			skipped++
			continue
		}
		game = append(game, len(ps))
		ps = append(ps, Pack(p, score, result, 0))
	}
	return ps, skipped, sc.Err()
}

// opcode finds an EPD opcode's operand in "ce 39; c9 "1-0";".
func opcode(ops, name string) (string, bool) {
	for _, op := range strings.Split(ops, ";") {
		f := strings.Fields(op)
		if len(f) == 2 && f[0] == name {
			return f[1], true
		}
	}
	return "", false
}

// Split holds out every game whose id is divisible by every: positions of
// one game are alike, and a validation set that shared games with the
// training set would flatter it.
func Split(ps []Position, every int) (train, valid []Position) {
	for _, p := range ps {
		if int(p.Game)%every == every-1 {
			valid = append(valid, p)
		} else {
			train = append(train, p)
		}
	}
	return train, valid
}
