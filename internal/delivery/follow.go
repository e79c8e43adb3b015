package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// follower reads the record file line by line from a checkpoint, as
// `tail -F` would, and across logrotate's `create`: when the file at path
// is no longer the one it reads (another inode), it drains the old one to
// its end, then starts the new one at offset 0. It hands out complete
// lines only: a line still being written (no newline yet) waits, since the
// gateway either completes it or cuts it off (to <file>.partial) before
// the next append.
type follower struct {
	path    string
	maxLine int           // longest line kept; a longer one is skipped and reported
	poll    time.Duration // how often the end of the file is looked at again
	grace   time.Duration // how long a rotated file is still read for late writers
	report  func(*LineError)
	logf    func(string, ...any)

	f        *os.File
	name     string // the file f was opened as (path, or a rotated name)
	ino      uint64
	off      int64  // file offset of buf[0]
	buf      []byte // read and not yet handed out
	skipping bool   // inside a line longer than maxLine, dropping up to its newline
	skipFrom int64  // where that line started
	rotated  time.Time
	lastID   string
}

// errNoFile is a record file that does not exist yet: the gateway creates
// it with its first submission.
var errNoFile = errors.New("record file does not exist yet")

func inodeOf(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}

// open positions the follower at c. The file c names is the one at path
// if the inodes agree; otherwise logrotate has renamed it since, and it is
// looked for beside path under another name (path.1, path-20250101, ...)
// and drained first. If it is gone (compressed, deleted), what it still
// held cannot be read: that is reported, and the current file is read from
// its start.
func (fw *follower) open(c Checkpoint) error {
	fw.lastID = c.LastID
	fi, err := os.Stat(fw.path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) && c.Inode == 0 {
			return errNoFile
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if c.Inode == 0 || (fi != nil && inodeOf(fi) == c.Inode) {
		if fi == nil {
			return errNoFile
		}
		return fw.openAt(fw.path, c.Offset)
	}
	if name := findInode(fw.path, c.Inode); name != "" {
		if err := fw.openAt(name, c.Offset); err != nil {
			return err
		}
		fw.rotated = time.Now()
		return nil
	}
	fw.logf("%s: the file of the checkpoint (inode %d, offset %d) is gone; reading the current file from its start", fw.path, c.Inode, c.Offset)
	if fi == nil {
		return errNoFile
	}
	return fw.openAt(fw.path, 0)
}

// findInode is the name of the file beside path whose inode is ino, or "".
func findInode(path string, ino uint64) string {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), base) || e.Name() == base || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && inodeOf(fi) == ino {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}

func (fw *follower) openAt(name string, off int64) error {
	f, err := os.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errNoFile
		}
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if off > fi.Size() {
		// Truncated in place (copytruncate): the lines after the
		// checkpoint are the new ones, from the start.
		fw.logf("%s: file is %d bytes, shorter than the checkpoint's offset %d: truncated in place; reading from its start", name, fi.Size(), off)
		off = 0
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	fw.close()
	fw.f, fw.name, fw.ino, fw.off, fw.buf, fw.skipping, fw.rotated = f, name, inodeOf(fi), off, fw.buf[:0], false, time.Time{}
	return nil
}

func (fw *follower) close() {
	if fw.f != nil {
		fw.f.Close()
		fw.f = nil
	}
}

// checkpoint is the position after everything handed out so far.
func (fw *follower) checkpoint() Checkpoint {
	return Checkpoint{Inode: fw.ino, Offset: fw.off, LastID: fw.lastID}
}

// next returns up to max records, waiting until there is at least one.
// Malformed lines are reported and passed over; the records returned and
// the lines skipped are all before fw.checkpoint() afterwards.
func (fw *follower) next(ctx context.Context, max int) ([]Record, error) {
	var recs []Record
	chunk := make([]byte, 64<<10)
	for {
		for len(recs) < max {
			line, ok := fw.line()
			if !ok {
				break
			}
			start := fw.off
			fw.off += int64(len(line)) + 1
			fw.buf = fw.buf[len(line)+1:]
			r, msg := parseRecord(bytes.Clone(line))
			if msg != "" {
				fw.report(&LineError{Path: fw.name, Offset: start, Len: int64(len(line)), Msg: msg})
				continue
			}
			fw.lastID = r.ID
			recs = append(recs, r)
		}
		if len(recs) == max {
			return recs, nil
		}
		n, err := fw.f.Read(chunk)
		if n > 0 {
			fw.buf = append(fw.buf, chunk[:n]...)
			continue
		}
		if err != nil && err != io.EOF {
			return recs, err
		}
		if len(recs) > 0 {
			return recs, nil
		}
		switched, err := fw.atEnd()
		if err != nil {
			return nil, err
		}
		if switched {
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(fw.poll):
		}
	}
}

// line is the next complete line in buf, without its newline. A line
// longer than maxLine is dropped as it streams in, reported once whole.
func (fw *follower) line() ([]byte, bool) {
	for {
		i := bytes.IndexByte(fw.buf, '\n')
		if fw.skipping {
			if i < 0 {
				fw.off += int64(len(fw.buf))
				fw.buf = fw.buf[:0]
				return nil, false
			}
			fw.off += int64(i) + 1
			fw.buf = fw.buf[i+1:]
			fw.skipping = false
			fw.report(&LineError{Path: fw.name, Offset: fw.skipFrom, Len: fw.off - 1 - fw.skipFrom, Msg: fmt.Sprintf("longer than %d bytes", fw.maxLine)})
			continue
		}
		if i >= 0 && i <= fw.maxLine {
			return fw.buf[:i], true
		}
		if i > fw.maxLine || len(fw.buf) > fw.maxLine {
			fw.skipping, fw.skipFrom = true, fw.off
			continue
		}
		// Keep the incomplete line at the front of a buffer that does
		// not grow past it.
		if cap(fw.buf) > 2*len(fw.buf)+(128<<10) {
			fw.buf = append([]byte(nil), fw.buf...)
		}
		return nil, false
	}
}

// atEnd is called at the end of the file read: it switches to the new
// file once logrotate has put one at path and the old one has been
// drained, and reports whether it switched.
func (fw *follower) atEnd() (bool, error) {
	fi, err := os.Stat(fw.path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil // renamed, and the new one not yet created
	}
	if err != nil {
		return false, err
	}
	if inodeOf(fi) == fw.ino {
		if cur, err := fw.f.Stat(); err == nil && cur.Size() < fw.off {
			fw.logf("%s: file shrank to %d bytes below offset %d: truncated in place; reading from its start", fw.name, cur.Size(), fw.off)
			return true, fw.openAt(fw.path, 0)
		}
		return false, nil
	}
	// A gateway process that opened the old file just before the rename
	// may still be appending to it: it is read for a grace period more.
	if fw.rotated.IsZero() {
		fw.rotated = time.Now()
		return false, nil
	}
	if time.Since(fw.rotated) < fw.grace {
		return false, nil
	}
	if len(fw.buf) > 0 || fw.skipping {
		fw.report(&LineError{Path: fw.name, Offset: fw.off, Len: int64(len(fw.buf)), Msg: "unterminated last line of a rotated file"})
	}
	fw.logf("%s: drained %s to offset %d; following the new file", fw.path, fw.name, fw.off)
	return true, fw.openAt(fw.path, 0)
}
