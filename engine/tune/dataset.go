// Package tune fits Squall's evaluation weights to game results (Texel's
// method) and generates the labelled positions to fit them on by self-play;
// it also tunes the search's constants by games (SPSA, spsa.go).
//
// Data format (what datagen writes and the tuner reads): one EPD line per
// position, the four FEN fields then the opcode c9 holding the game result
// from White's view, e.g.
//
//	r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - ce 31; c9 "1-0";
//
// Results are "1-0", "0-1" and "1/2-1/2". The optional ce opcode is the
// search's score of the position in centipawns from the side to move's view
// (EPD's meaning); the tuner can blend it into the target (Options.Lambda).
package tune

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
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
	Game   int32   // the game's id from datagen's "# game N" trailer; -1 if none
	CE     int16   // the search score from White's view (ce opcode), or NoCE
}

// NoCE marks a sample without a search score.
const NoCE = math.MinInt16

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
	// Features are taken with the seed weights, not the compiled-in ones:
	// the endgame scale depends on which side the score favours, so the
	// features (and the fit) would otherwise depend on the last tuning run.
	seed := eval.SeedWeights()
	e := eval.NewWithWeights(&seed)
	var f eval.Features
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	gameStart := 0 // first sample of the game being read
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if id, ok := gameTrailer(text); ok {
			for i := gameStart; i < len(d.Samples); i++ {
				d.Samples[i].Game = id
			}
			gameStart = len(d.Samples)
			continue
		}
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
		ce := int16(NoCE)
		for j := 4; j+1 < len(fields); j++ {
			if fields[j] != "ce" {
				continue
			}
			v, err := strconv.Atoi(strings.TrimSuffix(fields[j+1], ";"))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: ce %q: %w", name, line, fields[j+1], err)
			}
			v = max(min(v, 3000), -3000)
			if fields[1] == "b" {
				v = -v
			}
			ce = int16(v)
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
		s := Sample{Start: int32(len(d.Index)), Phase: int8(f.Phase), Scale: int8(f.Scale), Result: res, Game: -1, CE: ce}
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
	// datagen's threads append games as they finish, so the same games
	// come in a different order from run to run. In game order the fit is
	// the same whatever the order (float sums included).
	if gameStart == len(d.Samples) && len(d.Samples) > 0 {
		slices.SortStableFunc(d.Samples, func(a, b Sample) int { return int(a.Game - b.Game) })
	}
	return d, nil
}

// gameTrailer reads datagen's "# game N RESULT" line.
func gameTrailer(text string) (int32, bool) {
	rest, ok := strings.CutPrefix(text, "# game ")
	if !ok {
		return 0, false
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return 0, false
	}
	id, err := strconv.ParseInt(f[0], 10, 32)
	if err != nil || id < 0 {
		return 0, false
	}
	return int32(id), true
}

// Split divides the samples into a training set and a tenth held out for
// validation (deterministic, so runs are reproducible). Whole games are
// held out when the games are known: positions of one game are alike, and
// a validation set sharing games with the training set would flatter it.
func (d *Dataset) Split() (train, valid []Sample) {
	for i, s := range d.Samples {
		k := int64(i)
		if s.Game >= 0 {
			k = int64(s.Game)
		}
		if k%10 == 9 {
			valid = append(valid, s)
		} else {
			train = append(train, s)
		}
	}
	return train, valid
}
