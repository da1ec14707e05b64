//go:build unix

package store

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// errLocked: another holds the lock.
var errLocked = errors.New("locked")

// lockFile takes an exclusive lock on f without waiting. flock locks are
// per open file, so a second Store in the same process is refused too.
func lockFile(f *os.File) error {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return errLocked
	}
	return err
}

func unlockFile(f *os.File) { unix.Flock(int(f.Fd()), unix.LOCK_UN) }
