package sniff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
)

// TestUchardetOutputIsCurrent checks the committed uchardet.tsv, which the
// accuracy test compares against, with a live uchardet (Debian package
// uchardet). Skipped where uchardet is absent, except in CI.
func TestUchardetOutputIsCurrent(t *testing.T) {
	path, err := exec.LookPath("uchardet")
	if err != nil {
		missing.SkipOrFail(t, "uchardet is not installed (apt-get install uchardet); testdata/sniff/uchardet.tsv is used as committed")
	}
	rows := loadCorpus(t)
	dir := t.TempDir()
	args := make([]string, len(rows))
	for i, r := range rows {
		args[i] = filepath.Join(dir, "row"+strconv.Itoa(i))
		if err := os.WriteFile(args[i], r.raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// One process per string, as uchardet.sh runs it.
	for i, r := range rows {
		out, err := exec.Command(path, args[i]).Output()
		if err != nil {
			t.Fatalf("uchardet %s: %v", args[i], err)
		}
		if got := string(trimNL(out)); got != r.uchardet {
			t.Errorf("row %d (%q in %s): uchardet says %s, uchardet.tsv %s: rerun testdata/sniff/uchardet.sh", i+1, r.Text, r.Charset, got, r.uchardet)
		}
	}
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
