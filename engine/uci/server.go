package uci

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/knowledge"
	"github.com/squall-chess/squall/engine/live"
)

// Server plays the engine side of UCI: it reads commands, drives an
// engine.Analyzer (and nothing else of the engine) and writes replies. Bad
// input is answered with "info string error: …" and changes nothing.
//
// The server wraps the Analyzer in an opening book and Syzygy tables
// (package knowledge), so that any engine gets them: OwnBook, BookFile and
// BookVariety, SyzygyPath and Syzygy50MoveRule (and SyzygyProbeDepth for
// an engine that probes inside its search) are the wrapper's options.
//
// With OwnBook on, the book learns from the server's games. UCI never tells
// an engine the result, so the score of the 10th search after the server's
// last book move (or of an earlier one that sees a mate) stands in for it:
// +1.50 or better is a win, -1.50 or worse a loss, anything between a draw,
// which teaches nothing. Once per game, the result is credited to the book
// moves the server played, in BookFile's side file (BookFile + ".learn").
type Server struct {
	a      *knowledge.Analyzer
	author string

	outMu sync.Mutex
	out   *bufio.Writer

	start    *chess.Position
	moves    []chess.Move
	chess960 bool

	// The running search, if any. untilStopped is set for an infinite or
	// ponder search, which never ends by itself; pondering for "go ponder"
	// until ponderhit.
	runner       *live.Runner
	cancel       func()
	done         chan struct{}
	untilStopped bool
	pondering    bool
}

// NewServer returns a server for a, writing to out.
func NewServer(a engine.Analyzer, out io.Writer) *Server {
	s := &Server{author: "the Squall authors", out: bufio.NewWriter(out), start: chess.NewPosition()}
	s.a = knowledge.Wrap(a, func(note string) { s.println("info string %s", note) })
	s.runner = live.New(s.a)
	return s
}

// Run reads commands from in until "quit" or the end of input. At the end
// of input a search with limits is allowed to finish (so piped scripts get
// their answer); an infinite or ponder search is stopped.
func (s *Server) Run(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for sc.Scan() {
		if s.Handle(sc.Text()) {
			return nil
		}
	}
	if s.untilStopped {
		s.stopSearch()
	} else {
		s.wait()
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("uci: reading input: %w", err)
	}
	return nil
}

func (s *Server) println(format string, args ...any) {
	s.outMu.Lock()
	fmt.Fprintf(s.out, format+"\n", args...)
	s.out.Flush()
	s.outMu.Unlock()
}

func (s *Server) errorf(format string, args ...any) {
	s.println("info string error: "+format, args...)
}

// searching reports whether a search has yet to print its bestmove. It
// takes the output lock because the search prints bestmove and closes done
// under it: a GUI that read the bestmove may send "go" at once, and must not
// find the finished search still counted as running.
func (s *Server) searching() bool {
	if s.done == nil {
		return false
	}
	s.outMu.Lock()
	defer s.outMu.Unlock()
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// stopSearch stops the running search and waits for its bestmove.
func (s *Server) stopSearch() {
	if s.done == nil {
		return
	}
	s.cancel()
	<-s.done
}

// wait lets a running limited search finish: the engine takes no command
// during a search.
func (s *Server) wait() {
	if s.done != nil {
		<-s.done
	}
}

// Handle executes one command line and reports whether it was "quit".
func (s *Server) Handle(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "uci":
		s.println("id name %s", s.a.Name())
		s.println("id author %s", s.author)
		for _, o := range s.a.Options() {
			if !o.Hidden { // tuning constants: setoption takes them, a GUI need not show them
				s.println("%s", FormatOption(o))
			}
		}
		s.println("uciok")
	case "isready":
		s.println("readyok")
	case "ucinewgame":
		if s.searching() {
			s.errorf("ucinewgame during a search; send stop first")
			return false
		}
		s.wait()
		if err := s.a.NewGame(); err != nil {
			s.errorf("ucinewgame: %v", err)
		}
	case "setoption":
		s.setOption(line, f)
	case "position":
		s.setPosition(f[1:])
	case "go":
		s.goSearch(f[1:])
	case "stop":
		s.stopSearch()
	case "ponderhit":
		if s.searching() && s.pondering {
			s.a.PonderHit()
		}
	case "quit":
		s.stopSearch()
		return true
	case "d":
		s.display()
	case "eval":
		s.evalTrace()
	case "debug", "register":
		// Accepted and ignored, as the protocol allows.
	default:
		s.errorf("unknown command %q", engine.Clip(f[0], quoted))
	}
	return false
}

// position returns the current position (it is always valid: "position"
// only changes it after checking every move).
func (s *Server) position() (*chess.Position, error) {
	return engine.Game{Start: s.start, Moves: s.moves}.Position()
}

func (s *Server) setOption(line string, f []string) {
	if s.searching() {
		s.errorf("setoption during a search; send stop first")
		return
	}
	s.wait()
	// setoption name <id with spaces> [value <x with spaces>]
	if len(f) < 3 || f[1] != "name" {
		s.errorf("setoption: expected \"setoption name <id> [value <x>]\"")
		return
	}
	rest := strings.Join(f[2:], " ")
	name, value := rest, ""
	if i := strings.Index(" "+rest+" ", " value "); i >= 0 {
		name = strings.TrimSpace(rest[:max(i-1, 0)])
		value = strings.TrimSpace(rest[min(i+len(" value")-1, len(rest)):])
	}
	if name == "" {
		s.errorf("setoption: empty option name")
		return
	}
	// An unknown name is answered here, so that the error quotes it
	// clipped (the Analyzer's error may quote all of it).
	known := false
	for _, o := range s.a.Options() {
		known = known || strings.EqualFold(o.Name, name)
	}
	if !known {
		s.errorf("setoption: no such option %q", engine.Clip(name, quoted))
		return
	}
	if err := s.a.SetOption(name, value); err != nil {
		s.errorf("setoption %s: %v", name, err)
		return
	}
	if strings.EqualFold(name, "UCI_Chess960") {
		s.chess960 = strings.EqualFold(value, "true")
	}
}

func (s *Server) setPosition(f []string) {
	if s.searching() {
		s.errorf("position during a search; send stop first")
		return
	}
	s.wait()
	g, err := ParsePosition(f, s.chess960)
	if err != nil {
		s.errorf("%v", err)
	}
	if g.Start != nil {
		s.start, s.moves = g.Start, g.Moves
	}
}

func (s *Server) goSearch(f []string) {
	if s.searching() {
		s.errorf("go during a search; send stop first")
		return
	}
	s.wait()
	p, err := s.position()
	if err != nil {
		s.errorf("go: %v", err)
		return
	}
	lim, err := ParseGo(f, p)
	if err != nil {
		s.errorf("%v", err)
		return
	}
	chess960 := s.chess960 || p.Chess960()
	srch := s.runner.Start(live.Job{Game: engine.Game{Start: s.start, Moves: s.moves}, Limits: lim})
	done := make(chan struct{})
	s.cancel, s.done, s.untilStopped, s.pondering = srch.Stop, done, lim.Infinite || lim.Ponder, lim.Ponder
	// The printer: each report is written as soon as it is read (a GUI
	// wants them as they come, so no frame), bestmove after the last one.
	go func() {
		for {
			b := srch.Next(0)
			for _, in := range b.Infos {
				s.println("%s", FormatInfo(in, chess960))
			}
			if !b.Done {
				continue
			}
			if b.Err != nil {
				s.errorf("search: %v", b.Err)
			}
			// bestmove and the end of the search are one step (see searching).
			line := FormatBestMove(p, b.Result, chess960)
			s.outMu.Lock()
			fmt.Fprintln(s.out, line)
			s.out.Flush()
			close(done)
			s.outMu.Unlock()
			return
		}
	}()
}

// evalTrace prints the engine's static evaluation of the position, term
// by term, when the engine can show one (the built-in engine can).
func (s *Server) evalTrace() {
	e, ok := s.a.Inner().(interface {
		EvalTrace(p *chess.Position) string
	})
	if !ok {
		s.errorf("eval: %s shows no evaluation", s.a.Name())
		return
	}
	p, _ := s.position()
	s.outMu.Lock()
	io.WriteString(s.out, e.EvalTrace(p))
	s.out.Flush()
	s.outMu.Unlock()
}

func (s *Server) display() {
	p, _ := s.position()
	var b strings.Builder
	b.WriteString("\n +---+---+---+---+---+---+---+---+\n")
	for r := 7; r >= 0; r-- {
		for fl := 0; fl < 8; fl++ {
			c := byte(' ')
			if pc := p.Piece(chess.MakeSquare(fl, r)); pc != chess.NoPiece {
				c = pc.Letter()
			}
			fmt.Fprintf(&b, " | %c", c)
		}
		fmt.Fprintf(&b, " | %d\n +---+---+---+---+---+---+---+---+\n", r+1)
	}
	b.WriteString("   a   b   c   d   e   f   g   h\n\n")
	fmt.Fprintf(&b, "Fen: %s\nKey: %016X\n", p.FEN(), p.Key())
	if c := p.Checkers(); c != 0 {
		b.WriteString("Checkers:")
		for c != 0 {
			b.WriteString(" " + c.PopLSB().String())
		}
		b.WriteByte('\n')
	}
	s.outMu.Lock()
	io.WriteString(s.out, b.String())
	s.out.Flush()
	s.outMu.Unlock()
}
