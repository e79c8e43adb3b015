package bench

import (
	"io"
	"mime"
	"mime/multipart"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseMaxRSS(t *testing.T) {
	rep, err := os.ReadFile("testdata/time-v.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseMaxRSS(rep)
	if err != nil || got != 1108 {
		t.Errorf("ParseMaxRSS = %d, %v; want 1108", got, err)
	}
	if _, err := ParseMaxRSS([]byte("Command exited with non-zero status 1\n")); err == nil {
		t.Error("ParseMaxRSS accepted a report without the line")
	}
}

func TestWriteURLEncoded(t *testing.T) {
	for _, size := range []int64{50, 250_000, 1_000_000} {
		t.Run("a body of at most the size asked, that net/url decodes to U+5370s", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "body")
			ct, err := WriteURLEncoded(path, size)
			if err != nil {
				t.Fatal(err)
			}
			if ct != "application/x-www-form-urlencoded" {
				t.Errorf("content type %q", ct)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(b)) > size || int64(len(b)) < size-200_000 {
				t.Errorf("body of %d bytes for %d asked", len(b), size)
			}
			vs, err := url.ParseQuery(string(b))
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) == 0 {
				t.Fatal("no fields")
			}
			for name, v := range vs {
				if len(v) != 1 || v[0] == "" || strings.Trim(v[0], "印") != "" || len(v[0]) > 1<<20 {
					t.Errorf("field %s = %.30q..., want U+5370 repeated, at most 1 MiB", name, v)
				}
			}
		})
	}
}

func TestWriteMultipart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "body")
	ct, err := WriteMultipart(path, 123_457)
	if err != nil {
		t.Fatal(err)
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" {
		t.Fatalf("content type %q: %v", ct, err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mr := multipart.NewReader(f, params["boundary"])
	got := map[string]int64{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, p)
		if err != nil {
			t.Fatal(err)
		}
		got[p.FormName()+"/"+p.FileName()] = n
	}
	if got["upload/upload.bin"] != 123_457 || got["q/"] != int64(len(QueryValue)) || len(got) != 2 {
		t.Errorf("parts %v, want q (%d bytes) and upload/upload.bin (123457 bytes)", got, len(QueryValue))
	}
}

func TestSlope(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want float64
	}{
		{"points on a line give its slope", []float64{1, 2, 4}, []float64{12, 14, 18}, 2},
		{"a flat series has slope 0", []float64{1, 2, 3}, []float64{5, 5, 5}, 0},
		{"one point has no slope", []float64{1}, []float64{5}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Slope(tt.x, tt.y); got != tt.want {
				t.Errorf("Slope = %v, want %v", got, tt.want)
			}
		})
	}
}
