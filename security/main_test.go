package security

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/gobuild"
)

// The package's run: one gateway binary, built once, and the folders and
// wrapper scripts every path shares. A wrapper is a CGI program that sets
// one configuration and execs the gateway, so that one Apache serves every
// configuration the cases need (SetEnv would set one for all of them).
var (
	base     string // 0755, readable by Apache's www-data children
	gateway  string // the built cmd/cgigate
	runDir   string // 0777: record files both root and www-data append to
	indexDir string // documents for ISINDEX searches
	pkg      = &pkgTB{}
)

// script is one name under cgi-bin: the gateway with some settings.
type script struct {
	env    []string // KEY=value, exported before exec
	ulimit int      // ulimit -f (512-byte blocks), 0 for none
}

// scripts are the cgi-bin names every server has. "cgigate" is the
// binary itself; the others are wrappers.
func scripts() map[string]script {
	return map[string]script{
		"cgigate":            {},
		"cgigate-rec":        {env: []string{"CGIGATE_RECORD=" + filepath.Join(runDir, "rec.jsonl")}},
		"cgigate-load":       {env: []string{"CGIGATE_RECORD=" + filepath.Join(runDir, "load.jsonl")}},
		"cgigate-full":       {env: []string{"CGIGATE_RECORD=/dev/full"}},
		"cgigate-readonly":   {env: []string{"CGIGATE_RECORD=" + filepath.Join(base, "ro", "rec.jsonl")}},
		"cgigate-fsize":      {env: []string{"CGIGATE_RECORD=" + filepath.Join(runDir, "fsize.jsonl")}, ulimit: fsizeBlocks},
		"cgigate-index":      {env: []string{"CGIGATE_INDEX_DIR=" + indexDir}},
		"cgigate-noindex":    {env: []string{"CGIGATE_INDEX_DIR=" + filepath.Join(base, "missing")}},
		"cgigate-unreadable": {env: []string{"CGIGATE_INDEX_DIR=" + filepath.Join(base, "secret")}},
		"cgigate-semicolon":  {env: []string{"CGIGATE_SEPARATOR=&;"}},
		"cgigate-nosniff":    {env: []string{"CGIGATE_SNIFF=0"}},
		"cgigate-timeout":    {env: []string{"CGIGATE_READ_TIMEOUT=1s"}},
		"cgigate-small":      {env: []string{"CGIGATE_MAX_FIELDS=20", "CGIGATE_MAX_BODY=4096"}},
		"cgigate-bigbody":    {env: []string{"CGIGATE_MAX_BODY=20000000"}},
		// TMPDIR of its own for each MPM: TestFaultClientDisconnectsMidUpload
		// counts what is left there.
		"cgigate-upload-event":   {env: []string{"TMPDIR=" + uploadDir(httpdconf.MPMEvent)}},
		"cgigate-upload-prefork": {env: []string{"TMPDIR=" + uploadDir(httpdconf.MPMPrefork)}},
	}
}

// uploadDir is the TMPDIR of the cgigate-upload-MPM wrapper, 0777 so that
// Apache's www-data children can store files in it.
func uploadDir(mpm httpdconf.MPM) string { return filepath.Join(base, "upload-"+string(mpm)) }

// scriptPath is the executable for name: the gateway or its wrapper.
func scriptPath(name string) string {
	if name == "cgigate" {
		return gateway
	}
	return filepath.Join(base, "wrap", name)
}

func TestMain(m *testing.M) {
	code := 1
	if err := setUp(); err != nil {
		fmt.Fprintln(os.Stderr, "security:", err)
	} else {
		code = m.Run()
	}
	pkg.runCleanups()
	// Whatever the tests did, no record file holds a partial line.
	files, _ := filepath.Glob(filepath.Join(runDir, "*.jsonl"))
	for _, f := range append(files, filepath.Join(base, "ro", "rec.jsonl")) {
		if data, err := os.ReadFile(f); err == nil {
			if err := wholeLines(data); err != nil {
				fmt.Fprintf(os.Stderr, "security: %s after the run: %v\n", f, err)
				code = 1
			}
		}
	}
	if len(pkg.errs) > 0 {
		fmt.Fprintln(os.Stderr, "security: shared servers:", strings.Join(pkg.errs, "\n"))
		code = 1
	}
	os.RemoveAll(base)
	os.Exit(code)
}

func setUp() error {
	var err error
	if base, err = os.MkdirTemp("", "cgigate-security-"); err != nil {
		return err
	}
	runDir = filepath.Join(base, "run")
	indexDir = filepath.Join(base, "index")
	for _, d := range []struct {
		path string
		mode os.FileMode
	}{{base, 0o755}, {filepath.Join(base, "bin"), 0o755}, {filepath.Join(base, "wrap"), 0o755},
		{runDir, 0o777}, {uploadDir(httpdconf.MPMEvent), 0o777}, {uploadDir(httpdconf.MPMPrefork), 0o777}, {indexDir, 0o755}, {filepath.Join(base, "secret"), 0o700}, {filepath.Join(base, "ro"), 0o755}} {
		if err := os.MkdirAll(d.path, d.mode); err != nil {
			return err
		}
		if err := os.Chmod(d.path, d.mode); err != nil {
			return err
		}
	}
	gateway = filepath.Join(base, "bin", "cgigate")
	for name, s := range scripts() {
		if name == "cgigate" {
			continue
		}
		var b strings.Builder
		b.WriteString("#!/bin/sh\n")
		if s.ulimit > 0 {
			fmt.Fprintf(&b, "ulimit -f %d\n", s.ulimit)
		}
		for _, kv := range s.env {
			k, v, _ := strings.Cut(kv, "=")
			fmt.Fprintf(&b, "%s='%s'; export %s\n", k, v, k)
		}
		fmt.Fprintf(&b, "exec '%s' \"$@\"\n", gateway)
		if err := os.WriteFile(scriptPath(name), []byte(b.String()), 0o755); err != nil {
			return err
		}
		if err := os.Chmod(scriptPath(name), 0o755); err != nil {
			return err
		}
	}
	// Record files exist up front, writable by root (the direct path) and
	// by www-data (Apache's children) alike.
	for _, f := range []string{"rec.jsonl", "load.jsonl"} {
		if err := writeMode(filepath.Join(runDir, f), nil, 0o666); err != nil {
			return err
		}
	}
	// The read-only record file: root's, 0644, so www-data cannot write it.
	if err := writeMode(filepath.Join(base, "ro", "rec.jsonl"), []byte(earlierRecord), 0o644); err != nil {
		return err
	}
	for name, content := range indexDocs {
		if err := writeMode(filepath.Join(indexDir, name), []byte(content), 0o644); err != nil {
			return err
		}
	}
	return writeMode(filepath.Join(base, "secret", "doc.txt"), []byte("findme"), 0o600)
}

func writeMode(path string, data []byte, mode os.FileMode) error {
	if err := os.WriteFile(path, data, mode); err != nil {
		return err
	}
	return os.Chmod(path, mode)
}

var (
	buildOnce sync.Once
	buildErr  error
)

// needGateway builds cmd/cgigate the first time a test needs it (fuzz
// workers, which start the test binary again and again, never do).
func needGateway(t testing.TB) {
	t.Helper()
	buildOnce.Do(func() {
		_, buildErr = bench.GoBuild(context.Background(), "..", "./cmd/cgigate", gateway, gobuild.CGIBin)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
}

// shared is one Apache for the whole package run, started on first use.
type shared struct {
	once sync.Once
	srv  *apachetest.Server
	skip string // why there is none: no Apache, and not CI
	fail string // why there is none: it would not start
}

var servers = map[httpdconf.MPM]*shared{httpdconf.MPMEvent: {}, httpdconf.MPMPrefork: {}}

// apache returns the package's Apache with the given MPM, starting it the
// first time. It skips t when Apache is not installed (fails under
// CI=true, as apachetest does).
func apache(t testing.TB, mpm httpdconf.MPM) *apachetest.Server {
	t.Helper()
	needGateway(t)
	s := servers[mpm]
	s.once.Do(func() {
		defer s.recoverStart()
		cgis := map[string]string{"echo": apachetest.EchoCGI(pkg)}
		for name := range scripts() {
			cgis[name] = scriptPath(name)
		}
		s.srv = apachetest.Start(pkg, apachetest.Options{MPM: mpm, CGI: cgis})
	})
	return s.get(t, string(mpm))
}

// fastCGIPath is where the FastCGI Apache proxies to cgigate -fcgi.
const fastCGIPath = "/fcgi/cgigate"

var fastCGIServer shared

// fastCGIApache returns the package's Apache event with fastCGIPath
// proxied (mod_proxy_fcgi) to one cgigate -fcgi, both started the first
// time, as apache starts its servers.
func fastCGIApache(t testing.TB) *apachetest.Server {
	t.Helper()
	s := &fastCGIServer
	s.once.Do(func() {
		defer s.recoverStart()
		// The default build: -fcgi is not in the cgionly one.
		bin, err := bench.GoBuild(context.Background(), "..", "./cmd/cgigate", filepath.Join(base, "bin", "cgigate-fcgi"), "")
		if err != nil {
			s.fail = err.Error()
			return
		}
		f, err := bench.StartFastCGI(bin, nil)
		if err != nil {
			s.fail = err.Error()
			return
		}
		pkg.Cleanup(func() { f.Stop() })
		s.srv = apachetest.Start(pkg, apachetest.Options{MPM: httpdconf.MPMEvent, FastCGI: f.Addr, FastCGIPath: fastCGIPath})
	})
	return s.get(t, "FastCGI")
}

// recoverStart turns a Fatal or Skip of pkg while a server starts into
// the reason there is none.
func (s *shared) recoverStart() {
	if v := recover(); v != nil {
		stop, ok := v.(tbStop)
		switch {
		case ok && stop.skip:
			s.skip = stop.msg
		case ok:
			s.fail = stop.msg
		default:
			s.fail = fmt.Sprint(v)
		}
	}
}

// get returns the server, or skips t (fails under CI=true) when Apache
// is not installed, or fails t when it did not start.
func (s *shared) get(t testing.TB, what string) *apachetest.Server {
	t.Helper()
	switch {
	case s.skip != "":
		apachetest.SkipOrFail(t, s.skip)
	case s.fail != "":
		t.Fatalf("the package's %s Apache did not start: %s", what, s.fail)
	}
	return s.srv
}

// pkgTB is the testing.TB the package-wide servers are started with, from
// TestMain's side: its cleanups run after m.Run, a Fatal or Skip stops the
// start (recovered in apache), an Error fails the run. apachetest calls
// only the methods defined here; the embedded nil TB is never reached.
type pkgTB struct {
	testing.TB
	mu       sync.Mutex
	cleanups []func()
	errs     []string
}

type tbStop struct {
	skip bool
	msg  string
}

func (p *pkgTB) Helper()      {}
func (p *pkgTB) Name() string { return "security-package" }
func (p *pkgTB) Cleanup(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cleanups = append(p.cleanups, f)
}
func (p *pkgTB) Log(args ...any)                 { fmt.Fprintln(os.Stderr, args...) }
func (p *pkgTB) Logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
func (p *pkgTB) Error(args ...any)               { p.fail(fmt.Sprint(args...)) }
func (p *pkgTB) Errorf(format string, args ...any) {
	p.fail(fmt.Sprintf(format, args...))
}
func (p *pkgTB) Fail() { p.fail("Fail") }
func (p *pkgTB) Failed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.errs) > 0
}
func (p *pkgTB) FailNow()                          { panic(tbStop{msg: "FailNow"}) }
func (p *pkgTB) Fatal(args ...any)                 { panic(tbStop{msg: fmt.Sprint(args...)}) }
func (p *pkgTB) Fatalf(format string, args ...any) { panic(tbStop{msg: fmt.Sprintf(format, args...)}) }
func (p *pkgTB) Skip(args ...any)                  { panic(tbStop{skip: true, msg: fmt.Sprint(args...)}) }
func (p *pkgTB) Skipf(format string, args ...any) {
	panic(tbStop{skip: true, msg: fmt.Sprintf(format, args...)})
}
func (p *pkgTB) SkipNow()      { panic(tbStop{skip: true, msg: "SkipNow"}) }
func (p *pkgTB) Skipped() bool { return false }
func (p *pkgTB) TempDir() string {
	d, err := os.MkdirTemp("", "security-pkg-")
	if err != nil {
		panic(tbStop{msg: err.Error()})
	}
	p.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func (p *pkgTB) fail(msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, msg)
}

func (p *pkgTB) runCleanups() {
	p.mu.Lock()
	cs := p.cleanups
	p.cleanups = nil
	p.mu.Unlock()
	for i := len(cs) - 1; i >= 0; i-- {
		cs[i]()
	}
}

// sortedKeys is for stable failure messages.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
