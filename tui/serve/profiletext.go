package serve

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/charmbracelet/ssh"

	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/server/rating"
	"github.com/squall-chess/squall/server/store"
	"github.com/squall-chess/squall/termtext"
	"github.com/squall-chess/squall/tui/view"
)

// A player's profile as text: what `ssh host profile HANDLE` prints and
// what the profile screen draws above the player's games, in one way.

// sparkWidth is how many of a speed's last rated games its sparkline
// shows.
const sparkWidth = 30

// profileHead is the profile's lines before the games, plain (the screen
// styles the first): the handle, member since, online now; a rating per
// speed with its deviation, rated games and history; the results.
func profileHead(p play.Profile, online bool) []string {
	title := termtext.SafeLine(p.Handle)
	if !p.Since.IsZero() {
		title += " · member since " + p.Since.UTC().Format(time.DateOnly)
	}
	if online {
		title += " · online now"
	}
	out := []string{title, ""}
	for _, s := range p.Speeds {
		line := fmt.Sprintf("%-9s %6s ±%-3.0f %4d rated", s.Speed, s.Rating.Shown(), s.Rating.RD, s.Rated)
		if len(s.History) > 1 {
			line += "  " + view.Sparkline(s.History, sparkWidth)
		}
		out = append(out, line)
	}
	return append(out, "", fmt.Sprintf("%s: %d won, %d drawn, %d lost", plural.Count(len(p.Games), "game"), p.Won, p.Drawn, p.Lost))
}

// playedLine is one of a player's games from their side, what matters
// most first (a narrow screen cuts the end): "2026-11-25 lost 0-1     3+2
// rated  white vs bob                  1500→1488 checkmate".
func playedLine(g store.Played) string {
	kind, colour := "casual", "black"
	if g.Rated {
		kind = "rated"
	}
	if g.White {
		colour = "white"
	}
	line := fmt.Sprintf("%s %-4s %-7s %-5s %-6s %s vs %-20s", g.Started.UTC().Format(time.DateOnly), g.Outcome(), g.Result,
		g.TimeControl, kind, colour, termtext.SafeLine(g.Opponent))
	if g.Rated && g.After.Rating != 0 {
		line += fmt.Sprintf(" %.0f→%.0f", g.Before.Rating, g.After.Rating)
	}
	return line + " " + termtext.SafeLine(g.Termination)
}

// ratedName is a handle with its rating beside it, as the lobby, the
// games' lists and the game's header show a player: "ann 1612", "bob
// 1500?"; the handle alone where no rating is known (Squall's seat, a
// record from before ratings were kept with it).
func ratedName(handle string, r rating.Rating) string {
	if r.RD == 0 {
		return termtext.SafeLine(handle)
	}
	return termtext.SafeLine(handle) + " " + r.Shown()
}

// liveRow is a game in progress as the lobby and the spectators' list
// show it: both players with their ratings, the control, the plies.
func liveRow(g store.GameRecord) string {
	return fmt.Sprintf("%-26s %-26s %6s  %9s", ratedName(g.Players.White, g.Players.AtStart[0]),
		ratedName(g.Players.Black, g.Players.AtStart[1]), g.Game.TimeControl, plural.Count(len(g.Game.Moves), "ply"))
}

// profileRecent is how many games `profile` prints.
const profileRecent = 10

// printProfile is `profile HANDLE`: the player's profile and last games.
func (s *Screens) printProfile(sess ssh.Session, args []string) error {
	ctx, cancel := context.WithTimeout(sess.Context(), execTimeout)
	defer cancel()
	p, err := play.PlayerProfile(ctx, s.cfg.Games.Store, args[0])
	if err != nil {
		return err
	}
	online := s.cfg.Games.Presence != nil && s.cfg.Games.Presence.Online(p.Handle)
	w := lineEnds(sess, sess)
	for _, l := range profileHead(p, online) {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			return err
		}
	}
	if len(p.Games) > 0 {
		io.WriteString(w, "\nrecent games (all of them: games HANDLE prints their PGN):\n")
	}
	for _, g := range p.Games[:min(len(p.Games), profileRecent)] {
		if _, err := io.WriteString(w, "  "+playedLine(g)+"  "+g.ID+"\n"); err != nil {
			return err
		}
	}
	return nil
}
