package bench

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/gobuild"
)

// TestPeers checks that the benchmark compares programs doing the same
// job: for the benchmark's request every peer prints the fields Want
// (decoded by net/url's encoder's inverse, by hand), as HTML and as JSON.
// It runs no load and times nothing.
func TestPeers(t *testing.T) {
	if miss := Missing(Interpreters); len(miss) > 0 {
		for _, m := range miss {
			apachetest.SkipOrFail(t, m)
		}
	}
	root := testModuleRoot(t)
	peers, err := BuildPeers(context.Background(), t.TempDir(), root, "")
	if err != nil {
		t.Fatal(err)
	}

	t.Run("every peer run as a CGI child prints the decoded fields", func(t *testing.T) {
		for _, name := range PeerNames {
			for _, accept := range []string{"text/html", "application/json"} {
				cmd := exec.Command(peers[name])
				cmd.Env = CGIEnv(name, Query, accept)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Errorf("%s: %v\n%s", name, err, stderr.Bytes())
					continue
				}
				body := out
				if _, b, ok := bytes.Cut(out, []byte("\n\n")); ok {
					body = b
				} else if _, b, ok := bytes.Cut(out, []byte("\r\n\r\n")); ok {
					body = b
				}
				var got []Field
				if accept == "application/json" {
					got, err = JSONFields(body)
				} else {
					got, err = HTMLFields(body)
				}
				if err != nil {
					t.Errorf("%s (%s): %v", name, accept, err)
				} else if !slices.Equal(got, Want) {
					t.Errorf("%s (%s) printed %q, want %q", name, accept, got, Want)
				}
			}
		}
	})

	t.Run("every peer under Apache event and cgigate -fcgi answer 200 with the decoded fields, the references with their text", func(t *testing.T) {
		apachetest.Binary(t) // skips (fails under CI=true) without Apache
		fcgi, err := StartFastCGI(peers[GatewayF], nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := fcgi.Stop(); err != nil {
				t.Error(err)
			}
		})
		s, err := StartApache(Setup{MPM: httpdconf.MPMEvent}, peers, fcgi.Addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := s.Stop(); err != nil {
				t.Errorf("%v\n%s", err, s.Apache.ErrorLog())
			}
		})
		for _, err := range Check(s) {
			t.Error(err)
		}
	})
}

func TestQueryIsTheEncodingOfWant(t *testing.T) {
	// Independent of net/url: the octets written out by hand.
	const want = "q=caf%C3%A9+%3Cb%3E+%26+%E5%8D%B0%E5%88%B7&lang=fr"
	if Query != want {
		t.Errorf("Query = %q, want %q", Query, want)
	}
}

// testModuleRoot is the module's root, found from the test's folder.
func testModuleRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := ModuleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// The references claim to be the Go runtime alone, and the runtime with
// cgigate's dependencies: each answers as a CGI program, and go-deps links
// nothing the gateway (as cgi-bin gets it) does not.
func TestReferences(t *testing.T) {
	root := testModuleRoot(t)
	dir := t.TempDir()
	for _, ref := range []struct{ name, pkg string }{{GoHello, "./bench/peers/gohello"}, {GoDeps, "./bench/peers/godeps"}} {
		p, err := GoBuild(context.Background(), root, ref.pkg, filepath.Join(dir, ref.name), "")
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(p)
		cmd.Env = CGIEnv(ref.name, Query, "application/json")
		out, err := cmd.Output()
		if err != nil || string(out) != "Content-Type: text/plain; charset=utf-8\r\n\r\n"+ReferenceBody {
			t.Errorf("%s answers %q, %v; want a CGI answer", ref.name, out, err)
		}
	}
	list := func(args ...string) []string {
		cmd := exec.Command("go", append([]string{"list"}, args...)...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list %v: %v", args, err)
		}
		return strings.Fields(string(out))
	}
	gateway := list("-tags", gobuild.CGIBin, "-deps", "./cmd/cgigate")
	imports := list("-f", `{{join .Imports " "}}`, "./bench/peers/godeps")
	if len(imports) < 10 {
		t.Fatalf("go-deps imports %v: fewer than the dependencies it stands for", imports)
	}
	for _, imp := range imports {
		if !slices.Contains(gateway, imp) {
			t.Errorf("go-deps imports %s, which the cgi-bin gateway does not link", imp)
		}
	}
}
