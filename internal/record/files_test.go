package record

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func TestKeepFile(t *testing.T) {
	dir := t.TempDir()
	content := strings.Repeat("upload ", 10000)
	t.Run("the content is stored under its SHA-256 and nothing else is left in the folder", func(t *testing.T) {
		path, err := KeepFile(dir, strings.NewReader(content), sum(content))
		if err != nil {
			t.Fatal(err)
		}
		if path != filepath.Join(dir, sum(content)) {
			t.Errorf("path %s", path)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Errorf("kept %d bytes (%v); want %d", len(got), err, len(content))
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("folder holds %d entries; want the one file", len(entries))
		}
	})
	t.Run("the same content kept again is the same file", func(t *testing.T) {
		path, err := KeepFile(dir, strings.NewReader(content), sum(content))
		if err != nil || path != filepath.Join(dir, sum(content)) {
			t.Errorf("path %s, %v", path, err)
		}
	})
	t.Run("content that does not hash to the sum is refused and nothing is kept", func(t *testing.T) {
		other := t.TempDir()
		_, err := KeepFile(other, strings.NewReader("changed"), sum(content))
		var he *HashError
		if !errors.As(err, &he) || he.Got != sum("changed") {
			t.Errorf("error %v; want a *HashError", err)
		}
		if entries, _ := os.ReadDir(other); len(entries) != 0 {
			t.Errorf("folder holds %v", entries)
		}
	})
	t.Run("a sum that is not hex cannot name a path", func(t *testing.T) {
		if _, err := KeepFile(dir, strings.NewReader(""), "../"+sum("")[3:]); err == nil {
			t.Error("no error")
		}
	})
	t.Run("a missing folder is an error", func(t *testing.T) {
		if _, err := KeepFile(filepath.Join(dir, "missing"), strings.NewReader(content), sum(content)); err == nil {
			t.Error("no error")
		}
	})
}
