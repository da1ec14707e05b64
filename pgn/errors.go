package pgn

import (
	"errors"
	"strconv"
	"strings"

	"github.com/squall-chess/squall/engine/chess"
)

// ErrVariant is the reason (inside an *Error) for a game whose Variant tag
// names rules other than standard chess and Chess960: its moves cannot be
// checked, so it is skipped rather than wrong.
var ErrVariant = errors.New("unsupported variant")

// Error is a problem with one game. The reader returns it with whatever of
// the game was read before the problem, then goes on with the next game.
type Error struct {
	File      string // as given to NewReader; "" if none
	Line, Col int    // 1-based; Col counts bytes
	// Move is the move number and text as written in the file, e.g.
	// "12... Nxf3", when the problem is a move; "" otherwise.
	Move string
	Err  error // the reason, e.g. a *chess.MoveError
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	b.WriteString(strconv.Itoa(e.Line))
	b.WriteByte(':')
	b.WriteString(strconv.Itoa(e.Col))
	b.WriteString(": ")
	if e.Move != "" {
		b.WriteString("move ")
		b.WriteString(e.Move)
		b.WriteString(": ")
	}
	var me *chess.MoveError
	switch {
	case errors.As(e.Err, &me):
		b.WriteString(me.Reason) // the move is already named
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the reason.
func (e *Error) Unwrap() error { return e.Err }
