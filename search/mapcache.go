package search

import (
	"path/filepath"
	"sync"
)

// A FastCGI process (cgigate -fcgi) answers every search with one
// process, and a segment mapped afresh for each would fault in again
// every page the query reads, pages the page cache already holds: on
// these machines a fault costs tens of microseconds, more than the rest
// of a small query. So the mappings are kept while their file is the one
// at its path, and shared by the searches that run at once. Builds never
// change a segment in place (an update writes new files and a new
// manifest), so the same file, size and modification time are the same
// bytes; anything else is mapped anew, the old mapping dropped once the
// searches using it are done. A CGI process answers one search and
// exits: it merely skips the munmap.

// mapping is a segment file's mapping and who uses it.
type mapping struct {
	id    fileID
	data  []byte
	refs  int  // open indexes using data
	stale bool // no longer kept: unmapped when refs falls to 0
}

var mappings struct {
	sync.Mutex
	byPath map[string]*mapping // made at the first search: nothing at start-up
	made   int                 // mappings made, for the tests
	undone int                 // and unmapped
}

// acquireMapping returns the mapping of f, opened at path, whose
// identity (and whole size) is id, shared with the other searches of the
// same file, the function that gives it back, and whether it was mapped
// afresh (none of its pages yet in this process's page tables).
func acquireMapping(path string, f segFile, id fileID) (data []byte, release func(), made bool, err error) {
	mappings.Lock()
	defer mappings.Unlock()
	m := mappings.byPath[path]
	if m != nil && !m.id.same(id) {
		m.drop(path)
		m = nil
	}
	if m == nil {
		data, err := f.mapFile(int(id.fileSize()))
		if err != nil {
			return nil, nil, false, err
		}
		made = true
		mappings.made++
		m = &mapping{id: id, data: data}
		if mappings.byPath == nil {
			mappings.byPath = map[string]*mapping{}
		}
		mappings.byPath[path] = m
	}
	m.refs++
	return m.data, func() {
		mappings.Lock()
		defer mappings.Unlock()
		if m.refs--; m.refs == 0 && m.stale {
			m.unmap()
		}
	}, made, nil
}

// drop stops keeping m, the mapping of path (each is kept under the one
// path it was mapped at); the caller holds the lock.
func (m *mapping) drop(path string) {
	delete(mappings.byPath, path)
	m.stale = true
	if m.refs == 0 {
		m.unmap()
	}
}

// unmap ends m's mapping; the caller holds the lock.
func (m *mapping) unmap() {
	unmapFile(m.data)
	m.data = nil
	mappings.undone++
}

// dropUnnamed stops keeping the mappings of segments in dir that live
// (the segments a manifest just read names) does not hold: an update
// replaced them.
func dropUnnamed(dir string, live map[string]bool) {
	mappings.Lock()
	defer mappings.Unlock()
	for p, m := range mappings.byPath {
		if filepath.Dir(p) == dir && !live[filepath.Base(p)] {
			m.drop(p)
		}
	}
}
