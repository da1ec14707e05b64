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
// inherits it from birth.
func startNiced(cmd *exec.Cmd, nice int) error {
	if nice == 0 {
		return cmd.Start()
	}
	errc := make(chan error, 1)
	go forkNiced(cmd, nice, errc)
	return <-errc
}

// forkNiced starts cmd from a thread of its own at the nice value. The
// thread is never handed back to the caller's goroutines, because a nice
// value cannot be lowered again without privilege: a goroutine that exits
// locked to its thread takes the thread with it. The main thread is the
// exception — Go parks it for good instead, still at the value — so on the
// main thread the work moves to another: while this goroutine holds the
// main thread locked, no other goroutine runs there.
func forkNiced(cmd *exec.Cmd, nice int, errc chan<- error) {
	runtime.LockOSThread()
	if syscall.Gettid() == syscall.Getpid() {
		inner := make(chan error, 1)
		go forkNiced(cmd, nice, inner)
		errc <- <-inner
		runtime.UnlockOSThread()
		return
	}
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), nice); err != nil {
		runtime.UnlockOSThread() // unchanged: it may go back
		errc <- fmt.Errorf("nice %d: %w", nice, err)
		return
	}
	errc <- cmd.Start() // and the thread ends with this goroutine, still locked
}
