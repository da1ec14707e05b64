package tablebase

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// pairs is one compressed value stream. Values are bytes (WDL+2, or a DTZ
// or its index in the DTZ map), compressed by pairing symbols (each symbol
// expands to two earlier ones or is a literal value) and coding the symbols
// with a canonical prefix code, in blocks of 2^blockSize bytes. An index
// table locates every 2^idxBits-th value's block to bound the search.
type pairs struct {
	constant   bool // every value is constValue
	constValue uint8

	blockSize, idxBits uint
	realBlocks         uint32
	numBlocks          uint32
	minLen             int
	offset             []byte   // 2*h bytes: first symbol of each code length
	base               []uint64 // per code length, left-aligned lowest code
	symLen             []uint16 // number of values a symbol expands to, minus one
	symPat             []byte   // 3 bytes per symbol

	index, sizes, data []byte
}

var errCorrupt = errors.New("corrupt table")

// parsePairs reads the pairs header at data[at:] for a table part with size
// values and returns it and the offset after the header. Its index, size and
// data sections are attached later.
func parsePairs(data []byte, at int, size uint64, wdl bool) (*pairs, int, [3]uint64, error) {
	var sz [3]uint64
	if at+2 > len(data) {
		return nil, 0, sz, fmt.Errorf("pairs header at %d: %w", at, errCorrupt)
	}
	flags := data[at]
	if flags&0x80 != 0 {
		d := &pairs{constant: true}
		if wdl {
			d.constValue = data[at+1]
		}
		return d, at + 2, sz, nil
	}
	if at+10 > len(data) {
		return nil, 0, sz, fmt.Errorf("pairs header at %d: %w", at, errCorrupt)
	}
	d := &pairs{
		blockSize:  uint(data[at+1]),
		idxBits:    uint(data[at+2]),
		realBlocks: binary.LittleEndian.Uint32(data[at+4:]),
	}
	d.numBlocks = d.realBlocks + uint32(data[at+3])
	maxLen, minLen := int(data[at+8]), int(data[at+9])
	if d.blockSize > 32 || d.idxBits == 0 || d.idxBits > 40 || minLen == 0 || maxLen < minLen || maxLen > 64 {
		return nil, 0, sz, fmt.Errorf("pairs header at %d: bad sizes: %w", at, errCorrupt)
	}
	d.minLen = minLen
	h := maxLen - minLen + 1
	if at+12+2*h > len(data) {
		return nil, 0, sz, fmt.Errorf("pairs header at %d: %w", at, errCorrupt)
	}
	d.offset = data[at+10 : at+10+2*h]
	numSyms := int(binary.LittleEndian.Uint16(data[at+10+2*h:]))
	patAt := at + 12 + 2*h
	next := patAt + 3*numSyms + numSyms&1
	if next > len(data) {
		return nil, 0, sz, fmt.Errorf("pairs symbols at %d: %w", patAt, errCorrupt)
	}
	d.symPat = data[patAt : patAt+3*numSyms]
	d.symLen = make([]uint16, numSyms)
	state := make([]uint8, numSyms) // 0 unseen, 1 in progress, 2 done
	for s := 0; s < numSyms; s++ {
		if err := d.calcSymLen(s, state); err != nil {
			return nil, 0, sz, fmt.Errorf("pairs symbol %d: %w", s, err)
		}
	}
	d.base = make([]uint64, h)
	for i := h - 2; i >= 0; i-- {
		a := int64(d.base[i+1]) + int64(d.offsetAt(i)) - int64(d.offsetAt(i+1))
		d.base[i] = uint64(a / 2)
	}
	for i := 0; i < h; i++ {
		d.base[i] <<= uint(64 - (minLen + i))
	}
	numIndices := (size + 1<<d.idxBits - 1) >> d.idxBits
	sz[0] = 6 * numIndices
	sz[1] = 2 * uint64(d.numBlocks)
	sz[2] = uint64(d.realBlocks) << d.blockSize
	return d, next, sz, nil
}

// calcSymLen sets the expansion length of symbol s and the symbols it
// pairs, rejecting references out of range or in a cycle.
func (d *pairs) calcSymLen(s int, state []uint8) error {
	switch state[s] {
	case 2:
		return nil
	case 1:
		return fmt.Errorf("symbols form a cycle: %w", errCorrupt)
	}
	state[s] = 1
	w := d.symPat[3*s:]
	right := int(w[2])<<4 | int(w[1])>>4
	if right != 0xfff { // not a literal value
		left := int(w[1]&0xf)<<8 | int(w[0])
		if left >= len(state) || right >= len(state) {
			return fmt.Errorf("symbol out of range: %w", errCorrupt)
		}
		if err := d.calcSymLen(left, state); err != nil {
			return err
		}
		if err := d.calcSymLen(right, state); err != nil {
			return err
		}
		l := int(d.symLen[left]) + int(d.symLen[right]) + 1
		if l > 0xffff {
			return fmt.Errorf("symbol too long: %w", errCorrupt)
		}
		d.symLen[s] = uint16(l)
	}
	state[s] = 2
	return nil
}

func (d *pairs) offsetAt(i int) uint16 { return binary.LittleEndian.Uint16(d.offset[2*i:]) }

// value returns the idx-th value; ok is false when the data is corrupt.
func (d *pairs) value(idx uint64) (uint8, bool) {
	if d.constant {
		return d.constValue, true
	}
	mainIdx := idx >> d.idxBits
	if 6*mainIdx+6 > uint64(len(d.index)) {
		return 0, false
	}
	lit := int64(idx&(1<<d.idxBits-1)) - int64(1)<<(d.idxBits-1)
	ent := d.index[6*mainIdx:]
	block := int64(binary.LittleEndian.Uint32(ent))
	lit += int64(binary.LittleEndian.Uint16(ent[4:]))
	nsizes := int64(len(d.sizes) / 2)
	sizeOf := func(b int64) int64 { return int64(binary.LittleEndian.Uint16(d.sizes[2*b:])) }
	if lit < 0 {
		for lit < 0 {
			block--
			if block < 0 || block >= nsizes {
				return 0, false
			}
			lit += sizeOf(block) + 1
		}
	} else {
		for {
			if block >= nsizes {
				return 0, false
			}
			s := sizeOf(block)
			if lit <= s {
				break
			}
			lit -= s + 1
			block++
		}
	}
	start := uint64(block) << d.blockSize
	end := start + 1<<d.blockSize
	if end > uint64(len(d.data)) || d.blockSize < 3 {
		return 0, false
	}
	buf := d.data[start:]
	code := binary.BigEndian.Uint64(buf)
	pos := 8
	bitCnt := 0 // bits consumed from code and not yet refilled
	h := len(d.base)
	var sym int
	for {
		l := 0
		for l < h && code < d.base[l] {
			l++
		}
		if l == h {
			return 0, false
		}
		sym = int(d.offsetAt(l)) + int((code-d.base[l])>>uint(64-(l+d.minLen)))
		if sym >= len(d.symLen) {
			return 0, false
		}
		if lit < int64(d.symLen[sym])+1 {
			break
		}
		lit -= int64(d.symLen[sym]) + 1
		code <<= uint(l + d.minLen)
		bitCnt += l + d.minLen
		if bitCnt >= 32 {
			bitCnt -= 32
			// The last code of a block may be followed by bits the
			// decoder looks at but never uses: past the block's end read
			// on into the next one, and past the data read zeros.
			var w uint32
			if pos+4 <= len(buf) {
				w = binary.BigEndian.Uint32(buf[pos:])
			} else {
				for k := 0; k < 4; k++ {
					w <<= 8
					if pos+k < len(buf) {
						w |= uint32(buf[pos+k])
					}
				}
			}
			code |= uint64(w) << uint(bitCnt)
			pos += 4
		}
	}
	for d.symLen[sym] != 0 {
		w := d.symPat[3*sym:]
		left := int(w[1]&0xf)<<8 | int(w[0])
		if lit < int64(d.symLen[left])+1 {
			sym = left
		} else {
			lit -= int64(d.symLen[left]) + 1
			sym = int(w[2])<<4 | int(w[1])>>4
		}
	}
	return d.symPat[3*sym], true
}
