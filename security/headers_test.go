package security

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
)

// Response headers: no input reaches a header. The gateway writes every
// header through one writer (package cgi's response), which refuses a
// name that is not a token, a value with CR, LF, NUL or another control
// byte, and the names Location, Status, Content-Length and
// Transfer-Encoding outright (CVE-2012-5526 and CVE-2021-33621 were
// header injection through CGI.pm and Ruby's cgi; CVE-2016-4975 through
// mod_http2's Location; CVE-2024-24795 a CGI's Transfer-Encoding).
// checkOutput reads every raw header line of every answer in this package.

func TestCVE_2012_5526_CRLFNeverReachesAHeader(t *testing.T) {
	c := corpusCase(t, 63, "next=%0D%0ASet-Cookie:%20a=b")
	t.Run("the value is data, and no header carries it", func(t *testing.T) {
		each(t, request{Query: c.Input}, func(t *testing.T, r response) {
			wantFields(t, decoded(t, r), q("next", "\r\nSet-Cookie: a=b"))
			if bytes.Contains(r.Head, []byte("Set-Cookie")) || bytes.Contains(r.Head, []byte("a=b")) {
				t.Errorf("the header block holds the input:\n%s", r.Head)
			}
		}, alsoPrefork())
	})
	t.Run("the same in an error message, a charset label", func(t *testing.T) {
		each(t, request{Query: "q=1&_charset_=x%0D%0ASet-Cookie:a%3Db"}, func(t *testing.T, r response) {
			refused(t, r, http.StatusBadRequest, "Set-Cookie")
			if bytes.Contains(r.Head, []byte("Set-Cookie")) {
				t.Errorf("the header block holds the input:\n%s", r.Head)
			}
		})
	})
	t.Run("the writer drops a header a handler sets with CR LF", func(t *testing.T) {
		out := serveWith(t, func(w cgi.ResponseWriter) {
			w.Header()["X-Next"] = []string{"a\r\nSet-Cookie: a=b"}
			w.Header()["X-Lf"] = []string{"a\nb"}
			w.Header()["X-Nul"] = []string{"a\x00b"}
			w.Header()["Bad Name"] = []string{"v"}
			w.Header()["X-Good"] = []string{"kept"}
		})
		for _, h := range []string{"Set-Cookie", "X-Next", "X-Lf", "X-Nul", "Bad Name"} {
			if _, ok := out.Header[h]; ok {
				t.Errorf("%s was written: %q", h, out.Head)
			}
		}
		if out.Header.Get("X-Good") != "kept" {
			t.Errorf("X-Good lost: %q", out.Head)
		}
	})
	t.Run("SetHeader refuses what the writer would drop", func(t *testing.T) {
		for _, kv := range [][2]string{{"X-A", "v\r\nSet-Cookie: a=b"}, {"X-A", "v\n"}, {"X A", "v"}, {"Location", "/"}, {"Status", "302"}} {
			if err := cgi.SetHeader(cgi.Header{}, kv[0], kv[1]); err == nil {
				t.Errorf("SetHeader(%q, %q) accepted", kv[0], kv[1])
			}
		}
	})
}

func TestCVE_2024_24795_NoTransferEncodingOrStatusFromInput(t *testing.T) {
	c := corpusCase(t, 65, "Transfer-Encoding=chunked")
	for _, rq := range []request{
		{Query: c.Input},
		{Query: c.Also[0]},
		multipartReq("application/x-chunked", "x"),
		{Query: "a=1", Header: http.Header{"Te": {"chunked"}, "X-Status": {"302"}}},
	} {
		t.Run(rq.Query+rq.Header.Get("Content-Type"), func(t *testing.T) {
			each(t, rq, func(t *testing.T, r response) {
				if r.Status == http.StatusFound {
					t.Errorf("status 302 from input")
				}
				if r.Via == "direct" {
					return
				}
				for _, l := range strings.Split(string(r.Head), "\r\n")[1:] {
					if strings.HasPrefix(strings.ToLower(l), "status:") {
						t.Errorf("a Status line reached the client: %q", l)
					}
				}
			})
		})
	}
	t.Run("the writer drops Transfer-Encoding, Status and Content-Length a handler sets", func(t *testing.T) {
		out := serveWith(t, func(w cgi.ResponseWriter) {
			w.Header()["Transfer-Encoding"] = []string{"chunked"}
			w.Header()["Status"] = []string{"302 Found"}
			w.Header()["Content-Length"] = []string{"0"}
		})
		lines := strings.Split(string(out.Head), "\r\n")
		if lines[0] != "Status: 200 OK" {
			t.Errorf("first line %q", lines[0])
		}
		for _, l := range lines[1:] {
			for _, h := range []string{"Transfer-Encoding", "Status", "Content-Length"} {
				if strings.HasPrefix(l, h+":") {
					t.Errorf("%q was written", l)
				}
			}
		}
	})
}

// serveWith answers one CGI request with a handler that sets headers by
// hand (bypassing cgi.SetHeader), through cgi.ServeEnv, and parses what
// it wrote.
func serveWith(t *testing.T, set func(w cgi.ResponseWriter)) response {
	t.Helper()
	h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		set(w)
		cgi.Respond(w, http.StatusOK, cgi.Text, []byte("body\n"))
	})
	var out bytes.Buffer
	if err := cgi.ServeEnv(h, cgi.Limits{}, cgiEnv(), nil, strings.NewReader(""), &out); err != nil {
		t.Fatal(err)
	}
	r, err := parseCGI(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	checkOutput(t, r, nil)
	return r
}
