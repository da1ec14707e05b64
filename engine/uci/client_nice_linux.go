package uci

import (
	"fmt"
	"os/exec"
	"runtime"
	"syscall"
)

// startNiced starts the engine with every thread at the given nice value.
//
// Linux keeps a nice value per thread, and a thread takes its creator's
// value when it is cloned. Setting the value after the start, even on the
// whole process group, races with an engine that is starting threads (a Go
// engine starts several at once): a thread cloned during the call keeps
// nice 0 (CI saw [7 7 7 0]). So the engine is forked from a thread that
// already runs at the value: its first thread, and every one it starts,
// inherits it from birth. That thread is this goroutine's alone
// (LockOSThread) and is never handed back, because a nice value cannot be
// raised again without privilege: a goroutine that exits locked takes its
// thread with it.
func startNiced(cmd *exec.Cmd, nice int) error {
	if nice == 0 {
		return cmd.Start()
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if err := syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice); err != nil {
			errc <- fmt.Errorf("nice %d: %w", nice, err)
			return
		}
		errc <- cmd.Start()
	}()
	return <-errc
}
