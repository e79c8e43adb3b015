package search

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cgigate/cgigate/internal/atomicfile"
)

// Bounds of the small segments: past either, an update merges everything
// into a new main segment. A query opens every live segment, so there are
// few; and the small ones together stay a fraction of the main one, so a
// query's dictionaries stay near the main one's.
const (
	maxSegments  = 5 // the main one and 4 small ones
	smallPercent = 10
)

// readerVersion names how this build reads a document (decodeDoc,
// htmlText, firstLine, maxDocBytes): an index read otherwise is rebuilt
// whole, not updated. Raise it with any change to what a document yields.
const readerVersion = 1

// settings are what decides how the documents are read: an index built
// with others is rebuilt whole.
func (f *Folder) settings() string {
	return fmt.Sprintf("%s reader=%d maxdoc=%d textcharset=%q", indexMagic, readerVersion, maxDocBytes, f.TextCharset)
}

// fileStat is a document as the walk found it: its path, size and
// modification time (ns), or why it is left out (warn).
type fileStat struct {
	rel         string
	size, mtime int64
	warn        string
}

// statEntry is a document of the stat table: a fileStat as it was when
// read, and its key.
type statEntry struct {
	rel         string
	size, mtime int64 // size -1: read again by the next update
	key         uint64
}

// racyWindow: a document modified this close to the start of a build (or
// after it) may change again within the same timestamp, unseen; the next
// update reads it again rather than trust its size and time.
const racyWindow = 2 * time.Second

func (c fileStat) entry(key uint64, start time.Time) statEntry {
	e := statEntry{rel: c.rel, size: c.size, mtime: c.mtime, key: key}
	if c.mtime >= start.Add(-racyWindow).UnixNano() {
		e.size = -1
	}
	return e
}

// Build writes the folder's index, or updates it: with an index built
// with the same settings (Folder.settings), the folder is walked and each
// document stat'ed; only those added or changed (path, size or
// modification time) are read, into a small new segment that lists the
// earlier segments' documents it replaces or removes. When the small
// segments would pass maxSegments or smallPercent of the main one, every
// document is read into a new main segment (a merge), as Rebuild does.
// Searches meanwhile read the old index, whole: the new one becomes live
// at once, when its manifest is renamed over the old (manifest.go).
//
// An update's memory is the stat table (a path and 24 bytes a document)
// and what writing the segment of the changed documents takes; a full
// build's, the stat table and what writeSegment takes.
//
// dir may be a symbolic link: it is resolved once, as search does.
func (f *Folder) Build() (Stats, error) { return f.build(false) }

// Rebuild writes the folder's index from every document, whatever index
// there was.
func (f *Folder) Rebuild() (Stats, error) { return f.build(true) }

func (f *Folder) build(full bool) (Stats, error) {
	path := filepath.Join(f.Dir, IndexName)
	st := Stats{Path: path}
	fail := func(err error) (Stats, error) { return st, &indexError{Op: "build", Path: path, Err: err} }
	dir, err := filepath.EvalSymlinks(f.Dir)
	if err != nil {
		return fail(err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	old, err := readManifest(filepath.Join(dir, IndexName))
	if err != nil {
		old = nil // no index, or one that cannot be used: rebuilt
	}
	removeUnnamed(dir, old.names())
	start := time.Now()
	cur, err := statDocs(dir)
	if err != nil {
		return fail(err)
	}
	next := &manifest{settings: f.settings()}
	var prev []statEntry
	if !full && old != nil && old.settings == next.settings {
		prev, err = readStat(filepath.Join(dir, old.stat))
		full = err != nil
	} else {
		full = true
	}
	if old != nil {
		next.gen = old.gen + 1
	}
	var table []statEntry
	if !full {
		u := join(prev, cur)
		small := u.reads
		for _, s := range old.segs[1:] {
			small += s.docs
		}
		switch {
		case u.reads == 0 && len(u.deleted) == 0:
			// Nothing changed: the index stands.
			for _, a := range u.acts {
				if a.c.warn != "" {
					st.Warnings = append(st.Warnings, a.c.warn)
				}
			}
			st.Live, st.Segments = len(prev), len(old.segs)
			return st, nil
		case u.exhausted, len(old.segs) >= maxSegments, small*100 > old.segs[0].docs*smallPercent:
			full = true
		default:
			table, err = f.update(dir, next, start, u, &st)
			if err != nil {
				return fail(err)
			}
			if st.Docs == 0 && len(u.deleted) == 0 {
				// Only documents that still cannot be read: the index stands.
				os.Remove(st.Segment)
				st.Segment, st.Live, st.Segments = "", len(prev), len(old.segs)
				return st, nil
			}
			next.segs = append(append(next.segs, old.segs...), segRef{fileName(next.gen, "seg"), st.Docs})
		}
	}
	if full {
		st.Full = true
		table, err = f.rebuild(dir, next, start, cur, &st)
		if err != nil {
			return fail(err)
		}
		next.segs = []segRef{{fileName(next.gen, "seg"), st.Docs}}
	}
	next.stat = fileName(next.gen, "stat")
	if err := writeStat(filepath.Join(dir, next.stat), table); err != nil {
		return fail(err)
	}
	if err := atomicfile.SyncDir(dir); err != nil { // the new files' names, before the manifest names them
		return fail(err)
	}
	if err := commitManifest(dir, next); err != nil {
		return fail(err)
	}
	removeUnnamed(dir, next.names())
	st.Live, st.Segments = len(table), len(next.segs)
	return st, nil
}

// readEntry reads a document the walk found, or says why it is left out.
func (f *Folder) readEntry(dir string, c fileStat, st *Stats) (title, text, warn string) {
	if c.warn != "" {
		return "", "", c.warn
	}
	st.Read++
	return f.readWalked(dir, c.rel)
}

// rebuild writes every document of cur into a new main segment, and
// gives the stat table of the documents it holds.
func (f *Folder) rebuild(dir string, m *manifest, start time.Time, cur []fileStat, st *Stats) ([]statEntry, error) {
	var table []statEntry
	var warns []string
	seg, err := writeSegment(dir, fileName(m.gen, "seg"), true, nil, func(fn func(segDoc) error) error {
		for _, c := range cur {
			title, text, warn := f.readEntry(dir, c, st)
			if warn != "" {
				warns = append(warns, warn)
				continue
			}
			key := mainKey(len(table))
			table = append(table, c.entry(key, start))
			if err := fn(segDoc{c.rel, title, text, key}); err != nil {
				return err
			}
		}
		return nil
	})
	st.Segment, st.Docs, st.Terms, st.Bytes, st.Warnings = seg.Segment, seg.Docs, seg.Terms, seg.Bytes, warns
	return table, err
}

// update writes the documents u reads into a new small segment, and
// gives the new stat table.
func (f *Folder) update(dir string, m *manifest, start time.Time, u *joined, st *Stats) ([]statEntry, error) {
	var table []statEntry
	replaced := 0
	seg, err := writeSegment(dir, fileName(m.gen, "seg"), false, u.deleted, func(fn func(segDoc) error) error {
		for _, a := range u.acts {
			if a.c.warn != "" {
				st.Warnings = append(st.Warnings, a.c.warn)
				continue
			}
			if !a.read {
				table = append(table, a.e)
				continue
			}
			title, text, warn := f.readEntry(dir, a.c, st)
			if warn != "" {
				st.Warnings = append(st.Warnings, warn)
				continue
			}
			if a.replaces {
				replaced++
			}
			table = append(table, a.c.entry(a.e.key, start))
			if err := fn(segDoc{a.c.rel, title, text, a.e.key}); err != nil {
				return err
			}
		}
		return nil
	})
	st.Segment, st.Docs, st.Terms, st.Bytes = seg.Segment, seg.Docs, seg.Terms, seg.Bytes
	st.Removed = len(u.deleted) - replaced
	return table, err
}

// action is what an update does with a document the walk found: keep
// its entry, read it (c) under key e.key, or leave it out (c.warn).
type action struct {
	c        fileStat
	e        statEntry
	read     bool
	replaces bool // an earlier segment's document of the same path
}

// joined is the plan of an update: the walk joined with the stat table.
type joined struct {
	acts      []action
	deleted   []uint64 // the keys of the documents replaced or removed
	reads     int
	exhausted bool // no keys left between two neighbours: merge
}

// join walks the stat table prev and the folder as walked now, cur, both
// in walk order (walkCompare), side by side. A document of both whose
// size and time are unchanged is kept; one whose are not is read again
// under its key, its old key deleted; one only in prev is deleted; the
// documents only in cur are read, under keys spread between their
// neighbours' (prev's keys, dead or alive, so that no new key is an old
// one).
func join(prev []statEntry, cur []fileStat) *joined {
	u := &joined{}
	lo := uint64(0)
	var pending []int // u.acts of added documents, waiting for the next key
	place := func(hi uint64) {
		n := uint64(len(pending))
		if n == 0 {
			return
		}
		step := (hi - lo) / (n + 1)
		if step == 0 {
			u.exhausted = true
			step = 1 // any keys: the plan is dropped for a merge
		}
		for k, i := range pending {
			u.acts[i].e.key = lo + step*uint64(k+1)
		}
		pending = pending[:0]
	}
	i := 0
	for _, c := range cur {
		if c.warn != "" {
			u.acts = append(u.acts, action{c: c})
			continue
		}
		for i < len(prev) && walkCompare(prev[i].rel, c.rel) < 0 { // removed
			place(prev[i].key)
			u.deleted = append(u.deleted, prev[i].key)
			lo = prev[i].key
			i++
		}
		if i < len(prev) && prev[i].rel == c.rel {
			p := prev[i]
			place(p.key)
			lo = p.key
			i++
			if p.size >= 0 && p.size == c.size && p.mtime == c.mtime {
				u.acts = append(u.acts, action{c: c, e: p})
				continue
			}
			u.deleted = append(u.deleted, p.key)
			u.acts = append(u.acts, action{c: c, e: statEntry{key: p.key}, read: true, replaces: true})
			u.reads++
			continue
		}
		pending = append(pending, len(u.acts))
		u.acts = append(u.acts, action{c: c, read: true})
		u.reads++
	}
	for ; i < len(prev); i++ {
		place(prev[i].key)
		u.deleted = append(u.deleted, prev[i].key)
		lo = prev[i].key
	}
	place(math.MaxUint64)
	return u
}

// walkCompare orders paths as walk gives them: folder by folder, the
// names of each in natural order.
func walkCompare(a, b string) int {
	for {
		x, restA, moreA := strings.Cut(a, "/")
		y, restB, moreB := strings.Cut(b, "/")
		if c := naturalCompare(x, y); c != 0 {
			return c
		}
		switch {
		case !moreA && !moreB:
			return 0
		case !moreA:
			return -1
		case !moreB:
			return 1
		}
		a, b = restA, restB
	}
}

// statDocs walks dir as eachDoc does and stats each document (lstat:
// walk follows no link).
func statDocs(dir string) ([]fileStat, error) {
	var cur []fileStat
	err := walk(dir, "", func(r string, e fs.DirEntry, err error) error {
		c := fileStat{rel: r}
		var fi fs.FileInfo
		if err == nil {
			fi, err = e.Info()
		}
		if c.warn = skipWarning(r, err); c.warn == "" {
			c.size, c.mtime = fi.Size(), fi.ModTime().UnixNano()
		}
		cur = append(cur, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", dir, err)
	}
	return cur, nil
}

// The stat table: magic "CGIGST\x00\x03", the number of entries, then each
// entry's path (a uvarint length and its bytes), size+1, modification
// time in ns as a varint and key, as uvarints; then the CRC-32C of all
// before it, uint32 little-endian. Only the builder reads it.
const statMagic = "CGIGST\x00\x03"

func writeStat(path string, table []statEntry) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 256<<10)
	crc := uint32(0)
	var b []byte
	put := func(b []byte) {
		crc = crc32Update(crc, b)
		w.Write(b)
	}
	put(binary.AppendUvarint([]byte(statMagic), uint64(len(table))))
	for _, e := range table {
		b = appendString(b[:0], e.rel)
		b = binary.AppendUvarint(b, uint64(e.size+1))
		b = binary.AppendVarint(b, e.mtime)
		b = binary.AppendUvarint(b, e.key)
		put(b)
	}
	w.Write(binary.LittleEndian.AppendUint32(nil, crc))
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

var errBadStat = errors.New("stat table")

// readStat reads the stat table at path; any fault is errBadStat (the
// index is then rebuilt).
func readStat(path string) ([]statEntry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < len(statMagic)+4 || string(b[:len(statMagic)]) != statMagic {
		return nil, errBadStat
	}
	body := b[:len(b)-4]
	if checksum(body) != binary.LittleEndian.Uint32(b[len(body):]) {
		return nil, errBadStat
	}
	r := reader{b: body[len(statMagic):]}
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		return nil, errBadStat
	}
	table := make([]statEntry, 0, n)
	for range n {
		e := statEntry{rel: r.string(), size: int64(r.uvarint()) - 1}
		v, k := binary.Varint(r.b)
		if k <= 0 {
			return nil, errBadStat
		}
		r.b = r.b[k:]
		e.mtime, e.key = v, r.uvarint()
		if m := len(table); r.err != nil || m > 0 && (walkCompare(table[m-1].rel, e.rel) >= 0 || table[m-1].key >= e.key) {
			return nil, errBadStat
		}
		table = append(table, e)
	}
	if r.err != nil || len(r.b) != 0 {
		return nil, errBadStat
	}
	return table, nil
}
