//go:build !unix

package uci

import "os/exec"

func clientSetProcAttr(cmd *exec.Cmd) {}

func clientKill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
