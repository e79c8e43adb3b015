package httpdconf_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
)

// These tests serve a CGI program through each drop-in as deployed: the
// Debian one inside a copy of Debian's own /etc/apache2, the image one
// inside a main config shaped like the image's. The only change to a
// drop-in is its cgi-bin path, moved to a throwaway folder; every
// commented SetEnv line is uncommented, to show each documented default is
// a line Apache accepts and passes on.

// commentedSetEnv matches the drop-ins' "#SetEnv NAME VALUE" lines.
var commentedSetEnv = regexp.MustCompile(`(?m)^(\s*)#SetEnv (CGIGATE_[A-Z_]+) (\S+)$`)

// prepare copies the drop-in at path, with cgi-bin moved to cgiDir and the
// SetEnv lines uncommented, to dst; it returns the variables so set.
func prepare(t *testing.T, path, oldCGI, cgiDir, dst string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), oldCGI, cgiDir)
	want := map[string]string{}
	for _, m := range commentedSetEnv.FindAllStringSubmatch(text, -1) {
		want[m[2]] = m[3]
	}
	if len(want) == 0 {
		t.Fatalf("%s has no commented SetEnv lines", path)
	}
	text = commentedSetEnv.ReplaceAllString(text, "${1}SetEnv $2 $3")
	if err := os.WriteFile(dst, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return want
}

// echoEnv asks the echo CGI installed as cgigate for target and returns
// its report.
func echoEnv(t *testing.T, s *apachetest.Server, target string) apachetest.EchoReport {
	t.Helper()
	r := s.Do(t, "GET", target, nil, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %q\n%s", target, r.Status, r.Body, s.ErrorLog())
	}
	var rep apachetest.EchoReport
	if err := json.Unmarshal(r.Body, &rep); err != nil {
		t.Fatalf("GET %s: %v in %q", target, err, r.Body)
	}
	return rep
}

func checkGateway(t *testing.T, rep apachetest.EchoReport, env map[string]string) {
	t.Helper()
	if got := fmt.Sprintf("%q", rep.Args); got != `["a" "b"]` {
		t.Errorf("argv[1:] = %s, want the ISINDEX words [\"a\" \"b\"]", got)
	}
	if rep.Env["SCRIPT_NAME"] != "/cgi-bin/cgigate" || rep.Env["PATH_INFO"] != "/extra" {
		t.Errorf("SCRIPT_NAME, PATH_INFO = %q, %q; want /cgi-bin/cgigate, /extra", rep.Env["SCRIPT_NAME"], rep.Env["PATH_INFO"])
	}
	// A GET has no body, so the drop-in runs it on one processor.
	if got, ok := rep.Env["GOMAXPROCS"]; got != "1" {
		t.Errorf("GOMAXPROCS = %q (set: %v), want 1 for a GET", got, ok)
	}
	for k, v := range env {
		if got, ok := rep.Env[k]; !ok || got != v {
			t.Errorf("%s = %q (set: %v), want the documented default %q", k, got, ok, v)
		}
	}
}

func TestDebianDropInServesCGIGateInsideDebiansOwnConfig(t *testing.T) {
	apachetest.Binary(t)
	echo := apachetest.EchoCGI(t)
	for _, mpm := range []struct{ mpm, cgi string }{{"mpm_event", "cgid"}, {"mpm_prefork", "cgi"}} {
		t.Run(mpm.mpm+" with mod_"+mpm.cgi+" runs /cgi-bin/cgigate with argv, PATH_INFO and the SetEnv defaults", func(t *testing.T) {
			etc := debianCopy(t, mpm.mpm, mpm.cgi)
			// Debian's default site listens on *:80; this copy listens on a
			// free loopback port and serves from the main server.
			sites, _ := filepath.Glob(filepath.Join(etc, "sites-enabled", "*"))
			for _, s := range sites {
				os.Remove(s)
			}
			port, err := apachetest.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(etc, "ports.conf"), []byte(fmt.Sprintf("Listen 127.0.0.1:%d\n", port)), 0o644); err != nil {
				t.Fatal(err)
			}
			cgiDir, run := apachetest.Dir(t), apachetest.Dir(t)
			// Debian's cgid.conf puts ScriptSock in $APACHE_RUN_DIR/socks,
			// which apache2ctl (and so systemd's unit) creates.
			if err := os.Mkdir(filepath.Join(run, "socks"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := apachetest.CopyExecutable(echo, filepath.Join(cgiDir, "cgigate")); err != nil {
				t.Fatal(err)
			}
			env := prepare(t, snippet("debian"), "/usr/lib/cgi-bin", cgiDir, filepath.Join(etc, "conf-available", "cgigate.conf"))
			enable(t, etc, "conf", "cgigate.conf", "../conf-available/cgigate.conf")

			s := apachetest.StartProcess(t, apachetest.Process{
				Args: []string{"-d", etc, "-f", filepath.Join(etc, "apache2.conf")},
				Env:  debianEnv(run), Port: port, ErrorLog: filepath.Join(run, "error.log"), Dir: run,
			})
			checkGateway(t, echoEnv(t, s, "/cgi-bin/cgigate/extra?a+b"), env)
		})
	}
}

func TestHTTPDImageDropInServesCGIGateAndRecordsOnlyWithTheDefine(t *testing.T) {
	bin := apachetest.Binary(t)
	mods := moduleDir(bin)
	echo := apachetest.EchoCGI(t)
	tests := []struct {
		name    string
		mpm     httpdconf.MPM
		defines []string
		record  bool
	}{
		{"under event without -DCGIGATE_RECORD nothing is recorded", httpdconf.MPMEvent, nil, false},
		{"under event with -DCGIGATE_RECORD the record folder is set", httpdconf.MPMEvent, []string{"-DCGIGATE_RECORD"}, true},
		{"under prefork with -DCGIGATE_RECORD the record folder is set", httpdconf.MPMPrefork, []string{"-DCGIGATE_RECORD"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := apachetest.Dir(t)
			for _, d := range []string{"htdocs", "cgi-bin", "logs", "conf"} {
				if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(mods, filepath.Join(root, "modules")); err != nil {
				t.Fatal(err)
			}
			// mod_mime reads conf/mime.types, which the image ships.
			if err := os.WriteFile(filepath.Join(root, "conf", "mime.types"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			cgiDir := filepath.Join(root, "cgi-bin")
			if err := apachetest.CopyExecutable(echo, filepath.Join(cgiDir, "cgigate")); err != nil {
				t.Fatal(err)
			}
			dropIn := filepath.Join(root, "conf", "cgigate.conf")
			env := prepare(t, snippet("httpd-image"), "/usr/local/apache2/cgi-bin", cgiDir, dropIn)
			port, err := apachetest.FreePort()
			if err != nil {
				t.Fatal(err)
			}
			user, group := apachetest.Account(os.Geteuid(), os.Getegid())
			main := imageMain(root, tt.mpm, port, cgiDir, dropIn) + fmt.Sprintf("User %s\nGroup %s\n", user, group)
			conf := filepath.Join(root, "conf", "httpd.conf")
			if err := os.WriteFile(conf, []byte(main), 0o644); err != nil {
				t.Fatal(err)
			}
			s := apachetest.StartProcess(t, apachetest.Process{
				Args: append([]string{"-f", conf}, tt.defines...),
				Port: port, ErrorLog: filepath.Join(root, "logs", "error_log"), Dir: root,
			})
			rep := echoEnv(t, s, "/cgi-bin/cgigate/extra?a+b")
			checkGateway(t, rep, env)
			rec, ok := rep.Env["CGIGATE_RECORD"]
			if want := "/var/lib/cgigate/records/submissions.jsonl"; tt.record && rec != want {
				t.Errorf("CGIGATE_RECORD = %q (set: %v), want %s", rec, ok, want)
			}
			if !tt.record && ok {
				t.Errorf("CGIGATE_RECORD = %q, want it unset without -DCGIGATE_RECORD", rec)
			}
		})
	}
}
