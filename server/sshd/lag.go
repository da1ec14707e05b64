package sshd

import (
	"context"
	"time"

	"github.com/charmbracelet/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// LagMsg is a session's lag: the round-trip time of its SSH connection,
// as last measured (a keepalive@openssh.com request and its answer), sent
// to the session's program every LagEvery while its client is active.
// Over SSH the server cannot tell the network's share of a move's time
// from the player's; this is the network's as the server sees it.
type LagMsg time.Duration

// LagEvery is how often a session's lag is measured.
const LagEvery = 2 * time.Second

// lagIdle is how long after the client's last input the lag is still
// measured. A keepalive's answer is a read, which puts the connection's
// idle timeout off: measuring an idle client for ever would keep it
// connected for ever.
const lagIdle = time.Minute

// keepalive is the request OpenSSH's own ServerAliveInterval sends: every
// client answers it (OpenSSH and Go's ssh with a failure, which is an
// answer all the same).
const keepalive = "keepalive@openssh.com"

// measureLag measures sess's connection's round trip every LagEvery while
// its client typed within lagIdle (lastInput), and gives each to send; it
// ends with the session, or when the connection fails. A request the
// client does not answer waits until the connection closes.
func measureLag(sess ssh.Session, lastInput func() time.Time, send func(time.Duration)) {
	conn, ok := sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn)
	if !ok {
		return
	}
	measureLagOn(sess.Context(), conn, lastInput, send)
}

// measureLagOn is measureLag on conn until ctx ends.
func measureLagOn(ctx context.Context, conn gossh.Conn, lastInput func() time.Time, send func(time.Duration)) {
	tk := time.NewTicker(LagEvery)
	defer tk.Stop()
	for {
		if time.Since(lastInput()) < lagIdle {
			start := time.Now()
			if _, _, err := conn.SendRequest(keepalive, true, nil); err != nil {
				return // the connection is gone
			}
			send(time.Since(start))
		}
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
	}
}
