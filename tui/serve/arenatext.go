package serve

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/ssh"

	"github.com/squall-chess/squall/internal/plural"
	"github.com/squall-chess/squall/server/arena"
	"github.com/squall-chess/squall/server/play"
	"github.com/squall-chess/squall/termtext"
)

// Arenas as text: what `ssh host arena` prints, and the lines the arena
// screen draws, in one way.

// arenaStatus is where an arena stands at now, in words.
func arenaStatus(d arena.Definition, now time.Time) string {
	switch {
	case now.Before(d.Start):
		return "starts in " + d.Start.Sub(now).Round(time.Second).String()
	case now.Before(d.End()):
		return d.End().Sub(now).Round(time.Second).String() + " left"
	}
	return "over"
}

// arenaTitle is an arena's line: its name, control, length, start and
// where it stands.
func arenaTitle(d arena.Definition, now time.Time) string {
	return fmt.Sprintf("%s · %s · %s · %s · %s", termtext.SafeLine(d.Name), d.Control, lengthWords(d.Length),
		d.Start.UTC().Format("2006-01-02 15:04 UTC"), arenaStatus(d, now))
}

// lengthWords is an arena's length as people say it: 30m, 1h, 1h30m.
func lengthWords(l time.Duration) string {
	return strings.TrimSuffix(strings.TrimSuffix(l.String(), "0s"), "h0m")
}

// standingLine is one player's line of the standings: rank, handle, the
// fire, score, the sheet of points, results and the tie-break.
func standingLine(s arena.Standing) string {
	fire := "  "
	if s.Fire {
		fire = "🔥"
	}
	mark := ""
	switch {
	case s.Paused:
		mark = " (paused)"
	case s.Playing != "":
		mark = " (playing)"
	}
	perf := ""
	if s.Performance != 0 {
		perf = fmt.Sprintf(" perf %d", s.Performance)
	}
	return fmt.Sprintf("%3d. %-20s %s %3d  %-16s +%d =%d -%d  %d%s%s", s.Rank, termtext.SafeLine(s.Handle), fire, s.Score,
		termtext.Cut(s.Sheet, 16), s.Wins, s.Draws, s.Losses, s.Rating, perf, mark)
}

// arenaText is an arena's results: its title, then the standings.
func arenaText(st play.ArenaState, now time.Time) string {
	var b strings.Builder
	b.WriteString(arenaTitle(st.Def, now) + "\n")
	fmt.Fprintf(&b, "%s, %s in progress\n\n", plural.Count(len(st.Standings), "player"), plural.Count(len(st.Playing), "game"))
	for _, s := range st.Standings {
		b.WriteString(standingLine(s) + "\n")
	}
	return b.String()
}

// printArena is `arena [NAME|ID] [--pgn]`: the arenas, one's results, or
// with --pgn every finished game of it as the archive keeps them, in the
// order they ended.
func (s *Screens) printArena(sess ssh.Session, args []string) error {
	arenas := s.cfg.Games.Arenas
	w := lineEnds(sess, sess)
	pgnOut := false
	var name []string
	for _, a := range args {
		if a == "--pgn" {
			pgnOut = true
			continue
		}
		name = append(name, a)
	}
	now := time.Now()
	if len(name) == 0 {
		if pgnOut {
			return fmt.Errorf("usage: arena NAME --pgn")
		}
		list := arenas.List()
		if len(list) == 0 {
			_, err := io.WriteString(w, "no arenas\n")
			return err
		}
		for _, d := range list {
			if _, err := fmt.Fprintf(w, "%-32s %s\n", d.ID, arenaTitle(d, now)); err != nil {
				return err
			}
		}
		return nil
	}
	d, err := arenas.Find(strings.Join(name, " "))
	if err != nil {
		return err
	}
	if pgnOut {
		ctx, cancel := context.WithTimeout(sess.Context(), execTimeout)
		defer cancel()
		_, err := arenas.Games(ctx, d.ID, func(text string) {
			if err == nil {
				_, err = io.WriteString(w, text)
			}
		})
		return err
	}
	st, err := arenas.State(d.ID)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, arenaText(st, now))
	return err
}
