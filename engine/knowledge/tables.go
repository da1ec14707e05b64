package knowledge

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/squall-chess/squall/engine"
	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/engine/tablebase"
)

// openTablebase opens the Syzygy tables in path's directories (separated
// as in PATH: ':' on Unix, ';' on Windows), or drops them for an empty
// path. A path without any table is refused: it is a mistake, and taking it
// silently would leave the user believing the tables are in use. It is
// called with a.mu held.
func (a *Analyzer) openTablebase(path string) error {
	if path == a.tbPath {
		return nil // already open: tables are mapped once
	}
	if path == "" {
		a.tbPath, a.tb = "", nil
		a.passTablebase()
		return nil
	}
	var dirs []string
	for _, d := range filepath.SplitList(path) {
		if d = strings.TrimSpace(d); d != "" {
			dirs = append(dirs, d)
		}
	}
	tb, err := tablebase.Open(dirs...)
	if err != nil {
		return err
	}
	if tb.Files() == 0 {
		return fmt.Errorf("no Syzygy tables (*.rtbw, *.rtbz) in %s", path)
	}
	a.tbPath, a.tb = path, tb
	a.passTablebase()
	a.log(fmt.Sprintf("Syzygy: %d table files, up to %d pieces", tb.Files(), tb.MaxPieces()))
	return nil
}

// passTablebase hands the tables and their settings to an engine that
// probes inside its search. It is called with a.mu held.
func (a *Analyzer) passTablebase() {
	if ta, ok := a.inner.(TablebaseAnalyzer); ok {
		ta.SetTablebase(a.tb, a.tbProbeDepth, a.tb50)
	}
}

// tablebaseRoot restricts the search of a position in the tables to the
// moves that share the best tablebase rank (among the GUI's searchmoves, if
// it gave some), and returns the number of probes made, which count as
// tbhits.
func (a *Analyzer) tablebaseRoot(p *chess.Position, lim *engine.Limits) uint64 {
	a.mu.Lock()
	tb, rule50 := a.tb, a.tb50
	a.mu.Unlock()
	if tb == nil {
		return 0
	}
	ranked, ok := tb.RootMoves(p, rule50)
	if !ok {
		return 0
	}
	probes := uint64(len(ranked))
	if len(lim.SearchMoves) > 0 {
		ranked = slices.DeleteFunc(ranked, func(r tablebase.RankedMove) bool {
			return !slices.Contains(lim.SearchMoves, r.Move)
		})
	}
	if len(ranked) == 0 {
		return 0
	}
	best := ranked[0].Rank
	for _, r := range ranked {
		best = max(best, r.Rank)
	}
	var keep []chess.Move
	for _, r := range ranked {
		if r.Rank == best {
			keep = append(keep, r.Move)
		}
	}
	lim.SearchMoves = keep
	return probes
}
