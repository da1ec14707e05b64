// Package tune fits Squall's evaluation weights to game results (Texel's
// method) and generates the labelled positions to fit them on by self-play.
//
// Data format (what datagen writes and the tuner reads): one EPD line per
// position, the four FEN fields then the opcode c9 holding the game result
// from White's view, e.g.
//
//	r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - c9 "1-0";
//
// Results are "1-0", "0-1" and "1/2-1/2".
package tune

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/eval"
)

// Sample is one position reduced to what the tuner needs: the non-zero
// feature coefficients (White's count minus Black's), the phase and scale
// that blend them, and the game result.
type Sample struct {
	Start  int32 // offset of the features in Dataset.Index/Coef
	N      int16 // number of features
	Phase  int8
	Scale  int8
	Result float32 // 1 White won, 0.5 draw, 0 Black won
}

// Dataset holds samples with their sparse features packed in two parallel
// slices, a few hundred bytes per position.
type Dataset struct {
	Samples []Sample
	Index   []uint16
	Coef    []int16
	// Skipped counts positions left out: decided by endgame knowledge (the
	// weights play no part there).
	Skipped int
}

// ParseResult reads a result label.
func ParseResult(s string) (float32, error) {
	switch strings.Trim(s, `";`) {
	case "1-0":
		return 1, nil
	case "0-1":
		return 0, nil
	case "1/2-1/2":
		return 0.5, nil
	}
	return 0, fmt.Errorf("result %q: want 1-0, 0-1 or 1/2-1/2", s)
}

// Load reads EPD lines with c9 results. Every bad line is an error naming
// it; nothing is silently dropped except the knowledge-decided positions
// counted in Skipped.
func Load(r io.Reader, name string) (*Dataset, error) {
	d := &Dataset{}
	e := eval.New()
	var f eval.Features
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) < 6 {
			return nil, fmt.Errorf("%s:%d: want 4 FEN fields and c9 \"result\"", name, line)
		}
		i := 4
		for i < len(fields) && fields[i] != "c9" {
			i++
		}
		if i+1 >= len(fields) {
			return nil, fmt.Errorf("%s:%d: no c9 result opcode", name, line)
		}
		res, err := ParseResult(fields[i+1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		p, err := chess.ParseFEN(strings.Join(fields[:4], " "))
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		e.Features(p, &f)
		if f.Special {
			d.Skipped++
			continue
		}
		s := Sample{Start: int32(len(d.Index)), Phase: int8(f.Phase), Scale: int8(f.Scale), Result: res}
		for j := 0; j < eval.NumWeights; j++ {
			if c := f.Coef[0][j] - f.Coef[1][j]; c != 0 {
				d.Index = append(d.Index, uint16(j))
				d.Coef = append(d.Coef, c)
				s.N++
			}
		}
		d.Samples = append(d.Samples, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return d, nil
}

// Split divides the samples into a training set and every tenth sample
// held out for validation (deterministic, so runs are reproducible).
func (d *Dataset) Split() (train, valid []Sample) {
	for i, s := range d.Samples {
		if i%10 == 9 {
			valid = append(valid, s)
		} else {
			train = append(train, s)
		}
	}
	return train, valid
}
