package engine

import (
	"testing"
	"time"
)

func TestLimitsString(t *testing.T) {
	for _, c := range []struct {
		l    Limits
		want string
	}{
		{Limits{Depth: 12}, "depth 12"},
		{Limits{Nodes: 100000}, "nodes 100000"},
		{Limits{MoveTime: 1500 * time.Millisecond}, "movetime 1.5s"},
		{Limits{Mate: 3}, "mate 3"},
		{Limits{WTime: time.Minute, BTime: time.Minute}, "clock"},
		{Limits{Infinite: true}, "infinite"},
		{Limits{}, "no limit"},
		// A depth cap wins over the clock it was combined with.
		{Limits{Depth: 5, WTime: time.Second}, "depth 5"},
	} {
		if got := c.l.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.l, got, c.want)
		}
	}
}
