package main

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// An arena's scripted player is a person at an SSH client: their own
// key, `ssh -t host play` in a 120×40 terminal, the screen read as it is
// drawn (vtScreen) and keys typed as a person types them. They choose a
// handle, open the arenas (a) and join (j); each game the arena pairs
// them in opens on its own, and they play it from what the game screen
// shows — their colour and opponent from the clocks' names, whose move it
// is from the ▶, the ply from the move list — typing the script's moves
// (loadScript) on the move line a tenth to a quarter of a second after
// their turn comes, `berserk`, `resign` and `draw` as their plan for the
// game says, and `draw` again to accept an offer they see. After a game,
// enter takes them back to the arena. When their server goes (its SSH
// connection drops), they connect again, to the next server that
// answers, and carry on: the game on its screen, or the arenas, joined
// again if they were paused. After the arena's end, once no game is
// theirs, they leave.

// Where the game screen draws what a player reads (tui/serve's game
// screen at 120 columns): the board's rows, and the column beside it
// with the clocks' names and the moves.
const (
	boardTop, boardRows = 2, 9
	besideBoard         = 28
)

// gameScreen is what a player reads on the game screen.
type gameScreen struct {
	white, black string
	turn         int // 0 White, 1 Black, -1 nobody (over)
	ply          int
	over         bool
	result       string
	drawOffered  bool // the opponent offers a draw
}

var (
	clockName   = regexp.MustCompile(`^(▶ )?\s*(White|Black) (\S+)`)
	moveNumber  = regexp.MustCompile(`^(\d+)(\.|…)$`)
	resultLine  = regexp.MustCompile(`(White wins|Black wins|Draw|Aborted|Game aborted)[^·]*`)
	screenTitle = regexp.MustCompile(`^Squall · (\S+)`)
)

// readGameScreen reads the game screen s (its lines), false if s is not one.
func readGameScreen(s *vtScreen) (gameScreen, bool) {
	lines := s.Lines(0)
	if m := screenTitle.FindStringSubmatch(lines[0]); m == nil || m[1] != "game" {
		return gameScreen{}, false
	}
	g := gameScreen{turn: -1}
	beside := s.Lines(besideBoard)
	var tokens []string
	for _, l := range beside[boardTop : boardTop+boardRows] {
		if m := clockName.FindStringSubmatch(l); m != nil {
			side := 0
			if m[2] == "Black" {
				g.black = m[3]
				side = 1
			} else {
				g.white = m[3]
			}
			if m[1] != "" {
				g.turn = side
			}
			continue
		}
		tokens = append(tokens, strings.Fields(strings.ReplaceAll(l, "◂", " "))...)
	}
	// The ply: the last move number and the moves after it.
	for i := len(tokens) - 1; i >= 0; i-- {
		if m := moveNumber.FindStringSubmatch(tokens[i]); m != nil {
			n, _ := strconv.Atoi(m[1])
			g.ply = 2*(n-1) + len(tokens) - 1 - i
			if m[2] == "…" {
				g.ply++
			}
			break
		}
	}
	for _, l := range lines[boardTop+boardRows:] {
		switch {
		case strings.Contains(l, "enter or esc: back to the"):
			g.over, g.turn = true, -1
		case strings.Contains(l, "offers a draw: type draw to accept"):
			g.drawOffered = true
		}
		if m := resultLine.FindString(l); m != "" && g.result == "" {
			g.result = m
		}
	}
	if g.white == "" || g.black == "" {
		return gameScreen{}, false // drawn in part: read again
	}
	return g, true
}

// arenaPlan is how a player means to end a game, drawn as it begins:
// play on (the script: Black mates at ply 46), resign, or offer a draw,
// at their first turn at or after ply at; and whether to berserk before
// their first move.
type arenaPlan struct {
	kind    string // "play", "resign", "draw"
	at      int
	berserk bool
}

func drawPlan(rng *rand.Rand) arenaPlan {
	p := arenaPlan{kind: "play", at: 4 + rng.IntN(40), berserk: rng.IntN(6) == 0}
	switch rng.IntN(8) { // each side draws one: a game is drawn in about a fifth
	case 0, 1, 2:
		p.kind = "resign"
	case 3:
		p.kind = "draw"
	}
	return p
}

// playerGame is the game a player is in, as they follow it.
type playerGame struct {
	white, black string
	side         int
	plan         arenaPlan
	seen         int // the plies the screen has shown
	typed        int // the ply whose move was typed last (-1 none)
	typedAt      time.Time
	offered      bool
	accepted     bool
	berserked    bool
}

func (g *playerGame) key() string { return g.white + "-" + g.black }

// arenaPlayer is one scripted player.
type arenaPlayer struct {
	handle string
	key    gossh.Signer
	addrs  func() []net.Addr // the servers, this player's own first
	rng    *rand.Rand
	st     *arenaStats
	end    time.Time

	conn     *gossh.Client
	screen   *vtScreen
	keys     io.Writer
	gone     chan struct{} // closed when the connection drops
	at       int           // the server connected to, in addrs
	game     *playerGame
	acted    time.Time // the last key pressed off the game screen
	idle     time.Time // since when the player has waited off the board after the end
	games    int
	sessions int
}

// connect opens a session of `play` on the first server of addrs that
// answers, from the one last used.
func (p *arenaPlayer) connect() error {
	deadline := time.Now().Add(time.Minute)
	for {
		addrs := p.addrs()
		for i := range addrs {
			at := (p.at + i) % len(addrs)
			screen := newVTScreen(40, 120)
			conn, keys, err := dialTerminal(addrs[at], p.key, "play", screen)
			if err != nil {
				continue
			}
			gone := make(chan struct{})
			go func() { conn.Wait(); close(gone) }()
			p.conn, p.keys, p.screen, p.gone, p.at = conn, keys, screen, gone, at
			p.sessions++
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("no server answers")
		}
		time.Sleep(time.Second)
	}
}

// typeLine types s and enter, as a person does: the text, then the key.
func (p *arenaPlayer) typeLine(s string) {
	if s != "" {
		io.WriteString(p.keys, s)
		time.Sleep(30 * time.Millisecond)
	}
	io.WriteString(p.keys, "\r")
}

// press presses key off the game screen, at most once a second (the
// screen takes a moment to answer).
func (p *arenaPlayer) press(key string) {
	if time.Since(p.acted) < time.Second {
		return
	}
	p.acted = time.Now()
	io.WriteString(p.keys, key)
}

// run plays until the arena is over and the player has left.
func (p *arenaPlayer) run() {
	if err := p.connect(); err != nil {
		p.st.problem("%s: %v", p.handle, err)
		return
	}
	defer func() { p.conn.Close() }()
	for {
		// The screen is read as it changes, and at least every quarter
		// of a second (the player's own pauses end without a change).
		select {
		case <-p.gone: // the server went: ssh again
			if err := p.connect(); err != nil {
				p.st.problem("%s: connecting again: %v", p.handle, err)
				return
			}
			continue
		case <-p.screen.changed:
		case <-time.After(250 * time.Millisecond):
		}
		if time.Now().After(p.end.Add(3 * time.Minute)) {
			p.st.problem("%s: still playing three minutes after the end; the screen:\n%s", p.handle, p.screen)
			return
		}
		if g, ok := readGameScreen(p.screen); ok {
			p.idle = time.Time{}
			p.onGame(g)
			continue
		}
		lines := p.screen.Lines(0)
		text := strings.Join(lines, "\n")
		m := screenTitle.FindStringSubmatch(lines[0])
		switch {
		case strings.Contains(text, "Choose the handle"):
			if time.Since(p.acted) > 2*time.Second {
				p.acted = time.Now()
				p.typeLine(p.handle)
			}
		case m == nil:
		case time.Now().After(p.end) && (m[1] == "arenas" || m[1] == "lobby"):
			// Over: the player leaves once a few seconds have shown no
			// game of theirs (one paired at the end opens on its own).
			if p.idle.IsZero() {
				p.idle = time.Now()
			} else if time.Since(p.idle) > 5*time.Second {
				io.WriteString(p.keys, "\x03")
				select {
				case <-p.gone:
				case <-time.After(5 * time.Second):
				}
				return
			}
		case m[1] == "lobby":
			p.press("a")
		case m[1] == "arenas" && strings.Contains(text, "j joins"):
			p.press("j") // not in it, or paused: join
		}
	}
}

// onGame plays the game screen g shows.
func (p *arenaPlayer) onGame(g gameScreen) {
	if g.over {
		if p.game != nil {
			p.game = nil
			p.games++
		}
		p.press("\r") // back to the arena
		return
	}
	side := 0
	switch p.handle {
	case g.white:
	case g.black:
		side = 1
	default:
		p.st.problem("%s: a game screen of %s and %s", p.handle, g.white, g.black)
		return
	}
	if p.game == nil || p.game.white != g.white || p.game.black != g.black {
		p.game = &playerGame{white: g.white, black: g.black, side: side, plan: drawPlan(p.rng), seen: -1, typed: -1}
	}
	cur := p.game
	if cur.seen >= 0 && g.ply > cur.seen {
		p.st.arrived(cur.key(), cur.seen, g.ply, side, time.Now())
	}
	cur.seen = max(cur.seen, g.ply)
	if g.drawOffered && !cur.accepted {
		cur.accepted = true
		p.typeLine("draw")
		return
	}
	if g.turn != side || g.ply%2 != side || g.ply >= len(loadScript) {
		return
	}
	if cur.typed == g.ply {
		if time.Since(cur.typedAt) < 3*time.Second {
			return // typed: the screen has not shown it yet
		}
		p.st.mu.Lock()
		p.st.retried++ // lost on its way (the server went): again
		p.st.mu.Unlock()
	} else {
		time.Sleep(100*time.Millisecond + time.Duration(p.rng.IntN(150))*time.Millisecond)
		// A look again before typing: the screen read may have been a
		// frame drawn in part.
		if again, ok := readGameScreen(p.screen); !ok || again != g {
			return
		}
	}
	cur.typed, cur.typedAt = g.ply, time.Now()
	if cur.plan.berserk && g.ply == side && !cur.berserked {
		cur.berserked = true
		p.typeLine("berserk")
	}
	switch {
	case cur.plan.kind == "resign" && g.ply >= cur.plan.at:
		p.typeLine("resign")
		return
	case cur.plan.kind == "draw" && g.ply >= cur.plan.at && !cur.offered:
		cur.offered = true
		p.typeLine("draw")
	}
	io.WriteString(p.keys, loadScript[g.ply])
	time.Sleep(30 * time.Millisecond)
	p.st.sending(cur.key(), g.ply+1) // as enter is pressed
	io.WriteString(p.keys, "\r")
}

// startArenaPlayers starts players scripted players (p00, p01, …), each
// with a key of its own, player i on server i of addrs (then the next
// that answers); wait returns once every one has left, after end.
func startArenaPlayers(players int, addrs func() []net.Addr, end time.Time) (st *arenaStats, wait func()) {
	st = &arenaStats{sent: map[string]map[int]time.Time{}}
	var wg sync.WaitGroup
	for i := range players {
		signer, err := newSigner()
		if err != nil {
			st.problem("%v", err)
			continue
		}
		handle := fmt.Sprintf("p%02d", i)
		p := &arenaPlayer{handle: handle, key: signer, addrs: addrs, rng: rand.New(rand.NewPCG(fnv64(handle), uint64(time.Now().UnixNano()))),
			st: st, end: end, at: i}
		wg.Go(func() {
			p.run()
			st.mu.Lock()
			st.games += p.games
			st.sessions += p.sessions
			st.mu.Unlock()
		})
	}
	return st, wg.Wait
}
