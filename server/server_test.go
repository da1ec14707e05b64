package server

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/server/room"
	"github.com/squall-chess/squall/server/sshd"
	"github.com/squall-chess/squall/server/store"
)

// noScreens is a handler for a server no one connects to.
type noScreens struct{}

func (noScreens) Exec(ssh.Session) bool { return true }
func (noScreens) Program(ssh.Session, *lipgloss.Renderer, func(), sshd.Role) (tea.Model, func(), error) {
	return nil, nil, nil
}

// TestShutdownEndsEverything: a server with games, the analysis pool and
// a room analysing, shut down, leaves no goroutine of its own behind:
// every one it started has ended.
func TestShutdownEndsEverything(t *testing.T) {
	baseline := runtime.NumGoroutine()
	dir := t.TempDir()
	fake := func() (engine.Analyzer, error) { return &enginetest.Engine{Tick: 5 * time.Millisecond}, nil }
	srv, err := New(context.Background(), Options{
		SSH:         sshd.Config{Listen: "127.0.0.1:0", HostKeyPath: filepath.Join(dir, "host"), Log: t.Output()},
		NewAnalyzer: fake,
		Games: &GamesOptions{
			Store: store.Options{Dir: filepath.Join(dir, "store")}, Site: "squall test",
			NewEngine: fake, Analysts: 2, AnalysisBudget: engine.Limits{Depth: 3},
			Stdout: t.Output(), Stderr: t.Output(),
		},
		Screens: func(*room.Rooms, *Games) sshd.Handler { return noScreens{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := srv.Rooms.Create("main")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.StartAnalysis(); err != nil {
		t.Fatal(err)
	}
	srv.Accept()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx, "test over"); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	select {
	case <-srv.Failed():
	default:
		t.Error("Failed is not closed after Shutdown")
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines after shutdown, %d before:\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
}
