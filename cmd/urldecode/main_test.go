package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/gobuild"
)

// bin is the command built once for all tests: they run it as a user
// does, through its arguments, standard input and exit status.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "urldecode-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "urldecode")
	build := gobuild.Command(context.Background(), "", ".", bin, "")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building urldecode:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the command gave.
type result struct {
	stdout, stderr string
	code           int
}

// urldecode runs the built command with stdin and args.
func urldecode(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running urldecode %q: %v", args, err)
	}
	return result{out.String(), errb.String(), code}
}

// decodedJSON is the JSON contract, spelled out here rather than taken
// from the command's own types, so that a renamed key fails a test.
type decodedJSON struct {
	Line          int         `json:"line"`
	Input         string      `json:"input"`
	URL           string      `json:"url"`
	Scheme        string      `json:"scheme"`
	Username      string      `json:"username"`
	Password      string      `json:"password"`
	Host          string      `json:"host"`
	HostASCII     string      `json:"host_ascii"`
	Port          *int        `json:"port"`
	PortDefault   bool        `json:"port_default"`
	Path          string      `json:"path"`
	Segments      []string    `json:"segments"`
	Kind          string      `json:"kind"`
	Keywords      []string    `json:"keywords"`
	Fields        []fieldCase `json:"fields"`
	Fragment      string      `json:"fragment"`
	Charset       string      `json:"charset"`
	CharsetSource string      `json:"charset_source"`
	Confidence    float64     `json:"confidence"`
	Hint          string      `json:"hint"`
	Warnings      []string    `json:"warnings"`
	Errors        []string    `json:"errors"`
	Error         string      `json:"error"`
	Method        string      `json:"method"`
	Status        int         `json:"status"`
}

type fieldCase struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// jsonLines decodes one object a line, strictly: unknown keys fail.
func jsonLines(t *testing.T, s string) []decodedJSON {
	t.Helper()
	var out []decodedJSON
	for i, line := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if line == "" {
			continue
		}
		var d decodedJSON
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d); err != nil {
			t.Fatalf("output line %d is not one JSON object: %v\n%s", i+1, err, line)
		}
		out = append(out, d)
	}
	return out
}

// cases is testdata/urldecode/cases.json, written by gen.py from
// Python's codecs.
type cases struct {
	Decode []struct {
		Name          string      `json:"name"`
		Args          []string    `json:"args"`
		URL           string      `json:"url"`
		Charset       string      `json:"charset"`
		CharsetSource string      `json:"charset_source"`
		Segments      []string    `json:"segments"`
		Kind          string      `json:"kind"`
		Keywords      []string    `json:"keywords"`
		Fields        []fieldCase `json:"fields"`
	} `json:"decode"`
	Encode []struct {
		Name string   `json:"name"`
		Args []string `json:"args"`
		Out  string   `json:"out"`
	} `json:"encode"`
	Hosts []struct {
		Unicode string `json:"unicode"`
		ASCII   string `json:"ascii"`
	} `json:"hosts"`
}

func readCases(t *testing.T) cases {
	t.Helper()
	b, err := os.ReadFile("../../testdata/urldecode/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var c cases
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDecodesBytesPythonEncoded(t *testing.T) {
	for _, c := range readCases(t).Decode {
		t.Run(c.Name, func(t *testing.T) {
			r := urldecode(t, "", append([]string{"-json"}, c.Args...)...)
			if r.code != 0 {
				t.Fatalf("exit status %d, stderr %s", r.code, r.stderr)
			}
			got := jsonLines(t, r.stdout)
			if len(got) != 1 {
				t.Fatalf("%d objects, want 1", len(got))
			}
			g := got[0]
			if g.URL != c.URL || g.Charset != c.Charset || g.CharsetSource != c.CharsetSource || g.Kind != c.Kind {
				t.Errorf("got url %q charset %s (%s) kind %s,\nwant url %q charset %s (%s) kind %s",
					g.URL, g.Charset, g.CharsetSource, g.Kind, c.URL, c.Charset, c.CharsetSource, c.Kind)
			}
			if !reflect.DeepEqual(g.Segments, c.Segments) {
				t.Errorf("segments %q, want %q", g.Segments, c.Segments)
			}
			if want := orEmpty(c.Keywords); !reflect.DeepEqual(g.Keywords, want) {
				t.Errorf("keywords %q, want %q", g.Keywords, want)
			}
			if want := c.Fields; want == nil {
				if len(g.Fields) != 0 {
					t.Errorf("fields %q, want none", g.Fields)
				}
			} else if !reflect.DeepEqual(g.Fields, want) {
				t.Errorf("fields %q, want %q", g.Fields, want)
			}
			if len(g.Warnings) != 0 || len(g.Errors) != 0 {
				t.Errorf("warnings %q errors %q, want none", g.Warnings, g.Errors)
			}
		})
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestEncodesAsPythonCodecsAndEscaperDo(t *testing.T) {
	for _, c := range readCases(t).Encode {
		t.Run(c.Name, func(t *testing.T) {
			r := urldecode(t, "", c.Args...)
			if r.code != 0 {
				t.Fatalf("exit status %d, stderr %s", r.code, r.stderr)
			}
			if got := strings.TrimSuffix(r.stdout, "\n"); got != c.Out {
				t.Errorf("got  %s\nwant %s", got, c.Out)
			}
		})
	}
}

func TestHostsMatchPythonIDNA(t *testing.T) {
	for _, h := range readCases(t).Hosts {
		t.Run(h.Unicode+" is "+h.ASCII+" both ways and inside a URL", func(t *testing.T) {
			if r := urldecode(t, "", "-idn", "-encode", h.Unicode); r.stdout != h.ASCII+"\n" || r.code != 0 {
				t.Errorf("-idn -encode %s: %q (exit %d), want %s", h.Unicode, r.stdout, r.code, h.ASCII)
			}
			if r := urldecode(t, "", "-idn", h.ASCII); r.stdout != h.Unicode+"\n" || r.code != 0 {
				t.Errorf("-idn %s: %q (exit %d), want %s", h.ASCII, r.stdout, r.code, h.Unicode)
			}
			r := urldecode(t, "", "-json", "http://"+h.ASCII+"/")
			g := jsonLines(t, r.stdout)
			if len(g) != 1 || g[0].Host != h.Unicode || g[0].HostASCII != h.ASCII || g[0].URL != "http://"+h.Unicode+"/" {
				t.Errorf("decoding http://%s/: %s", h.ASCII, r.stdout)
			}
			if r := urldecode(t, "", "-encode", "http://"+h.Unicode+"/"); r.stdout != "http://"+h.ASCII+"/\n" {
				t.Errorf("-encode http://%s/: %q", h.Unicode, r.stdout)
			}
		})
	}
}
