package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/squall-chess/squall/engine"
)

// Errors a Client wraps, so that callers such as the match runner can tell
// what went wrong and record it by name.
var (
	// ErrEngineExited: the engine process exited or closed its output.
	ErrEngineExited = errors.New("engine exited")
	// ErrEngineTimeout: the engine did not answer in time (hung); it has
	// been killed.
	ErrEngineTimeout = errors.New("engine did not answer in time")
	// ErrProtocol: the engine broke the protocol in a way that cannot be
	// ignored (a line longer than the reader accepts, for instance).
	ErrProtocol = errors.New("engine broke the UCI protocol")
)

// Config says how to start an engine.
type Config struct {
	// Path and Args are the program and its arguments
	// ("/usr/games/gnuchess", ["--uci"]). ParseCommand splits a command
	// line into them.
	Path string
	Args []string
	// Dir is the working directory of the process ("" = the caller's).
	// Engines often look for their networks or books relative to it.
	Dir string
	// StartTimeout bounds the "uci"…"uciok" handshake; ReadyTimeout bounds
	// each "isready"…"readyok"; StopTimeout is how long an engine may take
	// to answer "stop" (or to exit on "quit") before it is killed.
	// Zero values take the defaults (10s, 10s, 2s).
	StartTimeout, ReadyTimeout, StopTimeout time.Duration
	// LogLines is the size of the traffic log (default 1000 lines).
	LogLines int
	// Nice, from 1 to 19, lowers the engine's scheduling priority, every
	// thread of it (Unix; elsewhere it is ignored): a server runs its
	// engines so, so that a search never holds up the serving of moves.
	// 0 leaves the engine at the caller's.
	Nice int
}

// ParseCommand splits a command line into program and arguments the way a
// shell would for simple cases: whitespace separates words, single and
// double quotes group them, a backslash escapes the next character.
func ParseCommand(line string) (path string, args []string, err error) {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range line {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return "", nil, fmt.Errorf("engine command %q: unterminated quote or escape", line)
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return "", nil, fmt.Errorf("engine command is empty")
	}
	return words[0], words[1:], nil
}

// Client drives an external UCI engine process. It implements
// engine.Analyzer. Search, SetOption and NewGame must not be called
// concurrently with each other; PonderHit and Log may be called at any time.
type Client struct {
	cfg     Config
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan string   // engine output, closed when it ends
	exited  chan struct{} // closed once the process is reaped
	readErr error         // why lines was closed; read after lines is closed
	waitErr error         // the process's exit status; read after exited

	log *trafficLog

	writeMu   sync.Mutex // engine input is written from Search and PonderHit
	name      string
	options   []engine.Option
	chess960  bool // UCI_Chess960 currently set
	multiPV   int  // MultiPV as last set (0: the engine's default)
	closeOnce sync.Once

	deadMu sync.Mutex
	dead   error // set once the engine is unusable
}

// Start launches the engine and completes the UCI handshake: it reads the
// engine's name and options and waits for "uciok" and "readyok". ctx bounds
// the whole start; on any failure the process is killed and reaped.
func Start(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.ReadyTimeout <= 0 {
		cfg.ReadyTimeout = 10 * time.Second
	}
	if cfg.StopTimeout <= 0 {
		cfg.StopTimeout = 2 * time.Second
	}
	if cfg.LogLines <= 0 {
		cfg.LogLines = 1000
	}
	if cfg.Nice < 0 || cfg.Nice > 19 {
		return nil, fmt.Errorf("start engine %s: nice %d: want 0 to 19", cfg.Path, cfg.Nice)
	}
	c := &Client{
		cfg:    cfg,
		lines:  make(chan string, 256),
		exited: make(chan struct{}),
		log:    newTrafficLog(cfg.LogLines),
		name:   cfg.Path,
	}
	cmd := exec.Command(cfg.Path, cfg.Args...)
	cmd.Dir = cfg.Dir
	setProcAttr(cmd)
	var err error
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("start engine %s: %w", cfg.Path, err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start engine %s: %w", cfg.Path, err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("start engine %s: %w", cfg.Path, err)
	}
	if err := startNiced(cmd, cfg.Nice); err != nil {
		// A nice value refused before the fork leaves the pipes open
		// (cmd.Start closes them only when it fails itself).
		c.stdin.Close()
		stdout.Close()
		stderr.Close()
		return nil, fmt.Errorf("start engine %s: %w", cfg.Path, err)
	}
	c.cmd = cmd
	var pipes sync.WaitGroup
	pipes.Add(2)
	go func() { defer pipes.Done(); c.readStdout(stdout) }()
	go func() { defer pipes.Done(); c.readStderr(stderr) }()
	go func() {
		// Wait must follow the pipe readers (os/exec's rule); then the
		// process is reaped whatever the caller does.
		pipes.Wait()
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()

	if err := c.handshake(ctx); err != nil {
		c.kill()
		return nil, fmt.Errorf("engine %s: %w", cfg.Path, err)
	}
	return c, nil
}

func (c *Client) readStdout(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		c.log.add('<', line)
		c.lines <- line
	}
	if err := sc.Err(); err != nil {
		c.readErr = fmt.Errorf("%w: reading output: %v", ErrProtocol, err)
		// Keep draining so the process never blocks on a full pipe
		// before it is killed.
		go func() { _, _ = io.Copy(io.Discard, r) }()
		c.kill()
	}
	close(c.lines)
}

func (c *Client) readStderr(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4<<10), 1<<20)
	for sc.Scan() {
		c.log.add('!', sc.Text())
	}
	_, _ = io.Copy(io.Discard, r)
}

// send writes one command line to the engine.
func (c *Client) send(line string) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if err := c.deadErr(); err != nil {
		return err
	}
	c.log.add('>', line)
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		return c.failed(fmt.Errorf("%w: writing %q: %v", ErrEngineExited, line, err))
	}
	return nil
}

// failed marks the engine unusable, kills it and returns err (or the
// process's own exit report when it already ended).
func (c *Client) failed(err error) error {
	c.kill()
	c.deadMu.Lock()
	if c.dead == nil {
		c.dead = err
	}
	c.deadMu.Unlock()
	return err
}

func (c *Client) deadErr() error {
	c.deadMu.Lock()
	defer c.deadMu.Unlock()
	return c.dead
}

// next returns the next output line, waiting at most until deadline (zero:
// no deadline) or ctx's end. It reports a closed output as ErrEngineExited
// with the exit status.
func (c *Client) next(ctx context.Context, timer <-chan time.Time) (string, error) {
	select {
	case line, ok := <-c.lines:
		if !ok {
			return "", c.exitError()
		}
		return line, nil
	case <-timer:
		return "", ErrEngineTimeout
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (c *Client) exitError() error {
	if c.readErr != nil {
		return c.readErr
	}
	select {
	case <-c.exited:
		if c.waitErr != nil {
			return fmt.Errorf("%w (%v)", ErrEngineExited, c.waitErr)
		}
	case <-time.After(c.cfg.StopTimeout):
	}
	return ErrEngineExited
}

// waitFor reads lines until one whose first word is word, handing the
// others to other (if non-nil), within timeout.
func (c *Client) waitFor(ctx context.Context, word string, timeout time.Duration, other func(string)) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		line, err := c.next(ctx, timer.C)
		if err != nil {
			if errors.Is(err, ErrEngineTimeout) {
				err = fmt.Errorf("%w: no %q within %v", ErrEngineTimeout, word, timeout)
			}
			return c.failed(err)
		}
		if firstWord(line) == word {
			return nil
		}
		if other != nil {
			other(line)
		}
	}
}

func (c *Client) handshake(ctx context.Context) error {
	if err := c.send("uci"); err != nil {
		return err
	}
	err := c.waitFor(ctx, "uciok", c.cfg.StartTimeout, func(line string) {
		switch firstWord(line) {
		case "id":
			rest := strings.TrimSpace(strings.TrimPrefix(line, "id"))
			if v, ok := strings.CutPrefix(rest, "name "); ok {
				c.name = strings.TrimSpace(v) // "id author" is read past: nothing shows it
			}
		case "option":
			// A malformed option is logged (the line is in the log) and
			// skipped: the engine remains usable without it.
			if o, err := ParseOption(line); err == nil {
				c.options = append(c.options, o)
			} else {
				c.log.add('!', "squall: ignored option line: "+err.Error())
			}
		}
	})
	if err != nil {
		return err
	}
	return c.ready(ctx)
}

// ready sends isready and waits for readyok.
func (c *Client) ready(ctx context.Context) error {
	if err := c.send("isready"); err != nil {
		return err
	}
	return c.waitFor(ctx, "readyok", c.cfg.ReadyTimeout, nil)
}

// Name reports the engine's "id name" (or its path if it gave none).
func (c *Client) Name() string { return c.name }

// Options lists the options the engine declared in its handshake.
func (c *Client) Options() []engine.Option { return append([]engine.Option(nil), c.options...) }

// Log returns the most recent traffic, oldest first: lines sent (Dir '>'),
// received ('<') and written to stderr or noted by Squall ('!').
func (c *Client) Log() []LogLine { return c.log.lines() }

func (c *Client) option(name string) (engine.Option, bool) {
	for _, o := range c.options {
		if strings.EqualFold(o.Name, name) { // UCI option names are case-insensitive
			return o, true
		}
	}
	return engine.Option{}, false
}

// SetOption checks value against the option's declared type and range,
// sends it and waits until the engine is ready again (setting Hash, for
// one, can take a while).
func (c *Client) SetOption(name, value string) error {
	o, ok := c.option(name)
	if !ok {
		return fmt.Errorf("engine %s has no option %q", c.name, name)
	}
	value, err := o.Check(value)
	if err != nil {
		return fmt.Errorf("engine %s: %w", c.name, err)
	}
	line := "setoption name " + o.Name
	if o.Type != "button" {
		line += " value " + value
	}
	if err := c.send(line); err != nil {
		return err
	}
	if strings.EqualFold(o.Name, "UCI_Chess960") {
		c.chess960 = value == "true"
	}
	if strings.EqualFold(o.Name, "MultiPV") {
		c.multiPV, _ = strconv.Atoi(value)
	}
	return c.ready(context.Background())
}

// setMultiPV asks the engine for n lines (at least one, within the
// option's range) when it has a MultiPV option and is not set to n
// already: Limits.MultiPV is what a caller asks for, and UCI says it with
// an option, not with "go".
func (c *Client) setMultiPV(n int) error {
	o, ok := c.option("MultiPV")
	if !ok {
		return nil
	}
	n = max(n, 1, o.Min)
	if o.Max > 0 {
		n = min(n, o.Max)
	}
	cur := c.multiPV
	if cur == 0 {
		cur, _ = strconv.Atoi(o.Default)
		cur = max(cur, 1)
	}
	if n == cur {
		return nil
	}
	return c.SetOption(o.Name, strconv.Itoa(n))
}

// NewGame sends "ucinewgame" and waits until the engine is ready.
func (c *Client) NewGame() error {
	if err := c.send("ucinewgame"); err != nil {
		return err
	}
	return c.ready(context.Background())
}

// PonderHit tells a pondering engine that its expected move was played.
func (c *Client) PonderHit() { _ = c.send("ponderhit") }

// Close asks the engine to quit, kills it if it does not within
// StopTimeout, and reaps the process.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		_ = c.send("quit")
		c.writeMu.Lock()
		_ = c.stdin.Close()
		c.writeMu.Unlock()
		c.deadMu.Lock()
		if c.dead == nil {
			c.dead = fmt.Errorf("engine %s: closed", c.name)
		}
		c.deadMu.Unlock()
		select {
		case <-c.exited:
		case <-time.After(c.cfg.StopTimeout):
			c.kill()
		}
		// Drain what is left so the reader can finish, then wait for the
		// reap (the kill makes this prompt).
		go func() {
			for range c.lines {
			}
		}()
		<-c.exited
	})
	return nil
}

// kill ends the process (and, on Unix, its process group) without waiting.
func (c *Client) kill() {
	if c.cmd == nil || c.cmd.Process == nil {
		return
	}
	select {
	case <-c.exited:
		return
	default:
	}
	killProcess(c.cmd)
}

// Search sends the game and a "go" with lim, reports each "info" line to
// info, and returns at "bestmove". When ctx ends it sends "stop" and waits
// StopTimeout for the bestmove; an engine that does not answer is killed
// and reported as ErrEngineTimeout. A bestmove that is not legal in the
// position is reported as engine.ErrIllegalMove (with the move in the message).
func (c *Client) Search(ctx context.Context, g engine.Game, lim engine.Limits, info func(engine.Info)) (engine.Result, error) {
	root, err := g.Position()
	if err != nil {
		return engine.Result{}, err
	}
	if root.Chess960() && !c.chess960 {
		if _, ok := c.option("UCI_Chess960"); ok {
			if err := c.SetOption("UCI_Chess960", "true"); err != nil {
				return engine.Result{}, err
			}
		}
	}
	if err := c.setMultiPV(lim.MultiPV); err != nil {
		return engine.Result{}, err
	}
	if err := c.send(FormatPosition(g)); err != nil {
		return engine.Result{}, err
	}
	if err := c.send(FormatGo(lim, root.Chess960())); err != nil {
		return engine.Result{}, err
	}

	var res engine.Result
	var counters engine.Info // the newest report with node counts
	var stopTimer <-chan time.Time
	done := ctx.Done()
	for {
		var line string
		select {
		case l, ok := <-c.lines:
			if !ok {
				return res, c.failed(c.exitError())
			}
			line = l
		case <-done:
			if err := c.send("stop"); err != nil {
				return res, err
			}
			done = nil
			t := time.NewTimer(c.cfg.StopTimeout)
			defer t.Stop()
			stopTimer = t.C
			continue
		case <-stopTimer:
			return res, c.failed(fmt.Errorf("%w: no bestmove within %v of stop", ErrEngineTimeout, c.cfg.StopTimeout))
		}
		switch firstWord(line) {
		case "info":
			in, err := ParseInfo(line, root)
			if err != nil {
				// Keep what was read before the bad token (a PV cut
				// short is still a PV); note the error in the log.
				c.log.add('!', "squall: "+err.Error())
			}
			if in.BestLine() {
				res.Last = in
			}
			switch {
			case in.Nodes > 0:
				counters = in
			case in.Kind() == engine.Progress:
				// A line without counters, as Stockfish's "info depth N
				// currmove …": consumers would show its depth with zero
				// nodes and time. Reported as the built-in engine
				// reports the move it searches: the current move with
				// the newest counters, no depth; dropped before any.
				if counters.Nodes == 0 {
					continue
				}
				in.Depth, in.SelDepth = 0, 0
				in.Nodes, in.NPS, in.Time = counters.Nodes, counters.NPS, counters.Time
				in.HashFull, in.TBHits = counters.HashFull, counters.TBHits
			}
			if info != nil {
				info(in)
			}
		case "bestmove":
			best, ponder, err := ParseBestMove(line, root)
			if err == nil {
				res.BestMove, res.PonderMove = best, ponder
			}
			return res, err
		}
		// Anything else (garbage, copyprotection, registration) is in
		// the log and otherwise ignored, as the protocol asks.
	}
}

func firstWord(line string) string {
	line = strings.TrimLeft(line, " \t")
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		return line[:i]
	}
	return line
}
