package room

import (
	"sync"

	"github.com/squall-chess/squall/engine"
)

// Broadcast is the publishing end of a broadcast room: a program in the
// same process as the server (the local TUI, `squall --broadcast`) shows
// its game to SSH viewers through it.
//
// The room mirrors what is published and nothing else. It is read-only for
// every SSH session, owners included: an owner's moves, navigation, FEN
// loads and analysis toggles are refused (ErrReadOnly), since the next
// Publish would overwrite them anyway and the broadcaster never sees them.
// The room's engine analyses the published position as in any room, and
// its viewers choose their own orientation, size, theme and panel.
//
// Publish and Close are safe for concurrent use, and neither waits for the
// room's engine (Close waits only for its search to stop).
type Broadcast struct {
	rooms *Rooms
	room  *Room
	close sync.Once
}

// Room is the room viewers join (`ssh -t host room NAME`).
func (b *Broadcast) Room() *Room { return b.room }

// Publish shows the broadcaster's game: its start position and moves, at
// ply (0 = the start position, len(g.Moves) = after the last move).
// Publishing the game the room already shows costs two FEN strings and
// changes nothing, so it may be called after every change of the
// broadcaster's state without restarting the room's analysis. It fails for
// an illegal game, a ply outside it, or once the room has closed (Close,
// or the server's shutdown).
func (b *Broadcast) Publish(g engine.Game, ply int) error {
	return b.room.publish(g, ply)
}

// Close ends the broadcast: the room is dropped from the server, its
// engine stopped, and its viewers return to the room list, told the
// broadcast has ended. Calling it again does nothing.
func (b *Broadcast) Close() {
	b.close.Do(func() { b.rooms.remove(b.room, "the broadcast has ended") })
}
