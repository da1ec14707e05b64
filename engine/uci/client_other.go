//go:build !unix

package uci

import "os/exec"

func setProcAttr(cmd *exec.Cmd) {}

func killProcess(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// startNiced starts the engine at normal priority: Config.Nice is for Unix.
func startNiced(cmd *exec.Cmd, nice int) error { return cmd.Start() }
