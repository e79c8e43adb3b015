package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/cgigate/cgigate/internal/atomicfile"
)

// The manifest, DIR/.cgigate-index, is the one file that names the live
// index: the segments a query reads, main first, and the stat table the
// next update starts from. A build writes every new file first, then a
// new manifest to a temporary name, synced, renamed over the old one (an
// atomic replacement within a file system), and only then removes the
// files the old manifest named and the new one does not. A reader opens
// the manifest once, then only the segments it names; if one is gone (an
// update replaced the manifest in between and removed it) it starts again
// from the new manifest.
//
// Layout (integers as uvarints, strings a uvarint length and the bytes):
//
//	magic "CGIGMF\x00\x03", generation, settings (how the documents were
//	read: Folder.settings), the stat table's file name, the number of
//	segments, then each segment's file name and document count; then the
//	CRC-32C, uint32 little-endian, of all before it.
const (
	manifestMagic = "CGIGMF\x00\x03"
	maxManifest   = 64 << 10 // far more than maxSegments names
)

// manifest is a decoded manifest.
type manifest struct {
	gen      uint64
	settings string
	stat     string
	segs     []segRef
}

// segRef is a segment as the manifest names it.
type segRef struct {
	name string
	docs int
}

// fileName is the name of generation gen's file of kind ("seg", "stat").
func fileName(gen uint64, kind string) string {
	return IndexName + "." + strconv.FormatUint(gen, 10) + "." + kind
}

// indexFileName tells whether name is one fileName gives: a manifest
// names nothing else, so a crafted one cannot send a reader off the
// folder.
func indexFileName(name, kind string) bool {
	gen, ok := strings.CutPrefix(name, IndexName+".")
	if !ok {
		return false
	}
	gen, ok = strings.CutSuffix(gen, "."+kind)
	_, err := strconv.ParseUint(gen, 10, 64)
	return ok && err == nil && !strings.HasPrefix(gen, "+")
}

func (m *manifest) encode() []byte {
	b := append([]byte(nil), manifestMagic...)
	b = binary.AppendUvarint(b, m.gen)
	b = appendString(b, m.settings)
	b = appendString(b, m.stat)
	b = binary.AppendUvarint(b, uint64(len(m.segs)))
	for _, s := range m.segs {
		b = appendString(b, s.name)
		b = binary.AppendUvarint(b, uint64(s.docs))
	}
	return binary.LittleEndian.AppendUint32(b, checksum(b))
}

func decodeManifest(b []byte) (*manifest, error) {
	if len(b) < len(manifestMagic)+4 || string(b[:len(manifestMagic)]) != manifestMagic {
		return nil, corrupt("not a cgigate index manifest of this version")
	}
	body := b[:len(b)-4]
	if checksum(body) != binary.LittleEndian.Uint32(b[len(body):]) {
		return nil, corrupt("manifest checksum")
	}
	r := reader{b: body[len(manifestMagic):]}
	m := &manifest{gen: r.uvarint(), settings: r.string(), stat: r.string()}
	n := r.uvarint()
	if n == 0 || n > maxSegments {
		return nil, corrupt("manifest names %d segments", n)
	}
	for range n {
		s := segRef{name: r.string()}
		docs := r.uvarint()
		if r.err != nil || !indexFileName(s.name, "seg") || docs > 1<<32 {
			return nil, corrupt("manifest segment %q", s.name)
		}
		s.docs = int(docs)
		m.segs = append(m.segs, s)
	}
	if r.err != nil || len(r.b) != 0 || !indexFileName(m.stat, "stat") {
		return nil, corrupt("manifest")
	}
	return m, nil
}

// readManifest reads and decodes the manifest at path. An error wrapping
// fs.ErrNotExist means there is no index.
func readManifest(path string) (*manifest, error) {
	f, err := openFile(path)
	if errors.Is(err, syscall.ENOTDIR) { // the folder is a file: no index in it
		err = &os.PathError{Op: "open", Path: path, Err: os.ErrNotExist}
	}
	if err != nil {
		return nil, err
	}
	defer f.close()
	// No stat: a manifest is a few hundred bytes, one read into a buffer
	// that grows only for a larger one.
	b := make([]byte, 0, 512)
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, cap(b))
		}
		n, err := f.read(b[len(b):min(cap(b), maxManifest)])
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		b = b[:len(b)+n]
		if len(b) >= maxManifest {
			return nil, corrupt("manifest larger than %d bytes", maxManifest)
		}
	}
	return decodeManifest(b)
}

// names are the files m makes live.
func (m *manifest) names() map[string]bool {
	live := map[string]bool{}
	if m != nil {
		live[m.stat] = true
		for _, s := range m.segs {
			live[s.name] = true
		}
	}
	return live
}

// commitManifest makes m the live index of dir: written to a temporary
// file, synced, renamed over the manifest, the folder synced.
func commitManifest(dir string, m *manifest) error {
	return atomicfile.Write(filepath.Join(dir, IndexName), IndexName+"-*.tmp", m.encode(), 0o644) // read by the CGI's user
}

// removeUnnamed removes the index files of dir that live does not name:
// the previous index's, once the new manifest is in place, and a killed
// build's temporaries, segments and stat tables, which no manifest names.
// Only the builder calls it, holding the folder's lock, so nothing it
// removes is being written.
func removeUnnamed(dir string, live map[string]bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		stale := strings.HasPrefix(n, IndexName+"-") || strings.HasPrefix(n, IndexName+".") && !live[n]
		if stale && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, n))
		}
	}
}

// lockDir holds an exclusive lock on dir until unlock: two builds of one
// folder run one after the other, and neither takes the other's files for
// litter. The kernel drops the lock of a killed build.
func lockDir(dir string) (unlock func(), err error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return func() { d.Close() }, nil
}
