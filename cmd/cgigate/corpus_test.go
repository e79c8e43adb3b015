package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/badinput"
)

// TestCorpus pins what the gateway does with each case of the bad-input
// table (internal/badinput) at the CGI, multipart, header and rendering
// layers, running the built binary with a hand-set environment. Each
// subtest is named by the case and its source; the input it sends is the
// case's.
func TestCorpus(t *testing.T) {
	mpCT := "multipart/form-data; boundary=X"
	disp := func(params string) string {
		return "--X\r\nContent-Disposition: form-data; " + params + "\r\n\r\nA\r\n--X--\r\n"
	}
	wantStatus := func(t *testing.T, a answer, st int) {
		t.Helper()
		if a.status != st {
			t.Errorf("status %d; want %d\n%s", a.status, st, a.body)
		}
	}
	for _, tc := range []struct {
		id    int
		input string // must occur in the case's input, so the test sends what the corpus says
		run   func(t *testing.T)
	}{
		{2, "utm_content=1;link='><script>alert(1)</script>", func(t *testing.T) {
			a := get(t, "utm_content=1;link='><script>alert(1)</script>")
			if strings.Contains(a.body, "<script>alert") || !strings.Contains(a.body, "<dd>1;link=&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</dd>") {
				t.Errorf("body:\n%s", a.body)
			}
		}},
		{8, "10,001 pairs", func(t *testing.T) {
			a := get(t, strings.Repeat("k=v&", 10000)+"k=v", acceptJSON, "application/json")
			wantStatus(t, a, 413)
		}},
		{9, "10 MiB + 1 byte", func(t *testing.T) {
			env := postEnv("application/x-www-form-urlencoded", "", "CONTENT_LENGTH", fmt.Sprint(10<<20+1))
			a := runCGI(t, env, nil, strings.NewReader("a=1")) // the 413 comes before any read
			wantStatus(t, a, 413)
		}},
		{10, `q="><script>`, func(t *testing.T) {
			a := get(t, `q="><script>`)
			if !strings.Contains(a.body, "&#34;&gt;&lt;script&gt;") {
				t.Errorf("body:\n%s", a.body)
			}
		}},
		{20, "-debug+-config+evil.conf", func(t *testing.T) {
			a := runCGI(t, cgiEnv("QUERY_STRING", "-debug+-config+evil.conf", acceptJSON, "application/json"), []string{"-debug", "-config", "evil.conf"}, strings.NewReader(""))
			if r := jsonResult(t, a.body); !equal(r.Keywords, []string{"-debug", "-config", "evil.conf"}) || len(r.Warnings) != 0 {
				t.Errorf("keywords %q warnings %q", r.Keywords, r.Warnings)
			}
		}},
		{22, "abc%00def", func(t *testing.T) {
			// Apache's argv word stops at the NUL; QUERY_STRING decides.
			a := runCGI(t, cgiEnv("QUERY_STRING", "abc%00def", acceptJSON, "application/json"), []string{"abc"}, strings.NewReader(""))
			r := jsonResult(t, a.body)
			if !equal(r.Keywords, []string{"abc\uFFFDdef"}) || !strings.Contains(strings.Join(r.Warnings, " "), "differ") {
				t.Errorf("keywords %q warnings %q", r.Keywords, r.Warnings)
			}
		}},
		{26, "foo", func(t *testing.T) {
			a := runCGI(t, cgiEnv("REQUEST_METHOD", "POST", "QUERY_STRING", "foo", acceptJSON, "application/json"), []string{"foo"}, strings.NewReader(""))
			r := jsonResult(t, a.body)
			if len(r.Keywords) != 0 || !strings.Contains(strings.Join(r.Warnings, " "), "RFC 3875 § 4.4") {
				t.Errorf("keywords %q warnings %q", r.Keywords, r.Warnings)
			}
		}},
		{48, `boundary=""`, func(t *testing.T) {
			wantStatus(t, postCGI(t, "multipart/form-data", disp(`name="a"`)), 400)
			wantStatus(t, postCGI(t, `multipart/form-data; boundary=""`, disp(`name="a"`)), 400)
		}},
		{49, "71 x 'x'", func(t *testing.T) {
			b := strings.Repeat("x", 71)
			wantStatus(t, postCGI(t, "multipart/form-data; boundary="+b, "--"+b+"\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n--"+b+"--\r\n"), 400)
		}},
		{50, "boundary=abc; boundary=def", func(t *testing.T) {
			wantStatus(t, postCGI(t, "multipart/form-data; boundary=abc; boundary=def", "--abc\r\n"), 400)
		}},
		{51, `..\\..\\win.ini`, func(t *testing.T) {
			tmp := t.TempDir()
			a := postCGI(t, mpCT, disp(`name="f"; filename="..\\..\\win.ini"`), "TMPDIR", tmp, acceptJSON, "application/json")
			r := jsonResult(t, a.body)
			if len(r.Files) != 1 || r.Files[0].Filename != `..\..\win.ini` {
				t.Errorf("files %+v", r.Files)
			}
			left, _ := filepath.Glob(filepath.Join(tmp, "*"))
			if len(left) != 0 {
				t.Errorf("left behind after the answer: %q", left)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(tmp), "win.ini")); err == nil {
				t.Error("the client's file name was used as a path")
			}
		}},
		{52, `filename="a.txt"; filename*=UTF-8''b.txt`, func(t *testing.T) {
			r := jsonResult(t, postCGI(t, mpCT, disp(`name="f"; filename="a.txt"; filename*=UTF-8''b.txt`), acceptJSON, "application/json").body)
			if len(r.Files) != 1 || r.Files[0].Filename != "b.txt" || !strings.Contains(strings.Join(r.Warnings, " "), `"a.txt" ignored`) {
				t.Errorf("files %+v warnings %q", r.Files, r.Warnings)
			}
		}},
		{53, "quoted-printable", func(t *testing.T) {
			body := "--X\r\nContent-Disposition: form-data; name=\"a\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=3Cscript=3E\r\n--X--\r\n"
			wantStatus(t, postCGI(t, mpCT, body), 400)
		}},
		{54, "\r\n\r\nA", func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "r.jsonl")
			a := postCGI(t, mpCT, "--X\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA", "CGIGATE_RECORD", rec)
			wantStatus(t, a, 400)
			if _, err := os.Stat(rec); err == nil {
				t.Error("the partial form was recorded")
			}
		}},
		{55, "1,001 parts", func(t *testing.T) {
			var b strings.Builder
			for range 1001 {
				b.WriteString("--X\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n")
			}
			b.WriteString("--X--\r\n")
			wantStatus(t, postCGI(t, mpCT, b.String()), 413)
			wantStatus(t, postCGI(t, mpCT, "--X\r\n"+strings.Repeat("X-A: b\r\n", 10001)+"Content-Disposition: form-data; name=\"a\"\r\n\r\nA\r\n--X--\r\n"), 413)
			wantStatus(t, postCGI(t, mpCT, "--X\r\nContent-Disposition: form-data; name=\""+strings.Repeat("a", 11<<20)+"\"\r\n\r\nA\r\n--X--\r\n"), 413)
			wantStatus(t, postCGI(t, mpCT, "--X\r\nContent-Disposition: form-data; name=\""+strings.Repeat("a", 11<<20)+"\"\r\n\r\nA\r\n--X--\r\n", "CGIGATE_MAX_BODY", "20000000"), 413)
		}},
		{56, "name=\"a\x00b\"", func(t *testing.T) {
			wantStatus(t, postCGI(t, mpCT, disp("name=\"a\x00b\"")), 400)
			wantStatus(t, postCGI(t, mpCT, disp("name=\"a\"; filename=\"x\ry\"")), 400)
		}},
		{57, "a=b=c\r\nd\r\n", func(t *testing.T) {
			r := jsonResult(t, postCGI(t, "text/plain", "a=b=c\r\nd\r\n", acceptJSON, "application/json").body)
			if !equal(r.Fields, []fieldJSON{{"a", "b=c", "body"}, {"d", "", "body"}}) {
				t.Errorf("fields %+v", r.Fields)
			}
		}},
		{58, "Proxy: http://127.0.0.1:9/", func(t *testing.T) {
			a := get(t, "a=1", "HTTP_PROXY", "http://127.0.0.1:9/", acceptJSON, "application/json")
			if a.status != 200 || a.stderr != "" || strings.Contains(a.body, "127.0.0.1:9") {
				t.Errorf("status %d stderr %q body %s", a.status, a.stderr, a.body)
			}
		}},
		{59, "() { :;}; /bin/echo VULN", func(t *testing.T) {
			a := get(t, "a=1", "HTTP_USER_AGENT", "() { :;}; /bin/echo VULN", acceptJSON, "application/json")
			if a.status != 200 || a.stderr != "" || strings.Contains(a.body, "VULN") {
				t.Errorf("status %d stderr %q body %s", a.status, a.stderr, a.body)
			}
		}},
		{60, "X-Forwarded-For: 1.1.1.1", func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "r.jsonl")
			postCGI(t, "application/x-www-form-urlencoded", "a=1", "CGIGATE_RECORD", rec, "HTTP_X_FORWARDED_FOR", "1.1.1.1", "REMOTE_ADDR", "203.0.113.5")
			if recs := readRecords(t, rec); len(recs) != 1 || recs[0].RemoteAddr != "203.0.113.5" {
				t.Errorf("records %+v", recs)
			}
		}},
		{61, "-1", func(t *testing.T) {
			for _, cl := range []string{"-1", "+5", " 5", "1e3"} {
				a := runCGI(t, postEnv("application/x-www-form-urlencoded", "", "CONTENT_LENGTH", cl), nil, strings.NewReader("a=1&b"))
				wantStatus(t, a, 400)
			}
			// 1*digit past int64 is still a length (RFC 3875 § 4.1.2), too large.
			a := runCGI(t, postEnv("application/x-www-form-urlencoded", "", "CONTENT_LENGTH", "99999999999999999999"), nil, strings.NewReader("a=1&b"))
			wantStatus(t, a, 413)
			env := postEnv("application/x-www-form-urlencoded", "")
			delete(env, "CONTENT_LENGTH")
			env[acceptJSON] = "application/json"
			// Apache's chunked requests: no CONTENT_LENGTH, the body on stdin
			// up to its end, bounded by CGIGATE_MAX_BODY.
			r := jsonResult(t, runCGI(t, env, nil, strings.NewReader("a=1")).body)
			if !equal(r.Fields, []fieldJSON{{"a", "1", "body"}}) {
				t.Errorf("missing CONTENT_LENGTH: fields %+v", r.Fields)
			}
			env["CGIGATE_MAX_BODY"] = "2"
			wantStatus(t, runCGI(t, env, nil, strings.NewReader("a=1")), 413)
		}},
		{62, "CONTENT_LENGTH=100 with 10 bytes", func(t *testing.T) {
			a := runCGI(t, postEnv("application/x-www-form-urlencoded", "", "CONTENT_LENGTH", "100"), nil, strings.NewReader("a=1&b=2&c="))
			wantStatus(t, a, 400)
			// A stall: stdin stays open and silent until the deadline.
			cmd := exec.Command(bin)
			for k, v := range postEnv("application/x-www-form-urlencoded", "", "CONTENT_LENGTH", "100", "CGIGATE_READ_TIMEOUT", "50ms") {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			w, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			wantStatus(t, parseAnswer(t, out, ""), 408)
		}},
		{63, "next=%0D%0ASet-Cookie:%20a=b", func(t *testing.T) {
			a := get(t, "next=%0D%0ASet-Cookie:%20a=b")
			if _, ok := a.header["Set-Cookie"]; ok || a.status != 200 || !strings.Contains(a.body, "Set-Cookie: a=b") {
				t.Errorf("status %d header %v", a.status, a.header)
			}
		}},
		{64, "next=/cgi-bin/admin.cgi", func(t *testing.T) {
			a := get(t, "next=/cgi-bin/admin.cgi")
			if _, ok := a.header["Location"]; ok || a.status != 200 {
				t.Errorf("status %d header %v", a.status, a.header)
			}
		}},
		{65, "Transfer-Encoding", func(t *testing.T) {
			for _, a := range []answer{get(t, "Transfer-Encoding=chunked"), get(t, "Status=302"), postCGI(t, "application/xml", "x")} {
				if _, ok := a.header["Transfer-Encoding"]; ok || a.status == 302 {
					t.Errorf("status %d header %v", a.status, a.header)
				}
			}
		}},
		{66, `"><svg onload=alert(1)>`, func(t *testing.T) {
			a := get(t, "q="+strings.NewReplacer(`"`, "%22", ">", "%3E", "<", "%3C", " ", "%20", "=", "%3D").Replace(`"><svg onload=alert(1)>`))
			if !strings.Contains(a.body, "&#34;&gt;&lt;svg onload=alert(1)&gt;") {
				t.Errorf("body:\n%s", a.body)
			}
		}},
		{67, "javascript:alert(1)", func(t *testing.T) {
			dir := makeIndex(t, map[string]string{"javascript:alert(1).txt": "findme"})
			a := get(t, "findme", "CGIGATE_INDEX_DIR", dir, "CGIGATE_INDEX_URL", "/docs/")
			if strings.Contains(a.body, `href="javascript:`) || !strings.Contains(a.body, `href="/docs/javascript:alert%281%29.txt"`) {
				t.Errorf("body:\n%s", a.body)
			}
		}},
		{68, "\xff\xfe<x>", func(t *testing.T) {
			a := get(t, "q=%FF%FE%3Cx%3E", "CGIGATE_SNIFF", "0")
			if !strings.Contains(a.body, "<dd>\uFFFD\uFFFD&lt;x&gt;</dd>") || strings.Contains(a.body, "\xff") {
				t.Errorf("body:\n%q", a.body)
			}
		}},
	} {
		c, ok := badinput.ByID(tc.id)
		if !ok {
			t.Errorf("the bad-input table has no case %d", tc.id)
			continue
		}
		name := fmt.Sprintf("case %d %s %s", c.ID, c.Theme, c.From)
		t.Run(strings.TrimSpace(name), func(t *testing.T) {
			if !strings.Contains(c.Input+c.Built, tc.input) {
				t.Fatalf("case %d's input %q no longer holds %q: update this test", c.ID, c.Input+c.Built, tc.input)
			}
			tc.run(t)
		})
	}
}
