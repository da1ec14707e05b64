//go:build !unix

package pgn

import (
	"os"
	"time"
)

// cpuTime is unknown here; benchmarks then report wall time only.
func cpuTime() time.Duration { return 0 }

// childPeakRSS is unknown here.
func childPeakRSS(*os.ProcessState) (int64, bool) { return 0, false }
