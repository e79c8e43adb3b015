package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"reflect"
	"strings"
	"syscall"
	"time"
)

// record is one line of the CGIGATE_RECORD file: the fields and files
// exactly as in the JSON rendering, and the request's warnings.
type record struct {
	Time       string      `json:"time"` // RFC 3339, UTC, nanoseconds
	RemoteAddr string      `json:"remote_addr"`
	Charset    string      `json:"charset"`
	Fields     []fieldJSON `json:"fields"`
	Files      []fileJSON  `json:"files"`
	Warnings   []string    `json:"warnings,omitempty"`
	Form       string      `json:"form"` // the declared form it was sent to, "" for none
}

// recordFile is what appendRecord needs of an *os.File; a test may hand it
// a file that fails half-way.
type recordFile interface {
	io.Writer
	Stat() (os.FileInfo, error)
	Truncate(size int64) error
	Sync() error
}

// NotRegularError is a record path that names something other than a
// regular file: appending to a FIFO, a device or a socket would block,
// vanish or fail, so the gateway refuses it with 503.
type NotRegularError struct {
	Path string
	Type fs.FileMode // the file's type bits (fs.FileMode.Type)
}

func (e *NotRegularError) Error() string {
	kind := "special file"
	switch {
	case e.Type&fs.ModeDir != 0:
		kind = "directory"
	case e.Type&fs.ModeNamedPipe != 0:
		kind = "named pipe (FIFO)"
	case e.Type&fs.ModeCharDevice != 0:
		kind = "character device"
	case e.Type&fs.ModeDevice != 0:
		kind = "block device"
	case e.Type&fs.ModeSocket != 0:
		kind = "socket"
	}
	return fmt.Sprintf("record file %s is a %s, not a regular file", e.Path, kind)
}

// partialSuffix names the side file that keeps the bytes of a record line
// cut off by a repair (see repairTail).
const partialSuffix = ".partial"

// appendLine appends one record to the file at path, so that concurrent
// CGI processes neither interleave nor lose a line: under an exclusive
// flock(2), the whole line in one write(2) to an O_APPEND file, then
// fsync(2). A writer killed mid-write leaves part of a line; the next
// writer, under the lock, cuts it off first (repairTail), so its own line
// starts a line. If anything fails, the file is truncated back to its size
// before the write, so no partial line stays, and the error is returned
// (the gateway answers 503).
func appendLine(path string, rec record) error {
	var line bytes.Buffer
	if err := encodeRecord(&line, rec); err != nil {
		return err
	}
	f, err := openRegular(path, os.O_RDWR|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := flock(f); err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	if err := repairTail(f, path); err != nil {
		return err
	}
	// Closing the file releases the lock, after the data is synced.
	return writeLine(f, line.Bytes())
}

// openRegular opens path with flag, refusing anything but a regular file:
// without O_NONBLOCK, opening a FIFO for writing blocks until a reader
// comes, which for a CGI process is until Apache's Timeout kills it. Linux
// opens a FIFO O_RDWR at once; the fstat then refuses it.
func openRegular(path string, flag int) (*os.File, error) {
	fd, err := syscall.Open(path, flag|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0o640)
	if err != nil {
		if errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.ENXIO) {
			// A directory, or a socket or a FIFO opened write-only:
			// say what it is rather than the errno.
			if fi, serr := os.Stat(path); serr == nil && !fi.Mode().IsRegular() {
				return nil, &NotRegularError{path, fi.Mode().Type()}
			}
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		syscall.Close(fd)
		return nil, &NotRegularError{path, statType(st.Mode)}
	}
	// Regular files ignore O_NONBLOCK, but the writes that follow are
	// meant to block: clear it rather than rely on that.
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "fcntl", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// statType is the fs.FileMode type of a stat(2) st_mode.
func statType(mode uint32) fs.FileMode {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// repairTail cuts a partial last line off f, the record file at path, as
// a writer killed in the middle of its write(2) leaves it: otherwise the
// next line would be appended onto it and be unreadable with it. The cut
// bytes are appended to path+".partial", each cut ending in a newline;
// when that fails they are dropped with a warning in the error log that
// says how many there were. The caller holds the lock. Reading back to
// the last newline costs what the partial line is long, at most one
// record line.
func repairTail(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	cut, err := lineEnd(f, size)
	if err != nil || cut == size {
		return err
	}
	if err := keepPartial(path+partialSuffix, io.NewSectionReader(f, cut, size-cut)); err != nil {
		log.Printf("cgigate: record: %s ended in %d bytes of a partial line, which are dropped: %v", path, size-cut, err)
	}
	if err := f.Truncate(cut); err != nil {
		return fmt.Errorf("cut the partial line off %s: %w", path, err)
	}
	return nil
}

// lineEnd is the offset just after the last newline in the first size
// bytes of r: size when they end in one or are empty, 0 when they hold
// none.
func lineEnd(r io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, min(size, 32<<10))
	for end := size; end > 0; {
		start := max(end-int64(len(buf)), 0)
		b := buf[:end-start]
		if _, err := r.ReadAt(b, start); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// keepPartial appends the bytes of a cut partial line to the side file,
// and a newline, and syncs them before the record file loses them.
func keepPartial(side string, partial io.Reader) error {
	f, err := openRegular(side, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, partial)
	if err == nil {
		_, err = f.Write([]byte{'\n'})
	}
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

// writeLine writes line at the end of f with one Write and syncs it; on
// any failure it truncates f back to its previous size.
func writeLine(f recordFile, line []byte) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	n, err := f.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		if fi.Mode().IsRegular() {
			if terr := f.Truncate(size); terr != nil {
				err = errors.Join(err, fmt.Errorf("truncate back to %d bytes: %w", size, terr))
			}
		}
		return err
	}
	return nil
}

// encodeRecord writes rec to buf as one line of JSON and a newline, the
// keys from record's json tags in their order. The record file is not
// HTML, so '<', '>' and '&' are written as themselves: escaped as \u003c,
// a form of '<'s would make a line six times its size. Lists are encoded
// one element at a time, so besides the line in buf only one element's
// encoding is held at once: json.Marshal of the whole record would hold
// the line twice over, and more while its buffer grows.
func encodeRecord(buf *bytes.Buffer, rec record) error {
	buf.Grow(recordSize(rec))
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	// put encodes v without the newline json.Encoder ends each value with.
	put := func(v any) error {
		if err := enc.Encode(v); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1)
		return nil
	}
	v := reflect.ValueOf(rec)
	t := v.Type()
	buf.WriteByte('{')
	first := true
	for i := range t.NumField() {
		name, opts, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		fv := v.Field(i)
		if opts == "omitempty" && (fv.IsZero() || fv.Kind() == reflect.Slice && fv.Len() == 0) {
			continue
		}
		if !first {
			buf.WriteByte(',')
		}
		first = false
		if err := put(name); err != nil {
			return err
		}
		buf.WriteByte(':')
		if fv.Kind() != reflect.Slice || fv.IsNil() {
			if err := put(fv.Interface()); err != nil {
				return err
			}
			continue
		}
		buf.WriteByte('[')
		for j := range fv.Len() {
			if j > 0 {
				buf.WriteByte(',')
			}
			if err := put(fv.Index(j).Interface()); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	}
	buf.WriteString("}\n")
	return nil
}

// recordSize is about how long rec's line is when nothing in it needs
// escaping, so the buffer is allocated once rather than grown by doubling.
func recordSize(rec record) int {
	n := 128 + len(rec.Time) + len(rec.RemoteAddr) + len(rec.Charset)
	for _, f := range rec.Fields {
		n += 40 + len(f.Name) + len(f.Value) + len(f.Source)
	}
	for _, f := range rec.Files {
		n += 120 + len(f.Name) + len(f.Filename) + len(f.ContentType) + len(f.SHA256)
	}
	for _, w := range rec.Warnings {
		n += 3 + len(w)
	}
	return n
}

func newRecord(now time.Time, remote string, res result) record {
	return record{
		Time: now.UTC().Format(time.RFC3339Nano), RemoteAddr: remote, Charset: res.Charset,
		Fields: res.Fields, Files: res.Files, Warnings: res.Warnings,
	}
}
