package pgn

import (
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// A game whose bytes are not valid UTF-8 is read as Latin-1, the PGN
// standard's own export encoding (section 4.1: ISO 8859-1), which older
// databases and ChessBase exports still write. Each game is judged as a
// whole, by its tags and its comments together, so a game with one
// Latin-1 tag has its other tags and comments decoded the same way; a
// UTF-8 game in the same file is left as it is. (Index and NextEntry,
// which skim past the comments, judge by the tags alone.)
//
// The decoding is Windows 1252 rather than ISO 8859-1 proper: the two
// agree on every printable Latin-1 character, and where they differ
// (0x80-0x9F) ISO 8859-1 has only C1 control codes that no text means,
// while files written on Windows and called Latin-1 hold curly quotes,
// dashes and the euro sign there. This is what browsers do with text
// labelled ISO-8859-1 (the WHATWG Encoding Standard). The five bytes
// Windows 1252 leaves undefined decode as their Latin-1 control codes,
// as the WHATWG decoder does, rather than U+FFFD: nothing is lost.

// appendLatin1 appends src, read as Windows 1252, to dst as UTF-8.
func appendLatin1(dst, src []byte) []byte {
	for _, c := range src {
		dst = appendLatin1Byte(dst, c)
	}
	return dst
}

func appendLatin1Byte(dst []byte, c byte) []byte {
	if c < utf8.RuneSelf {
		return append(dst, c)
	}
	r := charmap.Windows1252.DecodeByte(c)
	if r == utf8.RuneError {
		r = rune(c) // 0x81, 0x8D, 0x8F, 0x90, 0x9D
	}
	return utf8.AppendRune(dst, r)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// latin1Text returns the game's text (r.text) decoded as Latin-1 and
// moves the spans of its moves and comments to match.
func (r *Reader) latin1Text() string {
	// at[i] is where byte i of r.text begins in the decoded text.
	at := make([]int, len(r.text)+1)
	dec := make([]byte, 0, len(r.text)+len(r.text)/4)
	for i, c := range r.text {
		at[i] = len(dec)
		dec = appendLatin1Byte(dec, c)
	}
	at[len(r.text)] = len(dec)
	for i := range r.sans {
		r.sans[i] = textSpan{at[r.sans[i].a], at[r.sans[i].b]}
	}
	for i := range r.fixes {
		s := &r.fixes[i].span
		*s = textSpan{at[s.a], at[s.b]}
	}
	return string(dec)
}
