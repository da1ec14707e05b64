package sshd

import (
	"bytes"
	"unicode/utf8"
)

// A session's keys reach its program through typedText (issue 33, G6):
//
//   - Text that arrives in one read (a paste, or a script's line) is handed
//     on as one bracketed paste, so that bubbletea delivers it as one key
//     message: one Update and one View for a paste, not one for each word
//     (a 1 MB paste of words took 14 s, two messages a word), and a word
//     that names a key ("end", "home", "ctrl+c") is text, not that key
//     (bubbles' text input took a pasted "end" for the End key and lost it).
//   - A whole control string (OSC, DCS, SOS, PM, APC, ended by BEL or ST)
//     is dropped: terminals send none as keys, and bubbletea read ESC ] as
//     Alt+] and its payload as typed text.
//   - A paste is cut at maxPaste bytes: no line of a session takes more,
//     and bubbletea would hold all of it until its end marker, searching
//     it again at each read.
//
// Keys (one rune a read, CSI and SS3 sequences, Alt+key) pass unchanged.

// maxPaste is the most of one paste a session's program is given.
const maxPaste = 4096

var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// typedText rewrites a session's input as above; feed is called with each
// read, in order, from one goroutine.
type typedText struct {
	inPaste bool   // inside the terminal's own bracketed paste
	pasted  int    // bytes of it handed on
	carry   []byte // the start of a rune or an end marker, cut by the read
}

// feed returns what the program reads of b.
func (t *typedText) feed(b []byte) []byte {
	if len(t.carry) > 0 {
		b = append(t.carry, b...)
		t.carry = nil
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		if t.inPaste {
			i, out = t.paste(b, i, out)
			continue
		}
		c := b[i]
		switch {
		case c == 0x1b && bytes.HasPrefix(b[i:], pasteStart):
			t.inPaste, t.pasted = true, 0
			out = append(out, pasteStart...)
			i += len(pasteStart)
		case c == 0x1b:
			n := controlString(b[i:])
			if n == 0 {
				n = escLen(b[i:])
				out = append(out, b[i:i+n]...)
			}
			i += n
		case c < 0x20 || c == 0x7f:
			out = append(out, c)
			i++
		default:
			j, runes := i, 0
			for j < len(b) && b[j] >= 0x20 && b[j] != 0x7f {
				if b[j] >= 0x80 && !utf8.FullRune(b[j:]) {
					break
				}
				_, size := utf8.DecodeRune(b[j:])
				j += size
				runes++
			}
			if j < len(b) && b[j] >= 0x80 { // a rune the read cut
				t.carry = append(t.carry, b[j:]...)
				b = b[:j]
			}
			if runes > 1 {
				out = append(out, pasteStart...)
				out = append(out, b[i:j]...)
				out = append(out, pasteEnd...)
			} else {
				out = append(out, b[i:j]...)
			}
			i = j
		}
	}
	return out
}

// paste hands on the terminal's bracketed paste from b[i] to its end
// marker, dropping whole escape sequences within it and anything past
// maxPaste; it returns where it stopped.
func (t *typedText) paste(b []byte, i int, out []byte) (int, []byte) {
	end := bytes.Index(b[i:], pasteEnd)
	stop := len(b)
	if end >= 0 {
		stop = i + end
	} else {
		// Keep back a start of the end marker the read may have cut.
		for k := min(len(pasteEnd)-1, len(b)-i); k > 0; k-- {
			if bytes.HasPrefix(pasteEnd, b[len(b)-k:]) {
				t.carry = append(t.carry, b[len(b)-k:]...)
				stop = len(b) - k
				break
			}
		}
	}
	for i < stop {
		n := 1
		if b[i] == 0x1b {
			if n = controlString(b[i:stop]); n == 0 {
				n = escLen(b[i:stop])
			}
		} else if t.pasted < maxPaste {
			out = append(out, b[i])
			t.pasted++
		}
		i += n
	}
	if end < 0 {
		return len(b), out // the rest, if any, carried
	}
	out = append(out, pasteEnd...)
	t.inPaste = false
	return i + len(pasteEnd), out
}

// controlString is the length of the whole control string b begins with
// (ESC ], P, X, ^ or _, ended by BEL or ST), or 0.
func controlString(b []byte) int {
	if len(b) < 2 || b[0] != 0x1b || bytes.IndexByte([]byte("]PX^_"), b[1]) < 0 {
		return 0
	}
	for i := 2; i < len(b); i++ {
		switch {
		case b[i] == 0x07:
			return i + 1
		case b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\':
			return i + 2
		case b[i] == 0x1b:
			return 0
		}
	}
	return 0
}

// escLen is the length of the key sequence b begins with (b[0] is ESC): a
// CSI to its final byte, SS3 and its character, or Alt and one rune; as
// much of it as b holds.
func escLen(b []byte) int {
	if len(b) < 2 {
		return len(b)
	}
	switch b[1] {
	case '[':
		i := 2
		for i < len(b) && b[i] >= 0x20 && b[i] <= 0x3f {
			i++
		}
		if i < len(b) && b[i] >= 0x40 && b[i] <= 0x7e {
			i++
		}
		return i
	case 'O':
		return min(3, len(b))
	case 0x1b:
		return 1 // ESC, then whatever the second begins
	}
	_, size := utf8.DecodeRune(b[1:])
	return 1 + size
}
