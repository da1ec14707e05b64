package search

import (
	"strconv"
	"testing"
)

// TestNewUsesOptionDefaults: a new Searcher is exactly what Options tells
// a GUI. Setting any option to its declared default changes nothing, and
// setting it to another value changes something, so every option has a
// setting behind it and no default is written twice.
func TestNewUsesOptionDefaults(t *testing.T) {
	s := New()
	fresh, tt := s.set, s.tt
	for _, o := range s.Options() {
		if o.Type == "button" {
			continue
		}
		if err := s.SetOption(o.Name, o.Default); err != nil {
			t.Fatalf("%s: its default %q: %v", o.Name, o.Default, err)
		}
		if s.set != fresh || s.tt != tt {
			t.Errorf("%s: setting its default %q changed the Searcher: New does not start from it", o.Name, o.Default)
		}
		other := ""
		switch o.Type {
		case "check":
			other = strconv.FormatBool(o.Default != "true")
		case "spin":
			d, _ := strconv.Atoi(o.Default)
			other = strconv.Itoa(d + 1)
			if d+1 > o.Max {
				other = strconv.Itoa(d - 1)
			}
		default:
			continue // strings: EvalFile needs a file; TestUseNNUE covers it
		}
		if err := s.SetOption(o.Name, other); err != nil {
			t.Fatalf("%s %s: %v", o.Name, other, err)
		}
		if s.set == fresh {
			t.Errorf("%s: setting %s changed no setting", o.Name, other)
		}
		if err := s.SetOption(o.Name, o.Default); err != nil || s.set != fresh {
			t.Fatalf("%s: back to its default: %v", o.Name, err)
		}
		tt = s.tt // Hash reallocates
	}
}
