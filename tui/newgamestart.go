package tui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/engine/chess"
)

// The new-game dialog's Start row (issue 36): the board's usual start (the
// standard position, or the one it was started on with --fen or --960), a
// Chess960 start position by its number, or the position last set up in
// the editor (E).

// Start kinds, newGameChoices.start.
const (
	startUsual = iota
	startChess960
	startSetUp
)

// gameStart is where the new-game dialog starts a game.
type gameStart struct {
	start int // startUsual, startChess960 or startSetUp
	n960  int // the Chess960 position's number, 0-959
	// setUp is the position last set up in the editor (nil: none, and the
	// Start row does not offer it).
	setUp *chess.Position
}

// position is the start chosen: nil for the usual one.
func (g gameStart) position() (*chess.Position, error) {
	switch g.start {
	case startChess960:
		return chess.Chess960(g.n960)
	case startSetUp:
		return g.setUp, nil
	}
	return nil, nil
}

// startField is the Start row.
func (d *newGameDialog) startField() dialogField {
	usual := "standard"
	if d.given {
		usual = "as started"
	}
	names := []string{usual, fmt.Sprintf("Chess960 #%d", d.n960)}
	if d.setUp != nil {
		names = append(names, "set up (E)")
	}
	d.start = min(d.start, len(names)-1)
	return dialogField{"Start", &d.start, names}
}

// typeNumber takes a digit typed on the Start row as the next digit of
// the Chess960 number (backspace takes the last off): 5, 1, 8 is #518.
func (d *newGameDialog) typeNumber(k tea.KeyMsg) {
	if d.start != startChess960 {
		return
	}
	if k.String() == "backspace" {
		d.n960 /= 10
		return
	}
	if k.Type != tea.KeyRunes {
		return
	}
	for _, r := range k.Runes { // digits typed fast arrive together
		if r < '0' || r > '9' {
			continue
		}
		if n := d.n960*10 + int(r-'0'); n <= 959 {
			d.n960 = n
		} else {
			d.n960 = int(r - '0')
		}
	}
}
