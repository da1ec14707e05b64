package chess

import "testing"

func TestColorName(t *testing.T) {
	if White.Name() != "White" || Black.Name() != "Black" {
		t.Error("colour names")
	}
}
