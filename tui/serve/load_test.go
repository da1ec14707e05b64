package serve

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/enginetest"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/sshd"
)

// The load test runs the server in a child process (this test binary,
// re-executed) so that the server's CPU time can be measured apart from
// the 64 clients'. The child's engine is the fake one, which costs almost
// nothing: what is measured is the fan-out and rendering.

const loadChildEnv = "SQUALL_SERVE_LOAD_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(loadChildEnv); dir != "" {
		os.Exit(runLoadChild(dir))
	}
	os.Exit(m.Run())
}

// runLoadChild serves until SIGTERM, having printed its address, and
// prepares one analysing room, "load".
func runLoadChild(dir string) int {
	owner := filepath.Join(dir, "owners")
	srv, err := server.New(context.Background(), server.Options{
		SSH: sshd.Config{
			Listen: "127.0.0.1:0", HostKeyPath: filepath.Join(dir, "host"), OwnersFile: owner,
			// All 64 viewers come from one address: the per-address cap
			// (8 by default) would refuse most of them.
			RatePerIP: 1000, RateBurst: 1000, MaxSessions: 100, MaxSessionsPerAddr: 100, Log: &syncBuffer{},
		},
		NewAnalyzer: func() (engine.Analyzer, error) { return &enginetest.Engine{Tick: 20 * time.Millisecond}, nil },
		Screens:     testScreens,
	})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	room, _ := srv.Rooms.Create("load")
	room.StartAnalysis()
	srv.Accept()
	fmt.Println("addr", srv.Addr())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM)
	<-sig
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(ctx, "load test over")
	return 0
}

// TestServerLoad: 64 viewers of one analysing room, each of which must see
// the analysis move on — loadUpdates depth reports drawn on its screen. By
// default it waits for that as long as it takes, up to loadDeadline (how
// fast the updates come is the machine's, not the server's behaviour);
// the server's CPU share while it waits is logged. The measurement, a
// number that depends on the machine and what else runs on it, is a run
// asked for on a quiet machine, which lasts its whole duration and checks
// the share stays under one core: SQUALL_SERVE_LOAD=60s go test
// ./tui/serve -run Load -v
func TestServerLoad(t *testing.T) {
	var dur time.Duration // measured: this long; else until every viewer has its updates
	measured := false
	if s := os.Getenv("SQUALL_SERVE_LOAD"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		dur, measured = d, true
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "owners"), gossh.MarshalAuthorizedKey(newSigner(t).PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), loadChildEnv+"="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var addr string
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) == 2 && f[0] == "addr" {
			addr = f[1]
			break
		}
	}
	if addr == "" {
		t.Fatal("child server did not start")
	}

	const viewers = 64
	var updates [viewers]atomic.Int64
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := 0; i < viewers; i++ {
		c := connect(t, addr, newSigner(t), "room load", true)
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			// Count distinct depth reports drawn on this viewer's screen.
			seen := 0
			for {
				select {
				case <-stop:
					return
				case <-time.After(100 * time.Millisecond):
				}
				if n := strings.Count(c.out.String(), "depth "); n > seen {
					updates[i].Add(int64(n - seen))
					seen = n
				}
			}
		}(i)
	}
	fewest := func() int64 {
		least := int64(1 << 62)
		for i := range updates {
			least = min(least, updates[i].Load())
		}
		return least
	}
	before := childCPU(t, child.Process.Pid)
	start := time.Now()
	if measured {
		time.Sleep(dur)
	} else {
		for fewest() < loadUpdates && time.Since(start) < loadDeadline {
			time.Sleep(100 * time.Millisecond)
		}
	}
	cpu := childCPU(t, child.Process.Pid) - before
	wall := time.Since(start)
	close(stop)
	wg.Wait()
	child.Process.Signal(syscall.SIGTERM)
	child.Wait()

	minUpd := fewest()
	share := cpu.Seconds() / wall.Seconds()
	t.Logf("%d viewers for %v: server CPU %.2fs = %.2f cores; fewest screen updates seen by a viewer: %d", viewers, wall.Round(time.Second), cpu.Seconds(), share, minUpd)
	if measured && share >= 1 {
		t.Errorf("server used %.2f cores, want under 1", share)
	}
	if minUpd < loadUpdates {
		t.Errorf("a viewer saw only %d updates of the analysis in %v, want %d", minUpd, wall.Round(time.Second), loadUpdates)
	}
}

// loadUpdates is how many depth reports each of TestServerLoad's viewers
// must see drawn: the analysis moving on, not only its first report.
const loadUpdates = 3

// loadDeadline is how long TestServerLoad waits for its viewers' updates
// by default: generous, as a loaded machine (-race, other tests, other
// work) slows the fake engine's 20 ms ticks and the drawing many times
// over; a server that does not fan out never gets there.
const loadDeadline = 2 * time.Minute

// childCPU reads a process's user+system CPU time from /proc.
func childCPU(t *testing.T, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Skipf("cannot read process CPU time: %v", err)
	}
	// Fields after the command name (which is in parentheses).
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ is 100 on Linux
}
