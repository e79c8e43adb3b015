package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/missing"
	"github.com/cgigate/cgigate/internal/record"
)

func readRecords(t *testing.T, path string) []record.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []record.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := 1; sc.Scan(); n++ {
		var r record.Record
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
		if !equal(r.Fields, recordFields(res)) || !equal(r.Files, recordFiles(res)) || r.Charset != res.Charset {
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
	t.Run("a file size limit hit mid-write is 503 and earlier records stay intact", func(t *testing.T) {
		// A real short write: RLIMIT_FSIZE stops the write(2) part-way
		// with EFBIG, as a full disk does.
		path := filepath.Join(t.TempDir(), "records.jsonl")
		postCGI(t, "application/x-www-form-urlencoded", "a=1", "CGIGATE_RECORD", path)
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		limited := []string{"sh", "-c", `ulimit -f 8 && exec "$0"`} // 8 blocks: 4 or 8 KiB
		a := postCGIWithin(t, limited, "application/x-www-form-urlencoded", "a="+strings.Repeat("x", 64<<10), "CGIGATE_RECORD", path, acceptJSON, "application/json")
		msg, st := jsonError(t, a.body)
		if a.status != 503 || st != 503 || !strings.Contains(a.stderr, "file too large") {
			t.Errorf("status %d message %q stderr %q", a.status, msg, a.stderr)
		}
		postCGI(t, "application/x-www-form-urlencoded", "a=3", "CGIGATE_RECORD", path)
		after, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(after), string(before)) || len(readRecords(t, path)) != 2 {
			t.Errorf("records before %q after %.300q", before, after)
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

// gatewayCmd is the gateway run on a POST of body as postCGI runs it,
// started through prefix (a command that execs its last argument, as
// sh -c '... exec "$0"' does; nil: none), its output kept in out and errb.
func gatewayCmd(ctx context.Context, prefix []string, ct, body string, kv ...string) (cmd *exec.Cmd, out, errb *bytes.Buffer) {
	argv := append(append([]string(nil), prefix...), bin)
	cmd = exec.CommandContext(ctx, argv[0], argv[1:]...)
	for k, v := range postEnv(ct, body, kv...) {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = strings.NewReader(body)
	out, errb = new(bytes.Buffer), new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = out, errb
	return cmd, out, errb
}

// postCGIWithin is postCGI through prefix, and with a deadline: a gateway
// blocked in open(2) on a FIFO is killed after 30 s and fails the test
// rather than hanging it (Apache would wait its Timeout, 300 s).
func postCGIWithin(t *testing.T, prefix []string, ct, body string, kv ...string) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd, out, errb := gatewayCmd(ctx, prefix, ct, body, kv...)
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			t.Fatalf("the gateway had not answered after 30 s: %v\nstderr: %s", ctx.Err(), errb)
		}
		t.Fatalf("run: %v\nstderr: %s", err, errb)
	}
	return parseAnswer(t, out.Bytes(), errb.String())
}

func TestRecordIsNotEscapedForHTML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.jsonl")
	const n = 256 << 10
	tail := "&>\u2028 \"\\ \x01"
	value := strings.Repeat("<", n) + tail
	// The '<'s go unescaped in the body, as urlencoding allows, so that
	// the raw body in the record holds each as one byte too.
	a := postCGI(t, "application/x-www-form-urlencoded", "a="+strings.Repeat("<", n)+url.QueryEscape(tail), "CGIGATE_RECORD", path)
	if a.status != 200 {
		t.Fatalf("status %d %s", a.status, a.body)
	}
	line, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Escaped for HTML, each '<' would be six bytes (\u003c); the line
	// holds them twice, in the value and in the raw body.
	if len(line) > 2*n+2000 {
		t.Errorf("the record line of %d '<' is %d bytes", n, len(line))
	}
	if recs := readRecords(t, path); len(recs) != 1 || len(recs[0].Fields) != 1 || recs[0].Fields[0].Value != value {
		t.Errorf("Go's encoding/json reads the record back otherwise: %.200v", recs)
	}
	// An independent reader: Python's json module.
	python, err := exec.LookPath("python3")
	if err != nil {
		missing.SkipOrFail(t, "python3 is not installed; the record is not read back by Python's json module")
	}
	got, err := exec.Command(python, "-c", `import json, sys
rec = json.loads(open(sys.argv[1], encoding="utf-8").read())
sys.stdout.buffer.write(rec["fields"][0]["value"].encode("utf-8"))`, path).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	if string(got) != value {
		t.Errorf("Python's json module reads the value back as %d bytes %.40q…; want %d bytes", len(got), got, len(value))
	}
}

func TestRecordCarriesTheWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		warned     bool
	}{
		{"a request with warnings records them as rendered", "a=%zz&b=%", true},
		{"a request without warnings has no warnings key", "a=1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "records.jsonl")
			a := postCGI(t, "application/x-www-form-urlencoded", tc.body, "CGIGATE_RECORD", path, acceptJSON, "application/json")
			if a.status != 200 {
				t.Fatalf("status %d %s", a.status, a.body)
			}
			res := jsonResult(t, a.body)
			if warned := len(res.Warnings) > 0; warned != tc.warned {
				t.Fatalf("rendered warnings %q", res.Warnings)
			}
			recs := readRecords(t, path)
			if len(recs) != 1 {
				t.Fatalf("%d records", len(recs))
			}
			if got := recs[0].Warnings; tc.warned && !equal(got, res.Warnings) {
				t.Errorf("recorded warnings %q; rendered %q", got, res.Warnings)
			}
			line, _ := os.ReadFile(path)
			if has := bytes.Contains(line, []byte(`"warnings":`)); has != tc.warned {
				t.Errorf("warnings key present: %v in %s", has, line)
			}
		})
	}
}

func TestRecordFileMustBeRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, kind string
	}{
		{"a FIFO with no reader is refused at once, not waited on", fifo, "named pipe (FIFO)"},
		{"a directory is refused", dir, "directory"},
		{"a character device such as /dev/null is refused", "/dev/null", "character device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := postCGIWithin(t, nil, "application/x-www-form-urlencoded", "a=1", "CGIGATE_RECORD", tc.path, acceptJSON, "application/json")
			_, st := jsonError(t, a.body)
			if a.status != 503 || st != 503 {
				t.Errorf("status %d %s", a.status, a.body)
			}
			if want := tc.kind + ", not a regular file"; !strings.Contains(a.stderr, want) {
				t.Errorf("stderr %q; want it to say %q", a.stderr, want)
			}
		})
	}
}

func TestPartialLastLineIsCutOff(t *testing.T) {
	const whole = "{\"time\":\"2001-02-03T04:05:06Z\",\"fields\":[]}\n"
	for _, tc := range []struct {
		name, before, kept string
		sideIsDir          bool
	}{
		{"a line cut mid-way is moved to the side file", whole + `{"time":"20`, whole, false},
		{"a file of only a partial line is emptied into the side file", `{"ti`, "", false},
		{"a file of whole lines is left as it is", whole + whole, whole + whole, false},
		{"when the side file cannot be written the cut bytes are counted in the error log", whole + `{"time":"20`, whole, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "records.jsonl")
			if err := os.WriteFile(path, []byte(tc.before), 0o640); err != nil {
				t.Fatal(err)
			}
			side := path + ".partial"
			if tc.sideIsDir {
				if err := os.Mkdir(side, 0o750); err != nil {
					t.Fatal(err)
				}
			}
			a := postCGI(t, "application/x-www-form-urlencoded", "a=new", "CGIGATE_RECORD", path)
			if a.status != 200 {
				t.Fatalf("status %d %s", a.status, a.body)
			}
			after, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(after), tc.kept) {
				t.Fatalf("file %q; want it to begin with %q", after, tc.kept)
			}
			recs := readRecords(t, path)
			if last := recs[len(recs)-1]; len(last.Fields) != 1 || last.Fields[0].Value != "new" {
				t.Errorf("last record %+v", last)
			}
			cut := tc.before[len(tc.kept):]
			sideBytes, err := os.ReadFile(side)
			switch {
			case tc.sideIsDir:
				if want := fmt.Sprintf("%d bytes of a partial line", len(cut)); !strings.Contains(a.stderr, want) {
					t.Errorf("stderr %q; want it to say %q", a.stderr, want)
				}
			case cut == "":
				if !errors.Is(err, os.ErrNotExist) {
					t.Errorf("side file made: %q %v", sideBytes, err)
				}
			case string(sideBytes) != cut+"\n":
				t.Errorf("side file %q (%v); want %q", sideBytes, err, cut+"\n")
			}
		})
	}
}

// recordFields and recordFiles are a rendering's fields and files as a
// record holds them.
func recordFields(res result) []record.Field {
	out := []record.Field{}
	for _, f := range res.Fields {
		out = append(out, record.Field{Name: f.Name, Value: f.Value, Source: f.Source})
	}
	return out
}

func recordFiles(res result) []record.File {
	out := []record.File{}
	for _, f := range res.Files {
		out = append(out, record.File{Name: f.Name, Filename: f.Filename, ContentType: f.ContentType, Size: f.Size, SHA256: f.SHA256})
	}
	return out
}
