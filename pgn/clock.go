package pgn

import "time"

// SetClock records the mover's time left after n's move ([%clk] in the
// comment after it, as lichess and chess.com write it), keeping n's other
// commands.
func (n *Node) SetClock(left time.Duration) {
	if n.Commands == nil {
		n.Commands = &Commands{}
	}
	n.Commands.Clock, n.Commands.HasClock = left, true
}
