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
