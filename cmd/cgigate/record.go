package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
)

// record is one line of the CGIGATE_RECORD file: the fields and files
// exactly as in the JSON rendering.
type record struct {
	Time       string      `json:"time"` // RFC 3339, UTC, nanoseconds
	RemoteAddr string      `json:"remote_addr"`
	Charset    string      `json:"charset"`
	Fields     []fieldJSON `json:"fields"`
	Files      []fileJSON  `json:"files"`
}

// recordFile is what appendRecord needs of an *os.File; a test may hand it
// a file that fails half-way.
type recordFile interface {
	io.Writer
	Stat() (os.FileInfo, error)
	Truncate(size int64) error
	Sync() error
}

// appendLine appends one record to the file at path, so that concurrent
// CGI processes neither interleave nor lose a line: under an exclusive
// flock(2), the whole line in one write(2) to an O_APPEND file, then
// fsync(2). If anything fails, the file is truncated back to its size
// before the write, so no partial line stays, and the error is returned
// (the gateway answers 503).
func appendLine(path string, rec record) error {
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := flock(f); err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	// Closing the file releases the lock, after the data is synced.
	return writeLine(f, line)
}

func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
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

func newRecord(now time.Time, remote string, res result) record {
	return record{
		Time: now.UTC().Format(time.RFC3339Nano), RemoteAddr: remote, Charset: res.Charset,
		Fields: res.Fields, Files: res.Files,
	}
}
