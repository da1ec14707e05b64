// Package account holds the server's players: a handle per SSH public key,
// chosen at the first connection, and the rules a handle must keep.
package account

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Reserved begins the names the server plays under (Squall-L4 is Squall at
// level 4): no person's handle may begin with it, or look like it does.
const Reserved = "Squall"

// Handle lengths, in characters.
const (
	MinHandle = 2
	MaxHandle = 20
)

// ValidHandle checks a handle a player asks for: 2 to 20 characters,
// ASCII letters, digits, '_' and '-', beginning with a letter. ASCII only,
// since Unicode holds letters that look alike (Cyrillic а for Latin a) and
// invisible ones; the error says what is wrong, quoting nothing of the
// input (it may hold anything).
func ValidHandle(h string) error {
	n := utf8.RuneCountInString(h)
	switch {
	case n < MinHandle:
		return fmt.Errorf("a handle has at least %d characters", MinHandle)
	case n > MaxHandle:
		return fmt.Errorf("a handle has at most %d characters", MaxHandle)
	case !isLetter(h[0]):
		return errors.New("a handle begins with a letter (a-z, A-Z)")
	case strings.HasPrefix(Key(h), Key(Reserved)):
		return fmt.Errorf("handles beginning with %s are the server's own", Reserved)
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !isLetter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '-' {
			return errors.New("a handle has only letters a-z, A-Z, digits, '_' and '-'")
		}
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Key is what makes two handles the same one: case is ignored, '-' is '_',
// and the characters a reader mistakes for each other in a terminal font
// are one (0 and o; 1, l and i; 5 and s; 2 and z; 8 and b). Two players
// cannot hold handles with the same key, so "Magnus" cannot be followed by
// "magnu5" or "MAGNUS".
func Key(h string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(h) {
		switch c {
		case '0':
			c = 'o'
		case '1', 'i':
			c = 'l'
		case '5':
			c = 's'
		case '2':
			c = 'z'
		case '8':
			c = 'b'
		case '-':
			c = '_'
		}
		b.WriteRune(c)
	}
	return b.String()
}
