//go:build !unix

package uci

import "os/exec"

func setProcAttr(cmd *exec.Cmd) {}

func killProcess(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// lowerPriority does nothing here: Config.Nice is for Unix.
func lowerPriority(cmd *exec.Cmd, nice int) error { return nil }
