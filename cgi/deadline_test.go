package cgi

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestDeadlineReader(t *testing.T) {
	t.Run("bytes pass through unchanged and in order", func(t *testing.T) {
		src := make([]byte, 1<<20+7)
		rand.Read(src)
		d := newDeadlineReader(bytes.NewReader(src), time.Minute, -1)
		defer d.Close()
		got, err := io.ReadAll(d)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("%d bytes, %v", len(got), err)
		}
	})
	t.Run("bytes read in small pieces from reused chunks pass through unchanged", func(t *testing.T) {
		src := make([]byte, 10*chunkSize+3)
		rand.Read(src)
		d := newDeadlineReader(bytes.NewReader(src), time.Minute, -1)
		defer d.Close()
		var got []byte
		p := make([]byte, 1000) // chunks are drained over many reads
		for {
			n, err := d.Read(p)
			got = append(got, p[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got, src) {
			t.Fatalf("%d bytes differ from the %d sent", len(got), len(src))
		}
	})
	t.Run("a large body costs the pump two chunk buffers, not one per chunk", func(t *testing.T) {
		src := make([]byte, 64*chunkSize)
		allocs := testing.AllocsPerRun(3, func() {
			d := newDeadlineReader(bytes.NewReader(src), time.Minute, -1)
			io.Copy(io.Discard, d)
			d.Close()
		})
		if allocs > 20 { // a timer, channels, the goroutine, two buffers
			t.Errorf("%.0f allocations for %d chunks", allocs, len(src)/chunkSize)
		}
	})
	t.Run("a silent body fails with 408 at the deadline, and keeps failing", func(t *testing.T) {
		d := newDeadlineReader(blockingReader{}, time.Millisecond, -1)
		defer d.Close()
		for range 2 {
			_, err := d.Read(make([]byte, 10))
			var e *Error
			if !errors.As(err, &e) || e.Status != 408 {
				t.Fatalf("err %v", err)
			}
		}
	})
	t.Run("a read after Close fails instead of waiting", func(t *testing.T) {
		d := newDeadlineReader(strings.NewReader("abcdef"), time.Minute, -1)
		b := make([]byte, 2)
		if n, err := d.Read(b); n != 2 || err != nil {
			t.Fatalf("%d %v", n, err)
		}
		d.Close()
		if _, err := d.Read(b); !errors.Is(err, errClosed) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("a body shorter than CONTENT_LENGTH is 400", func(t *testing.T) {
		c := &countingReader{r: strings.NewReader("abc"), want: 5, max: 10}
		_, err := io.ReadAll(c)
		var e *Error
		if !errors.As(err, &e) || e.Status != 400 || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("err %v", err)
		}
	})
}

type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

// A CGI process starts for every request: the pump's buffers are fresh
// pages it faults in, so a small body must not cost two full chunks.
func TestDeadlineReaderBuffersFollowTheBody(t *testing.T) {
	tests := []struct {
		name     string
		size     int
		declared int64
		max      uint64 // bytes allocated per body, at most
	}{
		{"a 44-byte form post costs buffers of hundreds of bytes, not two chunks", 44, 44, 4 << 10},
		{"a body of no declared length gets chunk buffers", 44, -1, 2*chunkSize + 4<<10},
		{"a body declared larger than a chunk gets chunk buffers", chunkSize + 1, chunkSize + 1, 2*chunkSize + 4<<10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := bytes.Repeat([]byte("a"), tt.size)
			p := make([]byte, 1000)
			per := bytesPerRun(20, func() {
				d := newDeadlineReader(bytes.NewReader(src), time.Minute, tt.declared)
				n, err := readAll(d, p)
				d.Close()
				if err != nil || n != tt.size {
					t.Fatalf("%d bytes, %v", n, err)
				}
			})
			if per > tt.max {
				t.Errorf("%d bytes allocated per body of %d, want at most %d", per, tt.size, tt.max)
			}
		})
	}
	t.Run("a body longer than it declared still passes whole", func(t *testing.T) {
		src := make([]byte, 10*minChunk+3)
		rand.Read(src)
		d := newDeadlineReader(bytes.NewReader(src), time.Minute, 5)
		defer d.Close()
		got, err := io.ReadAll(d)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("%d bytes, %v", len(got), err)
		}
	})
}

// readAll reads r to its end into p, over and over, and counts the bytes.
func readAll(r io.Reader, p []byte) (int, error) {
	total := 0
	for {
		n, err := r.Read(p)
		total += n
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// bytesPerRun is what f allocates on average over runs: the bytes a CGI
// process faults in as fresh heap pages. Tests that call it do not run in
// parallel, so the count is f's alone.
func bytesPerRun(runs int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

func TestReadStringBufferFollowsTheBody(t *testing.T) {
	body := strings.Repeat("a=1&", 11)
	per := bytesPerRun(20, func() {
		// As the body comes in CGI: a reader with no WriteTo.
		s, err := readString(&countingReader{r: strings.NewReader(body), max: 1 << 20}, int64(len(body)))
		if err != nil || s != body {
			t.Fatalf("%q, %v", s, err)
		}
	})
	if per > 1<<10 {
		t.Errorf("reading a %d-byte body allocated %d bytes, want at most 1 KiB", len(body), per)
	}
}
