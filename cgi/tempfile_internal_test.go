package cgi

import (
	"io"
	"os"
	"testing"
)

func TestTemporaryFilesHaveNoName(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(string) (*os.File, error)
	}{
		{"an O_TMPFILE file has no name in its folder", openTemp},
		{"the fallback's file loses its name at once", createUnlinked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			f, err := tc.open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("content"); err != nil {
				t.Fatal(err)
			}
			if left, _ := os.ReadDir(dir); len(left) != 0 {
				t.Errorf("named in the folder: %v", left)
			}
			if got, err := io.ReadAll(io.NewSectionReader(f, 0, 7)); err != nil || string(got) != "content" {
				t.Errorf("read back %q, %v", got, err)
			}
		})
	}
}
