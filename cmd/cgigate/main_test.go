package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	gocgi "net/http/cgi"
	"net/http/httptest"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/gobuild"
)

// bin is the gateway, built once: the tests run it as a real CGI child.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cgigate-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "cgigate")
	if out, err := gobuild.Command(context.Background(), "", ".", bin, "").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// answer is a parsed CGI answer.
type answer struct {
	status int
	header textproto.MIMEHeader
	body   string
	stderr string
}

// cgiEnv is an explicit CGI environment for a GET: nothing is inherited
// from the test process but PATH and TMPDIR.
func cgiEnv(kv ...string) map[string]string {
	m := map[string]string{
		"GATEWAY_INTERFACE": "CGI/1.1",
		"SERVER_PROTOCOL":   "HTTP/1.1",
		"SERVER_SOFTWARE":   "test",
		"REQUEST_METHOD":    "GET",
		"SCRIPT_NAME":       "/cgi-bin/cgigate",
		"REMOTE_ADDR":       "192.0.2.7",
		"REMOTE_PORT":       "40000",
		"HTTP_HOST":         "example.org",
		"PATH":              os.Getenv("PATH"),
		"TMPDIR":            os.TempDir(),
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func postEnv(ct, body string, kv ...string) map[string]string {
	return cgiEnv(append([]string{"REQUEST_METHOD", "POST", "CONTENT_TYPE", ct, "CONTENT_LENGTH", strconv.Itoa(len(body))}, kv...)...)
}

// runCGI executes the gateway with env, argv words and stdin, as Apache
// does, and parses what it writes.
func runCGI(t testing.TB, env map[string]string, args []string, stdin io.Reader) answer {
	t.Helper()
	cmd := exec.Command(bin, args...)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v\nstderr: %s", err, errb.String())
	}
	return parseAnswer(t, out.Bytes(), errb.String())
}

func parseAnswer(t testing.TB, out []byte, stderr string) answer {
	t.Helper()
	br := bufio.NewReader(bytes.NewReader(out))
	hdr, err := textproto.NewReader(br).ReadMIMEHeader()
	if err != nil {
		t.Fatalf("CGI answer %q: %v", out, err)
	}
	st := hdr.Get("Status")
	code, err := strconv.Atoi(strings.Fields(st + " x")[0])
	if err != nil {
		t.Fatalf("Status %q", st)
	}
	body, _ := io.ReadAll(br)
	return answer{code, hdr, string(body), stderr}
}

func get(t testing.TB, query string, kv ...string) answer {
	t.Helper()
	return runCGI(t, cgiEnv(append([]string{"QUERY_STRING", query}, kv...)...), nil, strings.NewReader(""))
}

func postCGI(t testing.TB, ct, body string, kv ...string) answer {
	t.Helper()
	return runCGI(t, postEnv(ct, body, kv...), nil, strings.NewReader(body))
}

// viaHandler sends req to the gateway through net/http/cgi.Handler, Go's
// CGI host, with the CGIGATE_ settings in env ("KEY=value").
func viaHandler(t testing.TB, req *http.Request, env ...string) *httptest.ResponseRecorder {
	t.Helper()
	var stderr bytes.Buffer
	h := &gocgi.Handler{Path: bin, Root: "/cgi-bin/cgigate", Env: env, Stderr: &stderr}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if testing.Verbose() && stderr.Len() > 0 {
		t.Logf("stderr: %s", stderr.String())
	}
	return w
}

// jsonResult decodes a JSON rendering, checking the contract's keys.
func jsonResult(t testing.TB, body string) result {
	t.Helper()
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &keys); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	for _, k := range []string{"kind", "method", "charset", "charset_source", "keywords", "fields", "files", "results", "warnings"} {
		if v, ok := keys[k]; !ok || string(v) == "null" {
			t.Errorf("JSON key %q missing or null in %s", k, body)
		}
	}
	var r result
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func jsonError(t testing.TB, body string) (string, int) {
	t.Helper()
	var e struct {
		Error  string `json:"error"`
		Status int    `json:"status"`
	}
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("not a JSON error: %v\n%s", err, body)
	}
	return e.Error, e.Status
}

const acceptJSON = "HTTP_ACCEPT"

func execCommand(args ...string) *exec.Cmd { return exec.Command(bin, args...) }
