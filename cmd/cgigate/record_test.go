package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/missing"
)

func readRecords(t *testing.T, path string) []record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %d is not a record: %v\n%q", n, err, sc.Text())
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestRecording(t *testing.T) {
	t.Run("a submission is one JSON line with the fields and files as rendered", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "records.jsonl")
		body := "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n印\r\n--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\n\r\nxyz\r\n--B--\r\n"
		a := postCGI(t, "multipart/form-data; boundary=B", body, "CGIGATE_RECORD", path, acceptJSON, "application/json",
			"REMOTE_ADDR", "198.51.100.9", "HTTP_X_FORWARDED_FOR", "6.6.6.6")
		if a.status != 200 {
			t.Fatalf("status %d %s", a.status, a.body)
		}
		res := jsonResult(t, a.body)
		recs := readRecords(t, path)
		if len(recs) != 1 {
			t.Fatalf("%d records", len(recs))
		}
		r := recs[0]
		if !equal(r.Fields, res.Fields) || !equal(r.Files, res.Files) || r.Charset != res.Charset {
			t.Errorf("record %+v; rendered %+v", r, res)
		}
		// Corpus case 60: X-Forwarded-For is never taken for the address.
		if r.RemoteAddr != "198.51.100.9" {
			t.Errorf("remote address %q", r.RemoteAddr)
		}
		if tm, err := time.Parse(time.RFC3339Nano, r.Time); err != nil || time.Since(tm) > time.Hour || time.Since(tm) < -time.Hour {
			t.Errorf("time %q: %v", r.Time, err)
		}
	})
	t.Run("ISINDEX searches and empty requests are not recorded", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "records.jsonl")
		get(t, "foo", "CGIGATE_RECORD", path)
		get(t, "", "CGIGATE_RECORD", path)
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("record file made: %v", err)
		}
	})
	t.Run("50 concurrent processes lose and interleave nothing", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "records.jsonl")
		const n = 50
		big := strings.Repeat("x", 64<<10) // lines larger than a pipe buffer and PIPE_BUF
		var wg sync.WaitGroup
		errs := make(chan string, n)
		for i := range n {
			wg.Go(func() {
				body := fmt.Sprintf("id=%d&pad=%s", i, big)
				a := postCGI(t, "application/x-www-form-urlencoded", body, "CGIGATE_RECORD", path, acceptJSON, "application/json")
				if a.status != 200 {
					errs <- fmt.Sprintf("request %d: status %d %s", i, a.status, a.body)
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
		recs := readRecords(t, path)
		if len(recs) != n {
			t.Fatalf("%d records; want %d", len(recs), n)
		}
		seen := map[string]int{}
		for _, r := range recs {
			if len(r.Fields) != 2 || r.Fields[0].Name != "id" || r.Fields[1].Value != big {
				t.Fatalf("record damaged: %.200q", fmt.Sprint(r.Fields))
			}
			seen[r.Fields[0].Value]++
		}
		for i := range n {
			if c := seen[fmt.Sprint(i)]; c != 1 {
				t.Errorf("submission %d recorded %d times", i, c)
			}
		}
	})
	t.Run("a full disk is 503 and earlier records stay intact", func(t *testing.T) {
		if _, err := os.Stat("/dev/full"); err != nil {
			missing.SkipOrFail(t, "no /dev/full on this system")
		}
		path := filepath.Join(t.TempDir(), "records.jsonl")
		postCGI(t, "application/x-www-form-urlencoded", "a=1", "CGIGATE_RECORD", path)
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := postCGI(t, "application/x-www-form-urlencoded", "a=2", "CGIGATE_RECORD", "/dev/full", acceptJSON, "application/json")
		msg, st := jsonError(t, a.body)
		if a.status != 503 || st != 503 || !strings.Contains(a.stderr, "no space left") {
			t.Errorf("status %d message %q stderr %q", a.status, msg, a.stderr)
		}
		postCGI(t, "application/x-www-form-urlencoded", "a=3", "CGIGATE_RECORD", path)
		after, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(after), string(before)) || len(readRecords(t, path)) != 2 {
			t.Errorf("records before %q after %q", before, after)
		}
	})
	t.Run("an unwritable record file is 503", func(t *testing.T) {
		dir := t.TempDir()
		a := postCGI(t, "application/x-www-form-urlencoded", "a=2", "CGIGATE_RECORD", filepath.Join(dir, "missing", "r.jsonl"))
		if a.status != 503 {
			t.Errorf("status %d", a.status)
		}
	})
}

// failingFile writes part of a line, then fails, as a disk that fills up
// mid-write.
type failingFile struct {
	*os.File
	after int
}

func (f *failingFile) Write(p []byte) (int, error) {
	n, _ := f.File.Write(p[:min(f.after, len(p))])
	return n, errors.New("injected: disk full")
}

func TestWriteLineLeavesNothingPartial(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	earlier := "{\"earlier\":1}\n"
	if err := os.WriteFile(path, []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	err = writeLine(&failingFile{f, 7}, []byte("{\"new\":\"a long line\"}\n"))
	if err == nil {
		t.Fatal("no error")
	}
	got, _ := os.ReadFile(path)
	if string(got) != earlier {
		t.Errorf("file %q; want %q", got, earlier)
	}
}
