package apachetest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/fcgi"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
)

var mpms = []httpdconf.MPM{httpdconf.MPMPrefork, httpdconf.MPMEvent}

// echo asks the echo CGI at s for target and decodes its report.
func echo(t *testing.T, s *apachetest.Server, method, target string, body []byte) apachetest.EchoReport {
	t.Helper()
	var h http.Header
	if body != nil {
		h = http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	}
	r := s.Do(t, method, target, h, body)
	if r.Status != http.StatusOK {
		t.Fatalf("%s %s: status %d, body %q\n%s", method, target, r.Status, r.Body, s.ErrorLog())
	}
	var rep apachetest.EchoReport
	if err := json.Unmarshal(r.Body, &rep); err != nil {
		t.Fatalf("%s %s: echo CGI output is not JSON: %v\n%q", method, target, err, r.Body)
	}
	return rep
}

func words(ws ...string) [][]byte {
	out := make([][]byte, len(ws))
	for i, w := range ws {
		out[i] = []byte(w)
	}
	return out
}

// The expectations below follow RFC 3875 section 4.4 (a query without an
// unencoded "=" is a search-string: split on "+", each word percent-decoded,
// passed as argv) and Apache's own addition, ap_escape_shell_cmd, which puts
// a backslash before each of &;`'"|*?~<>^()[]{}$\ and newline in every word
// (in mod_cgi's default_build_command and mod_cgid's create_argv alike).
func TestISINDEXQueriesReachTheCGIAsShellEscapedArgv(t *testing.T) {
	tests := []struct {
		name  string
		query string // "" means no "?" at all
		want  [][]byte
	}{
		{"words are split on plus", "a+b", words("a", "b")},
		{"raw shell metacharacters come backslash-escaped", "a&b;c$d`e(f)g",
			words(`a\&b\;c\$d\` + "`" + `e\(f\)g`)},
		{"percent-encoded shell metacharacters are decoded, then escaped", "a%26b%3Bc%24d%60e%28f%29g",
			words(`a\&b\;c\$d\` + "`" + `e\(f\)g`)},
		{"the other metacharacters and newline are escaped too", "%27%22%7C%2A%3F%7E%3C%3E%5E%5B%5D%7B%7D%5C%0A",
			words(`\'\"\|\*\?\~\<\>\^\[\]\{\}\\\` + "\n")},
		{"raw braces, pipe, caret and angle brackets are accepted and escaped", "{}|^<>",
			words(`\{\}\|\^\<\>`)},
		{"an encoded equals sign decodes to = in argv because Apache looks for = before decoding", "a%3Db",
			words("a=b")},
		{"two plus signs give an empty word between them", "a++b", words("a", "", "b")},
		{"leading and trailing plus signs give empty first and last words", "+a+", words("", "a", "")},
		{"an encoded space stays inside its word", "a%20b", words("a b")},
		{"bytes that are not UTF-8 pass unescaped, 0xFF included", "%FF%FE%80", words("\xff\xfe\x80")},
		{"control characters other than newline pass unescaped", "%09%0D%01%7F", words("\t\r\x01\x7f")},
		{"UTF-8 octets are decoded into the word", "%E5%8D%B0%E5%88%B7", words("印刷")},
		{"an encoded slash is decoded in argv", "%2F", words("/")},
		{"an encoded NUL cuts the word short", "a%00b", words("a")},
		{"a malformed escape is kept literally", "%zz", words("%zz")},
		{"a form query with = gives no argv words", "x=1&y=2", words()},
		{"an = anywhere in the query gives no argv words", "a+b=c", words()},
		{"an empty query gives no argv words", "?", words()},
		{"no query gives no argv words", "", words()},
	}
	echoBin := apachetest.EchoCGI(t)
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			s := apachetest.Start(t, apachetest.Options{MPM: mpm, CGI: map[string]string{"echo": echoBin}})
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					target := s.CGIPath("echo")
					wantQS := ""
					switch tt.query {
					case "":
					case "?":
						target += "?"
					default:
						target += "?" + tt.query
						wantQS = tt.query
					}
					rep := echo(t, s, "GET", target, nil)
					if rep.QueryString != wantQS {
						t.Errorf("QUERY_STRING = %q, want the raw query %q", rep.QueryString, wantQS)
					}
					if len(rep.ArgBytes) != len(tt.want) {
						t.Fatalf("argv[1:] = %q, want %q", rep.ArgBytes, tt.want)
					}
					for i := range tt.want {
						if !bytes.Equal(rep.ArgBytes[i], tt.want[i]) {
							t.Errorf("argv[%d] = %q, want %q", i+1, rep.ArgBytes[i], tt.want[i])
						}
					}
				})
			}
		})
	}
}

func TestCGIEnvironmentCarriesRequestAndSetEnvVariables(t *testing.T) {
	echoBin := apachetest.EchoCGI(t)
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			s := apachetest.Start(t, apachetest.Options{
				MPM: mpm,
				CGI: map[string]string{"echo": echoBin},
				Env: map[string]string{"CGIGATE_CHARSET": "Shift_JIS", "CGIGATE_SEPARATOR": "&"},
			})
			rep := echo(t, s, "GET", "/cgi-bin/echo/extra/path?q", nil)
			want := map[string]string{
				"CGIGATE_CHARSET":   "Shift_JIS",
				"CGIGATE_SEPARATOR": "&",
				"GATEWAY_INTERFACE": "CGI/1.1",
				"REQUEST_METHOD":    "GET",
				"SCRIPT_NAME":       "/cgi-bin/echo",
				"PATH_INFO":         "/extra/path",
				"REQUEST_URI":       "/cgi-bin/echo/extra/path?q",
			}
			for k, v := range want {
				if got, ok := rep.Env[k]; !ok || got != v {
					t.Errorf("%s = %q (set: %v), want %q", k, got, ok, v)
				}
			}
		})
	}
}

func TestPOSTBodiesReachTheCGIAndLimitRequestBodyRefusesLargerOnes(t *testing.T) {
	echoBin := apachetest.EchoCGI(t)
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			s := apachetest.Start(t, apachetest.Options{
				MPM: mpm, CGI: map[string]string{"echo": echoBin}, LimitRequestBody: 16,
			})
			t.Run("a body at the limit reaches stdin while the query still gives argv words", func(t *testing.T) {
				body := []byte("q=%88%F3%8D%FC&x")
				rep := echo(t, s, "POST", s.CGIPath("echo")+"?isindex", body)
				if !bytes.Equal(rep.Body, body) {
					t.Errorf("stdin = %q, want %q", rep.Body, body)
				}
				if rep.Env["CONTENT_TYPE"] != "application/x-www-form-urlencoded" {
					t.Errorf("CONTENT_TYPE = %q", rep.Env["CONTENT_TYPE"])
				}
				if len(rep.ArgBytes) != 1 || string(rep.ArgBytes[0]) != "isindex" {
					t.Errorf("argv[1:] = %q, want the query's one word even for POST", rep.ArgBytes)
				}
			})
			t.Run("a body one byte over the limit is refused with 413", func(t *testing.T) {
				r := s.Do(t, "POST", s.CGIPath("echo"), nil, []byte("q=123456789012345"))
				if r.Status != http.StatusRequestEntityTooLarge {
					t.Errorf("status = %d, want 413", r.Status)
				}
			})
		})
	}
}

// Prefork may run CGI through mod_cgid as well, which answers more requests
// than mod_cgi there (BENCHMARKS.md); the program must not see a difference.
func TestPreforkWithModCgidPassesArgvAndBody(t *testing.T) {
	s := apachetest.Start(t, apachetest.Options{MPM: httpdconf.MPMPrefork, CGIModule: httpdconf.CGIModuleCGID,
		CGI: map[string]string{"echo": apachetest.EchoCGI(t)}})
	// mod_cgid names its socket ScriptSock.PID.
	if socks, _ := filepath.Glob(s.Config.WithDefaults().ScriptSock + ".*"); len(socks) == 0 {
		t.Errorf("no mod_cgid socket beside %s", s.Config.WithDefaults().ScriptSock)
	}
	body := []byte("q=%88%F3&x")
	rep := echo(t, s, "POST", s.CGIPath("echo")+"?a+b", body)
	if !slices.EqualFunc(rep.ArgBytes, words("a", "b"), bytes.Equal) {
		t.Errorf("argv[1:] = %q, want a, b", rep.ArgBytes)
	}
	if !bytes.Equal(rep.Body, body) {
		t.Errorf("stdin = %q, want %q", rep.Body, body)
	}
}

// mod_cgi and mod_cgid read the body for the CGI program, so a client that
// stops sending is Apache's to time out: mod_reqtimeout answers 408 and logs
// AH01382 once BodyReadTimeout has passed, long before Apache's Timeout (60 s)
// would, which also answers 408 but logs only AH01225 (mod_cgi) or AH01270
// (mod_cgid).
func TestAStalledBodyIsAnswered408ByModReqtimeout(t *testing.T) {
	echoBin := apachetest.EchoCGI(t)
	raw := "POST /cgi-bin/echo HTTP/1.1\r\nHost: test\r\nConnection: close\r\n" +
		"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n" +
		"q=%88%F3+ab"
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			s := apachetest.Start(t, apachetest.Options{MPM: mpm, CGI: map[string]string{"echo": echoBin},
				BodyReadTimeout: 2 * time.Second})
			r := s.DoRaw(t, []byte(raw))
			if r.Status != http.StatusRequestTimeout {
				t.Errorf("status = %d, want 408; body %q", r.Status, r.Body)
			}
			if log := s.ErrorLog(); !strings.Contains(log, "AH01382") {
				t.Errorf("the error log has no AH01382 (mod_reqtimeout's body timeout):\n%s", log)
			}
		})
	}
}

// RFC 3875 section 4.1.2 has the server give CONTENT_LENGTH with any body;
// Apache does not for a chunked request: it passes the de-chunked body on
// stdin, closes it at the end, and sets no CONTENT_LENGTH at all.
func TestChunkedBodiesReachTheCGIWithoutContentLength(t *testing.T) {
	echoBin := apachetest.EchoCGI(t)
	raw := "POST /cgi-bin/echo HTTP/1.1\r\nHost: test\r\nConnection: close\r\n" +
		"Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n" +
		"5\r\nq=%88\r\n6\r\n%F3+ab\r\n0\r\n\r\n"
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			s := apachetest.Start(t, apachetest.Options{MPM: mpm, CGI: map[string]string{"echo": echoBin}})
			r := s.DoRaw(t, []byte(raw))
			var rep apachetest.EchoReport
			if r.Status != http.StatusOK || json.Unmarshal(r.Body, &rep) != nil {
				t.Fatalf("status %d, body %q\n%s", r.Status, r.Body, s.ErrorLog())
			}
			if cl, ok := rep.Env["CONTENT_LENGTH"]; ok {
				t.Errorf("CONTENT_LENGTH = %q, want it unset for a chunked body", cl)
			}
			if string(rep.Body) != "q=%88%F3+ab" {
				t.Errorf("stdin = %q, want the de-chunked body q=%%88%%F3+ab", rep.Body)
			}
		})
	}
}

func TestStaticFilesAreServedFromDocumentRoot(t *testing.T) {
	page := []byte("<!doctype html><meta charset=Shift_JIS><title>form</title>\n")
	s := apachetest.Start(t, apachetest.Options{Files: map[string][]byte{"forms/index.html": page}})
	r := s.Do(t, "GET", "/forms/", nil, nil)
	if r.Status != http.StatusOK || !bytes.Equal(r.Body, page) {
		t.Fatalf("GET /forms/ = %d %q, want 200 %q", r.Status, r.Body, page)
	}
	if ct := r.Header.Get("Content-Type"); ct != "text/html" {
		t.Errorf("Content-Type = %q, want text/html (no charset added by Apache)", ct)
	}
}

// A FastCGI responder in this process stands in for "cgigate -fcgi ADDR":
// Apache's mod_proxy_fcgi must hand it the query and the SetEnv variables.
func TestFastCGIProxyPassesQueryAndSetEnvVariables(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go fcgi.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"env": fcgi.ProcessEnv(r), "raw_query": r.URL.RawQuery, "path": r.URL.Path})
	}))
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			s := apachetest.Start(t, apachetest.Options{
				MPM: mpm, FastCGI: l.Addr().String(),
				Env: map[string]string{"CGIGATE_CHARSET": "EUC-JP"},
			})
			r := s.Do(t, "GET", "/cgi-bin/cgigate?a+%3D+%A4%A2", nil, nil)
			if r.Status != http.StatusOK {
				t.Fatalf("status %d %q\n%s", r.Status, r.Body, s.ErrorLog())
			}
			var got struct {
				Env      map[string]string `json:"env"`
				RawQuery string            `json:"raw_query"`
			}
			if err := json.Unmarshal(r.Body, &got); err != nil {
				t.Fatalf("%v: %q", err, r.Body)
			}
			if got.RawQuery != "a+%3D+%A4%A2" {
				t.Errorf("query = %q, want it unchanged", got.RawQuery)
			}
			if got.Env["CGIGATE_CHARSET"] != "EUC-JP" {
				t.Errorf("CGIGATE_CHARSET = %q, want EUC-JP; FastCGI params: %v", got.Env["CGIGATE_CHARSET"], got.Env)
			}
		})
	}
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	accepted atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// The rendered configuration keeps its connections to the FastCGI server
// from one request to the next (enablereuse): requests one after another
// open a connection per Apache child at most, not one each.
func TestFastCGIConnectionsAreReused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cl := &countingListener{Listener: l}
	go fcgi.Serve(cl, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	const n = 20
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			s := apachetest.Start(t, apachetest.Options{MPM: mpm, FastCGI: l.Addr().String()})
			before := cl.accepted.Load()
			for range n {
				if r := s.Do(t, "GET", "/cgi-bin/cgigate?a", nil, nil); r.Status != http.StatusOK {
					t.Fatalf("status %d %q\n%s", r.Status, r.Body, s.ErrorLog())
				}
			}
			if got := cl.accepted.Load() - before; got > n/2 {
				t.Errorf("%d requests opened %d connections to the FastCGI server, want at most %d", n, got, n/2)
			}
		})
	}
}

func TestFindBinary(t *testing.T) {
	none := func(string) (string, error) { return "", fmt.Errorf("not found") }
	tests := []struct {
		name   string
		env    map[string]string
		onPath map[string]string
		files  []string
		want   string
		err    bool
	}{
		{name: "APACHE_BIN wins over PATH", env: map[string]string{"APACHE_BIN": "/opt/httpd/bin/httpd"},
			onPath: map[string]string{"apache2": "/usr/sbin/apache2"}, files: []string{"/opt/httpd/bin/httpd"},
			want: "/opt/httpd/bin/httpd"},
		{name: "an APACHE_BIN that does not exist is an error, not a fallback",
			env: map[string]string{"APACHE_BIN": "/nope"}, onPath: map[string]string{"apache2": "/usr/sbin/apache2"}, err: true},
		{name: "apache2 on PATH is preferred to httpd", onPath: map[string]string{"apache2": "/a/apache2", "httpd": "/b/httpd"},
			want: "/a/apache2"},
		{name: "httpd on PATH is used when apache2 is absent", onPath: map[string]string{"httpd": "/b/httpd"}, want: "/b/httpd"},
		{name: "/usr/sbin is searched when PATH lacks it", files: []string{"/usr/sbin/apache2"}, want: "/usr/sbin/apache2"},
		{name: "nothing installed is ErrNoApache", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			look := none
			if tt.onPath != nil {
				look = func(n string) (string, error) {
					if p, ok := tt.onPath[n]; ok {
						return p, nil
					}
					return "", fmt.Errorf("%s not found", n)
				}
			}
			exists := func(p string) bool {
				for _, f := range tt.files {
					if f == p {
						return true
					}
				}
				return false
			}
			got, err := apachetest.FindBinary(func(k string) string { return tt.env[k] }, look, exists)
			if (err != nil) != tt.err || got != tt.want {
				t.Errorf("FindBinary = %q, %v; want %q, error %v", got, err, tt.want, tt.err)
			}
		})
	}
}

func TestAccountNeverAsksForRoot(t *testing.T) {
	tests := []struct {
		name        string
		uid, gid    int
		user, group string
	}{
		{"root runs children as www-data", 0, 0, "www-data", "www-data"},
		{"another user keeps its own ids", 1000, 100, "#1000", "#100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, g := apachetest.Account(tt.uid, tt.gid)
			if u != tt.user || g != tt.group {
				t.Errorf("Account(%d, %d) = %q, %q; want %q, %q", tt.uid, tt.gid, u, g, tt.user, tt.group)
			}
		})
	}
}

func TestModuleDir(t *testing.T) {
	debian := func(p string) bool { return p == "/usr/lib/apache2/modules" }
	tests := []struct {
		name, bin string
		exists    func(string) bool
		want      string
	}{
		{"Debian's apache2 uses /usr/lib/apache2/modules", "/usr/sbin/apache2", debian, "/usr/lib/apache2/modules"},
		{"the official image's httpd uses its prefix's modules", "/usr/local/apache2/bin/httpd", debian, "/usr/local/apache2/modules"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := apachetest.ModuleDir(tt.bin, tt.exists); got != tt.want {
				t.Errorf("ModuleDir(%q) = %q, want %q", tt.bin, got, tt.want)
			}
		})
	}
}

func ExampleAccount() {
	fmt.Println(apachetest.Account(0, 0))
	fmt.Println(apachetest.Account(1000, 1000))
	// Output:
	// www-data www-data
	// #1000 #1000
}

func ExampleFindBinary() {
	env := map[string]string{"APACHE_BIN": "/usr/local/apache2/bin/httpd"}
	bin, err := apachetest.FindBinary(
		func(k string) string { return env[k] },
		func(string) (string, error) { return "", fmt.Errorf("no PATH here") },
		func(p string) bool { return strings.HasPrefix(p, "/usr/local/apache2/") })
	fmt.Println(bin, err)
	// Output: /usr/local/apache2/bin/httpd <nil>
}

func TestBuildGoBuildsAMainPackageByFolder(t *testing.T) {
	tests := []struct{ name, chdir, dir string }{
		{"a folder path relative to the test's folder is built", "", "testdata/echocgi"},
		{`"." builds the folder a command's own test runs in`, "testdata/echocgi", "."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.chdir != "" {
				t.Chdir(tt.chdir)
			}
			bin := apachetest.BuildGo(t, tt.dir)
			if fi, err := os.Stat(bin); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
				t.Fatalf("BuildGo(%q) = %s (%v, %v), want an executable file", tt.dir, bin, fi, err)
			}
		})
	}
}
