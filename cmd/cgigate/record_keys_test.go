package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/cgigate/cgigate/internal/record"
)

func TestRecordKeepsTheRequest(t *testing.T) {
	const mp = "--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\xb0\xf5\xba\xfe\r\n--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\n\r\nfile bytes\r\n--B--\r\n"
	for _, tc := range []struct {
		name, query, ct, body string
		want                  record.Raw
		source                string
	}{
		{"a sniffed query keeps its bytes and says how sure the guess was", "q=%B0%F5%BA%FE", "", "",
			record.Raw{Query: "q=%B0%F5%BA%FE", Parts: []record.Part{}}, "sniffed"},
		{"an urlencoded body is kept with its percent signs and high bytes escaped", "", "application/x-www-form-urlencoded", "a=%41\xb0&b=+",
			record.Raw{ContentType: "application/x-www-form-urlencoded", Body: "a=%2541%B0&b=+", Parts: []record.Part{}}, "sniffed"},
		{"a text/plain body is kept", "", "text/plain; charset=utf-8", "a=1\r\nb=é\r\n",
			record.Raw{ContentType: "text/plain; charset=utf-8", Body: "a=1%0D%0Ab=%C3%A9%0D%0A", Parts: []record.Part{}}, "content-type"},
		{"a multipart body's text parts are kept in base64, its files are not", "x=1", "multipart/form-data; boundary=B", mp,
			record.Raw{Query: "x=1", ContentType: "multipart/form-data; boundary=B", Parts: []record.Part{{Name: "a", Base64: "sPW6/g=="}}}, "sniffed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "records.jsonl")
			env := []string{"QUERY_STRING", tc.query, "CGIGATE_RECORD", path, "HTTP_USER_AGENT", "Mozilla/5.0 (test)", "HTTP_REFERER", "http://example.org/form.html"}
			var a answer
			if tc.ct == "" {
				a = get(t, tc.query, env...)
			} else {
				a = postCGI(t, tc.ct, tc.body, env...)
			}
			if a.status != 200 {
				t.Fatalf("status %d %s", a.status, a.body)
			}
			recs := readRecords(t, path)
			if len(recs) != 1 {
				t.Fatalf("%d records", len(recs))
			}
			r := recs[0]
			if r.Raw.Query != tc.want.Query || r.Raw.ContentType != tc.want.ContentType || r.Raw.Body != tc.want.Body || !equal(r.Raw.Parts, tc.want.Parts) {
				t.Errorf("raw %+v; want %+v", r.Raw, tc.want)
			}
			if r.UserAgent != "Mozilla/5.0 (test)" || r.Referer != "http://example.org/form.html" || r.Form != "" {
				t.Errorf("user agent %q, referer %q, form %q", r.UserAgent, r.Referer, r.Form)
			}
			if r.CharsetSource != tc.source || r.Confidence <= 0 || r.Confidence > 1 || tc.source != "sniffed" && r.Confidence != 1 {
				t.Errorf("charset %s from %s with confidence %v; want the source %s", r.Charset, r.CharsetSource, r.Confidence, tc.source)
			}
		})
	}
}

func TestRecordIDsAreUniqueAndTimeOrdered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.jsonl")
	const n = 20
	for range n {
		postCGI(t, "application/x-www-form-urlencoded", "a=1", "CGIGATE_RECORD", path)
	}
	recs := readRecords(t, path)
	seen := map[string]bool{}
	for i, r := range recs {
		id, err := uuid.Parse(r.ID)
		if err != nil || id.Version() != 7 || id.Variant() != uuid.RFC4122 || id.String() != r.ID {
			t.Fatalf("record %d: id %q is not a UUIDv7 in its canonical text (%v)", i, r.ID, err)
		}
		if seen[r.ID] {
			t.Errorf("id %s given twice", r.ID)
		}
		seen[r.ID] = true
		// One process after another: each id is later than the last, and
		// its millisecond is the record's time's.
		if i > 0 && r.ID <= recs[i-1].ID {
			t.Errorf("id %s is not after %s", r.ID, recs[i-1].ID)
		}
		tm, _ := record.ParseTime(r.Time)
		sec, nsec := id.Time().UnixTime()
		if ms := sec*1000 + nsec/1e6; ms > tm.UnixMilli() || tm.UnixMilli()-ms > 1000 {
			t.Errorf("id's time %d ms, record's %d ms", ms, tm.UnixMilli())
		}
	}
}

func TestUploadedFilesAreKeptWhenAsked(t *testing.T) {
	const content = "file bytes\x00\xff"
	body := "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\n\r\n" + content + "\r\n--B--\r\n"
	h := sha256.Sum256([]byte(content))
	sum := hex.EncodeToString(h[:])
	t.Run("with CGIGATE_FILES_DIR the file is stored by its SHA-256 and the record names it", func(t *testing.T) {
		dir, path := t.TempDir(), filepath.Join(t.TempDir(), "records.jsonl")
		for range 2 {
			if a := postCGI(t, "multipart/form-data; boundary=B", body, "CGIGATE_RECORD", path, "CGIGATE_FILES_DIR", dir); a.status != 200 {
				t.Fatalf("status %d %s", a.status, a.body)
			}
		}
		recs := readRecords(t, path)
		want := filepath.Join(dir, sum)
		for _, r := range recs {
			if len(r.Files) != 1 || r.Files[0].Path != want || r.Files[0].SHA256 != sum {
				t.Errorf("files %+v; want the path %s", r.Files, want)
			}
		}
		if got, err := os.ReadFile(want); err != nil || string(got) != content {
			t.Errorf("kept %q (%v)", got, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("the folder holds %d entries; want the one file, kept once", len(entries))
		}
	})
	t.Run("without it nothing is kept and the record names no path", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "records.jsonl")
		postCGI(t, "multipart/form-data; boundary=B", body, "CGIGATE_RECORD", path)
		if r := readRecords(t, path)[0]; r.Files[0].Path != "" {
			t.Errorf("path %q", r.Files[0].Path)
		}
		line, _ := os.ReadFile(path)
		if strings.Contains(string(line), `"path"`) {
			t.Errorf("line %s", line)
		}
	})
	t.Run("a folder that cannot be written is 503 and nothing is recorded", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "records.jsonl")
		a := postCGI(t, "multipart/form-data; boundary=B", body, "CGIGATE_RECORD", path, "CGIGATE_FILES_DIR", filepath.Join(t.TempDir(), "missing"))
		if a.status != 503 {
			t.Errorf("status %d", a.status)
		}
		if _, err := os.Stat(path); err == nil {
			t.Error("the submission was recorded")
		}
	})
}

func TestALowConfidenceGuessIsWarnedInTheAnswerAndTheRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), "records.jsonl")
	// 印刷 in EUC-JP, which the sniffer reads as EUC-KR 곰빤.
	a := get(t, "q=%B0%F5%BA%FE", "CGIGATE_RECORD", path, acceptJSON, "application/json")
	res := jsonResult(t, a.body)
	r := readRecords(t, path)[0]
	if !equal(r.Warnings, res.Warnings) || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], `euc-jp "印刷"`) {
		t.Errorf("rendered warnings %q, recorded %q", res.Warnings, r.Warnings)
	}
	if r.Confidence >= 0.8 || r.CharsetSource != "sniffed" {
		t.Errorf("confidence %v from %s", r.Confidence, r.CharsetSource)
	}
}

// A declared form keeps its uploads in its own folder (files: DIR), in
// place of CGIGATE_FILES_DIR, which other forms still use.
func TestADeclaredFormKeepsItsFilesInItsOwnFolder(t *testing.T) {
	const content = "a form's own file"
	body := "--B\r\nContent-Disposition: form-data; name=\"cv\"; filename=\"cv.txt\"\r\n\r\n" + content + "\r\n--B--\r\n"
	h := sha256.Sum256([]byte(content))
	sum := hex.EncodeToString(h[:])
	dir := t.TempDir()
	own, shared := filepath.Join(dir, "own"), filepath.Join(dir, "shared")
	for _, d := range []string{own, shared} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	formsFile, path := filepath.Join(dir, "forms.yaml"), filepath.Join(dir, "records.jsonl")
	yaml := "forms:\n  apply:\n    fields:\n      cv: {kind: file}\n    record: true\n    files: " + own + "\n"
	if err := os.WriteFile(formsFile, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	a := postCGI(t, "multipart/form-data; boundary=B", body, "PATH_INFO", "/apply", "CGIGATE_FORMS", formsFile,
		"CGIGATE_RECORD", path, "CGIGATE_FILES_DIR", shared, acceptJSON, "application/json")
	if a.status != 200 {
		t.Fatalf("status %d %s", a.status, a.body)
	}
	want := filepath.Join(own, sum)
	if r := readRecords(t, path); len(r) != 1 || r[0].Form != "apply" || len(r[0].Files) != 1 || r[0].Files[0].Path != want {
		t.Fatalf("records %+v; want one of the form apply naming %s", r, want)
	}
	if got, err := os.ReadFile(want); err != nil || string(got) != content {
		t.Errorf("kept %q (%v)", got, err)
	}
	if entries, _ := os.ReadDir(shared); len(entries) != 0 {
		t.Errorf("CGIGATE_FILES_DIR holds %d entries; want none", len(entries))
	}
	t.Run("a relative folder is a fault of the declaration", func(t *testing.T) {
		bad := filepath.Join(dir, "bad.yaml")
		os.WriteFile(bad, []byte("forms:\n  apply:\n    files: uploads\n"), 0o644)
		out, err := execCommand("-check-forms", bad).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "want an absolute path") || !strings.Contains(string(out), "files") {
			t.Errorf("-check-forms: %v\n%s", err, out)
		}
	})
}
