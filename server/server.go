// Package server assembles `squall serve` (its composition root, as
// soft-serve's cmd/soft/serve): the rooms of live analysis (server/room),
// the games between people when asked for (Games: the store, the hub,
// Squall's seats, the lobby, presence, chats and the spectators' analysis)
// and the SSH server (server/sshd) that runs the screens given as a
// handler. Every goroutine it starts runs in one errgroup and ends with
// Shutdown, which then closes what was opened, last first. The command
// and the tests start servers through it alike.
package server

import (
	"context"
	"errors"
	"net"
	"os"

	"golang.org/x/sync/errgroup"

	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
)

// Options are how a server is assembled.
type Options struct {
	// SSH is the SSH server's configuration; its Log is the server's log
	// (connections, games ending, errors). Its Closing is the server's.
	SSH sshd.Config
	// NewAnalyzer opens a room's engine; at most MaxEngines rooms analyse
	// at once (default 2).
	NewAnalyzer room.AnalyzerFactory
	MaxEngines  int
	// Games, if not nil, lets people play each other.
	Games *GamesOptions
	// Screens makes what each SSH session runs, from the rooms and the
	// games (nil without Options.Games): tui/serve's screens.
	Screens func(*room.Rooms, *Games) sshd.Handler
}

// Server is an assembled server: its rooms and games, and the SSH server
// in front of them.
type Server struct {
	Rooms *room.Rooms
	Games *Games // nil: rooms only

	ssh  *sshd.Server
	addr net.Addr

	group  *errgroup.Group
	ctx    context.Context // the group's: ends with Shutdown, or when a part fails
	cancel context.CancelFunc
	closes []func() // what was opened, closed last first after the group ends
}

// New assembles a server and binds its address: the games first (those
// the store holds are resumed before anyone can connect), then the rooms
// and the SSH server. ctx bounds the opening only; the server runs until
// Shutdown. Accept starts taking connections.
func New(ctx context.Context, o Options) (_ *Server, err error) {
	if o.MaxEngines <= 0 {
		o.MaxEngines = 2
	}
	if o.SSH.Log == nil {
		o.SSH.Log = os.Stderr
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &Server{cancel: cancel}
	s.group, s.ctx = errgroup.WithContext(runCtx)
	defer func() {
		if err != nil {
			s.stop()
		}
	}()
	if o.Games != nil {
		if s.Games, err = s.openGames(ctx, *o.Games, o.SSH.Log); err != nil {
			return nil, err
		}
	}
	s.Rooms = room.NewRooms(o.NewAnalyzer, o.MaxEngines)
	s.atClose(func() { s.Rooms.Close("the server is stopping") }) // if the SSH server never closed them
	cfg := o.SSH
	cfg.Closing = s.Rooms.Close
	if s.ssh, err = sshd.NewServer(cfg, o.Screens(s.Rooms, s.Games)); err != nil {
		return nil, err
	}
	if s.addr, err = s.ssh.Listen(); err != nil {
		return nil, err
	}
	return s, nil
}

// Addr is the address the SSH server listens on.
func (s *Server) Addr() net.Addr { return s.addr }

// Accept starts taking SSH connections, in the server's group.
func (s *Server) Accept() { s.group.Go(s.ssh.Serve) }

// Failed is closed when a part of the server stopped on its own (the SSH
// listener broke), or once Shutdown has begun; Shutdown says why.
func (s *Server) Failed() <-chan struct{} { return s.ctx.Done() }

// Shutdown tells every session why and ends them (waiting at most until
// ctx ends), closes the rooms, stops every goroutine of the server and
// waits for them, then closes what it opened (engines, chats, seats, the
// store), last first. It returns the SSH server's error, if any, and why
// a part stopped on its own.
func (s *Server) Shutdown(ctx context.Context, reason string) error {
	err := s.ssh.Shutdown(ctx, reason)
	return errors.Join(err, s.stop())
}

// stop ends the group's goroutines, waits for them and closes what was
// opened, last first.
func (s *Server) stop() error {
	s.cancel()
	err := s.group.Wait()
	for i := len(s.closes) - 1; i >= 0; i-- {
		s.closes[i]()
	}
	s.closes = nil
	return err
}

// run runs f in the server's group until Shutdown.
func (s *Server) run(f func(ctx context.Context)) {
	s.group.Go(func() error { f(s.ctx); return nil })
}

// atClose has f called when the server is shut down, after its
// goroutines have ended; the last added first.
func (s *Server) atClose(f func()) { s.closes = append(s.closes, f) }
