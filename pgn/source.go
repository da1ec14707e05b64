package pgn

import (
	"bytes"
	"errors"
	"io"
)

// source is a buffered byte reader that knows the offset, line and column of
// every byte, so errors can point into the file and Index can record where
// games start. It never holds more than one buffer of input, whatever the
// file size.
type source struct {
	rd   io.Reader
	buf  []byte
	pos  int
	end  int
	base int64 // offset of buf[0] in the input
	err  error // sticky read error; io.EOF at the end

	line      int   // current line, 1-based
	lineStart int64 // offset of the current line's first byte
}

const bufSize = 64 << 10

func (s *source) reset(rd io.Reader, base int64, line int) {
	if s.buf == nil {
		s.buf = make([]byte, bufSize)
	}
	s.rd, s.pos, s.end, s.base, s.err = rd, 0, 0, base, nil
	s.line, s.lineStart = line, base
}

// peek returns the next byte without consuming it; ok is false at the end of
// input or on a read error (see s.err).
func (s *source) peek() (byte, bool) {
	if s.pos < s.end {
		return s.buf[s.pos], true
	}
	return s.fill()
}

// advance consumes the byte peek returned.
func (s *source) advance() {
	c := s.buf[s.pos]
	s.pos++
	if c == '\n' {
		s.line++
		s.lineStart = s.base + int64(s.pos)
	}
}

func (s *source) fill() (byte, bool) {
	if !s.ensure(1) {
		return 0, false
	}
	return s.buf[s.pos], true
}

// peek2 returns the byte after the next one.
func (s *source) peek2() (byte, bool) {
	if s.pos+1 < s.end || s.ensure(2) {
		return s.buf[s.pos+1], true
	}
	return 0, false
}

// ensure makes n bytes (n <= len(buf)) available from pos, moving unread
// bytes to the front of the buffer; false if input ends first.
func (s *source) ensure(n int) bool {
	if s.end-s.pos >= n {
		return true
	}
	if s.err != nil {
		return false
	}
	copy(s.buf, s.buf[s.pos:s.end])
	s.base += int64(s.pos)
	s.end -= s.pos
	s.pos = 0
	// Readers may return 0, nil; give them a few chances, as bufio does.
	for tries := 0; s.end < n; {
		k, err := s.rd.Read(s.buf[s.end:])
		if k < 0 || k > len(s.buf)-s.end {
			s.err = errors.New("reader returned an invalid count")
			return false
		}
		s.end += k
		if err != nil {
			s.err = err
			return s.end >= n
		}
		if k == 0 {
			if tries++; tries > 100 {
				s.err = io.ErrNoProgress
				return false
			}
		}
	}
	return true
}

// offset is the input offset of the next byte.
func (s *source) offset() int64 { return s.base + int64(s.pos) }

// atLineStart reports whether the next byte begins a line.
func (s *source) atLineStart() bool { return s.offset() == s.lineStart }

// skipLine consumes the rest of the current line, newline included, and
// returns its length without the newline.
func (s *source) skipLine() int {
	_, n := s.readLine(nil, 0)
	return n
}

// readLine consumes the rest of the current line, newline included, and
// appends it without the newline to dst while dst is shorter than limit;
// n is the line's whole length, more than what was appended if the limit
// cut it.
func (s *source) readLine(dst []byte, limit int) (_ []byte, n int) {
	for {
		if s.pos >= s.end && !s.ensure(1) {
			return dst, n
		}
		chunk := s.buf[s.pos:s.end]
		i := bytes.IndexByte(chunk, '\n')
		k := len(chunk)
		if i >= 0 {
			k = i
		}
		dst = append(dst, chunk[:min(k, max(limit-len(dst), 0))]...)
		n += k
		if i >= 0 {
			s.pos += i + 1
			s.line++
			s.lineStart = s.base + int64(s.pos)
			return dst, n
		}
		s.pos += k
	}
}

// bufferedLine is readLine for a line that ends inside the buffer, which
// it returns without copying (valid until the source is read again); nil
// if the line does not end there or is longer than limit.
func (s *source) bufferedLine(limit int) []byte {
	chunk := s.buf[s.pos:s.end]
	i := bytes.IndexByte(chunk, '\n')
	if i < 0 || i > limit {
		return nil
	}
	s.pos += i + 1
	s.line++
	s.lineStart = s.base + int64(s.pos)
	return chunk[:i:i]
}

// readWhile consumes the bytes up to the first one for which stop is set
// (not consumed, and never a newline) and appends them to dst while dst is
// shorter than limit; long reports whether bytes were dropped.
func (s *source) readWhile(dst []byte, stop *[256]bool, limit int) (_ []byte, long bool) {
	for {
		if s.pos >= s.end && !s.ensure(1) {
			return dst, long
		}
		chunk := s.buf[s.pos:s.end]
		n := 0
		for n < len(chunk) && !stop[chunk[n]] {
			n++
		}
		take := min(n, max(limit-len(dst), 0))
		dst = append(dst, chunk[:take]...)
		long = long || take < n
		s.pos += n
		if n < len(chunk) {
			return dst, long
		}
	}
}

// readErr is the read error that stopped input, nil at a clean end.
func (s *source) readErr() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}
