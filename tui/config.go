package tui

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/squall-chess/squall/clock"
	"github.com/squall-chess/squall/engine/spec"
)

// Settings are the user's saved preferences
// ($XDG_CONFIG_HOME/squall/config.toml), written as TOML "key = value"
// lines: the board's settings first, then the engines it offers by name
// and each engine's options, in sections (engines.go):
//
//	engine = "stockfish"
//	beside = "squall"
//
//	[engines]
//	stockfish = "/usr/games/stockfish"
//
//	[options.stockfish]
//	Threads = "2"
//	"Skill Level" = "20"
type Settings struct {
	Theme  string // theme name
	Pieces string // "glyphs" or "letters"
	Board  string // "auto", "small", "large"
	Score  string // "white" or "side"
	// Engine is "squall" (the built-in engine), a name of Engines, or an
	// external UCI command line (program and arguments, quoted as a shell
	// would), as --engine.
	Engine string
	// Beside is the engine analysing beside Engine, named as Engine is
	// ("": none).
	Beside  string
	Threads int
	Hash    int // MB
	Level   int // 1…8
	Clock   string
	// Book is a Polyglot opening book whose moves the board lists ("":
	// none); its learning side file (never/always marks) is BOOK.learn.
	Book string
	// Syzygy is the Syzygy tablebase directories, separated as in PATH
	// (":" on Unix), for the board's "TB:" line ("": none).
	Syzygy string
	// Engines are the UCI engines offered by name ([engines]), in the
	// file's order.
	Engines []NamedEngine
	// Options are the options remembered for each engine ([options.NAME]),
	// by the name Engine gives it, each list in the order set.
	Options map[string][]spec.Option
}

// DefaultSettings are used for anything the file does not set.
func DefaultSettings() Settings {
	return Settings{Theme: "classic", Pieces: "glyphs", Board: "auto", Score: "white",
		Engine: "squall", Threads: 1, Hash: 64, Level: DefaultLevel, Clock: "none"}
}

// ParseSettings reads a config file over the defaults. Errors name the line;
// nothing else is lost.
func ParseSettings(r io.Reader) (Settings, error) {
	s := DefaultSettings()
	sc := bufio.NewScanner(r)
	var sec section
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if strings.HasPrefix(line, "[") {
			var err error
			if sec, err = parseSection(line); err != nil {
				return s, fmt.Errorf("config line %d: %w", n, err)
			}
			continue
		}
		k, v, err := parseKeyValue(line)
		if err != nil {
			return s, fmt.Errorf("config line %d: %w", n, err)
		}
		if sec.kind != sectionTop {
			if err := s.setInSection(sec, k, v); err != nil {
				return s, fmt.Errorf("config line %d: %w", n, err)
			}
			continue
		}
		num := func() (int, error) {
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 {
				return 0, fmt.Errorf("config line %d: %s: want a number, got %q", n, k, v)
			}
			return x, nil
		}
		switch k {
		case "theme":
			s.Theme = v
		case "pieces":
			if v != "glyphs" && v != "letters" {
				return s, fmt.Errorf("config line %d: pieces: want glyphs or letters", n)
			}
			s.Pieces = v
		case "board":
			if v != "auto" && v != "small" && v != "large" {
				return s, fmt.Errorf("config line %d: board: want auto, small or large", n)
			}
			s.Board = v
		case "score":
			if v != "white" && v != "side" {
				return s, fmt.Errorf("config line %d: score: want white or side", n)
			}
			s.Score = v
		case "engine":
			s.Engine = v
			if strings.EqualFold(v, "builtin") {
				s.Engine = "squall" // the name config files had before --engine took "squall"
			}
		case "threads":
			s.Threads, err = num()
		case "hash":
			s.Hash, err = num()
		case "level":
			s.Level, err = num()
			if err == nil && (s.Level < 1 || s.Level > len(Levels)) {
				err = fmt.Errorf("config line %d: level: want 1-%d", n, len(Levels))
			}
		case "beside":
			s.Beside = v
		case "book":
			s.Book = v
		case "syzygy":
			s.Syzygy = v
		case "clock":
			if _, _, cerr := ParseClock(v); cerr != nil {
				err = fmt.Errorf("config line %d: clock: %w", n, cerr)
			} else {
				s.Clock = v
			}
		default:
			err = fmt.Errorf("config line %d: unknown key %q", n, k)
		}
		if err != nil {
			return s, err
		}
	}
	if err := sc.Err(); err != nil {
		return s, fmt.Errorf("reading config: %w", err)
	}
	return s, nil
}

// String writes the settings as a config file.
func (s Settings) String() string {
	return fmt.Sprintf("# Squall settings\ntheme = %q\npieces = %q\nboard = %q\nscore = %q\nengine = %q\nbeside = %q\nthreads = %d\nhash = %d\nlevel = %d\nclock = %q\nbook = %q\nsyzygy = %q\n",
		s.Theme, s.Pieces, s.Board, s.Score, s.Engine, s.Beside, s.Threads, s.Hash, s.Level, s.Clock, s.Book, s.Syzygy) + s.enginesText()
}

// LoadSettings reads path; a missing file gives the defaults.
func LoadSettings(path string) (Settings, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return DefaultSettings(), nil
	}
	if err != nil {
		return DefaultSettings(), fmt.Errorf("config: %w", err)
	}
	defer f.Close()
	s, err := ParseSettings(f)
	if err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// SaveSettings writes the settings atomically.
func SaveSettings(path string, s Settings) error {
	return writeFile(path, []byte(s.String()))
}

// ParseClock reads a time control "MIN+INC" (minutes, increment seconds),
// e.g. "5+3", "0.5+0"; "none" or "" means no clock.
func ParseClock(s string) (base, inc time.Duration, err error) {
	if s == "" || s == "none" {
		return 0, 0, nil
	}
	tc, err := clock.ParseTimeControl(s)
	return tc.Base, tc.Increment, err
}

// ConfigDir is $XDG_CONFIG_HOME/squall (or ~/.config/squall).
func ConfigDir() string {
	if d := os.Getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "squall")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".config", "squall")
	}
	return ""
}

// DataDir is $XDG_DATA_HOME/squall (or ~/.local/share/squall).
func DataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "squall")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "squall")
	}
	return ""
}
