package explore

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/squall-chess/squall/engine/chess"
	"github.com/squall-chess/squall/internal/atomicfile"
	"github.com/squall-chess/squall/pgn"
)

// Options are a build's choices.
type Options struct {
	// Plies is how many plies of each game's main line are indexed (0: the
	// whole game). An index built with other Plies is rebuilt by Ensure.
	Plies int
	// OnError, if set, is told of each game left out for an error (a
	// *pgn.Error with its line); variant games are left out silently.
	OnError func(error)
	// Progress, if set, is told how many bytes of the PGN file's size
	// have been read, every megabyte or so (for a progress line: the
	// build of a large file takes seconds).
	Progress func(read, size int64)

	runRecords int // records sorted in memory at a time (tests lower it)
}

// defaultRunRecords bounds the build's memory: 16 bytes a record, so
// 16 MB, whatever the size of the PGN file.
const defaultRunRecords = 1 << 20

// Build indexes the PGN file pgnPath into IndexPath(pgnPath), replacing
// any index there atomically. The file is read as a stream; the position-move
// pairs are sorted a bounded run at a time, each run spilled to a
// temporary file beside the index, and the runs merged into the index.
func Build(pgnPath string, opt Options) (Info, error) {
	f, err := os.Open(pgnPath)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Info{}, err
	}
	if fi.IsDir() {
		return Info{}, fmt.Errorf("%s is a directory, not a PGN file", pgnPath)
	}
	out, err := atomicfile.Create(IndexPath(pgnPath))
	if err != nil {
		return Info{}, err
	}
	defer out.Discard()
	w := bufio.NewWriterSize(out, 256<<10)
	t := trailer{PGNSize: fi.Size(), PGNModTime: fi.ModTime().UnixNano()}
	var in io.Reader = f
	if opt.Progress != nil {
		in = &progressReader{r: f, size: fi.Size(), report: opt.Progress}
	}
	if t, err = write(w, in, pgnPath, filepath.Dir(pgnPath), opt, t); err != nil {
		return Info{}, err
	}
	if err := w.Flush(); err != nil {
		return Info{}, err
	}
	if err := out.Commit(); err != nil {
		return Info{}, err
	}
	return t.info(), nil
}

// write reads the games of r (named name in errors) and writes their index
// to w; run files go to tmpDir. t brings the PGN file's size and time and
// comes back complete.
func write(w io.Writer, r io.Reader, name, tmpDir string, opt Options, t trailer) (trailer, error) {
	b := builder{opt: opt, tmpDir: tmpDir}
	if b.opt.runRecords <= 0 {
		b.opt.runRecords = defaultRunRecords
	}
	// Room for a run and the game that fills it: a slice left to grow
	// would double past the bound.
	b.recs = make([]record, 0, b.opt.runRecords+1024)
	defer b.removeRuns()
	rd := pgn.NewReader(r, name)
	rd.ParseCommands = false // comments are not looked at
	for g, err := range rd.All() {
		var perr *pgn.Error
		switch {
		case errors.Is(err, pgn.ErrVariant):
			t.Skipped++
			continue
		case errors.As(err, &perr):
			t.Skipped++
			if opt.OnError != nil {
				opt.OnError(err)
			}
			continue
		case err != nil:
			return t, fmt.Errorf("%s: %w", name, err)
		}
		if err := b.addGame(g); err != nil {
			t.Skipped++
			if opt.OnError != nil {
				opt.OnError(fmt.Errorf("%s:%d: %w", name, g.Line, err))
			}
			continue
		}
		t.Games++
		if len(b.recs) >= b.opt.runRecords {
			if err := b.spill(); err != nil {
				return t, err
			}
		}
	}
	src, err := b.sorted()
	if err != nil {
		return t, err
	}
	t.Plies = uint32(max(opt.Plies, 0))
	t.StartKey = chess.NewPosition().RepetitionKey()
	iw := indexWriter{w: w, t: t}
	if err := iw.start(); err != nil {
		return t, err
	}
	for {
		e, ok, err := src.next()
		if err != nil {
			return t, err
		}
		if !ok {
			break
		}
		if err := iw.add(e); err != nil {
			return t, err
		}
	}
	return iw.finish()
}

// record is one move played from one position in one game.
type record struct {
	key uint64
	mv  uint16
	out uint8
}

func compareRecords(a, b record) int {
	if c := cmp.Compare(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.mv, b.mv)
}

// builder gathers records and spills them in sorted runs.
type builder struct {
	opt    Options
	tmpDir string
	recs   []record
	runs   []*os.File
}

// outcomeOf is the outcome a game's result counts as.
func outcomeOf(result string) uint8 {
	switch result {
	case pgn.WhiteWins:
		return whiteWins
	case pgn.BlackWins:
		return blackWins
	case pgn.Draw:
		return draw
	}
	return unfinished
}

// addGame adds a game's records: each position of its main line (up to
// the ply limit) with the move played from it, once per game however often
// the game came back to it.
func (b *builder) addGame(g *pgn.Game) error {
	line, err := g.MainlinePositions()
	if err != nil {
		return err
	}
	out := outcomeOf(g.Result)
	first, ply := len(b.recs), 0
	for p, m := range line {
		if m == chess.NullMove || b.opt.Plies > 0 && ply >= b.opt.Plies {
			break
		}
		b.recs = append(b.recs, record{key: p.RepetitionKey(), mv: encodeMove(m), out: out})
		ply++
	}
	game := b.recs[first:]
	slices.SortFunc(game, compareRecords)
	b.recs = b.recs[:first+len(slices.CompactFunc(game, func(a, b record) bool { return compareRecords(a, b) == 0 }))]
	return nil
}

// spill sorts the records in memory and writes them, merged by position
// and move, to a new run file.
func (b *builder) spill() error {
	f, err := os.CreateTemp(b.tmpDir, ".explore-run-*")
	if err != nil {
		return fmt.Errorf("explore: a temporary file for the build: %w", err)
	}
	b.runs = append(b.runs, f)
	w := bufio.NewWriterSize(f, 64<<10)
	src := b.memory()
	var prev uint64
	var buf []byte
	for {
		e, ok, _ := src.next()
		if !ok {
			break
		}
		buf = binary.AppendUvarint(buf[:0], e.key-prev)
		buf = binary.AppendUvarint(buf, uint64(e.mv))
		for _, n := range e.n {
			buf = binary.AppendUvarint(buf, n)
		}
		prev = e.key
		if _, err := w.Write(buf); err != nil {
			return fmt.Errorf("explore: write %s: %w", f.Name(), err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("explore: write %s: %w", f.Name(), err)
	}
	b.recs = b.recs[:0]
	return nil
}

// sorted returns every entry in key order: from memory when everything
// fitted in one run, else merged from the run files.
func (b *builder) sorted() (source, error) {
	if len(b.runs) == 0 {
		return b.memory(), nil
	}
	if len(b.recs) > 0 {
		if err := b.spill(); err != nil {
			return nil, err
		}
	}
	m := &merger{}
	for _, f := range b.runs {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("explore: read %s: %w", f.Name(), err)
		}
		r := &runReader{r: bufio.NewReaderSize(f, 32<<10), name: f.Name()}
		if err := m.push(r); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (b *builder) removeRuns() {
	for _, f := range b.runs {
		f.Close()
		os.Remove(f.Name())
	}
}

// memory sorts the records in memory and returns them as entries.
func (b *builder) memory() source {
	slices.SortFunc(b.recs, compareRecords)
	return &memorySource{recs: b.recs}
}

// source yields entries in (key, move) order, each pair once.
type source interface {
	next() (entry, bool, error)
}

// memorySource merges sorted records into entries.
type memorySource struct{ recs []record }

func (s *memorySource) next() (entry, bool, error) {
	if len(s.recs) == 0 {
		return entry{}, false, nil
	}
	e := entry{key: s.recs[0].key, mv: s.recs[0].mv}
	i := 0
	for ; i < len(s.recs) && s.recs[i].key == e.key && s.recs[i].mv == e.mv; i++ {
		e.n[s.recs[i].out]++
	}
	s.recs = s.recs[i:]
	return e, true, nil
}

// runReader reads a run file back.
type runReader struct {
	r    *bufio.Reader
	name string
	key  uint64
}

func (r *runReader) next() (entry, bool, error) {
	delta, err := binary.ReadUvarint(r.r)
	if err == io.EOF {
		return entry{}, false, nil
	}
	e := entry{}
	var mv uint64
	if err == nil {
		mv, err = binary.ReadUvarint(r.r)
	}
	for o := range e.n {
		if err == nil {
			e.n[o], err = binary.ReadUvarint(r.r)
		}
	}
	if err != nil {
		return entry{}, false, fmt.Errorf("explore: read %s: %w", r.name, err)
	}
	r.key += delta
	e.key, e.mv = r.key, uint16(mv)
	return e, true, nil
}

// merger merges runs, adding the counts of a pair found in several.
type merger struct{ heads mergeHeap }

type mergeHead struct {
	e   entry
	src source
}

type mergeHeap []mergeHead

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	return h[i].e.key < h[j].e.key || h[i].e.key == h[j].e.key && h[i].e.mv < h[j].e.mv
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(mergeHead)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// push adds a source's first entry to the heap.
func (m *merger) push(s source) error {
	e, ok, err := s.next()
	if ok {
		heap.Push(&m.heads, mergeHead{e, s})
	}
	return err
}

func (m *merger) next() (entry, bool, error) {
	if len(m.heads) == 0 {
		return entry{}, false, nil
	}
	e := m.heads[0].e
	e.n = [outcomes]uint64{}
	for len(m.heads) > 0 && m.heads[0].e.key == e.key && m.heads[0].e.mv == e.mv {
		h := heap.Pop(&m.heads).(mergeHead)
		for o, n := range h.e.n {
			e.n[o] += n
		}
		if err := m.push(h.src); err != nil {
			return entry{}, false, err
		}
	}
	return e, true, nil
}

// indexWriter lays entries out in blocks and writes the directory and
// trailer after them.
type indexWriter struct {
	w     io.Writer
	t     trailer
	off   uint64
	block []byte
	first uint64 // key of the block's first group
	prev  uint64 // key of the block's last group
	group []entry
	dir   []byte
}

func (iw *indexWriter) put(b []byte) error {
	_, err := iw.w.Write(b)
	iw.off += uint64(len(b))
	return err
}

func (iw *indexWriter) start() error {
	return iw.put(binary.LittleEndian.AppendUint32([]byte(magic), version))
}

func (iw *indexWriter) add(e entry) error {
	if len(iw.group) > 0 && iw.group[0].key != e.key {
		if err := iw.flushGroup(); err != nil {
			return err
		}
	}
	iw.group = append(iw.group, e)
	return nil
}

func (iw *indexWriter) flushGroup() error {
	if len(iw.group) == 0 {
		return nil
	}
	key := iw.group[0].key
	if len(iw.block) == 0 {
		iw.first, iw.prev = key, key
	}
	iw.block = binary.AppendUvarint(iw.block, key-iw.prev)
	iw.prev = key
	for i := range iw.group {
		iw.block = appendMove(iw.block, &iw.group[i], i == len(iw.group)-1)
	}
	iw.t.Positions++
	iw.t.Moves += uint64(len(iw.group))
	iw.group = iw.group[:0]
	if len(iw.block) >= blockTarget {
		return iw.flushBlock()
	}
	return nil
}

func (iw *indexWriter) flushBlock() error {
	if len(iw.block) == 0 {
		return nil
	}
	d := iw.dir
	d = binary.LittleEndian.AppendUint64(d, iw.first)
	d = binary.LittleEndian.AppendUint64(d, iw.off)
	d = binary.LittleEndian.AppendUint32(d, crc32.Checksum(iw.block, crcTable))
	iw.dir = binary.LittleEndian.AppendUint32(d, uint32(len(iw.block)))
	iw.t.Blocks++
	err := iw.put(iw.block)
	iw.block = iw.block[:0]
	return err
}

func (iw *indexWriter) finish() (trailer, error) {
	if err := iw.flushGroup(); err != nil {
		return iw.t, err
	}
	if err := iw.flushBlock(); err != nil {
		return iw.t, err
	}
	iw.t.DirOffset = iw.off
	iw.t.DirCRC = crc32.Checksum(iw.dir, crcTable)
	if err := iw.put(iw.dir); err != nil {
		return iw.t, err
	}
	return iw.t, iw.put(iw.t.encode())
}

// progressReader tells Options.Progress how far the build has read.
type progressReader struct {
	r          io.Reader
	read, told int64
	size       int64
	report     func(read, size int64)
}

func (p *progressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.read += int64(n)
	if p.read-p.told >= 1<<20 {
		p.told = p.read
		p.report(p.read, p.size)
	}
	return n, err
}
