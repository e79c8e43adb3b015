package record

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	for _, id := range []string{"a", "b"} {
		if err := Append(path, Record{ID: id, Fields: []Field{{"n", strings.Repeat(id, 100<<10), "body"}}}); err != nil {
			t.Fatal(err)
		}
	}
	whole, _ := os.ReadFile(path)
	firstLen := int64(strings.IndexByte(string(whole), '\n') + 1)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// A line that is not JSON, one that is not an object, then a line cut
	// off mid-way, as a writer still writing leaves it.
	f.WriteString("{\"id\":\"broken\n[1]\n{\"id\":\"c\",")

	t.Run("reads the whole lines, reports the malformed ones with their offsets, and stops before a partial one", func(t *testing.T) {
		rf, _ := os.Open(path)
		defer rf.Close()
		r := NewReader(rf, 0)
		var ids []string
		var bad []int64
		for {
			rec, err := r.Next()
			var le *LineError
			switch {
			case err == nil:
				ids = append(ids, rec.ID)
				continue
			case errors.As(err, &le):
				bad = append(bad, le.Offset)
				continue
			case err != io.EOF:
				t.Fatal(err)
			}
			break
		}
		if strings.Join(ids, ",") != "a,b" || len(bad) != 2 || bad[0] != int64(len(whole)) || bad[1] != int64(len(whole))+int64(len("{\"id\":\"broken\n")) {
			t.Errorf("records %v, malformed lines at %v (file of whole lines: %d bytes)", ids, bad, len(whole))
		}
		partialAt := int64(len(whole)) + int64(len("{\"id\":\"broken\n[1]\n"))
		if r.Offset() != partialAt {
			t.Errorf("offset %d; want %d, the partial line's start", r.Offset(), partialAt)
		}
		// The writer finishes the line: the same reader now reads it.
		f.WriteString("\"time\":\"\"}\n")
		rec, err := r.Next()
		if err != nil || rec.ID != "c" {
			t.Errorf("after the line was finished: %+v %v", rec.ID, err)
		}
		if fi, _ := f.Stat(); r.Offset() != fi.Size() {
			t.Errorf("offset %d at the end of a %d-byte file", r.Offset(), fi.Size())
		}
	})
	t.Run("started at an offset, reads from that line on", func(t *testing.T) {
		rf, _ := os.Open(path)
		defer rf.Close()
		rf.Seek(firstLen, io.SeekStart)
		r := NewReader(rf, firstLen)
		rec, err := r.Next()
		if err != nil || rec.ID != "b" || r.Offset() != int64(len(whole)) {
			t.Errorf("record %q %v, offset %d", rec.ID, err, r.Offset())
		}
	})
	t.Run("a line over MaxLine is reported and skipped without being held", func(t *testing.T) {
		rf, _ := os.Open(path)
		defer rf.Close()
		r := NewReader(rf, 0)
		r.MaxLine = 1000
		_, err := r.Next()
		var le *LineError
		if !errors.As(err, &le) || !errors.Is(err, ErrLineTooLong) || le.Offset != 0 || le.Len != firstLen-1 {
			t.Fatalf("error %v", err)
		}
		if _, err := r.Next(); !errors.Is(err, ErrLineTooLong) || r.Offset() != int64(len(whole)) {
			t.Errorf("second line: %v, offset %d", err, r.Offset())
		}
	})
}
