package newest

import "testing"

// TestNewest: a reader finds the value offered to it, then only the newest of
// those sent while it did not read; a stale value is not sent; Remove and
// CloseAll close the channels, after the value unread.
func TestNewest(t *testing.T) {
	rs := New(func(last, v int) bool { return v < last })
	a, cha := rs.Add()
	select {
	case v := <-cha:
		t.Fatalf("a new reader got %d", v)
	default:
	}
	rs.Offer(a, 1)
	if got := <-cha; got != 1 {
		t.Fatalf("first %d", got)
	}
	b, chb := rs.Add()
	rs.Offer(b, 5)
	rs.Send(2)
	rs.Send(3) // replaces 2 for a; older than b's 5
	if got := <-cha; got != 3 {
		t.Errorf("a got %d, want 3", got)
	}
	if got := <-chb; got != 5 {
		t.Errorf("b got %d, want 5 (the stale 2 and 3 not sent)", got)
	}
	rs.Send(4) // older than b's last: a only
	select {
	case v := <-chb:
		t.Errorf("b got the stale %d", v)
	default:
	}
	if !rs.Remove(a) || rs.Remove(a) || rs.Len() != 1 {
		t.Errorf("remove: len %d", rs.Len())
	}
	if v, ok := <-cha; !ok || v != 4 {
		t.Errorf("a's unread value %d %v", v, ok)
	}
	if _, ok := <-cha; ok {
		t.Error("a's channel open after Remove")
	}
	rs.Send(9)
	rs.CloseAll()
	if v, ok := <-chb; !ok || v != 9 {
		t.Errorf("b's unread value %d %v", v, ok)
	}
	if _, ok := <-chb; ok || rs.Len() != 0 {
		t.Errorf("b open after CloseAll, len %d", rs.Len())
	}
}
