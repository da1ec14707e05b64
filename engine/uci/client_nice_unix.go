//go:build unix && !linux

package uci

import (
	"fmt"
	"os/exec"
	"syscall"
)

// startNiced starts the engine and sets the nice value of its process
// group (its own, by setProcAttr), so helpers it starts share it. These
// systems keep the value per process, so the threads the engine has
// already started follow it.
func startNiced(cmd *exec.Cmd, nice int) error {
	if err := cmd.Start(); err != nil || nice == 0 {
		return err
	}
	if err := syscall.Setpriority(syscall.PRIO_PGRP, cmd.Process.Pid, nice); err != nil {
		killProcess(cmd)
		_ = cmd.Wait()
		return fmt.Errorf("nice %d: %w", nice, err)
	}
	return nil
}
