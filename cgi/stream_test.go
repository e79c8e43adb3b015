package cgi_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
)

// writes renders the pieces one Write each.
func writes(pieces ...string) func(io.Writer) error {
	return func(w io.Writer) error {
		for _, p := range pieces {
			if _, err := io.WriteString(w, p); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestRespondStreamRepairsAsBytesToValidUTF8(t *testing.T) {
	big := strings.Repeat("印", cgi.StreamHold/3+10) // past the hold
	for _, tc := range []struct {
		name   string
		pieces []string
	}{
		{"valid text passes unchanged", []string{"café ", "<b>", " 印刷"}},
		{"an invalid run inside one write is one U+FFFD", []string{"a\xff\xfe<x>"}},
		{"a character cut by a write boundary is kept whole", []string{"a\xe5", "\x8d\xb0b"}},
		{"a character cut over three writes is kept whole", []string{"\xf0\x9f", "\x98", "\x80!"}},
		{"an invalid run across a boundary is still one U+FFFD", []string{"a\xff", "\xfeb"}},
		{"a cut lead followed by a bad byte is one U+FFFD", []string{"a\xe5", "\xffb"}},
		{"a cut character at the very end is one U+FFFD", []string{"ab\xe5\x8d"}},
		{"a cut character after an invalid run adds none", []string{"a\xff\xe5"}},
		{"an encoded U+FFFD stays itself", []string{"\uFFFD\xff"}},
		{"empty writes change nothing", []string{"", "a\xe5", "", "\x8d\xb0", ""}},
		{"a body past the hold is streamed and repaired alike", []string{big, "\xe5", "\x8d", "\xb0\xff", big}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newRecorder()
			if err := cgi.RespondStream(w, http.StatusOK, cgi.Text, writes(tc.pieces...)); err != nil {
				t.Fatal(err)
			}
			want := bytes.ToValidUTF8([]byte(strings.Join(tc.pieces, "")), []byte("\uFFFD"))
			if !bytes.Equal(w.Body.Bytes(), want) {
				t.Errorf("body %.80q, want %.80q", w.Body.String(), want)
			}
			if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "text/plain; charset=utf-8" || w.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("status %d, headers %v", w.Code, w.Header())
			}
		})
	}
}

func TestRespondStreamSendsWhatRespondSends(t *testing.T) {
	for _, f := range []cgi.Format{cgi.HTML, cgi.JSON, cgi.Text} {
		t.Run("the "+f.ContentType()+" headers and body are Respond's", func(t *testing.T) {
			body := "\xff\xfe<x> 印"
			a, b := newRecorder(), newRecorder()
			a.Header().Set("Content-Length", "3")
			b.Header().Set("Content-Length", "3")
			cgi.Respond(a, http.StatusTeapot, f, []byte(body))
			if err := cgi.RespondStream(b, http.StatusTeapot, f, writes(body)); err != nil {
				t.Fatal(err)
			}
			if a.Code != b.Code || a.Body.String() != b.Body.String() || fmt.Sprint(a.Header()) != fmt.Sprint(b.Header()) {
				t.Errorf("Respond %d %v %q; RespondStream %d %v %q", a.Code, a.Header(), a.Body, b.Code, b.Header(), b.Body)
			}
		})
	}
}

// failingWriter is a ResponseWriter whose body writes fail.
type failingWriter struct {
	*recorder
	err error
}

func (f failingWriter) Write([]byte) (int, error) { return 0, f.err }

func TestRespondStreamFailures(t *testing.T) {
	fault := errors.New("template fault")
	t.Run("a render that fails within the hold has sent nothing", func(t *testing.T) {
		w := newRecorder()
		err := cgi.RespondStream(w, http.StatusOK, cgi.HTML, func(w io.Writer) error {
			io.WriteString(w, "<!DOCTYPE html>")
			return fault
		})
		if err != fault || w.Body.Len() != 0 || w.Header().Get("Content-Type") != "" {
			t.Errorf("err %v, body %q, headers %v", err, w.Body, w.Header())
		}
		cgi.WriteError(w, nil, err) // the caller can still answer 500
		if w.Code != http.StatusInternalServerError {
			t.Errorf("status %d", w.Code)
		}
	})
	t.Run("a render that fails past the hold has sent its start and returns the fault", func(t *testing.T) {
		w := newRecorder()
		start := strings.Repeat("a", cgi.StreamHold+1)
		err := cgi.RespondStream(w, http.StatusOK, cgi.Text, func(w io.Writer) error {
			io.WriteString(w, start)
			return fault
		})
		if err != fault || w.Code != http.StatusOK || w.Body.String() != start {
			t.Errorf("err %v, status %d, %d bytes", err, w.Code, w.Body.Len())
		}
	})
	t.Run("a failing response writer fails render's writes and is not returned", func(t *testing.T) {
		broken := errors.New("broken pipe")
		w := failingWriter{newRecorder(), broken}
		var seen error
		err := cgi.RespondStream(w, http.StatusOK, cgi.Text, func(w io.Writer) error {
			for range 3 {
				if _, seen = io.WriteString(w, strings.Repeat("a", cgi.StreamHold)); seen != nil {
					return seen
				}
			}
			return nil
		})
		if err != nil || seen != broken {
			t.Errorf("RespondStream returned %v; render saw %v", err, seen)
		}
	})
}
