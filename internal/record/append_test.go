package record

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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

func TestAppendWritesTheContract(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := Append(path, Record{ID: "x"}); err != nil {
		t.Fatal(err)
	}
	line, _ := os.ReadFile(path)
	const want = `{"id":"x","time":"","form":"","remote_addr":"","user_agent":"","referer":"","charset":"","charset_source":"","confidence":0,"fields":[],"files":[],"raw":{"query":"","content_type":"","body":"","parts":[]}}` + "\n"
	if string(line) != want {
		t.Errorf("line\n%s\nwant\n%s", line, want)
	}
}

func TestAppendRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	err := Append(dir, Record{})
	var nr *NotRegularError
	if !errors.As(err, &nr) || !strings.Contains(err.Error(), "directory, not a regular file") {
		t.Errorf("error %v; want a *NotRegularError for a directory", err)
	}
}
