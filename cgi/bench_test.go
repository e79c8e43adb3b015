package cgi_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"mime/multipart"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
)

// BenchmarkMultipart reads multipart/form-data bodies with cgi.ReadForm
// beside the same job done with mime/multipart alone (impl=mime): every
// text part read into a string, every file part stored in a temporary
// file and hashed with SHA-256, as the gateway does. ReadForm also checks
// the limits and the parts' headers, and decodes names and values with
// the request's charset (sniffed, or named by the deployment). Compare with
//
//	go test -run '^$' -bench Multipart -count 6 ./cgi | benchstat -col /impl -
func BenchmarkMultipart(b *testing.B) {
	bodies := []struct {
		name string
		body string
	}{
		{"100-fields", multipartBody(100, 0, 20)},
		{"one-1MB-file", multipartBody(1, 1<<20, 20)},
		{"10-fields-10-files-of-100kB", multipartBody(10, 100<<10, 20)},
	}
	const boundary = "bench-boundary"
	for _, bd := range bodies {
		env := post("multipart/form-data; boundary="+boundary, bd.body)
		// cgigate sniffs the charset, as it does for a form without
		// _charset_ when the deployment names none; cgigate-charset is a
		// deployment that names its charset (CGIGATE_CHARSET=utf-8).
		for _, impl := range []struct{ name, charset string }{{"cgigate", ""}, {"cgigate-charset", "utf-8"}} {
			b.Run("body="+bd.name+"/impl="+impl.name, func(b *testing.B) {
				cfg := cgi.Config{TempDir: b.TempDir()}
				cfg.Limits.Body = 1 << 30
				cfg.Decoder.Charset = impl.charset
				b.SetBytes(int64(len(bd.body)))
				for b.Loop() {
					r, err := cgi.RequestFromMap(env, nil, strings.NewReader(bd.body))
					if err != nil {
						b.Fatal(err)
					}
					f, err := cgi.ReadForm(r, cfg)
					if err != nil {
						b.Fatal(err)
					}
					f.Close()
				}
			})
		}
		b.Run("body="+bd.name+"/impl=mime", func(b *testing.B) {
			dir := b.TempDir()
			b.SetBytes(int64(len(bd.body)))
			for b.Loop() {
				if err := mimeOnly(strings.NewReader(bd.body), boundary, dir); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// multipartBody is fields text parts of valueLen bytes of UTF-8 text each,
// and, when fileLen > 0, as many file parts of fileLen bytes.
func multipartBody(fields, fileLen, valueLen int) string {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	w.SetBoundary("bench-boundary")
	value := strings.Repeat("café ", valueLen/6+1)[:valueLen]
	for i := range fields {
		w.WriteField("field"+strconv.Itoa(i), value)
		if fileLen > 0 {
			fw, _ := w.CreateFormFile("file"+strconv.Itoa(i), fmt.Sprintf("report-%d.txt", i))
			fw.Write(bytes.Repeat([]byte("0123456789abcdef"), fileLen/16))
		}
	}
	w.Close()
	return buf.String()
}

// mimeOnly is the baseline job: mime/multipart's reader, text parts into
// strings, file parts into hashed temporary files.
func mimeOnly(body io.Reader, boundary, dir string) error {
	mr := multipart.NewReader(body, boundary)
	var fields []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if p.FileName() == "" {
			v, err := io.ReadAll(p)
			if err != nil {
				return err
			}
			fields = append(fields, p.FormName(), string(v))
			continue
		}
		f, err := os.CreateTemp(dir, "part-")
		if err != nil {
			return err
		}
		h := sha256.New()
		_, err = io.Copy(io.MultiWriter(f, h), p)
		f.Close()
		os.Remove(f.Name())
		if err != nil {
			return err
		}
		_ = h.Sum(nil)
	}
}
