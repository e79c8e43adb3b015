package integration

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
)

// charsetCase is one entry of testdata/integration/charsets.json, written
// by testdata/integration/gen.py with Python's codecs.
type charsetCase struct {
	Name        string      `json:"name"`
	Method      string      `json:"method"`
	Query       string      `json:"query"`
	Body        string      `json:"body"`
	ContentType string      `json:"content_type"`
	Config      string      `json:"config"`
	Keywords    []string    `json:"keywords"`
	Fields      [][3]string `json:"fields"`
	Charset     string      `json:"charset"`
	Source      string      `json:"source"`
}

func loadCharsetCases(t *testing.T) []charsetCase {
	t.Helper()
	b, err := os.ReadFile("../testdata/integration/charsets.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []charsetCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestCharsetSourcesThroughApache sends one request per place a charset can
// come from (a hint, _charset_, the Content-Type, SetEnv CGIGATE_CHARSET,
// sniffing, the default), as bytes from Python's codecs, and checks what the
// gateway decoded and which source it says decided.
func TestCharsetSourcesThroughApache(t *testing.T) {
	cases := loadCharsetCases(t)
	sources := map[string]bool{}
	for _, c := range cases {
		sources[c.Source] = true
	}
	for _, want := range []string{"hint", "_charset_", "content-type", "config", "sniffed", "default"} {
		if !sources[want] {
			t.Errorf("charsets.json has no case for the source %q", want)
		}
	}
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			t.Parallel()
			servers := map[string]*apachetest.Server{}
			for _, c := range cases {
				if servers[c.Config] != nil {
					continue
				}
				opts := apachetest.Options{MPM: mpm}
				if c.Config != "" {
					opts.Env = map[string]string{"CGIGATE_CHARSET": c.Config}
				}
				servers[c.Config] = startGateway(t, opts)
			}
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) {
					s := servers[c.Config]
					target := gatewayPath
					if c.Query != "" {
						target += "?" + c.Query
					}
					var r result
					if c.Method == "POST" {
						r = postJSON(t, s, target, c.ContentType, []byte(c.Body))
					} else {
						r = getJSON(t, s, target)
					}
					if r.Charset != c.Charset || r.CharsetSource != c.Source {
						t.Errorf("charset %q from %q, want %q from %q", r.Charset, r.CharsetSource, c.Charset, c.Source)
					}
					if len(c.Keywords) > 0 {
						if r.Kind != "isindex" || !slices.Equal(r.Keywords, c.Keywords) {
							t.Errorf("kind %q keywords %q, want isindex %q", r.Kind, r.Keywords, c.Keywords)
						}
					}
					var want []field
					for _, f := range c.Fields {
						want = append(want, field{f[0], f[1], f[2]})
					}
					if len(want) > 0 && (r.Kind != "form" || !slices.Equal(r.Fields, want)) {
						t.Errorf("kind %q fields %+v, want form %+v", r.Kind, r.Fields, want)
					}
				})
			}
		})
	}
}
