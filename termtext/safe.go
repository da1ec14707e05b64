package termtext

import (
	"strings"
	"unicode/utf8"
)

// Safe makes text that came from outside Squall — a PGN file, an engine, a
// tag, a comment, a room or user name, a chat line, a theme file — safe to
// draw or print on a terminal. It is the one sanitiser: every such string
// passes through it (or SafeLine) before it reaches a screen or a CLI
// message.
//
// A terminal acts on control characters: ESC starts a sequence that can
// clear the screen, move the cursor, change colours, set the window title or
// (OSC 52) write the clipboard; CR and BS overwrite what was drawn; C1 codes
// (U+0080–U+009F) are single-character escapes on some terminals. Safe
// sends none of them:
//
//   - A whole escape sequence shows as one mark, ␛, and the text after it
//     is kept: CSI (ESC [ or U+009B, parameters, intermediates and a final
//     byte), OSC (ESC ] or U+009D) up to BEL or ST, DCS, SOS, PM and APC
//     (ESC P, X, ^, _ or their C1 forms) up to ST, SS2 and SS3 (ESC N, ESC O
//     or U+008E, U+008F) with the character they shift, and the short ESC
//     forms (ESC c, ESC 7, ESC ( B). ST is ESC \ or U+009C; a string is
//     also ended by another ESC (as a terminal ends it) or CAN or SUB. Its
//     payload (a window title, the clipboard) is never shown.
//   - What is not a whole sequence (an OSC never ended, a CSI cut by a line
//     feed) is shown: its ESC as ␛, the rest as text.
//   - Other C0 controls show as their Unicode control pictures (␀ … ␟),
//     DEL as ␡; other C1 controls, invalid UTF-8 and the bidi overrides that
//     reorder what is shown as U+FFFD (�).
//
// Line feeds are kept (use SafeLine for text that must stay on one line)
// and tabs become one space, since a tab's width depends on the column it
// lands in and would break the layout of a panel.
func Safe(s string) string { return clean(s, false) }

// SafeLine is Safe for text drawn on one line (a tag, a name, an engine's
// info string, a chat line): line breaks become spaces too.
func SafeLine(s string) string { return clean(s, true) }

// seqMark stands for a whole escape sequence.
const seqMark = "\u241b" // ␛

func clean(s string, oneLine bool) string {
	if plain(s, oneLine) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		if n := sequence(s[i:]); n > 0 {
			b.WriteString(seqMark)
			i += n
			continue
		}
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
			b.WriteRune(0x2400 + r) // ␀ … ␟: a lone ESC shows as ␛
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

// sequence is the length in bytes of the whole escape sequence s begins
// with, or 0 if it begins with none (see Safe for the forms).
func sequence(s string) int {
	if len(s) < 2 {
		return 0
	}
	var kind byte // the sequence's 7-bit introducer, after ESC
	switch {
	case s[0] == 0x1b:
		kind = s[1]
	case s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f:
		// A C1 control in UTF-8; ESC and s[1]-0x40 is its 7-bit form. Only
		// the introducers begin a sequence: any other is one control.
		kind = s[1] - 0x40
		if strings.IndexByte("NOPX[]^_", kind) < 0 {
			return 0
		}
	default:
		return 0
	}
	const n = 2 // the introducer's length, in either form
	switch kind {
	case '[': // CSI: parameters, intermediates, a final byte
		i := n
		for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
			i++
		}
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			return i + 1
		}
		return 0
	case ']', 'P', 'X', '^', '_': // a control string
		for i := n; i < len(s); i++ {
			switch c := s[i]; {
			case c == 0x07 && kind == ']', c == 0x18, c == 0x1a: // BEL ends an OSC; CAN and SUB cancel
				return i + 1
			case c == 0x1b && i+1 < len(s) && s[i+1] == '\\', c == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // ST
				return i + 2
			case c == 0x1b, c == 0xc2 && i+1 < len(s) && s[i+1] >= 0x80 && s[i+1] <= 0x9f:
				return i // another sequence begins: a terminal ends the string here
			}
		}
		return 0 // never ended: not a sequence
	case 'N', 'O': // SS2, SS3 and the character they shift
		if n < len(s) && s[n] > 0x20 && s[n] < 0x7f {
			return n + 1
		}
		return n
	}
	if s[0] != 0x1b {
		return 0
	}
	// ESC, intermediates, a final byte: ESC c, ESC 7, ESC ( B.
	i := 1
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		return i + 1
	}
	return 0
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
