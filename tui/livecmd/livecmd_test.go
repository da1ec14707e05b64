package livecmd

import "testing"

// TestRecv: a channel's values come one per command, each with the channel
// it came from, then its end; a nil channel is nothing to wait for.
func TestRecv(t *testing.T) {
	if Recv[int](nil) != nil {
		t.Fatal("Recv(nil) is a command; want nil")
	}
	ch := make(chan int, 1)
	ch <- 7
	got := Recv(ch)().(Received[int])
	if got.From != ch || got.Value != 7 || !got.OK {
		t.Fatalf("first: %+v; want 7 from ch, OK", got)
	}
	close(ch)
	if got := Recv(ch)().(Received[int]); got.From != ch || got.OK {
		t.Fatalf("after close: %+v; want not OK, from ch", got)
	}
}
