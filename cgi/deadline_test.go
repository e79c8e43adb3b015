package cgi

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestDeadlineReader(t *testing.T) {
	t.Run("bytes pass through unchanged and in order", func(t *testing.T) {
		src := make([]byte, 1<<20+7)
		rand.Read(src)
		d := newDeadlineReader(bytes.NewReader(src), time.Minute)
		defer d.Close()
		got, err := io.ReadAll(d)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("%d bytes, %v", len(got), err)
		}
	})
	t.Run("bytes read in small pieces from reused chunks pass through unchanged", func(t *testing.T) {
		src := make([]byte, 10*chunkSize+3)
		rand.Read(src)
		d := newDeadlineReader(bytes.NewReader(src), time.Minute)
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
			d := newDeadlineReader(bytes.NewReader(src), time.Minute)
			io.Copy(io.Discard, d)
			d.Close()
		})
		if allocs > 20 { // a timer, channels, the goroutine, two buffers
			t.Errorf("%.0f allocations for %d chunks", allocs, len(src)/chunkSize)
		}
	})
	t.Run("a silent body fails with 408 at the deadline, and keeps failing", func(t *testing.T) {
		d := newDeadlineReader(blockingReader{}, time.Millisecond)
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
		d := newDeadlineReader(strings.NewReader("abcdef"), time.Minute)
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
