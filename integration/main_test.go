package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/gobuild"
)

// gatewayBin is the cgigate binary built by TestMain as README deploys it
// in cgi-bin (-tags cgionly); fastcgiBin is the default build, whose -fcgi
// mode the FastCGI tests run; echoBin is apachetest's echo CGI, which
// reports the argv and QUERY_STRING Apache gave it.
var gatewayBin, fastcgiBin, echoBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "integration-cgigate-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		for _, b := range []struct {
			dst       *string
			pkg, tags string
		}{
			{&gatewayBin, "../cmd/cgigate", gobuild.CGIBin},
			{&fastcgiBin, "../cmd/cgigate", ""},
			{&echoBin, "../internal/apachetest/testdata/echocgi", ""},
		} {
			bin, err := build(dir, b.pkg, b.tags)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			*b.dst = bin
		}
		return m.Run()
	}()
	os.Exit(code)
}

// build builds the main package pkg statically (CGO_ENABLED=0, as the
// gateway is deployed) with the build tags in tags into dir.
// apachetest.BuildGo builds per test; this suite builds once and copies
// the file into every server.
func build(dir, pkg, tags string) (string, error) {
	out := filepath.Join(dir, filepath.Base(pkg))
	if tags != "" {
		out += "-" + tags
	}
	if msg, err := gobuild.Command(context.Background(), "", pkg, out, tags).CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	return out, nil
}

// mpms are the two ways Apache runs CGI programs.
var mpms = []httpdconf.MPM{httpdconf.MPMPrefork, httpdconf.MPMEvent}

// gatewayPath is where the gateway answers on every server of this suite.
const gatewayPath = "/cgi-bin/cgigate"

// startGateway starts Apache with the built gateway in its cgi-bin as
// "cgigate", and the echo CGI as "echo".
func startGateway(t *testing.T, opts apachetest.Options) *apachetest.Server {
	t.Helper()
	opts.CGI = map[string]string{"cgigate": gatewayBin, "echo": echoBin}
	return apachetest.Start(t, opts)
}

// result is the gateway's JSON rendering, the contract that
// cmd/cgigate/README.md documents, decoded strictly: an unknown key is an error.
type result struct {
	Kind          string   `json:"kind"`
	Method        string   `json:"method"`
	Charset       string   `json:"charset"`
	CharsetSource string   `json:"charset_source"`
	Keywords      []string `json:"keywords"`
	Fields        []field  `json:"fields"`
	Files         []file   `json:"files"`
	Results       []hit    `json:"results"`
	Total         int      `json:"total"`
	Page          int      `json:"page"`
	Pages         int      `json:"pages"`
	Warnings      []string `json:"warnings"`
	// Form and Redirect are only in a declared form's answers.
	Form     string    `json:"form"`
	Redirect string    `json:"redirect"`
	present  presentKV // which keys were in the object
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

type hit struct {
	Title      string   `json:"title"`
	URL        string   `json:"url"`
	Snippet    string   `json:"snippet"`
	Score      float64  `json:"score"`
	Highlights [][2]int `json:"highlights"`
}

type presentKV map[string]json.RawMessage

// apiError is the JSON body of an error answer.
type apiError struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

// contractKeys are the keys every JSON rendering must hold (lists as [],
// never null).
var contractKeys = []string{"kind", "method", "charset", "charset_source", "keywords", "fields", "files", "results", "total", "page", "pages", "warnings"}

// decodeResult decodes a 200 JSON answer and checks the contract's shape.
func decodeResult(t *testing.T, body []byte) result {
	t.Helper()
	var r result
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("the answer is not the JSON rendering: %v\n%s", err, body)
	}
	if err := json.Unmarshal(body, &r.present); err != nil {
		t.Fatal(err)
	}
	for _, k := range contractKeys {
		v, ok := r.present[k]
		if !ok {
			t.Errorf("JSON key %q is missing:\n%s", k, body)
		} else if string(v) == "null" {
			t.Errorf("JSON key %q is null, want a value ([] for lists):\n%s", k, body)
		}
	}
	return r
}

// reply is one response read with net/http.
type reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// client talks to Apache with net/http. No proxy from the environment:
// the servers are on loopback.
var client = &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}

// send makes one request with net/http. target is the path and raw query,
// sent as written (net/http does not re-encode a RawQuery).
func send(t *testing.T, s *apachetest.Server, method, target, contentType string, body []byte, accept string) reply {
	t.Helper()
	r, err := do(s, method, target, contentType, body, accept)
	if err != nil {
		t.Fatalf("%v\n%s", err, tail(s.ErrorLog()))
	}
	return r
}

// do is send for goroutines other than the test's own.
func do(s *apachetest.Server, method, target, contentType string, body []byte, accept string) (reply, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, s.URL+target, rd)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: %v", method, target, err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := client.Do(req)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: reading the answer: %v", method, target, err)
	}
	return reply{resp.StatusCode, resp.Header, b}, nil
}

// getJSON asks for target with Accept: application/json and wants a 200
// JSON rendering.
func getJSON(t *testing.T, s *apachetest.Server, target string) result {
	t.Helper()
	r := send(t, s, "GET", target, "", nil, "application/json")
	return wantResult(t, s, "GET "+target, r)
}

// postJSON posts body with Content-Type ct and wants a 200 JSON rendering.
func postJSON(t *testing.T, s *apachetest.Server, target, ct string, body []byte) result {
	t.Helper()
	r := send(t, s, "POST", target, ct, body, "application/json")
	return wantResult(t, s, "POST "+target, r)
}

func wantResult(t *testing.T, s *apachetest.Server, what string, r reply) result {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("%s: status %d, want 200; body %s\n%s", what, r.Status, r.Body, tail(s.ErrorLog()))
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("%s: Content-Type %q, want application/json; charset=utf-8", what, ct)
	}
	return decodeResult(t, r.Body)
}

// wantError checks an error answer: the status, a JSON body naming the
// same status, and a message containing each of words.
func wantError(t *testing.T, s *apachetest.Server, r reply, status int, words ...string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s\n%s", r.Status, status, r.Body, tail(s.ErrorLog()))
	}
	var e apiError
	if err := json.Unmarshal(r.Body, &e); err != nil {
		t.Fatalf("the %d answer is not the gateway's JSON error: %v\n%s", status, err, r.Body)
	}
	if e.Status != status {
		t.Errorf("JSON status %d, want %d", e.Status, status)
	}
	for _, w := range words {
		if !strings.Contains(e.Error, w) {
			t.Errorf("error message %q does not name %q", e.Error, w)
		}
	}
}

// tail keeps the end of a log for failure messages.
func tail(log string) string {
	const n = 4000
	if len(log) > n {
		return "…" + log[len(log)-n:]
	}
	return log
}
