package serve

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/server"
	"github.com/squall-chess/squall/server/game"
)

// boardModel is handle's screen of game id on p, w columns wide, with the
// game as it stands.
func boardModel(t *testing.T, p *server.Games, handle, id string, w int) *playModel {
	t.Helper()
	m, err := newPlayModel(p, testRenderer(), newSigner(t).PublicKey(), w, 40)
	if err != nil {
		t.Fatal(err)
	}
	m.handle = handle
	m.toBoard(id)
	t.Cleanup(m.release)
	catchUp(m)
	return m
}

// catchUp gives m its game's newest update, as its livecmd.Recv command
// would: the hub sends each before the action behind it returns.
func catchUp(m *playModel) {
	for {
		select {
		case u, ok := <-m.updates:
			m.Update(gameUpdateMsg{From: m.updates, Value: u, OK: ok})
			if !ok {
				return
			}
			continue
		default:
		}
		return
	}
}

// enter types text into m's line and presses enter, running the action
// it starts (a store write) as the program would, and catches every
// screen in all up.
func enter(m *playModel, text string, all ...*playModel) {
	m.input.SetValue(text)
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd != nil {
		if msg, ok := cmd().(doneMsg); ok {
			m.Update(msg)
		}
	}
	for _, o := range append(all, m) {
		catchUp(o)
	}
}

// screen is m's whole screen without colour.
func screen(m *playModel) string { return ansi.Strip(m.View()) }

func wantOnScreen(t *testing.T, who string, m *playModel, wants ...string) {
	t.Helper()
	s := screen(m)
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s's screen lacks %q:\n%s", who, w, s)
		}
	}
}

// startGame starts a casual 5+0 game between ann (White) and bob and
// returns both players' screens after 1. e4 e5.
func startGame(t *testing.T, p *server.Games) (ann, bob *playModel) {
	t.Helper()
	id, err := p.Hub.Start(context.Background(), "ann", "bob", game.TimeControl{Base: 5 * time.Minute}, false)
	if err != nil {
		t.Fatal(err)
	}
	ann, bob = boardModel(t, p, "ann", id, 100), boardModel(t, p, "bob", id, 100)
	enter(ann, "e4", bob)
	enter(bob, "e5", ann)
	return ann, bob
}

// TestOffersAnswered is issue 33's G3 on the players' screens: the asker
// sees the offer made, both see the answer, and a declined offer cannot
// be made again before the next move. The asker's screen showed nothing,
// a decline was told to nobody, and a declined draw could be offered
// again at once, for ever.
func TestOffersAnswered(t *testing.T) {
	_, p := startPlayServer(t)
	ann, bob := startGame(t, p)
	enter(ann, "draw", bob)
	wantOnScreen(t, "ann", ann, "draw offered to bob", "you offered a draw: waiting for bob's answer")
	wantOnScreen(t, "bob", bob, "ann offers a draw")
	enter(bob, "decline", ann)
	wantOnScreen(t, "ann", ann, "bob declined your draw offer")
	wantOnScreen(t, "bob", bob, "you declined ann's draw offer")
	enter(ann, "draw", bob)
	if !ann.isErr || !strings.Contains(ann.status, "declined") {
		t.Errorf("ann offers again at once: status %q (error %v)", ann.status, ann.isErr)
	}
	wantOnScreen(t, "bob", bob, "you declined ann's draw offer")
	// A takeback asked, then granted: both are told.
	enter(ann, "takeback", bob)
	wantOnScreen(t, "ann", ann, "takeback asked of bob", "waiting for bob's answer")
	wantOnScreen(t, "bob", bob, "ann asks to take back a move")
	enter(bob, "takeback", ann)
	wantOnScreen(t, "ann", ann, "bob agreed: your last move was taken back")
	wantOnScreen(t, "bob", bob, "you agreed: ann's last move was taken back")
	if got := strings.Join(bob.upd.Replayed.SANs, " "); got != "" {
		t.Errorf("after the takeback the moves are %q", got)
	}
}

// isQuit reports whether cmd is tea.Quit.
func isQuit(cmd tea.Cmd) bool {
	return cmd != nil && reflect.ValueOf(cmd).Pointer() == reflect.ValueOf(tea.Quit).Pointer()
}

// TestLeavingAsks is issue 33's G4: ctrl+c (or q on an empty line) in a
// game in progress asks first, saying the opponent may claim the game;
// esc clears the line, tab completes a command, F1 shows the commands,
// and the help line names the keys. Ctrl+C ended the session at once, q
// was typed into the move line, and esc, tab and F1 did nothing.
func TestLeavingAsks(t *testing.T) {
	_, p := startPlayServer(t)
	ann, _ := startGame(t, p)
	wantOnScreen(t, "ann", ann, "F1 help", "ctrl+c leave")
	for _, k := range []tea.KeyMsg{{Type: tea.KeyCtrlC}, {Type: tea.KeyRunes, Runes: []rune("q")}} {
		if _, cmd := ann.Update(k); isQuit(cmd) {
			t.Fatalf("%s in a game in progress quit at once", k)
		}
		wantOnScreen(t, "ann", ann, "leave the game? bob can claim it after 40 s — y/n")
		if v := ann.input.Value(); v != "" {
			t.Errorf("%s typed %q into the move line", k, v)
		}
		if _, cmd := ann.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")}); isQuit(cmd) || strings.Contains(screen(ann), "leave the game?") {
			t.Fatalf("n after %s: quit %v, the question still asked %v", k, isQuit(cmd), strings.Contains(screen(ann), "leave the game?"))
		}
	}
	ann.Update(tea.KeyMsg{Type: tea.KeyCtrlC})
	if _, cmd := ann.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")}); !isQuit(cmd) {
		t.Error("y to the leave question did not leave")
	}

	ann.input.SetValue("Nf3")
	ann.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if v := ann.input.Value(); v != "" {
		t.Errorf("esc left %q in the move line", v)
	}
	ann.input.SetValue("res")
	ann.Update(tea.KeyMsg{Type: tea.KeyTab})
	if v := ann.input.Value(); v != "resign" {
		t.Errorf("tab completed res as %q", v)
	}
	ann.input.Reset()
	ann.Update(tea.KeyMsg{Type: tea.KeyF1})
	wantOnScreen(t, "ann", ann, "takeback   ask to take back your last move", "decline    turn down")
}

// TestPremoveOnScreen (issue 37): a move typed while the opponent is to
// move is queued at the host as a premove (it replaced issue 33's G14
// keeping it in the move line): said under the board with its squares
// marked, cancelled by esc on an empty line, played the instant the
// opponent's move arrives; one not legal then is dropped with a word.
func TestPremoveOnScreen(t *testing.T) {
	_, p := startPlayServer(t)
	ann, bob := startGame(t, p)
	enter(bob, "Nc6", ann) // ann to move
	if v := bob.input.Value(); v != "" || bob.isErr {
		t.Errorf("the premove stayed in the line %q (error %v: %s)", v, bob.isErr, bob.status)
	}
	wantOnScreen(t, "bob", bob, "premove Nc6 queued: played as ann moves · esc cancels")
	if mv := bob.premoveShown(); mv == chess.NullMove || mv.From().String() != "b8" || mv.To().String() != "c6" {
		t.Errorf("the premove's squares: %v", mv)
	}
	// esc on an empty line cancels it, at the host.
	_, cmd := bob.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if cmd == nil {
		t.Fatal("esc did not cancel the premove")
	}
	bob.Update(cmd())
	catchUp(bob)
	if q := bob.upd.Game.Premoves.Queued; q != [2]string{} || strings.Contains(screen(bob), "premove Nc6 queued") {
		t.Errorf("after esc: queued %q, screen:\n%s", q, screen(bob))
	}
	enter(ann, "Nf3", bob)
	if n := len(bob.upd.Game.Moves); n != 3 {
		t.Fatalf("the cancelled premove was played: %v", bob.upd.Replayed.SANs)
	}
	enter(bob, "Nc6", ann)
	// Queued, then played the instant ann moves.
	enter(bob, "Bc5", ann)
	enter(ann, "Bc4", bob)
	if sans := strings.Join(bob.upd.Replayed.SANs, " "); sans != "e4 e5 Nf3 Nc6 Bc4 Bc5" {
		t.Errorf("after ann's move with bob's premove queued: %s", sans)
	}
	// Not legal after ann's move (d4 blocks the bishop): dropped, said.
	enter(bob, "Bxf2+", ann)
	enter(ann, "d4", bob)
	wantOnScreen(t, "bob", bob, "your premove Bxf2+ was not legal after ann's move: dropped")
	if n := len(bob.upd.Game.Moves); n != 7 {
		t.Errorf("moves after the dropped premove: %v", bob.upd.Replayed.SANs)
	}
}

// TestRematchOnScreen (issue 37): m on the end screen asks for the
// return game; the opponent's end screen says so with its terms; their m
// accepts, and both screens move to the new game at once — colours
// swapped, the same control.
func TestRematchOnScreen(t *testing.T) {
	_, p := startPlayServer(t)
	ann, bob := startGame(t, p)
	old := ann.gameID
	enter(ann, "resign", bob)
	wantOnScreen(t, "ann", ann, "m rematch")
	press := func(m *playModel) {
		t.Helper()
		_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("m")})
		if cmd == nil {
			t.Fatalf("m on %s's end screen did nothing: %s", m.handle, m.status)
		}
		m.Update(cmd())
	}
	tick := func(m *playModel) { m.Update(clockTickMsg{}); catchUp(m) }
	press(ann)
	tick(ann)
	tick(bob)
	wantOnScreen(t, "ann", ann, "Black wins by resignation", "you asked bob for a rematch: waiting for the answer")
	wantOnScreen(t, "bob", bob, "ann asks for a rematch (5+0 casual, you white): m to accept")
	press(bob)
	tick(bob)
	tick(ann)
	for _, m := range []*playModel{ann, bob} {
		if m.gameID == old || m.upd == nil || m.upd.Over() {
			t.Fatalf("%s's screen did not move to the rematch: game %q (old %q)", m.handle, m.gameID, old)
		}
	}
	if ann.gameID != bob.gameID || ann.upd.Players.White != "bob" || ann.upd.Players.Black != "ann" || ann.upd.Game.TimeControl != (game.TimeControl{Base: 5 * time.Minute}) || ann.upd.Players.Rated {
		t.Errorf("the rematch: %+v, %v", ann.upd.Players, ann.upd.Game.TimeControl)
	}
	enter(bob, "d4", ann)
	if n := len(ann.upd.Game.Moves); n != 1 {
		t.Errorf("the rematch's first move on ann's screen: %v", ann.upd.Replayed.SANs)
	}
}

// TestSpectatorHandleChosenMeanwhile is issue 33's G8: a watch session
// begun before its key had a handle notices one chosen meanwhile (in a
// play session beside it) when its spectator asks to chat; it said
// "connect once with play…" until it reconnected.
func TestSpectatorHandleChosenMeanwhile(t *testing.T) {
	_, p := startPlayServer(t)
	ctx := context.Background()
	id, err := p.Hub.Start(ctx, "ann", "bob", game.TimeControl{Base: 5 * time.Minute}, false)
	if err != nil {
		t.Fatal(err)
	}
	m := newSpectatorModel(p, testRenderer(), newSigner(t).PublicKey(), 100, 30)
	t.Cleanup(m.release)
	m.Update(lookUpAccount(p.Store, m.keyFP)()) // Init's: no account yet
	m.follow(id)
	if _, err := p.Store.CreateAccount(ctx, m.keyFP, "cid", time.Now()); err != nil {
		t.Fatal(err)
	}
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c")})
	for range 3 { // the commands the program would run: a store read
		if cmd == nil {
			break
		}
		msg, ok := cmd().(accountMsg)
		if !ok {
			break
		}
		_, cmd = m.Update(msg)
	}
	if !m.input.Focused() || m.handle != "cid" {
		t.Errorf("c after the handle was chosen: chat line open %v, handle %q, status %q", m.input.Focused(), m.handle, m.status)
	}
}
