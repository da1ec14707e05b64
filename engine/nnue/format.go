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
//	4       4             format version (2)
//	8       4             inputs (768)
//	12      4             hidden H (a multiple of 16, 16–512)
//	16      4             QA
//	20      4             QB (the network's: a power of two from 64 to 1024)
//	24      4             Scale
//	28      4             output buckets K (1–32)
//	32      2·768·H       feature weights, feature by feature (int16)
//	…       2·H           feature biases (int16)
//	…       2·2·H·K       output weights, bucket by bucket, each the side
//	                      to move's half first (int16)
//	…       4·K           output biases (int32)
//	…       4             CRC-32 (IEEE) of every byte before it
//
// Version 1, the format before output buckets and other widths, has no
// bucket field (the weights start at 28), H 256 and one bucket; it still
// loads. Write writes version 2.
//
// A file whose shape or quantisation this build does not read, whose
// checksum does not match, or whose output weights exceed
// MaxOutputWeight is refused with an error that says which.
const (
	magic   = "SQNN"
	version = 2
)

// headerSize is the bytes before the weights (version 1: headerSizeV1).
const (
	headerSize   = 32
	headerSizeV1 = 28
)

// FileSize is the size of a network file (version 2) of the given shape.
func FileSize(hidden, buckets int) int {
	return headerSize + 2*Inputs*hidden + 2*hidden + 2*2*hidden*buckets + 4*buckets + 4
}

// ErrFormat is wrapped by every error of Load about the file's contents.
var ErrFormat = errors.New("nnue: not a network of this format")

// Write writes n in the file format.
func (n *Net) Write(w io.Writer) error {
	var b bytes.Buffer
	b.Grow(FileSize(n.Hidden, n.Buckets))
	b.WriteString(magic)
	for _, v := range []uint32{version, Inputs, uint32(n.Hidden), QA, uint32(n.QB), Scale, uint32(n.Buckets)} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	for _, v := range []any{n.FeatureWeights, n.FeatureBias, n.OutputWeights, n.OutputBias} {
		_ = binary.Write(&b, binary.LittleEndian, v)
	}
	_ = binary.Write(&b, binary.LittleEndian, crc32.ChecksumIEEE(b.Bytes()))
	_, err := w.Write(b.Bytes())
	return err
}

// Parse reads a network from the bytes of a file.
func Parse(data []byte) (*Net, error) {
	if len(data) < headerSizeV1+4 || string(data[:4]) != magic {
		return nil, fmt.Errorf("%w: no SQNN header", ErrFormat)
	}
	le := binary.LittleEndian
	v := le.Uint32(data[4:])
	if v != 1 && v != version {
		return nil, fmt.Errorf("%w: version %d, this build reads 1 and %d", ErrFormat, v, version)
	}
	hidden, buckets, start := le.Uint32(data[12:]), uint32(1), headerSize
	if v == 1 {
		start = headerSizeV1
		if hidden != 256 {
			return nil, fmt.Errorf("%w: hidden %d in a version 1 file, which has 256", ErrFormat, hidden)
		}
	} else if len(data) >= headerSize {
		buckets = le.Uint32(data[28:])
	}
	for i, want := range []uint32{Inputs, QA, Scale} {
		name, at := [...]string{"inputs", "QA", "scale"}[i], [...]int{8, 16, 24}[i]
		if got := le.Uint32(data[at:]); got != want {
			return nil, fmt.Errorf("%w: %s %d, this build has %d", ErrFormat, name, got, want)
		}
	}
	qb := le.Uint32(data[20:])
	if qb < QB || qb > MaxQB || qb&(qb-1) != 0 {
		return nil, fmt.Errorf("%w: QB %d, not a power of two from %d to %d", ErrFormat, qb, QB, MaxQB)
	}
	if hidden > MaxHidden || buckets > MaxBuckets { // before the sizes below, which could overflow
		return nil, fmt.Errorf("%w: hidden %d, %d buckets: at most %d and %d", ErrFormat, hidden, buckets, MaxHidden, MaxBuckets)
	}
	n, err := NewNet(int(hidden), int(buckets))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	n.QB = int32(qb)
	if want := FileSize(n.Hidden, n.Buckets) - headerSize + start; len(data) != want {
		return nil, fmt.Errorf("%w: %d bytes, want %d", ErrFormat, len(data), want)
	}
	body, sum := data[:len(data)-4], le.Uint32(data[len(data)-4:])
	if got := crc32.ChecksumIEEE(body); got != sum {
		return nil, fmt.Errorf("%w: checksum %08x, file says %08x (damaged)", ErrFormat, got, sum)
	}
	r := bytes.NewReader(body[start:])
	for _, v := range []any{n.FeatureWeights, n.FeatureBias, n.OutputWeights, n.OutputBias} {
		if err := binary.Read(r, le, v); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrFormat, err)
		}
	}
	for i, w := range n.OutputWeights {
		if w > MaxOutputWeight || w < -MaxOutputWeight {
			return nil, fmt.Errorf("%w: output weight %d is %d, beyond ±%d", ErrFormat, i, w, MaxOutputWeight)
		}
	}
	return n, nil
}
