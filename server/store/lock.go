package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrInUse refuses to open an embedded store whose directory another
// process (or another Store of this one) has open: two NATS servers
// writing one JetStream directory would corrupt it, and the embedded
// server does not lock it itself.
var ErrInUse = errors.New("the store is in use by another squall serve")

// lockName is the lock file in the store's directory: held (flock on Unix,
// LockFileEx on Windows) for as long as the store is open, released by
// the kernel when its process dies, so a killed server leaves no stale
// lock. It holds the process id of its holder, for the refusal.
const lockName = "squall.lock"

// dirLock is a held lock on a store directory.
type dirLock struct{ f *os.File }

// lockDir takes dir's lock, making dir if need be, or says who holds it.
func lockDir(dir string) (*dirLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store %s: %w", dir, err)
	}
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", dir, err)
	}
	if err := lockFile(f); err != nil {
		holder := ""
		if b, rerr := os.ReadFile(path); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				holder = fmt.Sprintf(" (process %d)", pid)
			}
		}
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("%s: %w%s", dir, ErrInUse, holder)
		}
		return nil, fmt.Errorf("store %s: lock: %w", dir, err)
	}
	// The holder's id, for the next one refused (advisory only).
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &dirLock{f: f}, nil
}

// release lets the directory go.
func (l *dirLock) release() {
	if l != nil {
		unlockFile(l.f)
		l.f.Close()
	}
}
