package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/squall-chess/squall/server/account"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/lobby"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
)

// The arenas in the play session: `a` in the lobby (or at home) lists
// the arenas with the chosen one's standings, live; j joins it (the
// player's seeks in the lobby withdrawn first), w withdraws (a pause once
// it has begun). A player in an arena is taken
// to each game it pairs them in, as a seek accepted takes them (the
// lobby's and the arena's refresh look for their game), and back to the
// arena after it. Leaving the session pauses them, as lichess pauses a
// player who leaves the tournament's page. A player who comes back in
// another session to their arena game (their server went, they ssh
// again) is in the arena in that one too, from the game's first update.

// pausedLine is the standing line of the lobby and the game screen while
// the player is paused in arenas under way (pausedIn, looked at with the
// screen's other news, lookPaused), saying why: paused by a seek or game
// here, as the lobby and the hub pause a player who plays elsewhere
// (play.Arenas.Elsewhere), "paused in Hourly Blitz Arena while you play
// here · j on the arenas screen resumes"; by their own doing (w after the
// start, leaving, absent from a game) "paused in Hourly Blitz Arena · j on
// the arenas screen resumes"; "" while not paused.
func (m *playModel) pausedLine() string {
	if len(m.pausedIn) == 0 {
		return ""
	}
	var here, own []string
	for _, p := range m.pausedIn {
		title := termtext.SafeLine(arena.Title(p.Arena.Name))
		if p.Elsewhere {
			here = append(here, title)
		} else {
			own = append(own, title)
		}
	}
	var why []string
	if len(here) > 0 {
		why = append(why, strings.Join(here, " and ")+" while you play here")
	}
	if len(own) > 0 {
		why = append(why, strings.Join(own, " and "))
	}
	return "paused in " + strings.Join(why, ", and in ") + " · j on the arenas screen resumes"
}

// lookPaused reads the arenas under way the player is paused in, and
// why, as this server has them (play.Arenas.PausedIn: memory, no store
// read).
func (m *playModel) lookPaused() {
	m.pausedIn = nil
	if m.p.Arenas != nil {
		m.pausedIn = m.p.Arenas.PausedIn(m.handle)
	}
}

// withdrawnNote says the seeks and challenges joining an arena withdrew:
// " · your seek 5+0 and challenge to bob 3+2 withdrawn"; "" for none.
func withdrawnNote(gone []lobby.Seek) string {
	if len(gone) == 0 {
		return ""
	}
	var what []string
	for _, s := range gone {
		if s.To != "" {
			what = append(what, "challenge to "+termtext.SafeLine(s.To)+" "+s.TC.String())
		} else {
			what = append(what, "seek "+s.TC.String())
		}
	}
	list := what[len(what)-1]
	if len(what) > 1 {
		list = strings.Join(what[:len(what)-1], ", ") + " and " + list
	}
	return " · your " + list + " withdrawn"
}

// arenaKeys is the arena screen's keys, in its help bar; an owner's has
// n too.
const arenaKeys = "↑/↓ arena · j join · w withdraw · v top board · esc lobby · ctrl+c quits"

// arenaKeysOf is the help bar of the session's arena screen.
func (m *playModel) arenaKeysOf() string {
	if m.owner {
		return "n new · " + arenaKeys
	}
	return arenaKeys
}

// newArenaPlaceholder is the new arena prompt's example.
const newArenaPlaceholder = "NAME CONTROL LENGTH, e.g. Hourly Blitz 3+0 30m (starts at the next minute)"

// createArena makes the arena the owner typed, starting at the next
// whole minute, theirs.
func (m *playModel) createArena(text string) tea.Cmd {
	spec, err := arena.ParseSpec(text)
	if err != nil {
		m.say(err)
		m.input.Reset() // the prompt stays open, empty: what is typed next is read alone
		return nil
	}
	m.input.Reset()
	m.input.Blur()
	def := spec.Definition(time.Now().Truncate(time.Minute).Add(time.Minute), m.handle)
	arenas := m.p.Arenas
	return action(func(ctx context.Context) (string, error) {
		if err := arenas.Create(ctx, def); err != nil {
			return "", err
		}
		return "arena " + termtext.SafeLine(def.Name) + " made: it starts at " + def.Start.UTC().Format("15:04 UTC"), nil
	})
}

// toArena shows the arenas, or the player's game if one is in progress.
func (m *playModel) toArena() tea.Cmd {
	if id, ok := m.p.Hub.GameOf(m.handle); ok {
		return m.toBoard(id)
	}
	m.screen = inArena
	m.input.Blur()
	return tea.Batch(m.arenaRefresh(), tea.Tick(time.Second, func(time.Time) tea.Msg { return lobbyTickMsg{} }))
}

// arenaRefresh reads the arenas as this server has them, and moves to the
// board when the arena has paired the player.
func (m *playModel) arenaRefresh() tea.Cmd {
	if id, ok := m.p.Hub.GameOf(m.handle); ok {
		return tea.Batch(m.ring(), m.toBoard(id))
	}
	if m.p.Arenas == nil {
		return nil
	}
	m.arenas = m.p.Arenas.List()
	m.arenaSel = min(m.arenaSel, max(len(m.arenas)-1, 0))
	if m.arena == "" && len(m.arenas) > 0 {
		m.arenaSel = 0 // the latest first
	}
	m.arenaState = nil
	if len(m.arenas) > 0 {
		if st, err := m.p.Arenas.State(m.arenas[m.arenaSel].ID); err == nil {
			m.arenaState = &st
		}
	}
	return nil
}

// arenaKey is a key on the arena screen.
func (m *playModel) arenaKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.input.Focused() {
		switch k.Type {
		case tea.KeyEsc:
			m.input.Blur()
			m.input.Reset()
			return m, nil
		case tea.KeyEnter:
			return m, m.createArena(m.input.Value())
		}
		return m, m.typeKey(k)
	}
	switch k.String() {
	case "n":
		if !m.owner {
			m.say(errors.New("only the server's owners make arenas"))
			return m, nil
		}
		m.input.Reset()
		m.input.Prompt, m.input.Placeholder = "new arena: ", newArenaPlaceholder
		m.input.Focus()
		return m, nil
	case "up", "k":
		m.arenaSel = max(m.arenaSel-1, 0)
		return m, m.arenaRefresh()
	case "down":
		m.arenaSel = min(m.arenaSel+1, max(len(m.arenas)-1, 0))
		return m, m.arenaRefresh()
	case "j", "enter":
		if m.arenaState == nil {
			m.say(errors.New("no arena to join: an owner holds one with squall serve --arena"))
			return m, nil
		}
		id, arenas, lb, handle := m.arenaState.Def.ID, m.p.Arenas, m.p.Lobby, m.handle
		m.arena = id
		m.life.inArena(arenas, id)
		return m, action(func(ctx context.Context) (string, error) {
			// The seeks go first, as lichess's do: one accepted would
			// pause the player in the arena they join.
			gone, err := lb.Leave(ctx, handle)
			if err != nil {
				return "", fmt.Errorf("not joined: your seeks could not be withdrawn: %w", err)
			}
			return "joined: you are paired as soon as a wave comes" + withdrawnNote(gone), arenas.Join(ctx, id, handle)
		})
	case "w":
		if m.arenaState == nil {
			return m, nil
		}
		id, arenas, handle := m.arenaState.Def.ID, m.p.Arenas, m.handle
		if id == m.arena {
			m.arena = ""
			m.life.inArena(nil, "")
		}
		return m, action(func(ctx context.Context) (string, error) {
			return "withdrawn: j joins again", arenas.Withdraw(ctx, id, handle)
		})
	case "v":
		boards := topBoards(m.arenaState, 1)
		if len(boards) == 0 {
			m.say(errors.New("no game in progress in this arena to watch"))
			return m, nil
		}
		return m, watchGame(m.home, m.sshCmd, boards[0].id, func(s string) { m.status, m.isErr = s, false })
	case "esc", "q":
		m.screen = inLobby // the player stays in the arena: its games find them here too
		return m, m.toLobby()
	}
	return m, nil
}

// arenaView draws the arenas: their list, the chosen one's title, the
// player's place in it, the standings and the top boards.
func (m *playModel) arenaView(reserved int) []string {
	out := []string{m.st.Title.Render("Squall · arenas") + m.st.Muted.Render("  "+m.handle), ""}
	if len(m.arenas) == 0 {
		out = append(out, m.st.Muted.Render(termtext.Cut("no arenas: an owner makes one with n, or squall serve --arena \"Hourly Blitz 3+0 30m\"", m.w)), "")
		return append(out, m.arenaFoot()...)
	}
	now := time.Now()
	for i, d := range m.arenas[:min(len(m.arenas), 4)] {
		mark := "  "
		if i == m.arenaSel {
			mark = "▸ "
		}
		out = append(out, termtext.Cut(mark+arenaTitle(d, now), m.w))
	}
	out = append(out, "")
	st := m.arenaState
	if st == nil {
		return append(out, m.arenaFoot()...)
	}
	you := "you are not in it: j joins"
	for _, s := range st.Standings {
		if account.Key(s.Handle) == account.Key(m.handle) {
			you = fmt.Sprintf("you: #%d, %d points", s.Rank, s.Score)
			if s.Paused {
				you += " · paused: j joins again"
			} else {
				you += " · waiting for the next wave"
			}
		}
	}
	out = append(out, m.st.Title.Render(termtext.Cut(fmt.Sprintf("Standings · %d players, %d games in progress", len(st.Standings), len(st.Playing)), m.w)),
		m.st.Muted.Render(termtext.Cut(you, m.w)))
	boards := topBoards(st, 3)
	rows := max(m.h-len(out)-reserved-len(boards)-4, 3)
	for _, s := range st.Standings[:min(len(st.Standings), rows)] {
		line := termtext.Cut(standingLine(s), m.w)
		if account.Key(s.Handle) == account.Key(m.handle) {
			line = m.st.Title.Render(line)
		}
		out = append(out, line)
	}
	if len(boards) > 0 {
		out = append(out, "", m.st.Title.Render("Top boards")+m.st.Muted.Render("  (v watches the first; watch lists them first)"))
		for _, b := range boards {
			out = append(out, termtext.Cut(b.line, m.w))
		}
	}
	return append(append(out, ""), m.arenaFoot()...)
}

// arenaFoot is the screen's last lines: the new arena prompt while it is
// open, and the keys.
func (m *playModel) arenaFoot() []string {
	keys := m.st.Muted.Render(termtext.Cut(m.arenaKeysOf(), m.w))
	if !m.input.Focused() {
		return []string{keys}
	}
	return []string{m.input.View(), keys}
}

// topBoard is one of an arena's top boards: its game and its line.
type topBoard struct {
	id   string
	line string // "#1 bob (12) – #4 dee (6)"
}

// topBoards are at most n of the arena's games in progress of its best
// ranked players, best first; none for no arena.
func topBoards(st *play.ArenaState, n int) []topBoard {
	if st == nil {
		return nil
	}
	rank := map[string]arena.Standing{}
	for _, s := range st.Standings {
		rank[account.Key(s.Handle)] = s
	}
	type board struct {
		best int
		topBoard
	}
	var boards []board
	for _, g := range st.Playing {
		w, b := rank[account.Key(g.White)], rank[account.Key(g.Black)]
		boards = append(boards, board{min(w.Rank, b.Rank), topBoard{g.Game, fmt.Sprintf("#%d %s (%d) – #%d %s (%d)",
			w.Rank, termtext.SafeLine(g.White), w.Score, b.Rank, termtext.SafeLine(g.Black), b.Score)}})
	}
	for i := 1; i < len(boards); i++ { // few: insertion by best rank
		for j := i; j > 0 && boards[j].best < boards[j-1].best; j-- {
			boards[j], boards[j-1] = boards[j-1], boards[j]
		}
	}
	var out []topBoard
	for _, b := range boards[:min(len(boards), n)] {
		out = append(out, b.topBoard)
	}
	return out
}

// topBoardsFirst orders the games in progress for spectators: the arenas'
// games first, the best ranked pairing first (the top boards), then the
// others as they were; boards labels each arena's game with the arena
// and both players' ranks ("Hourly Blitz #1–#4").
func topBoardsFirst(games []store.GameRecord, arenas *play.Arenas) ([]store.GameRecord, map[string]string) {
	if arenas == nil {
		return games, nil
	}
	states := map[string]*play.ArenaState{}
	best := map[string]int{}
	boards := map[string]string{}
	for _, g := range games {
		if g.Arena == "" {
			continue
		}
		st, ok := states[g.Arena]
		if !ok {
			if s, err := arenas.State(g.Arena); err == nil {
				st = &s
			}
			states[g.Arena] = st
		}
		if st == nil {
			continue
		}
		rank := map[string]int{}
		for _, s := range st.Standings {
			rank[account.Key(s.Handle)] = s.Rank
		}
		w, b := rank[account.Key(g.White)], rank[account.Key(g.Black)]
		best[g.ID] = min(w, b)
		boards[g.ID] = fmt.Sprintf("%s #%d–#%d", termtext.SafeLine(st.Def.Name), w, b)
	}
	out := slices.Clone(games)
	slices.SortStableFunc(out, func(a, b store.GameRecord) int {
		ra, aok := best[a.ID]
		rb, bok := best[b.ID]
		switch {
		case aok && bok:
			return cmp.Compare(ra, rb)
		case aok:
			return -1
		case bok:
			return 1
		}
		return 0
	})
	return out, boards
}
