package main

import (
	"bytes"
	"context"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/internal/gobuild"
)

// leanBin builds the gateway with -tags cgionly, as README deploys it in
// cgi-bin, once for the tests that compare it with bin.
var leanBin = sync.OnceValues(func() (string, error) {
	out := filepath.Join(filepath.Dir(bin), "cgigate-cgionly") // removed with bin
	if msg, err := gobuild.Command(context.Background(), "", ".", out, gobuild.CGIBin).CombinedOutput(); err != nil {
		return "", &exec.Error{Name: "go build -tags cgionly: " + string(msg), Err: err}
	}
	return out, nil
})

func lean(t *testing.T) string {
	t.Helper()
	p, err := leanBin()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The cgionly build leaves out -http and -fcgi only: every CGI answer is
// the default build's, byte for byte.
func TestCGIOnlyBuildAnswersAsTheDefaultBuild(t *testing.T) {
	mp := "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\n\xb0\xf5\r\n--b--\r\n"
	cases := []struct {
		name string
		env  map[string]string
		args []string
		body string
	}{
		{"a form query, as JSON", cgiEnv("QUERY_STRING", "q=caf%C3%A9+%3Cb%3E&lang=fr", "HTTP_ACCEPT", "application/json"), nil, ""},
		{"a form query, as HTML", cgiEnv("QUERY_STRING", "q=%B0%F5%BA%FE&_charset_=euc-jp"), nil, ""},
		{"an ISINDEX query with its argv", cgiEnv("QUERY_STRING", "%5BEUC%5D:%B0%F5+%BA%FE", "HTTP_ACCEPT", "text/plain"), []string{"\\[EUC\\]:\xb0\xf5", "\xba\xfe"}, ""},
		{"the prompt page", cgiEnv(), nil, ""},
		{"a urlencoded POST", postEnv("application/x-www-form-urlencoded", "a=%E5%8D%B0&b=2", "HTTP_ACCEPT", "application/json"), nil, "a=%E5%8D%B0&b=2"},
		{"a multipart POST with a file", postEnv("multipart/form-data; boundary=b; charset=euc-jp", mp, "HTTP_ACCEPT", "application/json"), nil, mp},
		{"a bad CONTENT_LENGTH", cgiEnv("REQUEST_METHOD", "POST", "CONTENT_LENGTH", "+5", "HTTP_ACCEPT", "application/json"), nil, "a=1&b"},
		{"a method that is not allowed", cgiEnv("REQUEST_METHOD", "PUT"), nil, ""},
		{"an unknown charset", cgiEnv("QUERY_STRING", "a=1&_charset_=x-nonesuch", "HTTP_ACCEPT", "text/plain"), nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var outs [2]string
			for i, b := range []string{bin, lean(t)} {
				cmd := exec.Command(b, tc.args...)
				for k, v := range tc.env {
					cmd.Env = append(cmd.Env, k+"="+v)
				}
				cmd.Env = append(cmd.Env, "TMPDIR="+t.TempDir())
				cmd.Stdin = strings.NewReader(tc.body)
				var out bytes.Buffer
				cmd.Stdout = &out
				if err := cmd.Run(); err != nil {
					t.Fatalf("%s: %v", b, err)
				}
				outs[i] = out.String()
			}
			if outs[0] != outs[1] {
				t.Errorf("default build:\n%s\ncgionly build:\n%s", outs[0], outs[1])
			}
			if !strings.HasPrefix(outs[0], "Status: ") {
				t.Errorf("not a CGI answer: %q", outs[0])
			}
		})
	}
}

// cgiOnlyDeps lists the packages the cgionly build links.
func cgiOnlyDeps(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-tags", gobuild.CGIBin, "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	return strings.Fields(string(out))
}

// leanInitTrace runs the cgionly build on a form GET with
// GODEBUG=inittrace=1 and returns the package initialisations it traced.
func leanInitTrace(t *testing.T) []bench.Init {
	t.Helper()
	cmd := exec.Command(lean(t))
	cmd.Env = []string{"GODEBUG=inittrace=1", "TMPDIR=" + t.TempDir()}
	for k, v := range cgiEnv("QUERY_STRING", "a=1") {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	inits, err := bench.ParseInitTrace(stderr.Bytes())
	if err != nil || len(inits) == 0 {
		t.Fatalf("inittrace: %v, %d packages:\n%s", err, len(inits), stderr.String())
	}
	return inits
}

func TestCGIOnlyBuild(t *testing.T) {
	t.Run("it links no net/http, crypto/tls or HTTP/2", func(t *testing.T) {
		for _, p := range cgiOnlyDeps(t) {
			if p == "net/http" || strings.HasPrefix(p, "net/http/") || p == "crypto/tls" || strings.Contains(p, "http2") {
				t.Errorf("the cgionly build links %s", p)
			}
		}
	})
	t.Run("it links no package that a CGI request does not use", func(t *testing.T) {
		// Every package linked runs its init in every CGI process
		// (BENCHMARKS.md, "What a CGI process touches"), whether the
		// request uses it or not.
		dropped := map[string]string{
			"github.com/google/uuid": "a UUID library, for the one id internal/record.NewID makes",
			"database/sql/driver":    "linked by github.com/google/uuid",
			"crypto/md5":             "linked by github.com/google/uuid",
			"crypto/sha1":            "linked by github.com/google/uuid",
			"github.com/cgigate/cgigate/internal/delivery": "cgigate deliver, run by a timer, never by a request",
			"github.com/jackc/pgx/v5":                      "cgigate deliver's PostgreSQL",
			"net/smtp":                                     "cgigate deliver's mail",
		}
		for _, p := range cgiOnlyDeps(t) {
			if why, ok := dropped[p]; ok {
				t.Errorf("the cgionly build links %s (%s), which no CGI request needs", p, why)
			}
		}
	})
	t.Run("it grows the main goroutine's stack at start, not during the request", func(t *testing.T) {
		if !slices.Contains(cgiOnlyDeps(t), "github.com/cgigate/cgigate/internal/mainstack") {
			t.Error("the cgionly build does not link internal/mainstack")
		}
	})
	t.Run("it sets one P and grows its stack before any package init allocates", func(t *testing.T) {
		// Giving up the second P costs a page fault for each span it
		// has cached, and stack pool spans are carved as the stack grows
		// through each size: both are cheapest before the inits allocate.
		inits := leanInitTrace(t)
		early := map[string]bool{"github.com/cgigate/cgigate/internal/cgiprocs/oneproc": true, "github.com/cgigate/cgigate/internal/mainstack": true}
		for _, in := range inits {
			if early[in.Package] {
				delete(early, in.Package)
				if len(early) == 0 {
					return
				}
				continue
			}
			if in.Allocs > 0 {
				t.Fatalf("%s allocates %d bytes at init before %v", in.Package, in.Bytes, slices.Sorted(maps.Keys(early)))
			}
		}
		t.Errorf("%v not initialised", slices.Sorted(maps.Keys(early)))
	})
	t.Run("none of the gateway's own packages allocates at init", func(t *testing.T) {
		// What an init builds, every request pays, used or not: the
		// gateway's tables and templates are built on first use
		// (internal/lazy), and the settings' defaults are constants.
		// cgiprocs reads the environment, and the first read builds
		// package syscall's copy of it, which the request's
		// os.Environ would build anyway.
		own := 0
		for _, in := range leanInitTrace(t) {
			if in.Package != "main" && !strings.HasPrefix(in.Package, "github.com/cgigate/cgigate/") {
				continue
			}
			own++
			if in.Allocs > 0 && in.Package != "github.com/cgigate/cgigate/internal/cgiprocs" {
				t.Errorf("%s allocates %d bytes in %d allocations at init", in.Package, in.Bytes, in.Allocs)
			}
		}
		if own == 0 {
			t.Error("inittrace names none of the gateway's packages")
		}
	})
	t.Run("-help says which modes the build has", func(t *testing.T) {
		for _, b := range []struct {
			bin  string
			want string
		}{{bin, "[-http ADDR | -fcgi ADDR | -index DIR [-full] | -check-forms FILE]"}, {lean(t), "[-index DIR [-full] | -check-forms FILE]   (built with -tags cgionly"}} {
			out, err := exec.Command(b.bin, "-help").Output()
			if err != nil || !strings.Contains(string(out), b.want) {
				t.Errorf("%s -help: %v, usage %q; want it to hold %q", b.bin, err, strings.SplitN(string(out), "\n", 2)[0], b.want)
			}
		}
	})
	for _, mode := range []string{"-http", "-fcgi"} {
		t.Run(mode+" says it is not in the binary, and exits 2", func(t *testing.T) {
			cmd := exec.Command(lean(t), mode, "127.0.0.1:0")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "-tags cgionly") {
				t.Errorf("exit %v, stderr %q", err, stderr.String())
			}
		})
	}
}
