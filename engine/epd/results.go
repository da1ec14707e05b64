package epd

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/squall-chess/squall/internal/atomicfile"
)

// Results is a saved run: what was run, how, and every outcome.
type Results struct {
	Suite    string    `json:"suite"`
	Engine   string    `json:"engine"`
	Limits   string    `json:"limits"` // "movetime 1s", "depth 12", …
	Date     time.Time `json:"date"`
	Solved   int       `json:"solved"`
	Total    int       `json:"total"`
	Points   int       `json:"points,omitempty"`
	Outcomes []Outcome `json:"outcomes"`
}

// Save writes results as JSON or, for a .csv path, CSV. The file is
// written beside its final name, synced and renamed, so an existing file is
// never left half-written.
func (r *Results) Save(path string) error {
	var data []byte
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		var b bytes.Buffer
		w := csv.NewWriter(&b)
		w.Write([]string{"index", "id", "fen", "expected", "avoid", "move", "solved", "score", "depth", "nodes", "time", "solve_time", "points", "error"})
		for _, o := range r.Outcomes {
			w.Write([]string{strconv.Itoa(o.Index + 1), o.ID, o.FEN, strings.Join(o.Expected, " "), strings.Join(o.Avoid, " "),
				o.Move, strconv.FormatBool(o.Solved), o.Score, strconv.Itoa(o.Depth), strconv.FormatUint(o.Nodes, 10),
				fmt.Sprintf("%.3f", time.Duration(o.Time).Seconds()), fmt.Sprintf("%.3f", time.Duration(o.SolveTime).Seconds()),
				strconv.Itoa(o.Points), o.Error})
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return fmt.Errorf("results %s: %w", path, err)
		}
		data = b.Bytes()
	case ".json", "":
		var err error
		if data, err = json.MarshalIndent(r, "", "  "); err != nil {
			return fmt.Errorf("results %s: %w", path, err)
		}
		data = append(data, '\n')
	default:
		return fmt.Errorf("results %s: want a .json or .csv file", path)
	}
	return atomicfile.WriteFile(path, data)
}

// LoadResults reads results saved as JSON.
func LoadResults(path string) (*Results, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	var r Results
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("results %s: %w", path, err)
	}
	return &r, nil
}

// Change is a position whose verdict differs between two runs.
type Change struct {
	Key         string // the id, or "#N" for a position without one
	Before, Now Outcome
}

// Compare lists positions solved now but not before, and failed now but
// solved before. Positions are matched by id, else by index.
func Compare(before, now []Outcome) (newlySolved, newlyFailed []Change) {
	key := func(o Outcome) string {
		if o.ID != "" {
			return o.ID
		}
		return "#" + strconv.Itoa(o.Index+1)
	}
	old := make(map[string]Outcome, len(before))
	for _, o := range before {
		old[key(o)] = o
	}
	for _, o := range now {
		b, ok := old[key(o)]
		if !ok {
			continue
		}
		switch {
		case o.Solved && !b.Solved:
			newlySolved = append(newlySolved, Change{key(o), b, o})
		case !o.Solved && b.Solved:
			newlyFailed = append(newlyFailed, Change{key(o), b, o})
		}
	}
	return newlySolved, newlyFailed
}
