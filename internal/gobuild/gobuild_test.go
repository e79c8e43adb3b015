package gobuild_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/gobuild"
)

func TestCommandBuildsAStaticBinaryWithItsTags(t *testing.T) {
	dir := t.TempDir()
	src := "//go:build " + gobuild.CGIBin + "\n\npackage main\n\nfunc main() { println(\"tagged\") }\n"
	for name, data := range map[string]string{"go.mod": "module probe\n\ngo 1.26\n", "main.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "probe")
	if msg, err := gobuild.Command(context.Background(), dir, ".", out, gobuild.CGIBin).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	got, err := exec.Command(out).CombinedOutput()
	if err != nil || strings.TrimSpace(string(got)) != "tagged" {
		t.Fatalf("the built program said %q (%v)", got, err)
	}
	info, err := exec.Command("go", "version", "-m", out).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"CGO_ENABLED=0", "-tags=" + gobuild.CGIBin} {
		if !strings.Contains(string(info), want) {
			t.Errorf("go version -m says %q, without %s", info, want)
		}
	}
	t.Run("without the tag the file is left out and the build fails", func(t *testing.T) {
		if err := gobuild.Command(context.Background(), dir, ".", out+"2", "").Run(); err == nil {
			t.Error("built without the tag")
		}
	})
}

func TestModuleRootIsTheNearestFolderWithGoMod(t *testing.T) {
	top := t.TempDir()
	inner := filepath.Join(top, "mod", "a", "b")
	if err := os.MkdirAll(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(top, "go.mod"), filepath.Join(top, "mod", "go.mod")} {
		if err := os.WriteFile(f, []byte("module x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for dir, want := range map[string]string{inner: filepath.Join(top, "mod"), filepath.Join(top, "mod"): filepath.Join(top, "mod"), top: top} {
		if got, err := gobuild.ModuleRoot(dir); err != nil || got != want {
			t.Errorf("ModuleRoot(%s) = %q, %v; want %q", dir, got, err, want)
		}
	}
	if got, err := gobuild.ModuleRoot("/"); err == nil {
		t.Errorf("ModuleRoot(/) = %q with no go.mod at the root", got)
	}
}

func ExampleModuleRoot() {
	wd, _ := os.Getwd()
	root, err := gobuild.ModuleRoot(wd)
	_, statErr := os.Stat(filepath.Join(root, "go.mod"))
	fmt.Println(err, statErr)
	// Output: <nil> <nil>
}
