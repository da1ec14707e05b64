package tui

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/pgn"
	"github.com/squall-chess/squall/termtext"
)

// Work on the board is never lost (issue 32, D2). Games in play go to the
// autosave file move by move. Analysis — variations added to a game read
// from a file, a position set up and explored — is not a game anybody
// finished, so it is kept apart: every change is written at once to the
// session file (Options.Session), crash-safe like the autosave, and removed
// when the work is saved or discarded. Quitting, or opening other work,
// with unsaved changes asks first (save / discard / cancel), and the next
// start offers to resume a session that was never saved.

// sessionFile is the session file's content: the game with its changes,
// where it came from (so that resuming can still save it back into its
// place in that file), and the move shown.
type sessionFile struct {
	Version int       `json:"version"`
	Saved   time.Time `json:"saved"`
	// File, Game, Offset, End and Sum locate the game in the file it was
	// read from (gameSource); File is empty for work begun on the board.
	File    string `json:"file,omitempty"`
	Game    int    `json:"game,omitempty"`
	Offset  int64  `json:"offset,omitempty"`
	End     int64  `json:"end,omitempty"`
	Sum     string `json:"sum,omitempty"`
	Created bool   `json:"created,omitempty"`
	// At is the shown move: the index of the child taken at each step
	// from the start.
	At  []int  `json:"at"`
	PGN string `json:"pgn"`
}

const sessionVersion = 1

// unsaved reports whether the board holds analysis changed since it was
// opened or last saved. Games in play are not "unsaved": the autosave has
// every move.
func (m *Model) unsaved() bool { return m.mode == Analysis && m.treeRev != m.savedRev }

// edited records a change to the game tree (a move added, a line deleted).
func (m *Model) edited() { m.treeRev++ }

// markSaved records that the tree as it was at revision rev is in a file.
func (m *Model) markSaved(rev int) { m.savedRev = rev }

// syncSession writes the session file when the unsaved work changed, and
// removes it once nothing is unsaved. Called after every Update.
func (m *Model) syncSession() {
	if m.sessions == nil {
		return
	}
	state := sessionState{rev: m.treeRev, saved: m.savedRev, mode: m.mode, at: m.cur}
	if state == m.sessionWritten {
		return
	}
	m.sessionWritten = state
	if !m.unsaved() {
		if m.sessionKept {
			m.sessions.save(nil)
			m.sessionKept = false
		}
		return
	}
	b, err := m.sessionBytes()
	if err != nil {
		m.setError(fmt.Errorf("keeping the analysis: %w", err))
		return
	}
	m.sessions.save(b)
	m.sessionKept = true
}

// sessionState is what the session file was last written from.
type sessionState struct {
	rev, saved int
	mode       Mode
	at         *pgn.Node
}

// sessionBytes is the session file for the board's tree.
func (m *Model) sessionBytes() ([]byte, error) {
	game, err := m.tree.appendPGN(nil)
	if err != nil {
		return nil, err
	}
	s := sessionFile{Version: sessionVersion, Saved: m.opt.Now().UTC(), PGN: string(game), Created: m.tree.created, At: pathTo(m.cur)}
	if src := m.tree.source; src != nil {
		s.File, s.Game, s.Offset, s.End = src.file.path, src.number, src.offset, src.end
		s.Sum = hex.EncodeToString(src.file.sum[:])
	}
	return json.MarshalIndent(s, "", "  ")
}

// pathTo is the child indices from the root to n.
func pathTo(n *pgn.Node) []int {
	var at []int
	for ; n.Parent != nil; n = n.Parent {
		for i, c := range n.Parent.Children {
			if c == n {
				at = append(at, i)
				break
			}
		}
	}
	for i, j := 0, len(at)-1; i < j; i, j = i+1, j-1 {
		at[i], at[j] = at[j], at[i]
	}
	return at
}

// readSession reads a session file left by an earlier run: nil when there
// is none, an error when there is one that cannot be read (it is then left
// alone, not deleted).
func readSession(path string) (*sessionFile, *Tree, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) || (err == nil && len(b) == 0) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var s sessionFile
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.Version != sessionVersion {
		return nil, nil, fmt.Errorf("%s: version %d, want %d", path, s.Version, sessionVersion)
	}
	g, err := pgn.NewReader(strings.NewReader(s.PGN), path).Next()
	if err != nil {
		return nil, nil, err
	}
	t, err := TreeFromGame(g)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	t.created = s.Created
	if s.File != "" {
		f := &pgnFile{path: s.File}
		if sum, err := hex.DecodeString(s.Sum); err == nil && len(sum) == len(f.sum) {
			copy(f.sum[:], sum)
		}
		// The file's hash is checked again when saving: a file changed since
		// is refused, not spliced.
		t.source = &gameSource{file: f, number: s.Game, offset: s.Offset, end: s.End}
		f.games = []*gameSource{t.source}
	}
	return &s, t, nil
}

// nodeAt follows path from the root as far as it leads.
func nodeAt(t *Tree, path []int) *pgn.Node {
	n := t.Root
	for _, i := range path {
		if i < 0 || i >= len(n.Children) {
			break
		}
		n = n.Children[i]
	}
	return n
}

// offerSession asks, when the board opens, whether to resume analysis left
// unsaved by an earlier run.
func (m *Model) offerSession(s *sessionFile, t *Tree) {
	what := "analysis begun on the board"
	if s.File != "" {
		what = fmt.Sprintf("game %d of %s", s.Game, termtext.SafeLine(s.File))
	}
	moves := countMoves(t)
	q := fmt.Sprintf("Unsaved analysis from %s: %s, %s.", s.Saved.Local().Format("2006-01-02 15:04"), what, plural.Count(moves, "move"))
	// Asked before anything else the start shows (a file's picker): the
	// answer decides what is on the board.
	if m.dialog != nil {
		m.queued = append([]dialog{m.dialog}, m.queued...)
		m.dialog = nil
	}
	m.queueDialog(&choiceDialog{
		title:    "Resume?",
		question: q + " Resume it?",
		choices: []choice{
			{key: "r", label: "resume", answer: resumeSessionMsg{t: t, at: s.At}},
			{key: "d", label: "discard", answer: discardSessionMsg{}},
		},
		cancel:   noteMsg("the unsaved analysis is kept until new analysis replaces it"),
		escLabel: "later",
	})
}

// countPlies is the number of plies (half-moves) on the main line.
func countPlies(t *Tree) int {
	n := 0
	for c := t.Root; len(c.Children) > 0; c = c.Children[0] {
		n++
	}
	return n
}

// countMoves is the number of moves on the main line as people count
// them (chess.Position.MovesIn).
func countMoves(t *Tree) int { return t.Start.MovesIn(countPlies(t)) }

// whenSaved does next (answer) at once when nothing is unsaved;
// otherwise it asks first: save (then next, once the file is written),
// discard (then next), or cancel. what says what next does ("quit", "open
// another game").
func (m *Model) whenSaved(what string, next tea.Msg) tea.Cmd {
	if !m.unsaved() {
		return m.answer(next)
	}
	m.dialog = &choiceDialog{
		title:    "Unsaved analysis",
		question: "The analysis on the board has changes that are in no file. Save them before you " + what + "?",
		choices: []choice{
			{key: "s", label: "save", answer: saveFirstMsg{next}},
			{key: "d", label: "discard", answer: discardFirstMsg{next}},
			{key: "c", label: "cancel"},
		},
		quit: what == "quit",
	}
	return nil
}

// discard drops the unsaved analysis: the session file goes with it.
func (m *Model) discard() {
	m.savedRev = m.treeRev
	m.syncSession()
}

// cancelQuit forgets what was to follow a save (the save was cancelled).
func (m *Model) cancelQuit() { m.afterSave = nil }

// saved takes the news of a finished save of the game: on success, the
// work is no longer unsaved and what waited for the save runs.
func (m *Model) saved(rev int, err error) tea.Cmd {
	next := m.afterSave
	m.afterSave = nil
	if err != nil {
		return nil
	}
	m.markSaved(rev)
	return m.answer(next)
}

// requestQuit is q or ctrl+c. With nothing at stake it quits; with unsaved
// analysis or a game in progress it asks. ctrl+c while the question is
// open quits all the same: the game is in the autosave and the analysis in
// the session file, offered back at the next start.
func (m *Model) requestQuit(k string) tea.Cmd {
	if d, ok := m.dialog.(*choiceDialog); ok && d.quit && k == "ctrl+c" {
		m.dialog = nil
		return m.quit()
	}
	for _, v := range m.views {
		closeView(v)
	}
	m.views, m.viewKeys = nil, nil
	return m.whenSaved("quit", quitAskedMsg{})
}

// askQuit quits, asking first if a game is in progress.
func (m *Model) askQuit() tea.Cmd {
	if !m.gameInProgress() {
		return m.quit()
	}
	where := "It stays in the autosave, unfinished."
	if m.opt.Autosave != "" {
		where = "It stays unfinished in " + termtext.SafeLine(m.opt.Autosave) + "."
	}
	d := confirm("Quit?", "A game is in progress. "+where, "quit", quitMsg{})
	d.quit = true
	m.dialog = d
	return nil
}

// gameInProgress reports whether a game someone is playing has begun and
// not ended: quitting or resigning it asks first.
func (m *Model) gameInProgress() bool {
	return !m.over && (m.mode == VsEngine || m.mode == TwoHumans) && len(m.tree.Root.Children) > 0
}

// queueDialog shows d now, or after the dialogs before it close.
func (m *Model) queueDialog(d dialog) {
	if m.dialog == nil {
		m.dialog = d
		return
	}
	m.queued = append(m.queued, d)
}
