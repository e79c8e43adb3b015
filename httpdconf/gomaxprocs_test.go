package httpdconf_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/cgiprocs"
)

// The rendered configuration gives cgigate GOMAXPROCS=1 for exactly the
// requests the program itself would run on one P (cgiprocs.Procs: a body
// of at most cgiprocs.SmallBody bytes), and nothing to any other program
// in cgi-bin. Apache's own evaluation of the <If> is what is checked: the
// echo program, installed both as cgigate and as another name, reports
// the environment Apache gave it.
func TestRenderedConfigGivesCGIGateOneProcessorForSmallRequestsOnly(t *testing.T) {
	echo := apachetest.EchoCGI(t)
	for name, opts := range map[string]apachetest.Options{
		"event":                              {MPM: httpdconf.MPMEvent},
		"prefork":                            {MPM: httpdconf.MPMPrefork},
		"event with FastCGI at another path": {MPM: httpdconf.MPMEvent, FastCGI: "127.0.0.1:9", FastCGIPath: "/fcgi/cgigate"},
	} {
		opts.CGI = map[string]string{"cgigate": echo, "other": echo}
		s := apachetest.Start(t, opts)
		tests := []struct {
			name   string
			target string
			method string
			body   int
			want   string // GOMAXPROCS, "" for unset
		}{
			{"a GET to cgigate runs on one processor", "/cgi-bin/cgigate?a=b", "GET", 0, "1"},
			{"a GET with a path after cgigate runs on one processor", "/cgi-bin/cgigate/contact", "GET", 0, "1"},
			{"a POST of SmallBody bytes runs on one processor", "/cgi-bin/cgigate", "POST", cgiprocs.SmallBody, "1"},
			{"a POST one byte over SmallBody keeps the runtime's choice", "/cgi-bin/cgigate", "POST", cgiprocs.SmallBody + 1, ""},
			{"another program in cgi-bin is left alone", "/cgi-bin/other?a=b", "GET", 0, ""},
		}
		for _, tt := range tests {
			t.Run(name+": "+tt.name, func(t *testing.T) {
				var body []byte
				h := http.Header{}
				if tt.method == "POST" {
					body = bytes.Repeat([]byte("a"), tt.body)
					h.Set("Content-Type", "application/octet-stream")
				}
				r := s.Do(t, tt.method, tt.target, h, body)
				if r.Status != http.StatusOK {
					t.Fatalf("%s %s: %d %q\n%s", tt.method, tt.target, r.Status, r.Body, s.ErrorLog())
				}
				// The condition reads a request header without making the
				// answer vary by it.
				if v := r.Header.Values("Vary"); len(v) > 0 {
					t.Errorf("Vary %q: the configuration's condition added it", v)
				}
				var rep apachetest.EchoReport
				if err := json.Unmarshal(r.Body, &rep); err != nil {
					t.Fatal(err)
				}
				got, set := rep.Env["GOMAXPROCS"]
				if got != tt.want || set != (tt.want != "") {
					t.Errorf("GOMAXPROCS = %q (set: %v), want %q", got, set, tt.want)
				}
				if n := len(rep.Body); n != tt.body {
					t.Errorf("the program read %d bytes of the body, want %d", n, tt.body)
				}
			})
		}
	}
}

// Where cgigate -fcgi or a balancer answers at cgigate's path, no CGI
// process runs there, and the configuration sets nothing for one.
func TestRenderedConfigSetsNoGOMAXPROCSWhereNoCGIProcessRuns(t *testing.T) {
	for name, c := range map[string]httpdconf.Config{
		"FastCGI at /cgi-bin/cgigate":    {FastCGI: "127.0.0.1:9000"},
		"a balancer at /cgi-bin/cgigate": {Balance: []string{"http://127.0.0.2:8080"}},
	} {
		var out strings.Builder
		if err := c.Render(&out); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "GOMAXPROCS") {
			t.Errorf("%s: the configuration sets GOMAXPROCS:\n%s", name, out.String())
		}
	}
}
