// Package plural writes counts of things in English: "1 game", "2 games",
// "0 plies" — the one rule every command's and screen's output uses, so
// none prints "1 games".
package plural

import "strconv"

// Integer is any integer type a count may have.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Count is n and the noun in the form n takes: Count(1, "game") is
// "1 game", Count(3, "ply") "3 plies".
func Count[N Integer](n N, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, noun)
}

// Noun is the noun alone in the form n takes, for a count written apart
// from it ("3/5 games"): noun itself for one, its plural otherwise.
func Noun[N Integer](n N, noun string) string {
	if n == 1 {
		return noun
	}
	return Of(noun)
}

// Of is the plural of a singular noun by the regular rules: a consonant
// and y become ies (ply, plies), an s, x, z or sh end takes es (loss,
// losses), anything else takes s — a ch end too, since spelling does not
// tell epochs from matches. The noun is the last word: "time loss" is
// "time losses".
func Of(noun string) string {
	n := len(noun)
	switch {
	case n >= 2 && noun[n-1] == 'y' && !isVowel(noun[n-2]):
		return noun[:n-1] + "ies"
	case hasSuffix(noun, "s", "x", "z", "sh"):
		return noun + "es"
	}
	return noun + "s"
}

func isVowel(b byte) bool {
	switch b {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}

func hasSuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if len(s) >= len(x) && s[len(s)-len(x):] == x {
			return true
		}
	}
	return false
}
