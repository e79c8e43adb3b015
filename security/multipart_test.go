package security

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Multipart and the other form bodies: Go's mime/multipart accepts an
// empty or overlong boundary, decodes quoted-printable parts, reports a
// body cut inside a part's headers as a clean end, and Part.FileName
// strips directories only the Unix way. The gateway refuses each of
// those with 400, bounds parts, part headers and files with 413
// (CVE-2023-24536, CVE-2023-45290, CVE-2022-41725), and shows a client's
// file name as data, never as a path (CVE-2004-0959, Apache's
// t/security/CVE-2004-0959.t).

func multipartReq(ct, body string) request {
	return request{Method: "POST", Body: []byte(body), Header: http.Header{"Content-Type": {ct}}}
}

// part is one form-data part with the Content-Disposition parameters.
func part(params, content string) string {
	return "--X\r\nContent-Disposition: form-data; " + params + "\r\n\r\n" + content + "\r\n"
}

const mpX = "multipart/form-data; boundary=X"

func TestMultipartWithoutABoundaryIs400(t *testing.T) {
	c := corpusCase(t, 48, `boundary=""`)
	for _, ct := range append([]string{c.Input}, c.Also...) {
		t.Run(ct, func(t *testing.T) {
			each(t, multipartReq(ct, part(`name="a"`, "A")+"--X--\r\n"), func(t *testing.T, r response) {
				refused(t, r, http.StatusBadRequest, "no boundary")
			}, alsoPrefork())
		})
	}
}

func TestMultipartBoundaryOver70Is400(t *testing.T) {
	corpusCase(t, 49, "71 x 'x'")
	bd := strings.Repeat("x", 71)
	body := "--" + bd + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n--" + bd + "--\r\n"
	each(t, multipartReq("multipart/form-data; boundary="+bd, body), func(t *testing.T, r response) {
		refused(t, r, http.StatusBadRequest, "boundary of 71 characters")
	})
	t.Run("70 is allowed", func(t *testing.T) {
		bd := bd[:70]
		body := "--" + bd + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n--" + bd + "--\r\n"
		each(t, multipartReq("multipart/form-data; boundary="+bd, body), func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), b("a", "A"))
		})
	})
}

func TestMultipartDuplicateBoundaryIs400(t *testing.T) {
	c := corpusCase(t, 50, "boundary=abc; boundary=def")
	each(t, multipartReq(c.Input, "--abc\r\n"+`Content-Disposition: form-data; name="a"`+"\r\n\r\nA\r\n--abc--\r\n"), func(t *testing.T, r response) {
		refused(t, r, http.StatusBadRequest, "duplicate parameter")
	})
}

func TestCVE_2004_0959_FileNameIsNeverAPath(t *testing.T) {
	c := corpusCase(t, 51, `..\\..\\win.ini`)
	for _, fn := range []string{`..\..\win.ini`, "../../etc/passwd", "/etc/passwd", "..", "C:\\boot.ini"} {
		body := part(`name="f"; filename="`+strings.ReplaceAll(fn, `\`, `\\`)+`"`, "data") + "--X--\r\n"
		t.Run(fn+" is shown as sent", func(t *testing.T) {
			each(t, multipartReq(mpX, body), func(t *testing.T, r response) {
				res := decoded(t, r)
				if len(res.Files) != 1 || res.Files[0].Filename != fn || res.Files[0].Size != 4 {
					t.Errorf("files %+v (%s)", res.Files, c.Want)
				}
			}, alsoPrefork())
		})
		t.Run(fn+" writes nowhere but a temporary file, removed after the answer", func(t *testing.T) {
			tmp := t.TempDir()
			inner := filepath.Join(tmp, "a", "b")
			if err := os.MkdirAll(inner, 0o700); err != nil {
				t.Fatal(err)
			}
			env := postEnv(mpX, len(body), "TMPDIR", inner)
			r := execCGI(t, env, nil, strings.NewReader(body))
			checkOutput(t, r, nil)
			if res := decoded(t, r); len(res.Files) != 1 {
				t.Fatalf("files %+v", res.Files)
			}
			var left []string
			filepath.WalkDir(tmp, func(p string, d os.DirEntry, err error) error {
				if p != tmp && p != filepath.Join(tmp, "a") && p != inner {
					left = append(left, p)
				}
				return nil
			})
			if len(left) != 0 {
				t.Errorf("left behind: %q", left)
			}
		})
	}
}

func TestFilenameStarWinsAndIsWarned(t *testing.T) {
	c := corpusCase(t, 52, `filename="a.txt"; filename*=UTF-8''b.txt`)
	each(t, multipartReq(mpX, part(`name="f"; filename="a.txt"; filename*=UTF-8''b.txt`, "A")+"--X--\r\n"), func(t *testing.T, r response) {
		res := decoded(t, r)
		if len(res.Files) != 1 || res.Files[0].Filename != "b.txt" {
			t.Errorf("files %+v (%s)", res.Files, c.Want)
		}
		warned(t, res, `filename "a.txt" ignored`)
	})
}

func TestQuotedPrintablePartIs400(t *testing.T) {
	corpusCase(t, 53, "Content-Transfer-Encoding: quoted-printable")
	body := "--X\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=3Cscript=3E\r\n--X--\r\n"
	each(t, multipartReq(mpX, body), func(t *testing.T, r response) {
		refused(t, r, http.StatusBadRequest, "quoted-printable", "RFC 7578")
	}, noRaw("<script>"), alsoPrefork())
}

func TestMultipartWithoutClosingBoundaryIs400(t *testing.T) {
	corpusCase(t, 54, "--X\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA")
	marker := randomHex(t)
	for _, tc := range []struct{ name, body string }{
		{"a part's content cut", "--X\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n" + marker},
		{"cut inside the next part's headers", part(`name="a"`, marker) + "--X\r\nContent-Dispo"},
		{"cut after a delimiter", part(`name="a"`, marker) + "--X\r\n"},
	} {
		t.Run(tc.name+", and nothing is recorded", func(t *testing.T) {
			rq := multipartReq(mpX, tc.body)
			rq.Script = "cgigate-rec"
			each(t, rq, func(t *testing.T, r response) {
				refused(t, r, http.StatusBadRequest)
				if rec, _ := os.ReadFile(filepath.Join(runDir, "rec.jsonl")); strings.Contains(string(rec), marker) {
					t.Error("the partial form was recorded")
				}
			}, alsoPrefork())
		})
	}
}

func TestCVE_2023_24536_MultipartFloodsAre413(t *testing.T) {
	corpusCase(t, 55, "1,001 parts; or 10,001 header lines in one part; or one header line of 11 MiB")
	t.Run("1,001 parts", func(t *testing.T) {
		body := strings.Repeat(part(`name="a"`, "A"), 1001) + "--X--\r\n"
		each(t, multipartReq(mpX, body), func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "more than 1000 parts")
		}, alsoPrefork())
	})
	t.Run("10,001 part header lines", func(t *testing.T) {
		body := "--X\r\n" + strings.Repeat("X-A: b\r\n", 10001) + "Content-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n--X--\r\n"
		each(t, multipartReq(mpX, body), func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge)
		})
	})
	t.Run("17 part header lines, over the 16 allowed", func(t *testing.T) {
		body := "--X\r\n" + strings.Repeat("X-A: b\r\n", 16) + "Content-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n--X--\r\n"
		each(t, multipartReq(mpX, body), func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "17 header lines")
		})
	})
	line := "--X\r\nContent-Disposition: form-data; name=\"" + strings.Repeat("a", 11<<20) + "\"\r\n\r\nA\r\n--X--\r\n"
	t.Run("one 11 MiB header line, over the body cap", func(t *testing.T) {
		each(t, multipartReq(mpX, line), func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge, "CONTENT_LENGTH")
		})
	})
	t.Run("one 11 MiB header line under a 20 MB body cap", func(t *testing.T) {
		rq := multipartReq(mpX, line)
		rq.Script = "cgigate-bigbody"
		each(t, rq, func(t *testing.T, r response) {
			refused(t, r, http.StatusRequestEntityTooLarge)
		})
	})
}

func TestMalformedPartHeaderIs400(t *testing.T) {
	corpusCase(t, 56, "name=\"a\x00b\"; filename=\"x\ry\"")
	for _, params := range []string{"name=\"a\x00b\"", "name=\"a\"; filename=\"x\ry\""} {
		t.Run(strings.NewReplacer("\x00", `\x00`, "\r", `\r`).Replace(params), func(t *testing.T) {
			each(t, multipartReq(mpX, part(params, "A")+"--X--\r\n"), func(t *testing.T, r response) {
				refused(t, r, http.StatusBadRequest)
			})
		})
	}
}

func TestTextPlainSplitsAtTheFirstEquals(t *testing.T) {
	corpusCase(t, 57, "a=b=c\r\nd\r\n")
	each(t, multipartReq("text/plain", "a=b=c\r\nd\r\n"), func(t *testing.T, r response) {
		wantFields(t, decoded(t, r), b("a", "b=c"), b("d", ""))
	}, alsoPrefork())
}

func randomHex(t *testing.T) string {
	t.Helper()
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "m" + hex.EncodeToString(b)
}
