package integration

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
)

// fileSize is the size of the uploaded file: 5 MB, well past the 64 KiB
// of a pipe, so that Apache streams it to the CGI's stdin in pieces.
const fileSize = 5 << 20

// payload returns n bytes that do not compress and are the same each run.
func payload(n int) []byte {
	b := make([]byte, n)
	r := rand.NewChaCha8([32]byte{'c', 'g', 'i', 'g', 'a', 't', 'e'})
	r.Read(b)
	return b
}

// chunked is a whole POST request with its body in chunks, one per piece.
func chunked(target, contentType string, pieces ...string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAccept: application/json\r\n", target)
	fmt.Fprintf(&b, "Content-Type: %s\r\nTransfer-Encoding: chunked\r\n\r\n", contentType)
	for _, p := range pieces {
		fmt.Fprintf(&b, "%x\r\n%s\r\n", len(p), p)
	}
	b.WriteString("0\r\n\r\n")
	return b.Bytes()
}

func TestFormsThroughApache(t *testing.T) {
	data := payload(fileSize)
	sum := sha256.Sum256(data)
	wantSHA := hex.EncodeToString(sum[:])

	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			t.Parallel()
			s := startGateway(t, apachetest.Options{MPM: mpm})

			t.Run("a GET form's fields come from the query in order, repeated names kept", func(t *testing.T) {
				r := getJSON(t, s, gatewayPath+"?a=1&b=%E5%8D%B0%E5%88%B7&a=2+3&empty=&c=x%3Dy")
				want := []field{{"a", "1", "query"}, {"b", "印刷", "query"}, {"a", "2 3", "query"}, {"empty", "", "query"}, {"c", "x=y", "query"}}
				if r.Kind != "form" || r.Method != "GET" || !slices.Equal(r.Fields, want) {
					t.Errorf("kind %q method %q fields %+v, want form GET %+v", r.Kind, r.Method, r.Fields, want)
				}
				if len(r.Keywords) != 0 {
					t.Errorf("keywords %q, want none for a form", r.Keywords)
				}
			})
			t.Run("Apache passes on that every answer, an error too, varies by Accept", func(t *testing.T) {
				for _, c := range []struct{ target, accept string }{
					{gatewayPath + "?a=1", "text/html"},
					{gatewayPath + "?_charset_=no-such-charset&a=1", "application/json"},
				} {
					r := send(t, s, "GET", c.target, "", nil, c.accept)
					if v := r.Header.Values("Vary"); len(v) != 1 || v[0] != "Accept" {
						t.Errorf("GET %s: status %d, Vary %q; want one Vary: Accept", c.target, r.Status, v)
					}
				}
			})
			t.Run("an urlencoded POST keeps the query's fields first, then the body's", func(t *testing.T) {
				r := postJSON(t, s, gatewayPath+"?q=1", "application/x-www-form-urlencoded",
					[]byte("a=%E3%83%86%E3%82%B9%E3%83%88&b=two+words"))
				want := []field{{"q", "1", "query"}, {"a", "テスト", "body"}, {"b", "two words", "body"}}
				if r.Kind != "form" || r.Method != "POST" || !slices.Equal(r.Fields, want) {
					t.Errorf("kind %q method %q fields %+v, want form POST %+v", r.Kind, r.Method, r.Fields, want)
				}
			})
			t.Run("a text/plain POST is name=value lines", func(t *testing.T) {
				r := postJSON(t, s, gatewayPath, "text/plain", []byte("a=1\r\nb=two words & more\r\n"))
				want := []field{{"a", "1", "body"}, {"b", "two words & more", "body"}}
				if !slices.Equal(r.Fields, want) {
					t.Errorf("fields %+v, want %+v", r.Fields, want)
				}
			})
			t.Run("a chunked POST, which Apache passes with no CONTENT_LENGTH, is read to its end", func(t *testing.T) {
				r := s.DoRaw(t, chunked(gatewayPath, "application/x-www-form-urlencoded", "a=1&b=%E5%8D%B0", "&c=", strings.Repeat("z", 70000)))
				res := wantResult(t, s, "chunked POST", reply(r))
				if len(res.Fields) != 3 || res.Fields[1] != (field{"b", "印", "body"}) || len(res.Fields[2].Value) != 70000 {
					t.Errorf("fields %.200v, want a, b=印 and c of 70000 bytes from the body", res.Fields)
				}
			})
			t.Run("a HEAD request is answered with headers only", func(t *testing.T) {
				r := send(t, s, "HEAD", gatewayPath+"?a+b", "", nil, "application/json")
				if r.Status != http.StatusOK || len(r.Body) != 0 || r.Header.Get("Content-Type") != "application/json; charset=utf-8" {
					t.Errorf("status %d Content-Type %q body %q, want 200 JSON headers and no body", r.Status, r.Header.Get("Content-Type"), r.Body)
				}
			})
			t.Run("a POST to an ISINDEX-looking query keeps the body and warns about the query", func(t *testing.T) {
				r := postJSON(t, s, gatewayPath+"?a+b", "application/x-www-form-urlencoded", []byte("x=1"))
				if r.Kind != "form" || len(r.Keywords) != 0 || !slices.Equal(r.Fields, []field{{"x", "1", "body"}}) || len(r.Warnings) != 1 {
					t.Errorf("kind %q keywords %q fields %+v warnings %q, want the body's field, no keywords, one warning", r.Kind, r.Keywords, r.Fields, r.Warnings)
				}
			})
			t.Run("Accept: text/plain renders text", func(t *testing.T) {
				r := send(t, s, "GET", gatewayPath+"?q=%E5%8D%B0", "", nil, "text/plain")
				if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/plain; charset=utf-8" || !strings.Contains(string(r.Body), `"q" = "印"`) {
					t.Errorf("status %d Content-Type %q body %s", r.Status, r.Header.Get("Content-Type"), r.Body)
				}
			})
			t.Run("a multipart file name in RFC 5987 filename* wins over the plain filename", func(t *testing.T) {
				var body bytes.Buffer
				mw := multipart.NewWriter(&body)
				h := textproto.MIMEHeader{}
				h.Set("Content-Disposition", `form-data; name="f"; filename="fallback.txt"; filename*=UTF-8''%E5%A0%B1%E5%91%8A.txt`)
				h.Set("Content-Type", "text/plain")
				w, _ := mw.CreatePart(h)
				w.Write([]byte("hello"))
				mw.Close()
				r := postJSON(t, s, gatewayPath, mw.FormDataContentType(), body.Bytes())
				if len(r.Files) != 1 || r.Files[0].Filename != "報告.txt" || r.Files[0].Size != 5 {
					t.Errorf("files %+v, want one of 5 bytes named 報告.txt", r.Files)
				}
			})
			t.Run("a multipart POST with a 5 MB file reports its size and SHA-256", func(t *testing.T) {
				var body bytes.Buffer
				mw := multipart.NewWriter(&body)
				mw.WriteField("title", "年報 2026")
				h := textproto.MIMEHeader{}
				h.Set("Content-Disposition", `form-data; name="upload"; filename="report.bin"`)
				h.Set("Content-Type", "application/octet-stream")
				w, _ := mw.CreatePart(h)
				w.Write(data)
				mw.WriteField("note", "after the file")
				mw.Close()

				r := postJSON(t, s, gatewayPath, mw.FormDataContentType(), body.Bytes())
				wantFields := []field{{"title", "年報 2026", "body"}, {"note", "after the file", "body"}}
				if !slices.Equal(r.Fields, wantFields) {
					t.Errorf("fields %+v, want %+v", r.Fields, wantFields)
				}
				wantFiles := []file{{Name: "upload", Filename: "report.bin", ContentType: "application/octet-stream", Size: fileSize, SHA256: wantSHA}}
				if !slices.Equal(r.Files, wantFiles) {
					t.Errorf("files %+v, want %+v", r.Files, wantFiles)
				}
			})
		})
	}
}
