package tune

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand"
	"strconv"
	"strings"
	"sync"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/nnue/train"
	"github.com/squall-chess/squall/referee"
)

// Datagen configures self-play for tuning data.
type Datagen struct {
	Openings    []*chess.Position // starting positions, used in turn
	Games       int               // games to play in all (game ids 0 … Games-1)
	Nodes       uint64            // node budget per move
	Threads     int               // games played at once, one engine each
	RandomPlies int               // random moves after the opening, for variety
	MaxPlies    int               // a game this long is adjudicated a draw
	Seed        int64
	// Done lists game ids already in the output (from a previous run).
	Done map[int]bool
	// Progress, if set, is called after each game with the games and
	// positions written so far in this run.
	Progress func(games, positions int)
	// Encode writes a finished game in the output's format (nil: EPD,
	// the format documented at the top of this package).
	Encode func(g *PlayedGame) []byte
}

// PlayedGame is a finished self-play game: its id, its result, its quiet
// positions each with the search's score, and the whole game from after
// the random opening moves, every move with its score (the compact format
// keeps that and derives the positions when read).
type PlayedGame struct {
	ID        int
	Result    referee.Result // never aborted: PGN is "1-0", "0-1" or "1/2-1/2"
	Positions []Labelled
	Start     *chess.Position
	Plies     []train.Ply
}

// Labelled is one position of a game with the search's score of it, in
// centipawns from the side to move's view.
type Labelled struct {
	Position *chess.Position
	Score    int
}

// EPD encodes a game as one EPD line per position (ce: the score, c9: the
// result) and a "# game N RESULT" trailer, which ReadDone reads back.
func EPD(g *PlayedGame) []byte {
	var b strings.Builder
	for _, l := range g.Positions {
		fmt.Fprintf(&b, "%s ce %d; c9 \"%s\";\n", epdFields(l.Position.FEN()), l.Score, g.Result.PGN())
	}
	fmt.Fprintf(&b, "# game %d %s\n", g.ID, g.Result.PGN())
	return []byte(b.String())
}

// Adjudication: a side whose score stays beyond resignScore for resignPlies
// plies in a row (both sides agreeing) has won.
const (
	resignScore = 1000
	resignPlies = 6
)

// ReadDone scans an existing output file for its "# game N" trailers, so a
// run can resume where it stopped.
func ReadDone(r io.Reader) (map[int]bool, error) {
	done := map[int]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "# game "); ok {
			n, err := strconv.Atoi(strings.Fields(rest)[0])
			if err != nil {
				return nil, fmt.Errorf("bad trailer %q: %w", sc.Text(), err)
			}
			done[n] = true
		}
	}
	return done, sc.Err()
}

// Run plays the games with engines from newEngine and writes each finished
// game's quiet positions, labelled with its result, to out as a block ending
// in "# game N result". It stops early, losing only unfinished games, when
// ctx is cancelled.
func (d *Datagen) Run(ctx context.Context, newEngine func() (engine.Analyzer, error), out io.Writer) error {
	if len(d.Openings) == 0 {
		return fmt.Errorf("datagen: no openings")
	}
	ids := make(chan int)
	var mu sync.Mutex
	var firstErr error
	games, positions := 0, 0
	var wg sync.WaitGroup
	for t := 0; t < max(d.Threads, 1); t++ {
		eng, err := newEngine()
		if err != nil {
			return fmt.Errorf("datagen: start engine: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer eng.Close()
			encode := d.Encode
			if encode == nil {
				encode = EPD
			}
			for id := range ids {
				g, err := d.play(ctx, eng, id)
				mu.Lock()
				if err != nil {
					if firstErr == nil && ctx.Err() == nil {
						firstErr = fmt.Errorf("game %d: %w", id, err)
					}
				} else if _, werr := out.Write(encode(g)); werr != nil && firstErr == nil {
					firstErr = fmt.Errorf("write: %w", werr)
				} else {
					games++
					positions += len(g.Positions)
					if d.Progress != nil {
						d.Progress(games, positions)
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for id := 0; id < d.Games; id++ {
		if d.Done[id] {
			continue
		}
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		select {
		case ids <- id:
		case <-ctx.Done():
			break feed
		}
	}
	close(ids)
	wg.Wait()
	return firstErr
}

// play plays game id.
func (d *Datagen) play(ctx context.Context, eng engine.Analyzer, id int) (*PlayedGame, error) {
	rng := rand.New(rand.NewSource(d.Seed + int64(id)*7919))
	start := d.Openings[id%len(d.Openings)].Clone()
	if err := eng.NewGame(); err != nil {
		return nil, err
	}
	g := engine.Game{Start: start}
	p := start.Clone()
	var ml chess.MoveList
	for i := 0; i < d.RandomPlies; i++ {
		ml.N = 0
		p.GenerateLegal(&ml)
		if ml.N == 0 {
			break
		}
		m := ml.Moves[rng.Intn(ml.N)]
		var u chess.Undo
		p.MakeMove(m, &u)
		g.Moves = append(g.Moves, m)
	}
	game := &PlayedGame{ID: id, Start: p.Clone()}
	var result referee.Result
	streak, streakSign := 0, 0
	for ply := 0; !result.Decided(); ply++ {
		if r, over := referee.Judge(p); over {
			result = r
			continue
		}
		if ply >= d.MaxPlies && d.MaxPlies > 0 {
			result = referee.Draw(referee.Adjudication)
			continue
		}
		res, err := eng.Search(ctx, g, engine.Limits{Nodes: d.Nodes}, nil)
		if err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		m := res.BestMove
		if !p.IsLegal(m) {
			return nil, fmt.Errorf("engine played illegal move %v in %s", m, p.FEN())
		}
		sc := res.Last.Score
		white := sc.CP
		if sc.Mate != 0 {
			white = 30000 * sign(sc.Mate)
		}
		if p.SideToMove() == chess.Black {
			white = -white
		}
		score := max(min(sc.CP, train.MateScore-1), 1-train.MateScore)
		if sc.Mate != 0 {
			score = train.MateScore * sign(sc.Mate)
		}
		if train.Trainable(p, m, score) {
			game.Positions = append(game.Positions, Labelled{Position: p.Clone(), Score: score})
		}
		game.Plies = append(game.Plies, train.Ply{Move: m, Score: int16(score)})
		if s := sign(white); abs(white) >= resignScore && s == streakSign {
			streak++
		} else if abs(white) >= resignScore {
			streak, streakSign = 1, s
		} else {
			streak = 0
		}
		if streak >= resignPlies {
			winner := chess.White
			if streakSign < 0 {
				winner = chess.Black
			}
			result = referee.Win(winner, referee.Adjudication)
		}
		var u chess.Undo
		p.MakeMove(m, &u)
		g.Moves = append(g.Moves, m)
	}
	game.Result = result
	return game, nil
}

// epdFields keeps the four EPD fields of a FEN.
func epdFields(fen string) string { return strings.Join(strings.Fields(fen)[:4], " ") }

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
