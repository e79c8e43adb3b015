package cgi_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/decoder"
)

const mpType = "multipart/form-data; boundary=XyZ"

func TestMultipart(t *testing.T) {
	t.Run("text parts are fields and file parts are stored files with size and sha256", func(t *testing.T) {
		content := "hello <file>\x00\xff"
		body := mp("XyZ",
			part{`Content-Disposition: form-data; name="a"`, "1"},
			part{"Content-Disposition: form-data; name=\"up\"; filename=\"notes.txt\"\r\nContent-Type: text/plain", content},
			part{`Content-Disposition: form-data; name="b"`, "<2>"})
		f, err := readForm(t, post(mpType, body, "QUERY_STRING", "q=0"), body, cgi.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if got := fieldsOf(f); len(got) != 3 || got[0] != [3]string{"q", "0", "query"} || got[1] != [3]string{"a", "1", "body"} || got[2] != [3]string{"b", "<2>", "body"} {
			t.Errorf("fields %q", got)
		}
		if len(f.Files) != 1 {
			t.Fatalf("files %+v", f.Files)
		}
		fl := f.Files[0]
		sum := sha256.Sum256([]byte(content))
		if fl.Name != "up" || fl.Filename != "notes.txt" || fl.ContentType != "text/plain" || fl.Size != int64(len(content)) || fl.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("file %+v", fl)
		}
		stored, err := io.ReadAll(fl.Reader())
		if err != nil || string(stored) != content {
			t.Errorf("stored %q, %v", stored, err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadAll(fl.Reader()); !errors.Is(err, os.ErrClosed) {
			t.Errorf("read after Close: %v; want os.ErrClosed", err)
		}
	})
	t.Run("a form of files only is a form", func(t *testing.T) {
		body := mp("XyZ", part{`Content-Disposition: form-data; name="up"; filename="a"`, "x"})
		f, err := readForm(t, post(mpType, body), body, cgi.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if f.Kind != decoder.Form || len(f.Files) != 1 {
			t.Errorf("kind %v files %+v", f.Kind, f.Files)
		}
	})
	t.Run("a file part over the file limit is 413 and leaves no file", func(t *testing.T) {
		dir := t.TempDir()
		body := mp("XyZ", part{`Content-Disposition: form-data; name="up"; filename="big"`, strings.Repeat("x", 101)})
		_, err := readForm(t, post(mpType, body), body, cgi.Config{TempDir: dir, Limits: cgi.Limits{FileBytes: 100}})
		wantStatus(t, err, 413)
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("left in the temporary folder: %v", left)
		}
	})
	t.Run("files stored before a refused part are removed with it", func(t *testing.T) {
		dir := t.TempDir()
		body := mp("XyZ",
			part{`Content-Disposition: form-data; name="a"; filename="a"`, "first"},
			part{`Content-Disposition: form-data; name="b"; filename="b"`, "second"},
			part{`Content-Disposition: form-data; name="c"; filename="c"`, strings.Repeat("x", 101)})
		_, err := readForm(t, post(mpType, body), body, cgi.Config{TempDir: dir, Limits: cgi.Limits{FileBytes: 100}})
		wantStatus(t, err, 413)
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("left in the temporary folder: %v", left)
		}
	})
	t.Run("stored files have no name in the temporary folder, and each reader starts at the first byte", func(t *testing.T) {
		dir := t.TempDir()
		other := filepath.Join(dir, "not-the-gateways")
		if err := os.WriteFile(other, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		body := mp("XyZ",
			part{`Content-Disposition: form-data; name="a"; filename="a"`, "first"},
			part{`Content-Disposition: form-data; name="b"; filename="b"`, "second"})
		f, err := readForm(t, post(mpType, body), body, cgi.Config{TempDir: dir})
		if err != nil || len(f.Files) != 2 {
			t.Fatalf("files %v (%v)", f, err)
		}
		left, _ := os.ReadDir(dir)
		if len(left) != 1 || left[0].Name() != "not-the-gateways" {
			t.Errorf("in the temporary folder while the form is open: %v", left)
		}
		for i, want := range []string{"first", "second", "first"} {
			got, err := io.ReadAll(f.Files[i%2].Reader())
			if err != nil || string(got) != want {
				t.Errorf("file %d read %q, %v; want %q", i%2, got, err, want)
			}
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a file name is decoded in the request's charset", func(t *testing.T) {
		name := loadEncoded(t, "shift_jis", "資料.txt")
		body := mp("XyZ",
			part{`Content-Disposition: form-data; name="_charset_"`, "shift_jis"},
			part{`Content-Disposition: form-data; name="up"; filename="` + name.bytes(t) + `"`, "x"})
		f, err := readForm(t, post(mpType, body), body, cgi.Config{})
		if err != nil {
			t.Fatal(err)
		}
		if f.Files[0].Filename != name.Text {
			t.Errorf("filename %q; want %q", f.Files[0].Filename, name.Text)
		}
	})
	t.Run("a client file name is data, never a path (corpus case 51, CVE-2004-0959)", func(t *testing.T) {
		dir := t.TempDir()
		for _, fn := range []string{`..\..\win.ini`, "../../etc/passwd", "/etc/passwd"} {
			body := mp("XyZ", part{`Content-Disposition: form-data; name="f"; filename="` + strings.ReplaceAll(fn, `\`, `\\`) + `"`, "x"})
			f, err := readForm(t, post(mpType, body), body, cgi.Config{TempDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			fl := f.Files[0]
			if fl.Filename != fn {
				t.Errorf("filename %q; want %q as sent", fl.Filename, fn)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("named in the temporary folder: %v", left)
			}
		}
	})
}

func TestMultipartEnds(t *testing.T) {
	head := "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n"
	for _, tc := range []struct{ name, body, warn string }{
		{"a closing boundary with CRLF ends the form", head + "--XyZ--\r\n", ""},
		{"a closing boundary without CRLF ends the form", head + "--XyZ--", ""},
		{"white space after the closing boundary is padding", head + "--XyZ-- \t\r\n", ""},
		{"blank lines after the closing boundary are no epilogue", head + "--XyZ--\r\n\r\n \r\n", ""},
		{"an epilogue after the closing boundary is ignored with a warning", head + "--XyZ--\r\nepilogue\r\n", "8 bytes after the closing boundary ignored"},
		{"a preamble before the first boundary is ignored with a warning", "preamble\r\n" + head + "--XyZ--\r\n", "8 bytes before the first boundary ignored"},
		{"a CRLF before the first boundary is no preamble", "\r\n" + head + "--XyZ--\r\n", ""},
		{"white space after the first boundary is padding", strings.Replace(head, "--XyZ\r\n", "--XyZ \t\r\n", 1) + "--XyZ--\r\n", ""},
		{"bare LF line ends are read", strings.ReplaceAll(head+"--XyZ--\r\n", "\r\n", "\n"), ""},
		{"a boundary inside a part's value, off the line start, is data", strings.Replace(head, "A\r\n", "x--XyZ\r\n", 1) + "--XyZ--\r\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := readForm(t, post(mpType, tc.body), tc.body, cgi.Config{})
			if err != nil {
				t.Fatal(err)
			}
			want := "A"
			if strings.Contains(tc.name, "inside a part's value") {
				want = "x--XyZ"
			}
			if got := fieldsOf(f); len(got) != 1 || got[0] != [3]string{"a", want, "body"} {
				t.Errorf("fields %q", got)
			}
			w := strings.Join(f.Warnings, "\n")
			if tc.warn == "" && w != "" || !strings.Contains(w, tc.warn) {
				t.Errorf("warnings %q; want %q", f.Warnings, tc.warn)
			}
		})
	}
	// A browser sends this for a form with no entries (the HTML
	// multipart/form-data encoding of an empty list): nothing is lost.
	t.Run("a body of the closing boundary alone is an empty form, without a warning", func(t *testing.T) {
		f, err := readForm(t, post(mpType, "--XyZ--\r\n"), "--XyZ--\r\n", cgi.Config{})
		if err != nil || len(f.Fields) != 0 || len(f.Warnings) != 0 || f.Kind != decoder.Empty {
			t.Errorf("%v %+v", err, f)
		}
	})
}

// Bodies whose parts Go's reader would skip without a word, and bodies
// with no part where the Content-Type promised a multipart body.
func TestMultipartLosesNoPartSilently(t *testing.T) {
	part1 := "Content-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n--XyZ--\r\n"
	for _, tc := range []struct{ name, body, msg string }{
		{"a byte before the first boundary line hides its part: 400", "A--XyZ\r\n" + part1, "before the first boundary line"},
		{"a boundary line with more after it in the preamble is 400", "--XyZx\r\n--XyZ--\r\n", "before the first boundary line"},
		{"a body that opens with the closing boundary, then a part, is 400", "--XyZ--\r\n--XyZ\r\n" + part1, "after the closing boundary"},
		{"a part after the closing boundary is 400", "--XyZ\r\n" + part1 + "--XyZ\r\n" + part1, "after the closing boundary"},
		{"an empty body is 400", "", "empty body"},
		{"an empty body of unknown length is 400", "", "before the closing boundary"},
		{"a body of only a preamble is 400", "junk\r\n", "before the closing boundary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			env := post(mpType, tc.body)
			if strings.Contains(tc.name, "unknown length") {
				delete(env, "CONTENT_LENGTH")
			}
			f, err := readForm(t, env, tc.body, cgi.Config{TempDir: dir})
			if f != nil {
				t.Errorf("a form was returned: %+v", f)
			}
			wantStatus(t, err, 400)
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%v; want it to say %q", err, tc.msg)
			}
		})
	}
}

// The rule for filename and filename* (corpus case 52).
func TestMultipartFilenameRule(t *testing.T) {
	for _, tc := range []struct {
		name, params, want, warn string
	}{
		{"filename* wins over filename, and the loser is named", `filename="a.txt"; filename*=UTF-8''b.txt`, "b.txt", `filename "a.txt" ignored`},
		{"filename* alone is percent-decoded UTF-8", `filename*=UTF-8''%E5%8D%B0.txt`, "印.txt", ""},
		{"filename* first and filename after still gives filename*", `filename*=utf-8''b.txt; filename="a.txt"`, "b.txt", "ignored"},
		{"a filename* in a charset Go cannot decode leaves filename", `filename="a.txt"; filename*=ISO-8859-1''%E9.txt`, "a.txt", "not decodable"},
		{"a filename alone is used as sent", `filename="a b.txt"`, "a b.txt", ""},
		{"an empty filename is a file part with no name", `filename=""`, "", ""},
		{"a ';' and a 'filename=' inside a quoted file name are the name", `filename="a; filename=b.txt"`, "a; filename=b.txt", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := mp("XyZ", part{`Content-Disposition: form-data; name="f"; ` + tc.params, "x"})
			f, err := readForm(t, post(mpType, body), body, cgi.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Files) != 1 || f.Files[0].Filename != tc.want {
				t.Fatalf("files %+v; want filename %q", f.Files, tc.want)
			}
			w := strings.Join(f.Warnings, "\n")
			if tc.warn == "" && w != "" || !strings.Contains(w, tc.warn) {
				t.Errorf("warnings %q; want %q", f.Warnings, tc.warn)
			}
		})
	}
}

func TestMultipartRefusals(t *testing.T) {
	ok := mp("XyZ", part{`Content-Disposition: form-data; name="a"`, "A"})
	b71 := strings.Repeat("x", 71)
	manyParts := mp("XyZ", repeatPart(part{`Content-Disposition: form-data; name="a"`, "A"}, 1001)...)
	manyHeaders := "--XyZ\r\n" + strings.Repeat("X-A: b\r\n", 10001) + "Content-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n--XyZ--\r\n"
	someHeaders := "--XyZ\r\n" + strings.Repeat("X-A: b\r\n", 17) + "Content-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n--XyZ--\r\n"
	longHeader := "--XyZ\r\nContent-Disposition: form-data; name=\"" + strings.Repeat("a", 11<<20) + "\"\r\n\r\nA\r\n--XyZ--\r\n"
	for _, tc := range []struct {
		name, ct, body string
		cfg            cgi.Config
		status         int
	}{
		{"no boundary is 400 (corpus case 48)", "multipart/form-data", ok, cgi.Config{}, 400},
		{"an empty quoted boundary is 400 (corpus case 48)", `multipart/form-data; boundary=""`, ok, cgi.Config{}, 400},
		{"a boundary of 71 characters is 400 (corpus case 49)", "multipart/form-data; boundary=" + b71, mp(b71, part{`Content-Disposition: form-data; name="a"`, "A"}), cgi.Config{}, 400},
		{"a boundary given twice is 400 (corpus case 50)", "multipart/form-data; boundary=abc; boundary=def", ok, cgi.Config{}, 400},
		{"quoted-printable is refused, not decoded (corpus case 53)", mpType,
			mp("XyZ", part{"Content-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: quoted-printable", "=3Cscript=3E"}), cgi.Config{}, 400},
		{"a body without its closing boundary is 400 (corpus case 54)", mpType,
			"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA", cgi.Config{}, 400},
		{"1,001 parts is 413 (corpus case 55, CVE-2023-24536)", mpType, manyParts, cgi.Config{}, 413},
		{"10,001 part header lines is 413 (corpus case 55, CVE-2023-45290)", mpType, manyHeaders, cgi.Config{}, 413},
		{"more part header lines than the limit is 413", mpType, someHeaders, cgi.Config{}, 413},
		{"an 11 MiB header line is 413 (corpus case 55, CVE-2022-41725)", mpType, longHeader, cgi.Config{Limits: cgi.Limits{Body: 20 << 20}}, 413},
		{"a NUL in a part header is 400 (corpus case 56)", mpType,
			mp("XyZ", part{"Content-Disposition: form-data; name=\"a\x00b\"", "A"}), cgi.Config{}, 400},
		{"a bare CR in a part header is 400 (corpus case 56)", mpType,
			mp("XyZ", part{"Content-Disposition: form-data; name=\"a\"; filename=\"x\ry\"", "A"}), cgi.Config{}, 400},
		{"a body that ends inside a part's headers is 400 (Go says io.EOF)", mpType,
			"--XyZ\r\nContent-Disposition: form-data; name=\"a\"", cgi.Config{}, 400},
		{"a body that ends after a part's headers is 400", mpType,
			"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n", cgi.Config{}, 400},
		{"a closing boundary in a part's headers is 400, not the end", mpType,
			"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n--XyZ--\r\n", cgi.Config{}, 400},
		{"a part without Content-Disposition is 400", mpType, mp("XyZ", part{"Content-Type: text/plain", "A"}), cgi.Config{}, 400},
		{"a part with two Content-Disposition headers is 400", mpType,
			mp("XyZ", part{"Content-Disposition: form-data; name=\"a\"\r\nContent-Disposition: form-data; name=\"b\"", "A"}), cgi.Config{}, 400},
		{"a boundary given twice with one value is 400", "multipart/form-data; boundary=XyZ; BOUNDARY=XyZ", ok, cgi.Config{}, 400},
		{"a part parameter given twice with one value is 400", mpType, mp("XyZ", part{`Content-Disposition: form-data; name="a"; name="a"`, "A"}), cgi.Config{}, 400},
		{"filename given twice is 400", mpType, mp("XyZ", part{`Content-Disposition: form-data; name="a"; filename="x"; filename="x"`, "A"}), cgi.Config{}, 400},
		{"a duplicate part parameter is 400", mpType, mp("XyZ", part{`Content-Disposition: form-data; name="a"; name="b"`, "A"}), cgi.Config{}, 400},
		{"a part that is not form-data is 400", mpType, mp("XyZ", part{`Content-Disposition: attachment; name="a"`, "A"}), cgi.Config{}, 400},
		{"garbage before the first boundary and no part is 400", mpType, "junk\r\n", cgi.Config{}, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.cfg.TempDir = dir
			f, err := readForm(t, post(tc.ct, tc.body), tc.body, tc.cfg)
			if f != nil {
				t.Errorf("a partial form was returned")
			}
			wantStatus(t, err, tc.status)
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("left in the temporary folder: %v", left)
			}
		})
	}
}

func repeatPart(p part, n int) []part {
	ps := make([]part, n)
	for i := range ps {
		ps[i] = p
	}
	return ps
}
