//go:build unix

package uci

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the engine in its own process group, so that
// killing it also ends any helper processes it started (some engines run
// an adapter and a worker).
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killProcess(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}

// lowerPriority sets the nice value of every thread of the engine's
// process group (its own, by setProcAttr). The group, not the process:
// Linux keeps a nice value per thread, and an engine written in Go may
// have started several threads by the time its parent gets here; each
// thread it starts later inherits the value of the one that starts it.
func lowerPriority(cmd *exec.Cmd, nice int) error {
	if nice == 0 {
		return nil
	}
	return syscall.Setpriority(syscall.PRIO_PGRP, cmd.Process.Pid, nice)
}
