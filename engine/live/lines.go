package live

import "github.com/squall-chess/squall/engine"

// Lines gathers a search's reports into its current best lines, as every
// screen that shows a MultiPV search needs them: one line per MultiPV
// slot, each the newest report of its slot (a deeper iteration replaces
// the line before), the others' reports (progress, text) left out. It
// keeps the Infos it is given as they are: those of a Batch are the
// reader's own (see Search).
//
// The zero value is empty and keeps every slot; Max caps them. A Lines is
// not safe for concurrent use: its owner (a screen, a room, the pool's
// worker) guards it.
type Lines struct {
	// Max is the most lines kept: reports of a MultiPV slot above it are
	// dropped (a screen shows so many rows). Zero keeps every one.
	Max int

	slots []engine.Info // slot k is MultiPV k+1; the zero Info where none came
}

// Add takes a report of the search. It says which slot (0 for the best
// line, MultiPV 1) a line went to, and false for a report that is no
// line (Info.Kind) or past Max.
func (l *Lines) Add(in engine.Info) (slot int, ok bool) {
	if in.Kind() != engine.Line {
		return 0, false
	}
	k := max(in.MultiPV, 1) - 1 // a report without MultiPV is the best line
	if l.Max > 0 && k >= l.Max {
		return 0, false
	}
	for len(l.slots) <= k {
		l.slots = append(l.slots, engine.Info{})
	}
	l.slots[k] = in
	return k, true
}

// Line is the line of slot k (0 for the best), if one has come.
func (l *Lines) Line(k int) (engine.Info, bool) {
	if k < 0 || k >= len(l.slots) || l.slots[k].Kind() != engine.Line {
		return engine.Info{}, false
	}
	return l.slots[k], true
}

// All are the lines so far, best first, in a slice of the caller's own; a
// slot no report has come for yet (a MultiPV 2 before the first MultiPV
// 1) is left out, so every one is a line.
func (l *Lines) All() []engine.Info {
	var out []engine.Info
	for _, in := range l.slots {
		if in.Kind() == engine.Line {
			out = append(out, in)
		}
	}
	return out
}

// Keep drops the lines past the first n slots: fewer lines wanted, the
// ones no longer searched go at once rather than at the next report.
func (l *Lines) Keep(n int) {
	l.slots = l.slots[:min(max(n, 0), len(l.slots))]
}

// Reset empties l for a new position; Max stays.
func (l *Lines) Reset() { l.slots = l.slots[:0] }
