package integration

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/apachetest"
)

// record is one line of the CGIGATE_RECORD file (cmd/cgigate/README.md).
type record struct {
	Time       string  `json:"time"`
	RemoteAddr string  `json:"remote_addr"`
	Charset    string  `json:"charset"`
	Fields     []field `json:"fields"`
	Files      []file  `json:"files"`
	Form       string  `json:"form"` // the declared form, "" for the gateway itself
}

// submissions is how many form POSTs are in flight at once: as many CGI
// processes appending to one file.
const submissions = 50

// TestConcurrentSubmissionsAreEachRecordedOnceThroughApache posts 50 forms
// at once, every fifth a multipart one with a file, to a gateway recording
// into a file it creates itself (in a folder www-data may write), and
// checks that the file then holds exactly one line per submission, each
// with the fields and files of that submission's JSON answer.
func TestConcurrentSubmissionsAreEachRecordedOnceThroughApache(t *testing.T) {
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			t.Parallel()
			path := recordPath(t)
			s := startGateway(t, apachetest.Options{MPM: mpm, Env: map[string]string{"CGIGATE_RECORD": path}})
			checkRecords(t, s, path, submitConcurrently(t, s))
		})
	}
}

// recordPath names a record file in a fresh folder that Apache's www-data
// children may create files in; the gateway creates the file itself.
func recordPath(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(apachetest.Dir(t), "records")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o1777); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "submissions.jsonl")
}

// submitConcurrently posts the submissions all at once, every fifth a
// multipart one with a file, and returns each one's JSON answer.
func submitConcurrently(t *testing.T, s *apachetest.Server) []result {
	t.Helper()
	replies := make([]reply, submissions)
	errs := make([]error, submissions)
	var wg sync.WaitGroup
	for i := range submissions {
		wg.Go(func() {
			target := fmt.Sprintf("%s?n=%d", gatewayPath, i)
			if i%5 == 0 {
				var body bytes.Buffer
				mw := multipart.NewWriter(&body)
				mw.WriteField("text", fmt.Sprintf("印刷 %d", i))
				w, _ := mw.CreateFormFile("upload", fmt.Sprintf("f%d.txt", i))
				fmt.Fprintf(w, "file %d\n", i)
				mw.Close()
				replies[i], errs[i] = do(s, "POST", target, mw.FormDataContentType(), body.Bytes(), "application/json")
				return
			}
			body := fmt.Sprintf("text=%%E5%%8D%%B0%%E5%%88%%B7+%d&pad=%s", i, bytes.Repeat([]byte{'x'}, 100*i))
			replies[i], errs[i] = do(s, "POST", target, "application/x-www-form-urlencoded", []byte(body), "application/json")
		})
	}
	wg.Wait()
	answers := make([]result, submissions)
	for i := range submissions {
		if errs[i] != nil {
			t.Fatalf("submission %d: %v\n%s", i, errs[i], tail(s.ErrorLog()))
		}
		answers[i] = wantResult(t, s, fmt.Sprintf("submission %d", i), replies[i])
	}
	return answers
}

// checkRecords reads the record file at path and checks that it holds
// exactly one whole line per submission, each with the fields, files and
// charset of that submission's answer.
func checkRecords(t *testing.T, s *apachetest.Server, path string, answers []result) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the record file: %v\n%s", err, tail(s.ErrorLog()))
	}
	defer f.Close()
	seen := map[string]int{}
	lines := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines++
		var rec record
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			t.Errorf("line %d is not one whole record: %v\n%.200s", lines, err, sc.Bytes())
			continue
		}
		if len(rec.Fields) == 0 || rec.Fields[0].Name != "n" {
			t.Errorf("line %d: fields %+v, want n first", lines, rec.Fields)
			continue
		}
		n := rec.Fields[0].Value
		seen[n]++
		var i int
		if _, err := fmt.Sscan(n, &i); err != nil || i < 0 || i >= submissions {
			t.Errorf("line %d: n=%q is no submission of this test", lines, n)
			continue
		}
		a := answers[i]
		if !slices.Equal(rec.Fields, a.Fields) || !slices.Equal(rec.Files, a.Files) {
			t.Errorf("record of n=%d: fields %+v files %+v, want the answer's %+v %+v", i, rec.Fields, rec.Files, a.Fields, a.Files)
		}
		if rec.Charset != a.Charset {
			t.Errorf("record of n=%d: charset %q, want the answer's %q", i, rec.Charset, a.Charset)
		}
		if rec.RemoteAddr != "127.0.0.1" {
			t.Errorf("record of n=%d: remote_addr %q, want 127.0.0.1", i, rec.RemoteAddr)
		}
		if _, err := time.Parse(time.RFC3339Nano, rec.Time); err != nil {
			t.Errorf("record of n=%d: time %q: %v", i, rec.Time, err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines != submissions {
		t.Errorf("%d lines, want %d", lines, submissions)
	}
	for i := range submissions {
		if c := seen[fmt.Sprint(i)]; c != 1 {
			t.Errorf("submission n=%d recorded %d times, want once", i, c)
		}
	}
}
