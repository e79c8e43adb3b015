package search

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"slices"
)

// The sections after the postings (the dictionary, the term table, the
// dictionary index, the grams and their lists) grow with the number of
// terms, and a Japanese sentence, unsegmented, is a term of its own: held
// in memory they would grow with the text. The builder writes them as the
// merge of the postings produces the terms, to temporary files beside the
// index, and copies each into the segment in its place once the postings
// are written; the grams are built from runs as the postings are (gram.go).

// tempFiles are a build's temporary files, beside the index (on its file
// system, not a /tmp that may be small or in memory), all removed when
// the build ends, whatever the path.
type tempFiles struct {
	dir   string
	files []*os.File
}

func (t *tempFiles) create() (*os.File, error) {
	f, err := os.CreateTemp(t.dir, IndexName+"-*.tmp")
	if err != nil {
		return nil, err
	}
	t.files = append(t.files, f)
	return f, nil
}

// remove closes and removes f, one of t's files.
func (t *tempFiles) remove(f *os.File) {
	f.Close()
	os.Remove(f.Name())
	t.files = slices.DeleteFunc(t.files, func(g *os.File) bool { return g == f })
}

func (t *tempFiles) removeAll() {
	for _, f := range t.files {
		f.Close()
		os.Remove(f.Name())
	}
	t.files = nil
}

// spill is a section written to a temporary file before its place in the
// segment is reached: its length and CRC are counted as it is written.
type spill struct {
	f   *os.File
	bw  *bufio.Writer
	len uint64
	crc uint32
}

func newSpill(tmp *tempFiles) (*spill, error) {
	f, err := tmp.create()
	if err != nil {
		return nil, err
	}
	return &spill{f: f, bw: bufio.NewWriterSize(f, 64<<10)}, nil
}

func (s *spill) write(b []byte) error {
	s.crc = crc32Update(s.crc, b)
	s.len += uint64(len(b))
	_, err := s.bw.Write(b)
	return err
}

// copyTo appends the section to the segment and says where it is. The
// segment's buffered writer reads the file itself (into its buffer, or
// by the kernel's copy when that is empty), not through a buffer of the
// caller's that it would copy again.
func (s *spill) copyTo(w *offsetWriter) (section, error) {
	sec := section{off: uint64(w.off), len: s.len, crc: s.crc}
	if err := s.bw.Flush(); err != nil {
		return sec, err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return sec, err
	}
	n, err := w.bw.ReadFrom(io.LimitReader(s.f, int64(s.len)))
	w.off += n
	if err == nil && uint64(n) < s.len {
		err = errors.New("a temporary file of the build is cut short")
	}
	return sec, err
}

// termTables are the sections that follow the terms, written as the merge
// of the postings gives each term: its bytes in the dictionary, its entry
// in the term table and the dictionary index, its grams. What they hold in
// memory is bounded whatever the number of terms: the write buffers and
// gramRunPairs pairs.
type termTables struct {
	dict, table, dictIdx *spill
	grams                gramRuns
	terms                int
	b                    []byte
}

func newTermTables(tmp *tempFiles) (*termTables, error) {
	t := &termTables{grams: gramRuns{tmp: tmp}}
	for _, s := range []**spill{&t.dict, &t.table, &t.dictIdx} {
		var err error
		if *s, err = newSpill(tmp); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// add adds the next term, in byte order, whose posting list, list, is at
// off in the postings section.
func (t *termTables) add(term string, off uint64, list []byte) error {
	le := binary.LittleEndian
	if err := t.dictIdx.write(le.AppendUint64(t.b[:0], t.dict.len)); err != nil {
		return err
	}
	t.b = append(append(t.b[:0], term...), '\n')
	if err := t.dict.write(t.b); err != nil {
		return err
	}
	t.b = le.AppendUint64(t.b[:0], off)
	t.b = le.AppendUint32(t.b, uint32(len(list)))
	t.b = le.AppendUint32(t.b, termChecksum(term, list))
	if err := t.table.write(t.b); err != nil {
		return err
	}
	t.terms++
	return t.grams.add(term, t.terms-1)
}
