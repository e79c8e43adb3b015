package apache

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/missing"
)

// binary returns the Apache to test with; without one the test skips,
// except under CI=true, where .ci/run must have installed it.
func binary(t *testing.T) string {
	t.Helper()
	bin, err := FindBinary(os.Getenv, exec.LookPath, fileExists)
	if err != nil {
		missing.SkipOrFail(t, err.Error())
	}
	return bin
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestStartServesCGIAndFilesAndStopRemovesAFreshRoot(t *testing.T) {
	bin := binary(t)
	for _, mpm := range []httpdconf.MPM{httpdconf.MPMPrefork, httpdconf.MPMEvent} {
		t.Run(string(mpm), func(t *testing.T) {
			s, err := Start(bin, Options{
				Config: httpdconf.Config{MPM: mpm, Env: map[string]string{"CGIGATE_GREETING": "hello"}},
				CGI:    map[string]string{"hello": "testdata/hello.cgi"},
				Files:  map[string][]byte{"forms/index.html": []byte("<!doctype html>\n")},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Stop()
			if fi, err := os.Stat(s.Root); err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("the fresh ServerRoot %s: %v, %v; want mode 0755 for www-data", s.Root, fi, err)
			}
			if status, body := get(t, s.URL+s.CGIPath("hello")+"?a+b"); status != 200 || body != "hello a+b\n" {
				t.Errorf("the CGI program: %d %q, want 200 \"hello a+b\\n\" (SetEnv and the query)\n%s", status, body, s.ErrorLog())
			}
			if status, body := get(t, s.URL+"/forms/"); status != 200 || body != "<!doctype html>\n" {
				t.Errorf("the static file: %d %q", status, body)
			}
			if err := s.Stop(); err != nil {
				t.Errorf("Stop: %v", err)
			}
			if err := s.Stop(); err != nil {
				t.Errorf("a second Stop: %v, want nil", err)
			}
			if _, err := os.Stat(s.Root); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the fresh ServerRoot is still there after Stop (%v)", err)
			}
			if c, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://")); err == nil {
				c.Close()
				t.Errorf("%s still answers after Stop", s.URL)
			}
		})
	}
}

func TestStartOnAGivenRootAndPortWithOutputToWriters(t *testing.T) {
	bin := binary(t)
	root, err := TempDir("apache-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(root)
	port, err := FreePort()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s, err := Start(bin, Options{Config: httpdconf.Config{ServerRoot: root, Port: port, LogLevel: "info"}, Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	if want := "http://127.0.0.1:" + strconv.Itoa(port); s.URL != want {
		t.Errorf("URL = %s, want %s", s.URL, want)
	}
	if status, _ := get(t, s.URL+"/probe"); status != http.StatusNotFound {
		t.Errorf("GET /probe = %d, want 404 from an empty DocumentRoot", status)
	}
	if err := s.Stop(); err != nil {
		t.Error(err)
	}
	if !strings.Contains(s.AccessLog(), `"GET /probe HTTP/1.1" 404`) { // written by the time Apache has exited
		t.Errorf("the access log lacks the request:\n%s", s.AccessLog())
	}
	if _, err := os.Stat(filepath.Join(root, "httpd.conf")); err != nil {
		t.Errorf("a ServerRoot given by the caller was removed by Stop (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(root, "startup.log")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("startup.log was written although Stdout and Stderr were given (%v)", err)
	}
}

func TestStartProcessReportsWhatApacheSaidWhenItExits(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such.conf")
	_, err := StartProcess(bin, Process{Args: []string{"-f", missing}, Port: 1, Dir: dir})
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("StartProcess with a missing config = %v, want a *StartError", err)
	}
	if se.Bin != bin || !strings.Contains(se.Err.Error(), "exited before answering") || !strings.Contains(se.Startup, missing) {
		t.Errorf("StartError = %+v; want the binary, an exit, and Apache's words naming %s", se, missing)
	}
	if !strings.Contains(err.Error(), missing) {
		t.Errorf("the message %q does not show what Apache said", err)
	}
}

type fakeInfo struct {
	fs.FileInfo
	mode fs.FileMode
}

func (f fakeInfo) Mode() fs.FileMode { return f.mode | fs.ModeDir }

func TestReachable(t *testing.T) {
	tests := []struct {
		name  string
		modes map[string]fs.FileMode
		bad   string
	}{
		{"folders searchable by others reach the ServerRoot", map[string]fs.FileMode{"/": 0o755, "/tmp": 0o1777}, ""},
		{"a private folder above is named in the error", map[string]fs.FileMode{"/": 0o755, "/tmp": 0o700}, "/tmp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stat := func(p string) (fs.FileInfo, error) { return fakeInfo{mode: tt.modes[p]}, nil }
			err := reachable("/tmp/apache-1", stat)
			var re *ReachError
			if tt.bad == "" && err != nil || tt.bad != "" && (!errors.As(err, &re) || re.Path != tt.bad) {
				t.Errorf("reachable = %v, want a ReachError naming %q (none if empty)", err, tt.bad)
			}
		})
	}
}

func TestTempDirAndMkdirIgnoreTheUmask(t *testing.T) {
	d, err := TempDir("apache-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(d)
	sub := filepath.Join(d, "a", "records")
	if err := Mkdir(sub, 0o777); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(d, "hello")
	if err := CopyExecutable("testdata/hello.cgi", exe); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fs.FileMode{d: 0o755, sub: 0o777, exe: 0o755} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v, %v; want mode %v", p, fi, err, want)
		}
	}
}

func TestWriteStaticRefusesANameLeavingDocumentRoot(t *testing.T) {
	if err := writeStatic(t.TempDir(), "../x.html", nil); err == nil {
		t.Error("writeStatic wrote ../x.html outside DocumentRoot")
	}
}

func TestChildStop(t *testing.T) {
	t.Run("a running child stops on SIGTERM and a second Stop is nil", func(t *testing.T) {
		c, err := StartChild("sleep", exec.Command("sleep", "60"))
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
		<-c.Done()
		if err := c.Stop(); err != nil {
			t.Errorf("a second Stop: %v", err)
		}
	})
	t.Run("a child that had exited before Stop is an error naming it", func(t *testing.T) {
		c, err := StartChild("true", exec.Command("true"))
		if err != nil {
			t.Fatal(err)
		}
		<-c.Done()
		if err := c.Stop(); err == nil || !strings.Contains(err.Error(), "true (pid") {
			t.Errorf("Stop = %v, want an error saying true had exited", err)
		}
	})
}

func TestFindBinaryRefusesAMissingAPACHEBIN(t *testing.T) {
	env := map[string]string{"APACHE_BIN": "/nope/httpd"}
	_, err := FindBinary(func(k string) string { return env[k] },
		func(string) (string, error) { return "/usr/sbin/apache2", nil }, func(string) bool { return false })
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "/nope/httpd") {
		t.Errorf("FindBinary = %v, want a not-exist error naming /nope/httpd", err)
	}
}

func TestStartOnABusyGivenPortIsAStartErrorSayingSo(t *testing.T) {
	bin := binary(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	// The listener takes connections but never answers HTTP, so the
	// start-up poll cannot mistake it for Apache.
	_, err = Start(bin, Options{Config: httpdconf.Config{Port: port}})
	var se *StartError
	if !errors.As(err, &se) || !strings.Contains(se.Startup+se.ErrorLog, "Address already in use") {
		t.Fatalf("Start on a busy port = %v, want a StartError with Apache's \"Address already in use\"", err)
	}
	if _, err := os.Stat(filepath.Dir(se.ConfigPath)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the fresh ServerRoot %s is still there after the failure (%v)", filepath.Dir(se.ConfigPath), err)
	}
}
