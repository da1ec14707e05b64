package uci

import (
	"sync"
	"time"
)

// LogLine is one line of UCI traffic.
type LogLine struct {
	Time time.Time
	// Dir is '>' for a line sent to the engine, '<' for a line it printed,
	// '!' for its stderr and for notes by Squall (ignored bad lines).
	Dir  byte
	Text string
}

// String formats the line as "> go movetime 100".
func (l LogLine) String() string { return string(l.Dir) + " " + l.Text }

// trafficLog is a bounded ring of the most recent traffic: an engine that
// prints without end must not grow Squall's memory.
type trafficLog struct {
	mu    sync.Mutex
	buf   []LogLine
	start int // index of the oldest line once the ring is full
}

func newTrafficLog(n int) *trafficLog { return &trafficLog{buf: make([]LogLine, 0, n)} }

// maxLogText bounds one logged line, for the same reason.
const maxLogText = 4096

func (l *trafficLog) add(dir byte, text string) {
	if len(text) > maxLogText {
		text = text[:maxLogText] + "…"
	}
	line := LogLine{Time: time.Now(), Dir: dir, Text: text}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.buf) < cap(l.buf) {
		l.buf = append(l.buf, line)
		return
	}
	l.buf[l.start] = line
	l.start = (l.start + 1) % len(l.buf)
}

func (l *trafficLog) lines() []LogLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]LogLine, 0, len(l.buf))
	out = append(out, l.buf[l.start:]...)
	return append(out, l.buf[:l.start]...)
}
