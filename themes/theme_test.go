package themes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinThemesValid(t *testing.T) {
	want := []string{"classic", "green", "blue", "high-contrast", "colorblind", "monochrome"}
	if got := strings.Join(Names(), ","); got != strings.Join(want, ",") {
		t.Fatalf("names = %s, want %s", got, strings.Join(want, ","))
	}
	for _, th := range Builtin() {
		if err := th.Validate(); err != nil {
			t.Errorf("%s: %v", th.Name, err)
		}
		if !th.Monochrome && (th.Light == "" || th.Dark == "" || th.WhitePiece == th.BlackPiece && !th.Outline) {
			t.Errorf("%s: squares or pieces not distinguished", th.Name)
		}
	}
	if !Monochrome().Monochrome {
		t.Fatal("Monochrome() is not monochrome")
	}
}

func TestParse(t *testing.T) {
	src := `# my theme
name = "mine"
base = "green"
light = "#ffffff"   # comment
dark = 94
`
	th, err := Parse(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := ByName("green")
	if th.Name != "mine" || th.Light != "#ffffff" || th.Dark != "94" || th.LastDark != g.LastDark {
		t.Fatalf("got %+v", th)
	}
	for _, bad := range []struct{ src, want string }{
		{"name = x\nlight = \"#12\"", "line 2: light"},
		{"name = x\nfoo = 1", `line 2: unknown key "foo"`},
		{"name = x\nnonsense", "line 2: want key = value"},
		{"light = \"#000000\"", "no name"},
		{"name = \"x", "line 1"},
		{"name = x\nbase = nope", "unknown theme"},
	} {
		_, err := Parse(strings.NewReader(bad.src))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("Parse(%q) = %v, want error containing %q", bad.src, err, bad.want)
		}
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.toml"), []byte("name = night\ndark = \"#101010\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.toml"), []byte("junk\n"), 0o644)
	ts, errs := LoadDir(dir)
	if len(ts) != 1 || ts[0].Name != "night" || len(errs) != 1 || !strings.Contains(errs[0].Error(), "b.toml") {
		t.Fatalf("themes %v errs %v", ts, errs)
	}
	if th, ok := ByName("NIGHT", ts...); !ok || th.Dark != "#101010" {
		t.Fatal("user theme not found by name")
	}
	if ts, errs := LoadDir(filepath.Join(dir, "missing")); len(ts) != 0 || len(errs) != 0 {
		t.Fatal("missing dir should load nothing, quietly")
	}
}

func FuzzParse(f *testing.F) {
	f.Add("name = a\nlight = \"#010203\"\n")
	f.Add("base = blue\nname=\"x\" # c\nmonochrome = true")
	f.Fuzz(func(t *testing.T, s string) {
		th, err := Parse(strings.NewReader(s))
		if err == nil {
			if verr := th.Validate(); verr != nil {
				t.Fatalf("parsed theme invalid: %v", verr)
			}
		}
	})
}

func TestContrast(t *testing.T) {
	cases := []struct {
		a, b Color
		want float64
	}{
		{"#ffffff", "#000000", 21},
		{"#000000", "#ffffff", 21},
		{"#777777", "#777777", 1},
		{"231", "16", 21}, // xterm cube white and black
		{"#767676", "#ffffff", 4.54},
		{"244", "#808080", 1}, // grey ramp 244 is #808080
	}
	for _, c := range cases {
		got, ok := Contrast(c.a, c.b)
		if !ok || got < c.want-0.01 || got > c.want+0.01 {
			t.Errorf("Contrast(%s, %s) = %.3f, %v; want %.2f", c.a, c.b, got, ok, c.want)
		}
	}
	for _, c := range []Color{"", "7", "#12", "#gggggg", "300", "x"} {
		if _, ok := Contrast(c, "#000000"); ok {
			t.Errorf("Contrast(%q) has a value", c)
		}
	}
}

// TestPiecesVisible: both sides' pieces stand out from every square and
// highlight of every built-in colour theme, and light squares differ from
// dark ones. It logs each theme's lowest piece/square ratio (go test -v
// ./themes -run PiecesVisible; the table in contrast.go). high-contrast
// keeps WCAG AA for text, 4.5:1, for every piece on every square.
func TestPiecesVisible(t *testing.T) {
	for _, th := range Builtin() {
		if th.Monochrome {
			continue
		}
		least := MinPieceContrast
		if th.Name == "high-contrast" {
			least = 4.5
		}
		pieces := []Color{th.WhitePiece, th.BlackPiece}
		if th.Outline {
			pieces = []Color{th.BlackPiece} // both sides, told apart by shape
		}
		lowest := 21.0
		for _, bg := range th.PieceBackgrounds() {
			for _, fg := range pieces {
				c, ok := Contrast(fg, bg)
				if !ok || c < least {
					t.Errorf("%s: piece %s on %s: contrast %.2f, want ≥ %.1f", th.Name, fg, bg, c, least)
				}
				lowest = min(lowest, c)
			}
		}
		t.Logf("%-14s lowest piece/square contrast %.2f:1", th.Name, lowest)
		if c, _ := Contrast(th.Light, th.Dark); c < 1.8 {
			t.Errorf("%s: light and dark squares differ by %.2f only", th.Name, c)
		}
		seen := map[Color]bool{th.Light: true, th.Dark: true}
		for _, c := range []byte("GRYB") {
			if mk := th.Mark(c); seen[mk] {
				t.Errorf("%s: mark %c is %q, a square's or another mark's colour", th.Name, c, mk)
			} else {
				seen[mk] = true
			}
		}
		for _, sq := range []Color{th.Light, th.Dark} {
			if c, _ := Contrast(th.Target, sq); c < 2 {
				t.Errorf("%s: target marker %s on %s: contrast %.2f", th.Name, th.Target, sq, c)
			}
		}
	}
}
