package termtext

import (
	"strings"
	"unicode/utf8"
)

// Safe makes text that came from outside Squall — a PGN file, an engine, a
// tag, a comment, a room or user name, a theme file — safe to draw or print
// on a terminal. It is the one sanitiser: every such string passes through
// it (or SafeLine) before it reaches a screen or a CLI message.
//
// A terminal acts on control characters: ESC starts a sequence that can
// clear the screen, move the cursor, change colours, set the window title or
// (OSC 52) write the clipboard; CR and BS overwrite what was drawn; C1 codes
// (U+0080–U+009F) are single-character escapes on some terminals. Safe shows
// each of them instead of sending it: C0 controls as their Unicode control
// pictures (ESC as ␛), DEL as ␡, C1 controls, invalid UTF-8 and the bidi
// overrides that reorder what is shown as U+FFFD (�). Line feeds are kept
// (use SafeLine for text that must stay on one line) and tabs become one
// space, since a tab's width depends on the column it lands in and would
// break the layout of a panel.
func Safe(s string) string { return clean(s, false) }

// SafeLine is Safe for text drawn on one line (a tag, a name, an engine's
// info string): line breaks become spaces too.
func SafeLine(s string) string { return clean(s, true) }

func clean(s string, oneLine bool) string {
	if plain(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError) // an invalid byte
		case r == '\n' && !oneLine:
			b.WriteByte('\n')
		case r == '\n' || r == '\t' || r == '\u2028' || r == '\u2029':
			b.WriteByte(' ')
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ … ␟: ESC shows as ␛
		case r == 0x7f:
			b.WriteRune('\u2421') // ␡
		case r >= 0x80 && r <= 0x9f, bidiControl(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// plain reports whether s is printable ASCII (plus line feeds, unless
// oneLine), the common case, which needs no copy.
func plain(s string, oneLine bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' && !oneLine {
			continue
		}
		return false
	}
	return true
}

// bidiControl reports the invisible characters that reorder the text around
// them (the "Trojan Source" set): a name could otherwise show as something
// it is not.
func bidiControl(r rune) bool {
	switch {
	case r == '\u061c', r == '\u200e', r == '\u200f':
		return true
	case r >= '\u202a' && r <= '\u202e':
		return true
	case r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// Unsafe reports the first thing in s that Safe would have replaced (a
// control character, a C1 code, invalid UTF-8 or a bidi control) and its
// byte offset, or ok. Tests use it to check that output which passed through
// Safe, with Squall's own styling removed, holds nothing a terminal acts on.
func Unsafe(s string, oneLine bool) (offset int, r rune, ok bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1,
			r < 0x20 && !(r == '\n' && !oneLine),
			r == 0x7f, r >= 0x80 && r <= 0x9f, bidiControl(r):
			return i, r, false
		}
		i += size
	}
	return 0, 0, true
}
