package serve

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// typeInto passes k to a session's input line. When the line's limit
// (CharLimit) cut what was typed or pasted, note says so. The clipboard key
// (ctrl+v) is refused: bubbles would read the server's clipboard.
func typeInto(in *textinput.Model, k tea.KeyMsg) (cmd tea.Cmd, note string) {
	if key.Matches(k, in.KeyMap.Paste) {
		return nil, ""
	}
	before := len([]rune(in.Value()))
	*in, cmd = in.Update(k)
	if in.CharLimit > 0 && k.Type == tea.KeyRunes && before+len(k.Runes) > in.CharLimit {
		note = fmt.Sprintf("cut to %d characters, the most this line takes", in.CharLimit)
	}
	return cmd, note
}

// typeKey passes k to the player's input line, saying when it was cut.
func (m *playModel) typeKey(k tea.KeyMsg) tea.Cmd {
	cmd, note := typeInto(&m.input, k)
	if note != "" {
		m.status, m.isErr = note, true
	}
	return cmd
}
