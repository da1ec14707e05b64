package epd

import (
	"bufio"
	"io"
	"strings"
)

// EPD returns the record as one EPD line: the four position fields, then
// each operation in order. String operands and any operand with spaces,
// semicolons or nothing in it are quoted.
func (r *Record) EPD() string {
	var b strings.Builder
	fen := strings.Fields(r.Position.FEN())
	b.WriteString(strings.Join(fen[:4], " "))
	for _, op := range r.Ops {
		b.WriteByte(' ')
		b.WriteString(op.Opcode)
		for _, v := range op.Operands {
			b.WriteByte(' ')
			if isStringOpcode(op.Opcode) || v == "" || strings.ContainsAny(v, " \t;") {
				b.WriteByte('"')
				b.WriteString(strings.ReplaceAll(v, `"`, "'"))
				b.WriteByte('"')
			} else {
				b.WriteString(v)
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}

// Write writes records one per line.
func Write(w io.Writer, recs []*Record) error {
	bw := bufio.NewWriter(w)
	for _, r := range recs {
		bw.WriteString(r.EPD())
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
