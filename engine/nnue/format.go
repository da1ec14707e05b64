package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// The file format of a network, all integers little-endian:
//
//	offset  size          field
//	0       4             magic "SQNN"
//	4       4             format version (1)
//	8       4             inputs (768)
//	12      4             hidden (Hidden)
//	16      4             QA
//	20      4             QB (the network's: a power of two from 64 to 1024)
//	24      4             Scale
//	28      2·768·hidden  feature weights, feature by feature (int16)
//	…       2·hidden      feature biases (int16)
//	…       2·2·hidden    output weights, side to move's half first (int16)
//	…       4             output bias (int32)
//	…       4             CRC-32 (IEEE) of every byte before it
//
// A file whose shape or quantisation differs from this build's, whose
// checksum does not match, or whose output weights exceed
// MaxOutputWeight is refused with an error that says which.
const (
	magic   = "SQNN"
	version = 1
)

// headerSize is the bytes before the weights.
const headerSize = 28

// FileSize is the size of a network file of this build's shape.
const FileSize = headerSize + 2*Inputs*Hidden + 2*Hidden + 2*2*Hidden + 4 + 4

// ErrFormat is wrapped by every error of Load about the file's contents.
var ErrFormat = errors.New("nnue: not a network of this format")

// Write writes n in the file format.
func (n *Net) Write(w io.Writer) error {
	var b bytes.Buffer
	b.Grow(FileSize)
	b.WriteString(magic)
	for _, v := range []uint32{version, Inputs, Hidden, QA, uint32(n.QB), Scale} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	_ = binary.Write(&b, binary.LittleEndian, &n.FeatureWeights)
	_ = binary.Write(&b, binary.LittleEndian, &n.FeatureBias)
	_ = binary.Write(&b, binary.LittleEndian, &n.OutputWeights)
	_ = binary.Write(&b, binary.LittleEndian, n.OutputBias)
	_ = binary.Write(&b, binary.LittleEndian, crc32.ChecksumIEEE(b.Bytes()))
	_, err := w.Write(b.Bytes())
	return err
}

// Parse reads a network from the bytes of a file.
func Parse(data []byte) (*Net, error) {
	if len(data) < headerSize+4 || string(data[:4]) != magic {
		return nil, fmt.Errorf("%w: no SQNN header", ErrFormat)
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[4:]); v != version {
		return nil, fmt.Errorf("%w: version %d, this build reads %d", ErrFormat, v, version)
	}
	for i, want := range []uint32{Inputs, Hidden, QA, 0, Scale} {
		name := [...]string{"inputs", "hidden", "QA", "QB", "scale"}[i]
		if got := le.Uint32(data[8+4*i:]); got != want && name != "QB" {
			return nil, fmt.Errorf("%w: %s %d, this build has %d", ErrFormat, name, got, want)
		}
	}
	qb := le.Uint32(data[20:])
	if qb < QB || qb > MaxQB || qb&(qb-1) != 0 {
		return nil, fmt.Errorf("%w: QB %d, not a power of two from %d to %d", ErrFormat, qb, QB, MaxQB)
	}
	if len(data) != FileSize {
		return nil, fmt.Errorf("%w: %d bytes, want %d", ErrFormat, len(data), FileSize)
	}
	body, sum := data[:len(data)-4], le.Uint32(data[len(data)-4:])
	if got := crc32.ChecksumIEEE(body); got != sum {
		return nil, fmt.Errorf("%w: checksum %08x, file says %08x (damaged)", ErrFormat, got, sum)
	}
	n := &Net{QB: int32(qb)}
	r := bytes.NewReader(body[headerSize:])
	for _, v := range []any{&n.FeatureWeights, &n.FeatureBias, &n.OutputWeights, &n.OutputBias} {
		if err := binary.Read(r, le, v); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrFormat, err)
		}
	}
	for _, half := range n.OutputWeights {
		for i, w := range half {
			if w > MaxOutputWeight || w < -MaxOutputWeight {
				return nil, fmt.Errorf("%w: output weight %d is %d, beyond ±%d", ErrFormat, i, w, MaxOutputWeight)
			}
		}
	}
	return n, nil
}
