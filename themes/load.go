package themes

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

type field struct {
	key string
	c   *Color
}

// fields lists the theme's colours by the keys used in theme files.
func (t *Theme) fields() []field {
	return []field{
		{"light", &t.Light}, {"dark", &t.Dark},
		{"last_light", &t.LastLight}, {"last_dark", &t.LastDark},
		{"selected", &t.Selected}, {"target", &t.Target}, {"check", &t.Check},
		{"hint", &t.Hint}, {"cursor", &t.Cursor},
		{"mark_green", &t.MarkGreen}, {"mark_red", &t.MarkRed},
		{"mark_yellow", &t.MarkYellow}, {"mark_blue", &t.MarkBlue},
		{"white_piece", &t.WhitePiece}, {"black_piece", &t.BlackPiece},
		{"text_light", &t.Text.Light}, {"text_dark", &t.Text.Dark},
		{"muted_light", &t.Muted.Light}, {"muted_dark", &t.Muted.Dark},
		{"accent_light", &t.Accent.Light}, {"accent_dark", &t.Accent.Dark},
		{"error_light", &t.Error.Light}, {"error_dark", &t.Error.Dark},
		{"eval_white", &t.EvalWhite}, {"eval_black", &t.EvalBlack},
	}
}

func checkColor(s string) error {
	if s == "" {
		return nil
	}
	if strings.HasPrefix(s, "#") {
		if len(s) != 7 {
			return fmt.Errorf("colour %q: want #rrggbb", s)
		}
		if _, err := strconv.ParseUint(s[1:], 16, 32); err != nil {
			return fmt.Errorf("colour %q: want #rrggbb", s)
		}
		return nil
	}
	if n, err := strconv.Atoi(s); err != nil || n < 0 || n > 255 {
		return fmt.Errorf("colour %q: want #rrggbb or an ANSI number 0-255", s)
	}
	return nil
}

// Parse reads a theme file: TOML-style "key = value" lines, '#' comments
// (outside quotes), blank lines. "name" names the theme, "base" names a theme
// to start from (default classic), "monochrome = true|false", and every other
// key is a colour (see the keys of a built-in theme in the docs). Errors name
// the line.
func Parse(r io.Reader) (Theme, error) {
	t, _ := ByName(Default)
	t.Name = ""
	sc := bufio.NewScanner(r)
	var setBase bool
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			return Theme{}, fmt.Errorf("line %d: want key = value", n)
		}
		key = strings.TrimSpace(key)
		val, err := unquote(strings.TrimSpace(val))
		if err != nil {
			return Theme{}, fmt.Errorf("line %d: %s: %w", n, key, err)
		}
		switch key {
		case "name":
			t.Name = val
			continue
		case "base":
			if setBase {
				return Theme{}, fmt.Errorf("line %d: base given twice", n)
			}
			b, ok := ByName(val)
			if !ok {
				return Theme{}, fmt.Errorf("line %d: base: unknown theme %q", n, val)
			}
			name := t.Name
			t, setBase = b, true
			t.Name = name
			continue
		case "monochrome":
			b, err := strconv.ParseBool(val)
			if err != nil {
				return Theme{}, fmt.Errorf("line %d: monochrome: want true or false", n)
			}
			t.Monochrome = b
			continue
		case "outline":
			b, err := strconv.ParseBool(val)
			if err != nil {
				return Theme{}, fmt.Errorf("line %d: outline: want true or false", n)
			}
			t.Outline = b
			continue
		}
		found := false
		for _, f := range t.fields() {
			if f.key == key {
				if err := checkColor(val); err != nil {
					return Theme{}, fmt.Errorf("line %d: %s: %w", n, key, err)
				}
				*f.c = Color(val)
				found = true
				break
			}
		}
		if !found {
			return Theme{}, fmt.Errorf("line %d: unknown key %q", n, key)
		}
	}
	if err := sc.Err(); err != nil {
		return Theme{}, fmt.Errorf("reading theme: %w", err)
	}
	if t.Name == "" {
		return Theme{}, errors.New("theme has no name")
	}
	return t, nil
}

// unquote strips a trailing comment and surrounding double quotes.
func unquote(v string) (string, error) {
	if strings.HasPrefix(v, `"`) {
		end := strings.Index(v[1:], `"`)
		if end < 0 {
			return "", errors.New("unterminated string")
		}
		rest := strings.TrimSpace(v[end+2:])
		if rest != "" && !strings.HasPrefix(rest, "#") {
			return "", fmt.Errorf("unexpected %q after value", rest)
		}
		return v[1 : end+1], nil
	}
	if i := strings.Index(v, "#"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v, nil
}

// LoadDir reads every *.toml theme in dir. A missing directory is not an
// error; a bad file is reported by name and skipped, the others still load.
func LoadDir(dir string) ([]Theme, []error) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.toml"))
	var ts []Theme
	var errs []error
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("theme %s: %w", p, err))
			continue
		}
		t, err := Parse(f)
		f.Close()
		if err != nil {
			errs = append(errs, fmt.Errorf("theme %s: %w", p, err))
			continue
		}
		ts = append(ts, t)
	}
	return ts, errs
}
