package bench

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateIndex(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		if err := GenerateIndex(d, 250, 7); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string][]byte{}
	filepath.WalkDir(a, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.Type().IsRegular() {
			data, _ := os.ReadFile(p)
			files[p[len(a):]] = data
		}
		return err
	})
	t.Run("n documents are written, half of them HTML", func(t *testing.T) {
		html := 0
		for p := range files {
			if strings.HasSuffix(p, ".html") {
				html++
			}
		}
		if len(files) != 250 || html != 125 {
			t.Errorf("%d documents, %d HTML; want 250, 125", len(files), html)
		}
	})
	t.Run("the same seed writes the same documents", func(t *testing.T) {
		for p, data := range files {
			other, err := os.ReadFile(filepath.Join(b, p))
			if err != nil || !bytes.Equal(data, other) {
				t.Errorf("%s differs between two runs with seed 7 (%v)", p, err)
			}
		}
	})
	t.Run("the words searched for occur", func(t *testing.T) {
		var needle, hay int
		for _, data := range files {
			if bytes.Contains(data, []byte(Needle)) {
				needle++
			}
			if bytes.Contains(data, []byte(Hay)) {
				hay++
			}
		}
		if needle == 0 || hay < needle {
			t.Errorf("%d documents with %q, %d with %q; want some, and more with the second", needle, Needle, hay, Hay)
		}
	})
}
