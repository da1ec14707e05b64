// Package sshd is Squall's SSH server (wish): its host key, who is let in
// (the owners' keys, a private server), its limits (sessions in all and
// per client address, new connections per second, the handshake, idle and
// session timeouts, PROXY headers from the load balancers named), the
// connection log, and one bubbletea program per session with the
// session's own renderer (terminal.go) and input (input.go). What a
// session runs is the application's, given as a Handler (tui/serve's
// screens); this package knows nothing of chess.
package sshd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	bm "github.com/charmbracelet/wish/bubbletea"
	"github.com/charmbracelet/wish/ratelimiter"
	"github.com/muesli/termenv"
	proxyproto "github.com/pires/go-proxyproto"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/time/rate"

	"github.com/squall-chess/squall/termtext"
)

// Config is how a server runs. Zero values take the defaults noted.
type Config struct {
	Listen      string // default 127.0.0.1:2222
	HostKeyPath string // ed25519 key, generated (mode 0600) if missing; default squall_host_ed25519
	OwnersFile  string // authorized_keys of owners; empty: nobody owns
	Private     bool   // refuse everyone who is not an owner
	MaxSessions int    // default 64
	// MaxSessionsPerAddr caps the open sessions of one client address, so
	// that one address cannot take every slot of MaxSessions; default 8.
	MaxSessionsPerAddr int
	// RatePerIP is new connections per second allowed per address, with a
	// burst of RateBurst (defaults 1/s, burst 10).
	RatePerIP      float64
	RateBurst      int
	IdleTimeout    time.Duration // default 30 minutes
	MaxSessionTime time.Duration // default 12 hours
	// HandshakeTimeout bounds a connection's SSH handshake (versions, key
	// exchange, authentication); default 20 s. The idle timeout counts
	// from the last byte, so without it a client that connects and says
	// nothing holds its connection for half an hour.
	HandshakeTimeout time.Duration
	// ProxyFrom lists the load balancers (addresses or CIDR ranges) in
	// front of the server: a connection from one of them must begin with a
	// PROXY protocol header (v1 or v2, as HAProxy's send-proxy), whose
	// client address then counts for the per-address limits and the log;
	// anyone else may not send one. Empty: no PROXY headers.
	ProxyFrom []string
	Log       io.Writer // connection log; default stderr
	// Closing, if not nil, is called by Shutdown once every session has
	// been told why (ClosingMsg), before it waits for them to end: what
	// the sessions follow ends then (the rooms close), so that they quit.
	Closing func(reason string)
}

func (c *Config) defaults() {
	if c.Listen == "" {
		c.Listen = "127.0.0.1:2222"
	}
	if c.HostKeyPath == "" {
		c.HostKeyPath = "squall_host_ed25519"
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = 64
	}
	if c.MaxSessionsPerAddr <= 0 {
		c.MaxSessionsPerAddr = 8
	}
	if c.RatePerIP <= 0 {
		c.RatePerIP = 1
	}
	if c.RateBurst <= 0 {
		c.RateBurst = 10
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 30 * time.Minute
	}
	if c.MaxSessionTime <= 0 {
		c.MaxSessionTime = 12 * time.Hour
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = 20 * time.Second
	}
	if c.Log == nil {
		c.Log = os.Stderr
	}
}

// Role is what a connection may do.
type Role string

const (
	Viewer Role = "viewer"
	Owner  Role = "owner"
)

// Handler is the application a server runs for each session.
type Handler interface {
	// Exec runs sess's command if it is one that needs no terminal (it
	// prints, or is refused), ending the session, and reports whether it
	// did; a session whose command is a screen goes on to Program. It
	// runs before a terminal is required.
	Exec(sess ssh.Session) bool
	// Program is the model of sess's screen, drawn with r (the session's
	// own renderer), for a client of role, and release, which the server
	// calls when the SSH session ends however the program ended. bell
	// rings the client's terminal (a BEL byte between two of the
	// program's frames, never inside one; it may block on a slow client:
	// call it from a command, not in Update). An error refuses the
	// session, telling the client why.
	Program(sess ssh.Session, r *lipgloss.Renderer, bell func(), role Role) (m tea.Model, release func(), err error)
}

// ClosingMsg is sent to every session's program when the server shuts
// down: the reason, which its screen shows before it quits.
type ClosingMsg string

// Server is the SSH front end of a Handler.
type Server struct {
	cfg      Config
	handler  Handler
	owners   []ssh.PublicKey
	ssh      *ssh.Server
	log      *log.Logger
	sessions atomic.Int64
	listener net.Listener

	addrMu sync.Mutex
	byAddr map[string]int // open sessions per client address

	mu       sync.Mutex
	programs map[*tea.Program]struct{}
	closing  bool
	reason   string
}

// NewServer prepares a server running h for each session; Serve starts it.
func NewServer(cfg Config, h Handler) (*Server, error) {
	cfg.defaults()
	s := &Server{
		cfg:      cfg,
		handler:  h,
		log:      log.New(cfg.Log, "", log.LstdFlags),
		programs: map[*tea.Program]struct{}{},
		byAddr:   map[string]int{},
	}
	if cfg.OwnersFile != "" {
		keys, err := readAuthorizedKeys(cfg.OwnersFile)
		if err != nil {
			return nil, err
		}
		s.owners = keys
	}
	if err := ensureHostKey(cfg.HostKeyPath); err != nil {
		return nil, err
	}
	srv, err := wish.NewServer(
		wish.WithAddress(cfg.Listen),
		wish.WithHostKeyPath(cfg.HostKeyPath),
		wish.WithPublicKeyAuth(s.publicKeyAuth),
		wish.WithKeyboardInteractiveAuth(func(ssh.Context, gossh.KeyboardInteractiveChallenge) bool {
			return !cfg.Private // keyless clients may watch a public server
		}),
		wish.WithIdleTimeout(cfg.IdleTimeout),
		wish.WithMaxTimeout(cfg.MaxSessionTime),
		ssh.WrapConn(s.handshakeDeadline),
		// Middlewares run last-listed first: log, limit, then the app.
		wish.WithMiddleware(
			// termenv.Ascii as the minimum profile forces nothing: each
			// client keeps the colours its own TERM allows (0 would force
			// true colour on every terminal, even one without colours).
			bm.MiddlewareWithProgramHandler(s.program, termenv.Ascii),
			s.farewell,
			s.requirePTY,
			s.exec,
			ratelimiter.Middleware(ratelimiter.NewRateLimiter(rate.Limit(cfg.RatePerIP), cfg.RateBurst, 4096)),
			s.sessionCap,
			s.logConnection,
		),
	)
	if err != nil {
		return nil, fmt.Errorf("sshd: %w", err)
	}
	s.ssh = srv
	return s, nil
}

// Listen binds the address (useful with port 0 in tests); Serve uses it.
func (s *Server) Listen() (net.Addr, error) {
	l, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return nil, fmt.Errorf("sshd: %w", err)
	}
	if len(s.cfg.ProxyFrom) > 0 {
		// Behind a TCP load balancer every connection comes from the
		// balancer; the PROXY header carries the client's address, and is
		// believed only from the balancers named.
		policy, err := proxyproto.PolicyFromRanges(s.cfg.ProxyFrom, proxyproto.REQUIRE, proxyproto.REJECT)
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("sshd: proxy-from: %w", err)
		}
		l = &proxyproto.Listener{Listener: l, ConnPolicy: policy, ReadHeaderTimeout: 5 * time.Second}
	}
	s.listener = l
	return l.Addr(), nil
}

// Serve accepts connections until Shutdown.
func (s *Server) Serve() error {
	if s.listener == nil {
		if _, err := s.Listen(); err != nil {
			return err
		}
	}
	err := s.ssh.Serve(s.listener)
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if errors.Is(err, ssh.ErrServerClosed) || closing {
		return nil // Shutdown's doing, whichever of the two closed it
	}
	return err
}

// Shutdown tells every session why (ClosingMsg), then Config.Closing, and
// waits for the sessions to end, at most until ctx ends; then it closes
// whatever connections remain. Sessions quit by themselves shortly after being told
// (closingDelay), so a normal shutdown takes about a second.
func (s *Server) Shutdown(ctx context.Context, reason string) error {
	s.mu.Lock()
	s.closing = true
	s.reason = reason
	progs := make([]*tea.Program, 0, len(s.programs))
	for p := range s.programs {
		progs = append(progs, p)
	}
	s.mu.Unlock()
	for _, p := range progs {
		p.Send(ClosingMsg(reason))
	}
	if s.cfg.Closing != nil {
		s.cfg.Closing(reason)
	}
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	var err error
wait:
	for s.sessions.Load() > 0 {
		select {
		case <-t.C:
		case <-ctx.Done():
			err = fmt.Errorf("sshd: %d sessions still open: %w", s.sessions.Load(), ctx.Err())
			break wait
		}
	}
	// Every session has ended (or the grace time is over): connections
	// left are idle ones a client has not closed yet, and waiting for them
	// (as ssh.Server.Shutdown would) could take until the idle timeout.
	if cerr := s.ssh.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("sshd: %w", cerr)
	}
	// The listener is ours: ssh.Server.Close closes only the listeners
	// Serve has registered, and a Shutdown that comes right after Serve
	// was started (the goroutine not yet in Serve) would leave it
	// accepting for ever.
	if s.listener != nil {
		s.listener.Close()
	}
	return err
}

// farewell writes the shutdown reason to the session's normal screen after
// its program has left the alternate screen, where the user still sees it.
func (s *Server) farewell(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		next(sess)
		s.mu.Lock()
		closing, reason := s.closing, s.reason
		s.mu.Unlock()
		if closing {
			io.WriteString(sess, "\r\nsquall: the server is shutting down: "+reason+"\r\n")
		}
	}
}

// handshakeDeadline closes conn if its SSH handshake has not finished
// within HandshakeTimeout. The connection's deadlines are no help: the ssh
// package sets them to the idle timeout before each read and write. A
// connection is past its handshake once the ssh package has stored it in
// its context (ContextKeyConn).
func (s *Server) handshakeDeadline(ctx ssh.Context, conn net.Conn) net.Conn {
	time.AfterFunc(s.cfg.HandshakeTimeout, func() {
		if ctx.Value(ssh.ContextKeyConn) == nil {
			conn.Close()
		}
	})
	return conn
}

func (s *Server) isOwner(key ssh.PublicKey) bool {
	if key == nil {
		return false
	}
	for _, o := range s.owners {
		if ssh.KeysEqual(o, key) {
			return true
		}
	}
	return false
}

// publicKeyAuth may be called for keys a client merely offers, before it
// proves it holds them, so it decides admission only; the role is decided
// per session from the key that actually authenticated (roleOf).
func (s *Server) publicKeyAuth(_ ssh.Context, key ssh.PublicKey) bool {
	return !s.cfg.Private || s.isOwner(key)
}

func (s *Server) roleOf(sess ssh.Session) Role {
	if s.isOwner(sess.PublicKey()) {
		return Owner
	}
	return Viewer
}

func (s *Server) logConnection(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		fp := "none"
		if k := sess.PublicKey(); k != nil {
			fp = gossh.FingerprintSHA256(k)
		}
		start := time.Now()
		s.log.Printf("connect %s user=%s key=%s role=%s cmd=%q", sess.RemoteAddr(), termtext.SafeLine(sess.User()), fp, s.roleOf(sess), sess.Command())
		next(sess)
		s.log.Printf("disconnect %s after %s", sess.RemoteAddr(), time.Since(start).Round(time.Millisecond))
	}
}

func (s *Server) sessionCap(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		n := s.sessions.Add(1)
		defer s.sessions.Add(-1)
		if n > int64(s.cfg.MaxSessions) {
			wish.Fatalln(sess, "squall: the server is full, try again later")
			return
		}
		addr := clientHost(sess.RemoteAddr())
		s.addrMu.Lock()
		s.byAddr[addr]++
		mine := s.byAddr[addr]
		s.addrMu.Unlock()
		defer func() {
			s.addrMu.Lock()
			if s.byAddr[addr]--; s.byAddr[addr] <= 0 {
				delete(s.byAddr, addr)
			}
			s.addrMu.Unlock()
		}()
		if mine > s.cfg.MaxSessionsPerAddr {
			wish.Fatalln(sess, fmt.Sprintf("squall: %d sessions are open from your address already (the most allowed); close one and try again", s.cfg.MaxSessionsPerAddr))
			return
		}
		next(sess)
	}
}

// clientHost is the client's address without its port: the unit of the
// per-address limits.
func clientHost(a net.Addr) string {
	if a == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

func (s *Server) requirePTY(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if _, _, ok := sess.Pty(); !ok {
			wish.Fatalln(sess, "squall: this is an interactive board; connect with a terminal (ssh -t)")
			return
		}
		next(sess)
	}
}

// program makes the per-session bubbletea program: its own renderer
// (colour profile and background detected for this client), the
// session's window size, and the session's lifetime.
func (s *Server) program(sess ssh.Session) *tea.Program {
	in := newSessionInput(sess, sess.Context().Done())
	r := sessionRenderer(sess, in, termenv.Ascii)
	out := &output{w: sess}
	m, release, err := s.handler.Program(sess, r, out.bell, s.roleOf(sess))
	if err != nil {
		wish.Fatalln(sess, "squall: "+err.Error())
		return nil
	}
	// Without the signal handler: a program would otherwise take the
	// server's own SIGINT/SIGTERM as its viewer's, and die before the
	// graceful shutdown could tell the viewer why.
	opts := []tea.ProgramOption{tea.WithInput(in), tea.WithOutput(out), tea.WithAltScreen(), tea.WithoutSignalHandler()}
	p := tea.NewProgram(m, opts...)
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		wish.Fatalln(sess, "squall: the server is shutting down")
		return nil
	}
	s.programs[p] = struct{}{}
	s.mu.Unlock()
	// The session's lag, to its program; ends with the session (or its
	// connection).
	go measureLag(sess, in.lastInput, func(d time.Duration) { p.Send(LagMsg(d)) })
	go func() { // ends with the session
		<-sess.Context().Done()
		release()
		s.mu.Lock()
		delete(s.programs, p)
		s.mu.Unlock()
	}()
	return p
}

// output is a session's screen output: the program's writes (each frame
// one write) and the bell, one write at a time. An SSH channel splits a
// long write into packets and another write may come between them: a
// bell inside a frame could fall inside an escape sequence.
type output struct {
	mu sync.Mutex
	w  io.Writer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.w.Write(p)
}

// bell rings the client's terminal: the BEL byte alone, drawn in no cell.
func (o *output) bell() { o.Write([]byte{'\a'}) }

// exec lets the handler run the commands that need no terminal; the
// screens go on to the middlewares after it.
func (s *Server) exec(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		if !s.handler.Exec(sess) {
			next(sess)
		}
	}
}

func readAuthorizedKeys(path string) ([]ssh.PublicKey, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("owners file: %w", err)
	}
	defer f.Close()
	var keys []ssh.PublicKey
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, _, _, _, err := gossh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return nil, fmt.Errorf("owners file %s:%d: %w", path, n, err)
		}
		keys = append(keys, k)
	}
	return keys, sc.Err()
}

// ensureHostKey makes sure an existing host key is private to its owner
// (wish generates a missing one with mode 0600).
func ensureHostKey(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("host key: %w", err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("host key %s is readable by others (mode %v); chmod 600 it", path, fi.Mode().Perm())
	}
	return nil
}
