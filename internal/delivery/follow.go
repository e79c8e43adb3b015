package delivery

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/cgigate/cgigate/internal/record"
)

// follower reads the record file line by line from a checkpoint, as
// `tail -F` would, and across logrotate's `create`: when the file at path
// is no longer the one it reads (another inode), it drains the old one to
// its end, then starts the new one at offset 0. It hands out complete
// lines only, read by record.Reader: a line still being written (no
// newline yet) waits, since the gateway either completes it or cuts it off
// (to <file>.partial) before the next append.
type follower struct {
	path    string
	maxLine int           // longest line kept; a longer one is skipped and reported
	poll    time.Duration // how often the end of the file is looked at again
	grace   time.Duration // how long a rotated file is still read for late writers
	report  func(*LineError)
	logf    func(string, ...any)
	now     func() time.Time // the clock of grace
	idle    func()           // when set, called before each wait at the end of the file

	f       *os.File
	rd      *record.Reader // reads f; its Offset is the next line's
	name    string         // the file f was opened as (path, or a rotated name)
	ino     uint64
	rotated time.Time
	lastID  string
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
		fw.rotated = fw.now()
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
	rd := record.NewReader(f, off)
	rd.MaxLine = fw.maxLine
	fw.f, fw.rd, fw.name, fw.ino, fw.rotated = f, rd, name, inodeOf(fi), time.Time{}
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
	return Checkpoint{Inode: fw.ino, Offset: fw.offset(), LastID: fw.lastID}
}

// offset is where the next line starts in the file being read.
func (fw *follower) offset() int64 { return fw.rd.Offset() }

// next returns up to max records, waiting until there is at least one.
// Malformed lines are reported and passed over; the records returned and
// the lines skipped are all before fw.checkpoint() afterwards.
func (fw *follower) next(ctx context.Context, max int) ([]Record, error) {
	var recs []Record
	for {
		for len(recs) < max {
			start := fw.rd.Offset()
			rec, err := fw.rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			var le *record.LineError
			if errors.As(err, &le) {
				fw.report(lineError(fw.name, le, fw.maxLine))
				continue
			}
			if err != nil {
				return recs, err
			}
			line := fw.rd.Line()
			r, msg := deliverable(rec, append([]byte(nil), line...))
			if msg != "" {
				fw.report(&LineError{Path: fw.name, Offset: start, Len: int64(len(line)), Msg: msg})
				continue
			}
			fw.lastID = r.ID
			recs = append(recs, r)
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
		if fw.idle != nil {
			fw.idle()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(fw.poll):
		}
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
		if cur, err := fw.f.Stat(); err == nil && cur.Size() < fw.offset() {
			fw.logf("%s: file shrank to %d bytes below offset %d: truncated in place; reading from its start", fw.name, cur.Size(), fw.offset())
			return true, fw.openAt(fw.path, 0)
		}
		return false, nil
	}
	// A gateway process that opened the old file just before the rename
	// may still be appending to it: it is read for a grace period more.
	if fw.rotated.IsZero() {
		fw.rotated = fw.now()
		fw.logf("%s was rotated: the file it was (inode %d) is read for %v more, for gateway processes that opened it before", fw.path, fw.ino, fw.grace)
		return false, nil
	}
	if fw.now().Sub(fw.rotated) < fw.grace {
		return false, nil
	}
	// Everything was read: what lies past the reader's offset is a line
	// that never got its newline.
	if cur, err := fw.f.Stat(); err == nil && cur.Size() > fw.offset() {
		fw.report(&LineError{Path: fw.name, Offset: fw.offset(), Len: cur.Size() - fw.offset(), Msg: "unterminated last line of a rotated file"})
	}
	fw.logf("%s: drained %s to offset %d; following the new file", fw.path, fw.name, fw.offset())
	return true, fw.openAt(fw.path, 0)
}
