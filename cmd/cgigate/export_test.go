//go:build !cgionly

package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
	"github.com/cgigate/cgigate/internal/record"
)

// exportRun is `cgigate export args...`: its stdout, stderr and exit code.
func exportRun(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := execCommand(append([]string{"export"}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// pythonDecode decodes each byte string with Python's codec, the
// independent truth for a charset.
func pythonDecode(t *testing.T, codec string, raws []string) []string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		missing.SkipOrFail(t, "python3 is not installed: export is not checked against Python's codecs")
	}
	var in strings.Builder
	for _, r := range raws {
		in.WriteString(hex.EncodeToString([]byte(r)) + "\n")
	}
	cmd := exec.Command(python, "-c", `import sys, json
print(json.dumps([bytes.fromhex(l.strip()).decode(sys.argv[1]) for l in sys.stdin]))`, codec)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// exportFixture records three submissions in EUC-JP that name no charset,
// through the gateway: a query, an urlencoded body, a multipart text part
// and a text/plain body, and returns the record file and the EUC-JP bytes
// of each field value, in order.
func exportFixture(t *testing.T) (path string, values []string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "records.jsonl")
	const (
		insatsu = "\xb0\xf5\xba\xfe"         // 印刷 in EUC-JP, sniffed as EUC-KR
		nihongo = "\xc6\xfc\xcb\xdc\xb8\xec" // 日本語
		kana    = "\xa4\xab\xa4\xca"         // かな
	)
	steps := []struct {
		ct, query, body string
		values          []string
	}{
		{"", "q=%B0%F5%BA%FE", "", []string{insatsu}},
		{"application/x-www-form-urlencoded", "", "name=%C6%FC%CB%DC%B8%EC&note=%25+=1%2B1", []string{nihongo, "% =1+1"}},
		{"multipart/form-data; boundary=B", "", "--B\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\n" + kana + "\r\n--B--\r\n", []string{kana}},
		{"text/plain", "", "name=" + insatsu + "\r\n", []string{insatsu}},
	}
	for _, s := range steps {
		var a answer
		if s.ct == "" {
			a = get(t, s.query, "CGIGATE_RECORD", path)
		} else {
			a = postCGI(t, s.ct, s.body, "CGIGATE_RECORD", path)
		}
		if a.status != 200 {
			t.Fatalf("status %d %s", a.status, a.body)
		}
		values = append(values, s.values...)
	}
	return path, values
}

func TestExportDecodesAgainInTheCharsetAsked(t *testing.T) {
	path, raws := exportFixture(t)
	for _, tc := range []struct {
		name, charset, codec string
	}{
		{"-charset euc-jp gives each value as Python's euc_jp codec reads its bytes", "euc-jp", "euc_jp"},
		{"-charset gbk gives what Python's gbk codec reads", "gbk", "gbk"},
		{"-charset euc-kr gives what Python's cp949 codec reads (WHATWG's euc-kr is windows-949)", "euc-kr", "cp949"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := exportRun(t, "-charset", tc.charset, path)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got []string
			for line := range strings.Lines(out) {
				var r record.Record
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Fatalf("%v: %q", err, line)
				}
				if r.CharsetSource != "export" || r.Confidence != 1 {
					t.Errorf("charset %s from %s, confidence %v", r.Charset, r.CharsetSource, r.Confidence)
				}
				for _, f := range r.Fields {
					got = append(got, f.Value)
				}
			}
			want := pythonDecode(t, tc.codec, raws)
			if !equal(got, want) {
				t.Errorf("exported values %q; want %q", got, want)
			}
		})
	}
	t.Run("without -charset the lines are printed as recorded", func(t *testing.T) {
		out, _, code := exportRun(t, path)
		file, _ := os.ReadFile(path)
		if code != 0 || out != string(file) {
			t.Errorf("exit %d, output\n%s\nwant the file\n%s", code, out, file)
		}
	})
}

func TestExportCSV(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		missing.SkipOrFail(t, "python3 is not installed: the CSV is not read by Python's csv module")
	}
	path := filepath.Join(t.TempDir(), "records.jsonl")
	for _, body := range []string{
		"name=Ada&msg=%E5%8D%B0%E5%88%B7%0D%0Aline+2",
		"msg=%3D1%2B2&id=7&name=Grace&msg=second",
	} {
		if a := postCGI(t, "application/x-www-form-urlencoded", body, "CGIGATE_RECORD", path); a.status != 200 {
			t.Fatalf("status %d %s", a.status, a.body)
		}
	}
	out, stderr, code := exportRun(t, "-format", "csv", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(out, "\uFEFF") {
		t.Errorf("no byte order mark: %.40q", out)
	}
	// Python reads the file as a spreadsheet would: utf-8-sig takes the
	// BOM off, the csv module splits rows and quoted cells.
	csvPath := filepath.Join(t.TempDir(), "export.csv")
	os.WriteFile(csvPath, []byte(out), 0o644)
	got, err := exec.Command(python, "-c", `import csv, json, sys
with open(sys.argv[1], encoding="utf-8-sig", newline="") as f:
    print(json.dumps(list(csv.DictReader(f))))`, csvPath).Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	var rows []map[string]string
	if err := json.Unmarshal(got, &rows); err != nil {
		t.Fatal(err)
	}
	header := strings.SplitN(strings.TrimPrefix(out, "\uFEFF"), "\n", 2)[0]
	const wantHeader = "id,time,form,remote_addr,user_agent,referer,charset,charset_source,confidence,name,msg,id (field),files,warnings"
	if header != wantHeader {
		t.Errorf("header %q; want %q", header, wantHeader)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, c := range []struct {
		row       int
		col, want string
	}{
		{0, "name", "Ada"},
		{0, "msg", "印刷\r\nline 2"},
		{0, "id (field)", ""},
		{1, "msg", "'=1+2\nsecond"}, // a formula defused; two values, a line each
		{1, "id (field)", "7"},
		{1, "name", "Grace"},
		{1, "remote_addr", "192.0.2.7"},
	} {
		if got := rows[c.row][c.col]; got != c.want {
			t.Errorf("row %d column %q: %q; want %q", c.row+1, c.col, got, c.want)
		}
	}
	if len(rows[0]["id"]) != 36 {
		t.Errorf("id %q", rows[0]["id"])
	}
	out, _, _ = exportRun(t, "-format", "csv", "-bom=false", path)
	if strings.HasPrefix(out, "\uFEFF") {
		t.Error("-bom=false still writes a byte order mark")
	}
}

func TestExportSinceAndBadLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.jsonl")
	lines := `{"id":"a","time":"2024-01-01T00:00:00Z","fields":[],"files":[]}
not json
{"id":"b","time":"2024-06-01T12:00:00.5Z","fields":[],"files":[]}
{"id":"c","time":"2025-01-01T00:00:00Z","fields":[],"files":[]}
{"id":"d","ti`
	os.WriteFile(path, []byte(lines), 0o640)
	for _, tc := range []struct {
		name, since string
		ids         string
	}{
		{"every record without -since", "", "a,b,c"},
		{"a date keeps the records from its midnight UTC", "2024-06-01", "b,c"},
		{"an RFC 3339 time keeps the records at or after it", "2024-06-01T12:00:00.5Z", "b,c"},
		{"a time after the last record keeps none", "2030-01-01T00:00:00+09:00", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{path}
			if tc.since != "" {
				args = []string{"-since", tc.since, path}
			}
			out, stderr, code := exportRun(t, args...)
			var ids []string
			for line := range strings.Lines(out) {
				var r record.Record
				json.Unmarshal([]byte(line), &r)
				ids = append(ids, r.ID)
			}
			if strings.Join(ids, ",") != tc.ids {
				t.Errorf("ids %v; want %s", ids, tc.ids)
			}
			// The line that is not JSON and the cut last line are named,
			// and the exit status says something was left out.
			if code != 1 || !strings.Contains(stderr, "offset 64") || !strings.Contains(stderr, "has no newline") {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
		})
	}
	t.Run("-charset on a record without raw input names it and leaves it out", func(t *testing.T) {
		out, stderr, code := exportRun(t, "-charset", "euc-jp", path)
		if out != "" || code != 1 || strings.Count(stderr, "holds no raw input") != 3 {
			t.Errorf("exit %d, out %q, stderr %q", code, out, stderr)
		}
	})
	t.Run("a bad flag value is exit 2", func(t *testing.T) {
		for _, args := range [][]string{{"-format", "xml", path}, {"-charset", "no-such", path}, {"-since", "yesterday", path}, {}} {
			if _, stderr, code := exportRun(t, args...); code != 2 {
				t.Errorf("%q: exit %d, %s", args, code, stderr)
			}
		}
	})
}
