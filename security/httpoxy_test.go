package security

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
)

// The environment: a request header becomes an HTTP_* variable, which is
// how "Proxy:" became HTTP_PROXY, the variable outbound HTTP clients read
// (httpoxy, CVE-2016-5385), and how a User-Agent reached bash's function
// import (Shellshock, CVE-2014-6271). The gateway makes no outbound
// request and starts no process in CGI mode, and trusts no forwarding
// header: the remote address it records is REMOTE_ADDR.

// echoEnv is the environment Apache gave the echo CGI for a request.
func echoEnv(t *testing.T, mpm httpdconf.MPM, h http.Header) map[string]string {
	t.Helper()
	srv := apache(t, mpm)
	r := srv.Do(t, http.MethodGet, "/cgi-bin/echo?a=1", h, nil)
	var rep struct{ Env map[string]string }
	if err := json.Unmarshal(r.Body, &rep); err != nil {
		t.Fatalf("echo: %v\n%s", err, r.Body)
	}
	return rep.Env
}

func TestCVE_2016_5385_HTTPProxyIsNeverUsed(t *testing.T) {
	c := corpusCase(t, 58, "Proxy: http://127.0.0.1:9/")
	t.Run("Apache exports no HTTP_PROXY for a Proxy header", func(t *testing.T) {
		for _, mpm := range []httpdconf.MPM{httpdconf.MPMEvent, httpdconf.MPMPrefork} {
			env := echoEnv(t, mpm, http.Header{"Proxy": {"http://127.0.0.1:9/"}})
			if v, ok := env["HTTP_PROXY"]; ok {
				t.Errorf("%s: HTTP_PROXY=%q reached the CGI (%s)", mpm, v, c.Want)
			}
		}
	})
	t.Run("the gateway answers a request carrying it, on every path", func(t *testing.T) {
		each(t, request{Query: "a=1", Header: http.Header{"Proxy": {"http://127.0.0.1:9/"}}}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("a", "1"))
		}, alsoPrefork())
	})
	t.Run("HTTP_PROXY set by hand points at a listener that nothing reaches", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		proxy := "http://" + ln.Addr().String() + "/"
		dir := makeIndex(t)
		for _, env := range []map[string]string{
			cgiEnv("QUERY_STRING", "a=1", "HTTP_PROXY", proxy, "http_proxy", proxy, "HTTPS_PROXY", proxy),
			cgiEnv("QUERY_STRING", "findme", "HTTP_PROXY", proxy, "CGIGATE_INDEX_DIR", dir),
			postEnv("application/x-www-form-urlencoded", 3, "HTTP_PROXY", proxy, "CGIGATE_RECORD", filepath.Join(t.TempDir(), "r.jsonl")),
		} {
			r := execCGI(t, env, nil, strings.NewReader("a=1"))
			checkOutput(t, r, nil)
			decoded(t, r)
			if strings.Contains(string(r.Body), ln.Addr().String()) {
				t.Errorf("the proxy address appears in the answer: %s", r.Body)
			}
		}
		// The gateway has exited: a connection it made would be waiting.
		ln.(*net.TCPListener).SetDeadline(time.Now())
		if conn, err := ln.Accept(); err == nil {
			conn.Close()
			t.Error("the gateway connected to HTTP_PROXY")
		}
	})
}

// TestCVE_2014_6271_ShellshockHeaderStaysText runs the gateway with a
// PATH whose sh, bash, env and echo would each leave a mark: none runs.
func TestCVE_2014_6271_ShellshockHeaderStaysText(t *testing.T) {
	c := corpusCase(t, 59, "() { :;}; /bin/echo VULN")
	t.Run("Apache passes the header as HTTP_USER_AGENT, as it is", func(t *testing.T) {
		env := echoEnv(t, httpdconf.MPMEvent, http.Header{"User-Agent": {c.Input[len("User-Agent: "):]}})
		if env["HTTP_USER_AGENT"] != "() { :;}; /bin/echo VULN" {
			t.Errorf("HTTP_USER_AGENT %q", env["HTTP_USER_AGENT"])
		}
	})
	t.Run("the gateway answers, on every path, with nothing of it", func(t *testing.T) {
		each(t, request{Query: "a=1", Header: http.Header{"User-Agent": {"() { :;}; /bin/echo VULN"}}}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("a", "1"))
			if strings.Contains(string(r.Body), "VULN") {
				t.Errorf("VULN in the answer: %s", r.Body)
			}
		}, alsoPrefork())
	})
	t.Run("no program on PATH is started", func(t *testing.T) {
		bin := t.TempDir()
		mark := filepath.Join(t.TempDir(), "ran")
		for _, name := range []string{"sh", "bash", "env", "echo", "dash"} {
			script := "#!/bin/sh\necho " + name + " >> " + mark + "\n"
			if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for _, env := range []map[string]string{
			cgiEnv("QUERY_STRING", "a=1", "HTTP_USER_AGENT", "() { :;}; /bin/echo VULN", "PATH", bin),
			cgiEnv("QUERY_STRING", "findme", "HTTP_USER_AGENT", "() { :;}; echo VULN", "PATH", bin, "CGIGATE_INDEX_DIR", makeIndex(t)),
			postEnv("multipart/form-data; boundary=X", len(mpFile), "HTTP_USER_AGENT", "() { :;}; echo VULN", "PATH", bin, "TMPDIR", t.TempDir()),
		} {
			r := execCGI(t, env, nil, strings.NewReader(mpFile))
			checkOutput(t, r, nil)
			decoded(t, r)
		}
		if b, err := os.ReadFile(mark); err == nil {
			t.Errorf("the gateway started %q", b)
		}
	})
}

const mpFile = "--X\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\ncontent\r\n--X--\r\n"

func TestUnderscoreForwardedForIsDropped(t *testing.T) {
	c := corpusCase(t, 60, "X_Forwarded_For: 6.6.6.6 and X-Forwarded-For: 1.1.1.1")
	h := http.Header{"X_Forwarded_For": {"6.6.6.6"}, "X-Forwarded-For": {"1.1.1.1"}}
	t.Run("Apache keeps only the dash name", func(t *testing.T) {
		for _, mpm := range []httpdconf.MPM{httpdconf.MPMEvent, httpdconf.MPMPrefork} {
			env := echoEnv(t, mpm, h)
			if env["HTTP_X_FORWARDED_FOR"] != "1.1.1.1" {
				t.Errorf("%s: HTTP_X_FORWARDED_FOR %q (%s)", mpm, env["HTTP_X_FORWARDED_FOR"], c.Want)
			}
		}
	})
	t.Run("the record names REMOTE_ADDR, not a forwarded address", func(t *testing.T) {
		marker := randomHex(t)
		rq := form("m=" + marker)
		rq.Script = "cgigate-rec"
		for k, v := range h {
			rq.Header[k] = v
		}
		each(t, rq, func(t *testing.T, r response) {
			decoded(t, r)
			rec := findRecord(t, filepath.Join(runDir, "rec.jsonl"), marker, r.Via)
			if rec.RemoteAddr != "127.0.0.1" {
				t.Errorf("remote_addr %q; want 127.0.0.1, the peer", rec.RemoteAddr)
			}
		})
	})
}

// record is one line of a CGIGATE_RECORD file.
type record struct {
	Time       string  `json:"time"`
	RemoteAddr string  `json:"remote_addr"`
	Charset    string  `json:"charset"`
	Fields     []field `json:"fields"`
	Files      []file  `json:"files"`
}

// findRecord returns the last record holding marker (paths run one after
// the other, so the last is the path's own), failing t when none does or
// a line holding it is not JSON.
func findRecord(t *testing.T, path, marker, via string) record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var found []record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if !strings.Contains(sc.Text(), marker) {
			continue
		}
		var rec record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("a record line is not JSON: %v: %q", err, sc.Text())
		}
		found = append(found, rec)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatalf("%s: no record holds %s", via, marker)
	}
	return found[len(found)-1]
}

// makeIndex is a search folder of one matching document.
func makeIndex(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("findme here"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
