package security

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	gocgi "net/http/cgi"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
)

// request is one request a case sends, the same on every path.
type request struct {
	Method string // "" is GET
	Script string // the cgi-bin name; "" is "cgigate"
	// PathInfo follows the script name as on the wire; Apache decodes it
	// once into PATH_INFO, and the direct path hands the same decoding to
	// net/http/cgi.
	PathInfo string
	Query    string // the raw bytes after '?', written as given
	Accept   string // "" is application/json
	Header   http.Header
	Body     []byte // nil: no body (and no Content-Length)
}

// response is what a path got back.
type response struct {
	Via    string
	Status int
	Header http.Header
	Body   []byte
	Head   []byte // the raw header block (Apache paths only)
}

// argv reports whether the gateway was run by Apache's mod_cgi or
// mod_cgid, which pass an ISINDEX query's words as arguments; Go's CGI
// host and FastCGI pass none.
func (r response) argv() bool {
	return r.Via == string(httpdconf.MPMEvent) || r.Via == string(httpdconf.MPMPrefork)
}

func (rq request) script() string {
	if rq.Script == "" {
		return "cgigate"
	}
	return rq.Script
}

func (rq request) method() string {
	if rq.Method == "" {
		return http.MethodGet
	}
	return rq.Method
}

func (rq request) header() http.Header {
	h := rq.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if h.Get("Accept") == "" {
		a := rq.Accept
		if a == "" {
			a = "application/json"
		}
		h.Set("Accept", a)
	}
	return h
}

// direct runs the request through Go's CGI host, net/http/cgi.Handler,
// which runs the gateway (or its wrapper) as a child process.
func direct(t testing.TB, rq request) response {
	t.Helper()
	needGateway(t)
	pathInfo, err := url.PathUnescape(rq.PathInfo)
	if err != nil {
		t.Fatalf("path info %q: %v", rq.PathInfo, err)
	}
	root := "/cgi-bin/" + rq.script()
	r := &http.Request{
		Method: rq.method(), URL: &url.URL{Path: root + pathInfo, RawQuery: rq.Query},
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: rq.header(),
		Host: "127.0.0.1", RemoteAddr: "127.0.0.1:40000", Body: http.NoBody,
	}
	if rq.Body != nil {
		r.Body = io.NopCloser(bytes.NewReader(rq.Body))
		r.ContentLength = int64(len(rq.Body))
	}
	var stderr bytes.Buffer
	h := &gocgi.Handler{Path: scriptPath(rq.script()), Root: root, Stderr: &stderr, InheritEnv: []string{"TMPDIR"}}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if testing.Verbose() && stderr.Len() > 0 {
		t.Logf("gateway stderr: %s", stderr.String())
	}
	return response{Via: "direct", Status: w.Code, Header: w.Header(), Body: w.Body.Bytes()}
}

// target is the request-target, byte for byte, for the script at path.
func (rq request) target(path string) string {
	s := path + rq.PathInfo
	if rq.Query != "" {
		s += "?" + rq.Query
	}
	return s
}

// cgiBin is where the script is under cgi-bin.
func (rq request) cgiBin() string { return "/cgi-bin/" + rq.script() }

// raw is the whole HTTP/1.1 request for the script at path.
func (rq request) raw(host, path string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", rq.method(), rq.target(path), host)
	if rq.Body != nil {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(rq.Body))
	}
	rq.header().Write(&b)
	b.WriteString("\r\n")
	b.Write(rq.Body)
	return b.Bytes()
}

// viaApache sends the request to the package's Apache with the MPM and
// reads the raw answer, so that header lines can be checked as bytes.
func viaApache(t testing.TB, mpm httpdconf.MPM, rq request) response {
	t.Helper()
	return roundTripVia(t, apache(t, mpm), rq, rq.cgiBin(), string(mpm))
}

// viaFastCGI sends the request to the package's cgigate -fcgi, behind
// Apache event with mod_proxy_fcgi (only the gateway itself, with no
// settings, is served there).
func viaFastCGI(t testing.TB, rq request) response {
	t.Helper()
	return roundTripVia(t, fastCGIApache(t), rq, fastCGIPath, "fastcgi")
}

func roundTripVia(t testing.TB, srv *apachetest.Server, rq request, path, via string) response {
	t.Helper()
	r, err := rawRoundTrip(srv.URL, rq.raw(strings.TrimPrefix(srv.URL, "http://"), path), rq.method())
	if err != nil {
		t.Fatalf("%s %q through Apache (%s): %v\n%s", rq.method(), rq.target(path), via, err, tail(srv.ErrorLog(), 2000))
	}
	r.Via = via
	return r
}

// rawRoundTrip writes raw to the server at base (a loopback URL), reads
// until the server closes, and parses the answer, keeping its raw header
// block.
func rawRoundTrip(base string, raw []byte, method string) (response, error) {
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(base, "http://"), 5*time.Second)
	if err != nil {
		return response{}, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(90 * time.Second))
	if _, err := conn.Write(raw); err != nil {
		return response{}, err
	}
	all, err := io.ReadAll(conn)
	if err != nil && len(all) == 0 {
		return response{}, err
	}
	return parseHTTP(all, method)
}

func parseHTTP(all []byte, method string) (response, error) {
	head, _, ok := bytes.Cut(all, []byte("\r\n\r\n"))
	if !ok {
		return response{}, fmt.Errorf("no end of the header block in %q", trim(all))
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(all)), &http.Request{Method: method})
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	return response{Status: resp.StatusCode, Header: resp.Header, Body: body, Head: head}, nil
}

// execCGI runs the gateway with an environment set by hand: the cases
// about the environment itself (HTTP_PROXY, CONTENT_LENGTH forms, argv).
func execCGI(t testing.TB, env map[string]string, args []string, stdin io.Reader) response {
	t.Helper()
	r, _ := runGateway(t, proc{env: env, args: args, stdin: stdin})
	return r
}

// proc is one run of the gateway by exec.
type proc struct {
	env    map[string]string
	args   []string
	stdin  io.Reader
	stdout io.Writer // nil: captured and parsed
	uid    int       // run as this user when not 0 (root can write anything)
	fail   bool      // a non-zero exit is expected
}

// runGateway runs the gateway as p says and returns its parsed answer
// (when stdout was captured) and its stderr.
func runGateway(t testing.TB, p proc) (response, string) {
	t.Helper()
	needGateway(t)
	cmd := exec.Command(gateway, p.args...)
	for _, k := range sortedKeys(p.env) {
		cmd.Env = append(cmd.Env, k+"="+p.env[k])
	}
	cmd.Stdin = p.stdin
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if p.stdout != nil {
		cmd.Stdout = p.stdout
	}
	if p.uid != 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(p.uid), Gid: uint32(p.uid)}}
	}
	err := cmd.Run()
	if (err != nil) != p.fail {
		t.Fatalf("gateway: exit %v (a failure expected: %v)\nstderr: %s", err, p.fail, stderr.String())
	}
	if p.stdout != nil {
		return response{}, stderr.String()
	}
	r, perr := parseCGI(out.Bytes())
	if perr != nil {
		t.Fatalf("%v\nstderr: %s", perr, stderr.String())
	}
	return r, stderr.String()
}

// parseCGI parses a CGI answer (RFC 3875 § 6): header lines, a blank
// line, the body; the Status header gives the status.
func parseCGI(out []byte) (response, error) {
	head, _, ok := bytes.Cut(out, []byte("\r\n\r\n"))
	if !ok {
		return response{}, fmt.Errorf("CGI answer without an end of headers: %q", trim(out))
	}
	br := bufio.NewReader(bytes.NewReader(out))
	hdr, err := textproto.NewReader(br).ReadMIMEHeader()
	if err != nil {
		return response{}, fmt.Errorf("CGI answer %q: %v", trim(out), err)
	}
	code, err := strconv.Atoi(strings.Fields(hdr.Get("Status") + " x")[0])
	if err != nil {
		return response{}, fmt.Errorf("Status %q", hdr.Get("Status"))
	}
	body, _ := io.ReadAll(br)
	return response{Via: "exec", Status: code, Header: http.Header(hdr), Body: body, Head: head}, nil
}

// cgiEnv is an explicit CGI environment for a GET; nothing is inherited.
func cgiEnv(kv ...string) map[string]string {
	m := map[string]string{
		"GATEWAY_INTERFACE": "CGI/1.1",
		"SERVER_PROTOCOL":   "HTTP/1.1",
		"SERVER_SOFTWARE":   "security-test",
		"SERVER_NAME":       "127.0.0.1",
		"SERVER_PORT":       "80",
		"REQUEST_METHOD":    "GET",
		"SCRIPT_NAME":       "/cgi-bin/cgigate",
		"REMOTE_ADDR":       "192.0.2.7",
		"REMOTE_PORT":       "40000",
		"HTTP_HOST":         "127.0.0.1",
		"HTTP_ACCEPT":       "application/json",
		"PATH":              "/usr/bin:/bin",
		"TMPDIR":            os.TempDir(),
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func postEnv(ct string, n int, kv ...string) map[string]string {
	return cgiEnv(append([]string{"REQUEST_METHOD", "POST", "CONTENT_TYPE", ct, "CONTENT_LENGTH", strconv.Itoa(n)}, kv...)...)
}

// Paths a case runs on.
type runOpts struct {
	prefork      bool   // also through the prefork/mod_cgi server
	refuseStatus int    // Apache answers this itself; the gateway never sees it
	refuseWhy    string // and why
	payloads     []string
	noDirect     bool
	fault        bool // a server fault is the expected answer: 5xx allowed
	setup        func(t *testing.T)
}

// before runs setup before the request on each path.
func before(setup func(t *testing.T)) opt { return func(o *runOpts) { o.setup = setup } }

type opt func(*runOpts)

// alsoPrefork adds the prefork/mod_cgi server to the paths.
func alsoPrefork() opt { return func(o *runOpts) { o.prefork = true } }

// apacheRefuses says Apache answers the request with status itself,
// before any CGI runs: the Apache half asserts that status, then skips.
func apacheRefuses(status int, why string) opt {
	return func(o *runOpts) { o.refuseStatus, o.refuseWhy = status, why }
}

// serverFault allows a 5xx answer: the case is a fault of the server
// (a full disk, a missing index), not client input.
func serverFault() opt { return func(o *runOpts) { o.fault = true } }

// withoutDirect leaves the direct path out: the case depends on Apache's
// children running as www-data, where the direct path runs as root.
func withoutDirect() opt { return func(o *runOpts) { o.noDirect = true } }

// noRaw lists payloads that must never appear unescaped in a response.
func noRaw(p ...string) opt { return func(o *runOpts) { o.payloads = append(o.payloads, p...) } }

// each sends rq directly, through Apache's CGI modules and, when rq is for
// the gateway with no settings, through Apache to cgigate -fcgi; it checks
// the output rules on every answer, then runs check on it.
func each(t *testing.T, rq request, check func(t *testing.T, r response), opts ...opt) {
	t.Helper()
	var o runOpts
	for _, f := range opts {
		f(&o)
	}
	type path struct {
		name string
		do   func(t *testing.T) response
		mpm  httpdconf.MPM // "" for the direct path
	}
	paths := []path{
		{"directly as a child of net/http/cgi", func(t *testing.T) response { return direct(t, rq) }, ""},
		{"through Apache event+mod_cgid", func(t *testing.T) response { return viaApache(t, httpdconf.MPMEvent, rq) }, httpdconf.MPMEvent},
	}
	if o.prefork {
		paths = append(paths, path{"through Apache prefork+mod_cgi", func(t *testing.T) response { return viaApache(t, httpdconf.MPMPrefork, rq) }, httpdconf.MPMPrefork})
	}
	// The FastCGI process has the gateway's default settings, and runs as
	// the test's user, as the direct path does.
	if rq.script() == "cgigate" && !o.noDirect {
		paths = append(paths, path{"through Apache event+mod_proxy_fcgi to cgigate -fcgi", func(t *testing.T) response { return viaFastCGI(t, rq) }, httpdconf.MPMEvent})
	}
	for _, p := range paths {
		if p.mpm == "" && o.noDirect {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			if o.setup != nil {
				o.setup(t)
			}
			r := p.do(t)
			if p.mpm != "" && o.refuseStatus != 0 {
				if r.Status != o.refuseStatus || isGateway(r) {
					t.Fatalf("Apache was expected to refuse this itself with %d (%s); got %d from %s:\n%s",
						o.refuseStatus, o.refuseWhy, r.Status, origin(r), trim(r.Body))
				}
				t.Skipf("Apache answers %d itself, before any CGI runs (%s): the gateway never sees this request", r.Status, o.refuseWhy)
			}
			checkOutputOpts(t, r, o)
			// Every answer of the gateway's is chosen by Accept, so no
			// cache may give it for another Accept.
			if v := r.Header.Values("Vary"); len(v) != 1 || v[0] != "Accept" {
				t.Errorf("%s: Vary %q, want one Vary: Accept", r.Via, v)
			}
			check(t, r)
		})
	}
}

// isGateway reports whether the answer is the gateway's own: it names
// one of its three types with charset=utf-8 and nosniff.
func isGateway(r response) bool {
	ct := r.Header.Get("Content-Type")
	return r.Header.Get("X-Content-Type-Options") == "nosniff" && strings.HasSuffix(ct, "; charset=utf-8")
}

func origin(r response) string {
	if isGateway(r) {
		return "the gateway"
	}
	return "Apache"
}

var headerLine = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[ \t]*[^\r\n\x00]*$")

// checkOutput applies the output rules to every answer: each raw header
// line is one well-formed line; the gateway sends no Location,
// Set-Cookie, Refresh or Transfer-Encoding of its own; its Content-Type
// names charset=utf-8; every body byte is valid UTF-8; no payload given
// appears unescaped.
func checkOutput(t *testing.T, r response, payloads []string) {
	t.Helper()
	checkOutputOpts(t, r, runOpts{payloads: payloads})
}

func checkOutputOpts(t *testing.T, r response, o runOpts) {
	t.Helper()
	payloads := o.payloads
	if r.Head != nil {
		lines := strings.Split(string(r.Head), "\r\n")
		for i, l := range lines {
			if i == 0 && r.Via != "exec" {
				if !strings.HasPrefix(l, "HTTP/1.") {
					t.Errorf("status line %q", l)
				}
				continue
			}
			if !headerLine.MatchString(l) {
				t.Errorf("raw header line %d %q is not one well-formed line", i, l)
			}
		}
	}
	for _, h := range []string{"Location", "Set-Cookie", "Refresh", "Content-Location"} {
		if v, ok := r.Header[h]; ok {
			t.Errorf("%s: header %s: %q was sent", r.Via, h, v)
		}
	}
	if r.Status >= 500 && !o.fault {
		t.Errorf("%s: status %d for client input:\n%s", r.Via, r.Status, trim(r.Body))
	}
	if !utf8.Valid(r.Body) {
		t.Errorf("%s: the body is not valid UTF-8: %q", r.Via, trim(r.Body))
	}
	if o.refuseStatus == 0 { // the gateway's answer, not Apache's own
		ct := r.Header.Get("Content-Type")
		switch ct {
		case "text/html; charset=utf-8", "application/json; charset=utf-8", "text/plain; charset=utf-8":
		default:
			t.Errorf("%s: Content-Type %q", r.Via, ct)
		}
		if v := r.Header.Get("X-Content-Type-Options"); v != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", r.Via, v)
		}
		if strings.HasPrefix(ct, "text/html") && !strings.Contains(r.Header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("%s: an HTML page without Content-Security-Policy default-src 'none': %q", r.Via, r.Header.Get("Content-Security-Policy"))
		}
	}
	for _, p := range payloads {
		if bytes.Contains(r.Body, []byte(p)) {
			t.Errorf("%s: the raw payload %q appears in the answer:\n%s", r.Via, p, trim(r.Body))
		}
	}
}

// result is the JSON rendering, as cmd/cgigate/README.md documents it.
type result struct {
	Kind          string   `json:"kind"`
	Method        string   `json:"method"`
	Charset       string   `json:"charset"`
	CharsetSource string   `json:"charset_source"`
	Keywords      []string `json:"keywords"`
	Fields        []field  `json:"fields"`
	Files         []file   `json:"files"`
	Results       []struct {
		Title, URL, Snippet string
		Score               float64
	} `json:"results"`
	Warnings []string `json:"warnings"`
}

type field struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

type file struct {
	Name        string `json:"name"`
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
}

// decoded checks that r is a 200 JSON rendering with every key of the
// contract present, and returns it.
func decoded(t *testing.T, r response) result {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("%s: status %d; want 200:\n%s", r.Via, r.Status, trim(r.Body))
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &keys); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", r.Via, err, trim(r.Body))
	}
	for _, k := range []string{"kind", "method", "charset", "charset_source", "keywords", "fields", "files", "results", "warnings"} {
		if v, ok := keys[k]; !ok || string(v) == "null" {
			t.Errorf("%s: JSON key %q missing or null", r.Via, k)
		}
	}
	var res result
	if err := json.Unmarshal(r.Body, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// refused checks that r is the gateway's JSON error with status.
func refused(t *testing.T, r response, status int, msgHas ...string) string {
	t.Helper()
	if r.Status != status {
		t.Fatalf("%s: status %d; want %d:\n%s", r.Via, r.Status, status, trim(r.Body))
	}
	var e struct {
		Error  string `json:"error"`
		Status int    `json:"status"`
	}
	if err := json.Unmarshal(r.Body, &e); err != nil {
		t.Fatalf("%s: not a JSON error: %v\n%s", r.Via, err, trim(r.Body))
	}
	if e.Status != status || e.Error == "" {
		t.Errorf("%s: error body %+v", r.Via, e)
	}
	for _, s := range msgHas {
		if !strings.Contains(e.Error, s) {
			t.Errorf("%s: error %q does not say %q", r.Via, e.Error, s)
		}
	}
	return e.Error
}

// wantFields compares the decoded fields, name, value and source.
func wantFields(t *testing.T, r result, want ...field) {
	t.Helper()
	if len(r.Fields) != len(want) {
		t.Fatalf("fields %q; want %q", r.Fields, want)
	}
	for i := range want {
		if r.Fields[i] != want[i] {
			t.Errorf("field %d is %q; want %q", i, r.Fields[i], want[i])
		}
	}
}

func q(name, value string) field { return field{name, value, "query"} }
func b(name, value string) field { return field{name, value, "body"} }

func wantKeywords(t *testing.T, r result, want ...string) {
	t.Helper()
	if r.Kind != "isindex" {
		t.Errorf("kind %q; want isindex", r.Kind)
	}
	if strings.Join(r.Keywords, "\x00") != strings.Join(want, "\x00") || len(r.Keywords) != len(want) {
		t.Errorf("keywords %q; want %q", r.Keywords, want)
	}
}

func warned(t *testing.T, r result, has string) {
	t.Helper()
	for _, w := range r.Warnings {
		if strings.Contains(w, has) {
			return
		}
	}
	t.Errorf("no warning says %q: %q", has, r.Warnings)
}

func trim(b []byte) string {
	if len(b) > 1500 {
		return string(b[:1500]) + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return string(b)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// form is an urlencoded POST body request.
func form(body string) request {
	return request{Method: "POST", Body: []byte(body),
		Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}}
}

var _ = apachetest.FreePort

// wantHTML checks a 200 HTML answer holds each fragment.
func wantHTML(t *testing.T, r response, fragments ...string) {
	t.Helper()
	if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("%s: status %d, Content-Type %q:\n%s", r.Via, r.Status, r.Header.Get("Content-Type"), trim(r.Body))
	}
	for _, f := range fragments {
		if !bytes.Contains(r.Body, []byte(f)) {
			t.Errorf("%s: the HTML lacks %q:\n%s", r.Via, f, trim(r.Body))
		}
	}
}

// eachRaw sends a raw request, which no direct path can express, through
// Apache (both MPMs), with the same output checks as each.
func eachRaw(t *testing.T, raw func(host string) []byte, check func(t *testing.T, r response), opts ...opt) {
	t.Helper()
	var o runOpts
	for _, f := range opts {
		f(&o)
	}
	for _, mpm := range []httpdconf.MPM{httpdconf.MPMEvent, httpdconf.MPMPrefork} {
		t.Run("through Apache "+string(mpm), func(t *testing.T) {
			srv := apache(t, mpm)
			req := raw(strings.TrimPrefix(srv.URL, "http://"))
			method, _, _ := strings.Cut(string(req), " ")
			r, err := rawRoundTrip(srv.URL, req, method)
			if err != nil {
				t.Fatalf("%v\n%s", err, tail(srv.ErrorLog(), 2000))
			}
			r.Via = string(mpm)
			if o.refuseStatus != 0 {
				if r.Status != o.refuseStatus || isGateway(r) {
					t.Fatalf("Apache was expected to refuse this itself with %d (%s); got %d from %s:\n%s",
						o.refuseStatus, o.refuseWhy, r.Status, origin(r), trim(r.Body))
				}
				checkOutputOpts(t, r, o)
				return
			}
			checkOutput(t, r, o.payloads)
			check(t, r)
		})
	}
}

// clientCut sends a POST claiming claimed bytes, writes only body, and
// closes its side for writing, as a client that goes away mid-body; it
// returns what Apache answers, if anything.
func clientCut(t *testing.T, mpm, script, body string, claimed int) response {
	t.Helper()
	srv := apache(t, httpdconf.MPM(mpm))
	conn, err := net.DialTimeout("tcp", strings.TrimPrefix(srv.URL, "http://"), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(90 * time.Second))
	fmt.Fprintf(conn, "POST /cgi-bin/%s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nAccept: application/json\r\n"+
		"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s",
		script, strings.TrimPrefix(srv.URL, "http://"), claimed, body)
	conn.(*net.TCPConn).CloseWrite()
	all, _ := io.ReadAll(conn)
	if len(all) == 0 {
		return response{Via: mpm}
	}
	r, err := parseHTTP(all, "POST")
	if err != nil {
		t.Fatal(err)
	}
	r.Via = mpm
	return r
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }
