package security

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
)

// fsizeBlocks is the file size limit (ulimit -f, 512-byte blocks) of the
// cgigate-fsize wrapper: a record file already holding earlierFill bytes
// can take a little more, then the disk is "full".
const fsizeBlocks = 3

// earlierRecord is a record line from before the fault.
const earlierRecord = `{"time":"2026-01-01T00:00:00Z","remote_addr":"192.0.2.1","charset":"utf-8","fields":[{"name":"earlier","value":"kept","source":"body"}],"files":[]}` + "\n"

// indexDocs is the search index of the cgigate-index wrapper.
var indexDocs = map[string]string{
	"javascript:alert(1).txt": "findme in a file whose name is a javascript: URL",
	"plain.txt":               "findme plainly",
	"latin1.txt":              "findme caf\xe9 in ISO-8859-1, not UTF-8",
	"markup.html":             "<html><head><title>T &lt;b&gt;</title></head><body>findme <script>alert(1)</script></body></html>",
}

// Faults: what the gateway does when the world around it fails, each
// with its documented outcome (SECURITY.md). None loses an earlier
// record or leaves a partial one; TestMain checks every record file of
// the run for whole JSON lines at the end.

// recordLines reads a record file's lines, failing t on a partial one.
func recordLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := wholeLines(data); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return strings.SplitAfter(string(data), "\n")
}

// wholeLines reports a record file that does not end in a newline or
// holds a line that is not one JSON object.
func wholeLines(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	if data[len(data)-1] != '\n' {
		return fmt.Errorf("a partial last line: %q", tail(string(data), 200))
	}
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			return fmt.Errorf("line %d is not a JSON object: %v: %q", i+1, err, l)
		}
	}
	return nil
}

func countMarker(t *testing.T, path, marker string) int {
	t.Helper()
	n := 0
	for _, l := range recordLines(t, path) {
		if strings.Contains(l, marker) {
			n++
		}
	}
	return n
}

func TestFaultClientDisconnectsMidBody(t *testing.T) {
	rec := filepath.Join(runDir, "rec.jsonl")
	for _, mpm := range []string{"event", "prefork"} {
		t.Run("through Apache "+mpm+": Apache answers 400, nothing is recorded, the next submission is", func(t *testing.T) {
			marker := randomHex(t)
			before := recordLines(t, rec)
			r := clientCut(t, mpm, "cgigate-rec", "m="+marker+"&rest=", 1000)
			if r.Status != 0 && r.Status != http.StatusBadRequest {
				t.Errorf("status %d", r.Status)
			}
			if n := countMarker(t, rec, marker); n != 0 {
				t.Errorf("the cut submission was recorded %d times", n)
			}
			// A client that closes outright, without reading anything.
			srv := apache(t, httpdconf.MPM(mpm))
			conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(conn, "POST /cgi-bin/cgigate-rec HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\nm=%s&x=", marker)
			conn.Close()
			next := form("m=" + marker + "-next")
			next.Script = "cgigate-rec"
			decoded(t, viaApache(t, httpdconf.MPM(mpm), next))
			if n := countMarker(t, rec, marker+"-next"); n != 1 {
				t.Errorf("the next submission was recorded %d times", n)
			}
			if after := recordLines(t, rec); !strings.HasPrefix(strings.Join(after, ""), strings.Join(before, "")) {
				t.Fatal("earlier records changed")
			}
		})
	}
}

func TestFaultContentLengthLargerThanTheBody(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "r.jsonl")
	marker := randomHex(t)
	body := "m=" + marker
	r := execCGI(t, postEnv("application/x-www-form-urlencoded", len(body)+1, "CGIGATE_RECORD", rec), nil, strings.NewReader(body))
	checkOutput(t, r, nil)
	refused(t, r, http.StatusBadRequest, "ended after")
	if _, err := os.Stat(rec); err == nil && countMarker(t, rec, marker) != 0 {
		t.Error("the short body was recorded")
	}
}

// TestFaultStdoutClosedEarly: the reader of the answer is gone before the
// gateway writes. SIGPIPE is ignored in CGI mode, so the write fails with
// EPIPE: the gateway exits 1 with the reason on stderr, its temporary
// files are removed, and the submission, recorded before the answer, is
// in the record exactly once.
func TestFaultStdoutClosedEarly(t *testing.T) {
	tmp := t.TempDir()
	rec := filepath.Join(t.TempDir(), "r.jsonl")
	marker := randomHex(t)
	body := "--X\r\nContent-Disposition: form-data; name=\"m\"\r\n\r\n" + marker + "\r\n" + strings.TrimPrefix(mpFile, "")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr.Close()
	defer pw.Close()
	_, stderr := runGateway(t, proc{
		env:   postEnv("multipart/form-data; boundary=X", len(body), "TMPDIR", tmp, "CGIGATE_RECORD", rec),
		stdin: strings.NewReader(body), stdout: pw, fail: true,
	})
	if !strings.Contains(stderr, "broken pipe") {
		t.Errorf("stderr %q does not say broken pipe", stderr)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if n := countMarker(t, rec, marker); n != 1 {
		t.Errorf("recorded %d times; want once", n)
	}
}

// fsizeFill is the record file of cgigate-fsize before each test: whole
// earlier lines, 40 bytes short of the file size limit, so that the next
// record crosses it half-way.
func fsizeFill() []byte {
	limit := fsizeBlocks * 512
	var b strings.Builder
	for b.Len()+2*len(earlierRecord) < limit-40 {
		b.WriteString(earlierRecord)
	}
	pad := limit - 40 - b.Len() - len(`{"pad":""}`+"\n")
	b.WriteString(`{"pad":"` + strings.Repeat("x", pad) + `"}` + "\n")
	return []byte(b.String())
}

func TestFaultRecordOnAFullDisk(t *testing.T) {
	t.Run("/dev/full is 503", func(t *testing.T) {
		rq := form("a=1")
		rq.Script = "cgigate-full"
		each(t, rq, func(t *testing.T, r response) {
			refusedFault(t, r, http.StatusServiceUnavailable)
		}, serverFault(), alsoPrefork())
	})
	t.Run("a file size limit crossed half-way through a line is 503, and the file is as it was", func(t *testing.T) {
		path := filepath.Join(runDir, "fsize.jsonl")
		fill := fsizeFill()
		if len(fill) != fsizeBlocks*512-40 {
			t.Fatalf("fill of %d bytes", len(fill))
		}
		rq := form("m=" + randomHex(t) + "&pad=" + strings.Repeat("p", 100))
		rq.Script = "cgigate-fsize"
		each(t, rq, func(t *testing.T, r response) {
			refusedFault(t, r, http.StatusServiceUnavailable)
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(fill) {
				t.Errorf("the record file changed: %d bytes, was %d; tail %q", len(got), len(fill), tail(string(got), 120))
			}
		}, serverFault(), before(func(t *testing.T) {
			if err := writeMode(path, fill, 0o666); err != nil {
				t.Fatal(err)
			}
		}))
	})
	t.Run("a small record still fits under the limit", func(t *testing.T) {
		path := filepath.Join(runDir, "fsize.jsonl")
		if err := writeMode(path, nil, 0o666); err != nil {
			t.Fatal(err)
		}
		rq := form("a=1")
		rq.Script = "cgigate-fsize"
		each(t, rq, func(t *testing.T, r response) { decoded(t, r) })
		if n := len(recordLines(t, path)); n != 3 { // two records, and SplitAfter's empty tail
			t.Errorf("%d lines", n-1)
		}
	})
}

func TestFaultRecordFileUnwritable(t *testing.T) {
	path := filepath.Join(base, "ro", "rec.jsonl")
	check := func(t *testing.T, r response) {
		refusedFault(t, r, http.StatusServiceUnavailable)
		if got, _ := os.ReadFile(path); string(got) != earlierRecord {
			t.Errorf("the record file changed: %q", got)
		}
	}
	t.Run("through Apache, as www-data, a file of root's mode 0644", func(t *testing.T) {
		needRoot(t)
		rq := form("a=1")
		rq.Script = "cgigate-readonly"
		each(t, rq, check, serverFault(), withoutDirect(), alsoPrefork())
	})
	t.Run("by exec as nobody", func(t *testing.T) {
		needRoot(t)
		r, stderr := runGateway(t, proc{env: postEnv("application/x-www-form-urlencoded", 3, "CGIGATE_RECORD", path), stdin: strings.NewReader("a=1"), uid: 65534})
		checkOutputOpts(t, r, runOpts{fault: true})
		check(t, r)
		if !strings.Contains(stderr, "permission denied") {
			t.Errorf("stderr %q does not give the reason", stderr)
		}
	})
}

func TestFaultIndexMissingOrUnreadable(t *testing.T) {
	for _, tc := range []struct{ script, dir string }{
		{"cgigate-noindex", filepath.Join(base, "missing")},
		{"cgigate-unreadable", filepath.Join(base, "secret")},
	} {
		t.Run(tc.script+" through Apache is 500, the reason in Apache's error log, not in the answer", func(t *testing.T) {
			if tc.script == "cgigate-unreadable" {
				needRoot(t)
			}
			each(t, request{Script: tc.script, Query: "findme"}, func(t *testing.T, r response) {
				msg := refused(t, r, http.StatusInternalServerError)
				if msg != "Internal Server Error" || strings.Contains(string(r.Body), tc.dir) {
					t.Errorf("the answer says %q", r.Body)
				}
				if log := apache(t, httpdconf.MPM(r.Via)).ErrorLog(); !strings.Contains(log, tc.dir) {
					t.Errorf("the error log does not name %s:\n%s", tc.dir, tail(log, 1500))
				}
			}, serverFault(), withoutDirect())
		})
		t.Run(tc.script+" by exec as nobody is 500, the reason on stderr", func(t *testing.T) {
			needRoot(t)
			r, stderr := runGateway(t, proc{env: cgiEnv("QUERY_STRING", "findme", "CGIGATE_INDEX_DIR", tc.dir), uid: 65534})
			checkOutputOpts(t, r, runOpts{fault: true})
			refused(t, r, http.StatusInternalServerError)
			if !strings.Contains(stderr, tc.dir) {
				t.Errorf("stderr %q", stderr)
			}
		})
	}
	t.Run("a form needs no index: the same gateway answers it", func(t *testing.T) {
		each(t, request{Script: "cgigate-noindex", Query: "a=1"}, func(t *testing.T, r response) { decoded(t, r) })
	})
}

// A document that is not UTF-8 is read in its charset (here sniffed as
// Latin-1) and found like the others; nothing about it reaches the
// visitor's warnings.
func TestFaultDocumentNotUTF8(t *testing.T) {
	each(t, request{Script: "cgigate-index", Query: "findme"}, func(t *testing.T, r response) {
		res := decoded(t, r)
		for _, w := range res.Warnings {
			if strings.Contains(w, "latin1.txt") {
				t.Errorf("a visitor's warning names the document: %q", w)
			}
		}
		var urls []string
		for _, x := range res.Results {
			urls = append(urls, x.URL)
		}
		if len(urls) != 4 || !strings.Contains(strings.Join(urls, " "), "latin1.txt") {
			t.Errorf("results %q; want the four documents, latin1.txt among them", urls)
		}
	}, alsoPrefork())
	t.Run("the markup document's title and snippet are escaped", func(t *testing.T) {
		each(t, request{Script: "cgigate-index", Query: "findme", Accept: "text/html"}, func(t *testing.T, r response) {
			wantHTML(t, r, "T &lt;b&gt;")
		}, noRaw("<script>alert(1)", "<b>"))
	})
}

// refusedFault checks a server fault's answer: the status and its status
// text only, the reason kept for the error log.
func refusedFault(t *testing.T, r response, status int) {
	t.Helper()
	if msg := refused(t, r, status); msg != http.StatusText(status) {
		t.Errorf("%s: the answer says %q; want only %q", r.Via, msg, http.StatusText(status))
	}
}

// needRoot skips a test that runs the gateway as another user (www-data
// under Apache, nobody by exec) than the owner of the files it must not
// write or read: only root can set that up. CI runs as root.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("this test needs root (CI=true runs as root)")
		}
		t.Skip("needs root: Apache's children and the exec'd gateway must run as a user other than the files' owner")
	}
}

// TestFaultClientDisconnectsMidUpload: a client sends the headers and half
// of a multipart body with a large file part, then goes away. Apache ends
// the CGI child (SIGTERM, then SIGKILL), and Go runs no deferred call on
// either, so whatever the gateway would remove after the answer stays. The
// file part has no name in TMPDIR (O_TMPFILE), so once the child is gone,
// TMPDIR is empty.
func TestFaultClientDisconnectsMidUpload(t *testing.T) {
	const uploads = 3
	const size = 4 << 20
	head := "--X\r\nContent-Disposition: form-data; name=\"f\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
	tail := "\r\n--X--\r\n"
	for _, mpm := range []httpdconf.MPM{httpdconf.MPMEvent, httpdconf.MPMPrefork} {
		t.Run(fmt.Sprintf("through Apache %s, %d uploads cut half-way leave nothing in TMPDIR", mpm, uploads), func(t *testing.T) {
			srv := apache(t, mpm)
			dir := uploadDir(mpm)
			for i := range uploads {
				conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(conn, "POST /cgi-bin/cgigate-upload-%s HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=X\r\nContent-Length: %d\r\n\r\n%s",
					mpm, len(head)+size+len(tail), head)
				if _, err := conn.Write(make([]byte, size/2)); err != nil {
					t.Fatal(err)
				}
				// The child is storing the file part: it holds a file in dir.
				pid := holderOf(t, dir)
				conn.Close()
				if !gone(pid) {
					t.Fatalf("upload %d: the CGI child %d still runs 60 s after the client left", i+1, pid)
				}
				if left, _ := os.ReadDir(dir); len(left) != 0 {
					t.Errorf("upload %d: left in TMPDIR: %v", i+1, left)
					for _, e := range left {
						os.Remove(filepath.Join(dir, e.Name()))
					}
				}
			}
		})
	}
}

// holderOf polls the open descriptors of every process (/proc/PID/fd) for
// a file in dir, named or not (an unnamed one reads "dir/#inode
// (deleted)"), and returns that process, for at most 30 s.
func holderOf(t *testing.T, dir string) int {
	t.Helper()
	for range 3000 {
		fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
		for _, fd := range fds {
			if target, err := os.Readlink(fd); err == nil && strings.HasPrefix(target, dir+"/") {
				var pid int
				fmt.Sscanf(strings.TrimPrefix(fd, "/proc/"), "%d", &pid)
				return pid
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no process opened a file in %s", dir)
	return 0
}

// gone polls until process pid has ended (exited, or a zombie: its
// descriptors are closed either way), for at most 60 s.
func gone(pid int) bool {
	for range 6000 {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		// The state follows the command's closing parenthesis.
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && strings.HasPrefix(string(stat[i:]), ") Z") {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}
