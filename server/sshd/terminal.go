package sshd

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/muesli/termenv"
)

// queryTimeout bounds how long a session waits for its terminal to say
// what its background colour is. A client that never answers (a script, a
// pipe behind `ssh -tt`) then gets the dark-background colours instead of
// no screen at all.
const queryTimeout = time.Second

// Why not wish's bubbletea.MakeRenderer: it asks the terminal for its
// background and reads the answer straight from the SSH channel, whose Read
// cannot be interrupted, so its timeout never fires and a client that does
// not answer keeps its session (and a slot of --max-sessions) with no
// screen until it sends a byte (issue 18, B9). Here one goroutine pumps the
// channel's input; the query waits on it with a deadline, and the program
// reads whatever comes after.

// sessionInput is a session's input, read by one pump goroutine so that a
// reader can stop waiting. The pump ends when the session's input does
// (the client disconnects) or, if nobody reads, when done is closed.
type sessionInput struct {
	chunks  chan []byte
	pending []byte // read by the query but meant for the program
	typed   typedText
	ready   []byte // typed's output the program has not read yet
	mu      sync.Mutex
	// last is when the client last sent input (unix nanoseconds): its
	// lag is measured while it is active (measureLag).
	last atomic.Int64
}

// lastInput is when the client last sent input (the session's start
// before any).
func (in *sessionInput) lastInput() time.Time { return time.Unix(0, in.last.Load()) }

func newSessionInput(r io.Reader, done <-chan struct{}) *sessionInput {
	in := &sessionInput{chunks: make(chan []byte, 16)}
	in.last.Store(time.Now().UnixNano())
	go func() {
		defer close(in.chunks)
		// One read takes what the channel holds (an SSH packet is up to
		// 32 KiB), so that a paste comes in few reads: typedText hands
		// each read's text on as one paste.
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				in.last.Store(time.Now().UnixNano())
				select {
				case in.chunks <- append([]byte(nil), buf[:n]...):
				case <-done: // the session ended with input unread
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return in
}

// Read gives the program the session's input, the bytes the query read
// past its answer first, rewritten by typedText.
func (in *sessionInput) Read(p []byte) (int, error) {
	for {
		in.mu.Lock()
		if len(in.ready) > 0 {
			n := copy(p, in.ready)
			in.ready = in.ready[n:]
			in.mu.Unlock()
			return n, nil
		}
		raw := in.pending
		in.pending = nil
		in.mu.Unlock()
		if len(raw) == 0 {
			chunk, ok := <-in.chunks
			if !ok {
				return 0, io.EOF
			}
			raw = chunk
		}
		out := in.typed.feed(raw) // may be empty: a control string dropped
		in.mu.Lock()
		in.ready = append(in.ready, out...)
		in.mu.Unlock()
	}
}

// queryBackground asks the terminal for its background colour (OSC 11),
// followed by a device-attributes request (DA1) that every terminal answers,
// so that the end of the answers is known. It returns whether the
// background is dark and whether the terminal said so, waiting at most
// timeout. Input that is not part of the answers is kept for the program.
func (in *sessionInput) queryBackground(w io.Writer, timeout time.Duration) (dark, known bool) {
	if _, err := io.WriteString(w, "\x1b]11;?\x07\x1b[c"); err != nil {
		return true, false
	}
	var got []byte
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		end := bytes.Index(got, []byte("\x1b[?"))
		if end >= 0 {
			if c := bytes.IndexByte(got[end:], 'c'); c >= 0 {
				dark, known = parseBackground(got[:end])
				in.keep(got[end+c+1:])
				return dark, known
			}
		}
		select {
		case chunk, ok := <-in.chunks:
			if !ok {
				return true, false
			}
			got = append(got, chunk...)
		case <-deadline.C:
			dark, known = parseBackground(got)
			if !known {
				in.keep(got) // not an answer: the user's keys
			}
			return dark, known
		}
	}
}

func (in *sessionInput) keep(b []byte) {
	if len(b) == 0 {
		return
	}
	in.mu.Lock()
	in.pending = append(in.pending, b...)
	in.mu.Unlock()
}

// parseBackground reads an OSC 11 answer, "ESC ] 11 ; rgb:RRRR/GGGG/BBBB"
// ended by BEL or ST, with one to four hex digits a component.
func parseBackground(b []byte) (dark, ok bool) {
	s := string(b)
	i := strings.Index(s, "\x1b]11;rgb:")
	if i < 0 {
		return true, false
	}
	s = s[i+len("\x1b]11;rgb:"):]
	if j := strings.IndexAny(s, "\x07\x1b"); j >= 0 {
		s = s[:j]
	}
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return true, false
	}
	var rgb [3]float64
	for k, p := range parts {
		if len(p) == 0 || len(p) > 4 {
			return true, false
		}
		v, err := strconv.ParseUint(p, 16, 16)
		if err != nil {
			return true, false
		}
		rgb[k] = float64(v) / float64(uint64(1)<<(4*len(p))-1)
	}
	// Perceived lightness, as lipgloss judges a background.
	l := 0.2126*rgb[0] + 0.7152*rgb[1] + 0.0722*rgb[2]
	return l < 0.5, true
}

// sessionRenderer is the lipgloss renderer of one SSH session: the colour
// profile its TERM allows (at least minProfile's), and the background its
// terminal reported within queryTimeout (dark if it said nothing).
func sessionRenderer(sess ssh.Session, in *sessionInput, minProfile termenv.Profile) *lipgloss.Renderer {
	pty, _, ok := sess.Pty()
	if !ok || pty.Term == "" || pty.Term == "dumb" {
		return lipgloss.NewRenderer(sess, termenv.WithProfile(termenv.Ascii))
	}
	env := sshEnviron(append(sess.Environ(), "TERM="+pty.Term))
	r := lipgloss.NewRenderer(sess, termenv.WithEnvironment(env), termenv.WithUnsafe(), termenv.WithColorCache(true))
	if r.ColorProfile() > minProfile {
		r.SetColorProfile(minProfile)
	}
	dark, _ := in.queryBackground(sess, queryTimeout)
	r.SetHasDarkBackground(dark)
	return r
}

// sshEnviron is a session's environment for termenv, which reads TERM and
// COLORTERM from it to choose the colour profile.
type sshEnviron []string

// Environ returns the variables.
func (e sshEnviron) Environ() []string { return e }

// Getenv returns one variable.
func (e sshEnviron) Getenv(k string) string {
	for _, v := range e {
		if name, val, ok := strings.Cut(v, "="); ok && name == k {
			return val
		}
	}
	return ""
}
