package storetest

import (
	"fmt"
	"net"
	"testing"
)

// TestFreePorts: the ports are distinct, below the kernel's ephemeral
// range, and free when returned.
func TestFreePorts(t *testing.T) {
	ports, err := freePorts(40)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if seen[p] {
			t.Errorf("port %d returned twice", p)
		}
		seen[p] = true
		if p < lowPort || p >= highPort {
			t.Errorf("port %d outside [%d, %d)", p, lowPort, highPort)
		}
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
		if err != nil {
			t.Errorf("port %d is not free: %v", p, err)
			continue
		}
		l.Close()
	}
	if len(ports) != 40 {
		t.Errorf("%d ports, want 40", len(ports))
	}
}
