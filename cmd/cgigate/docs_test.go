package main

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// settingRow is a row of a Markdown table of settings: | `CGIGATE_X` | default | meaning |.
var settingRow = regexp.MustCompile("(?m)^\\|\\s*`(CGIGATE_[A-Z0-9_]+)`\\s*\\|\\s*([^|]*?)\\s*\\|")

// The documents a site owner reads list every setting the gateway reads
// (the settings table, which loadConfig and -help go through), with the
// default the code has: a setting added, renamed or given a new default
// fails here until README.md and cmd/cgigate/README.md follow. (The
// drop-ins are held to -help by httpdconf's tests.)
func TestDocumentsListEverySettingWithItsDefault(t *testing.T) {
	docs := []struct {
		name, file, section string
		none                string // how the table writes an empty default
	}{
		{"README.md's Configuration table", "../../README.md", "## Configuration", "(none)"},
		{"cmd/cgigate/README.md's Settings table", "README.md", "## Settings", "empty"},
	}
	for _, d := range docs {
		t.Run(d.name+" lists every setting once with the code's default", func(t *testing.T) {
			table := docSection(t, d.file, d.section)
			rows := map[string]string{}
			for _, m := range settingRow.FindAllStringSubmatch(table, -1) {
				name, def := m[1], m[2]
				if _, dup := rows[name]; dup {
					t.Errorf("%s is listed twice", name)
				}
				rows[name] = def
			}
			known := map[string]bool{}
			for _, s := range settings {
				known[s.name] = true
				want := d.none
				if v := fmt.Sprint(s.def); v != "" {
					want = "`" + v + "`"
				}
				switch got, ok := rows[s.name]; {
				case !ok:
					t.Errorf("%s (default %s) is missing", s.name, want)
				case got != want:
					t.Errorf("%s shows the default %s, the code's is %s", s.name, got, want)
				}
			}
			for name := range rows {
				if !known[name] {
					t.Errorf("%s is listed, but the gateway reads no such setting", name)
				}
			}
		})
	}
	t.Run("SECURITY.md names every setting", func(t *testing.T) {
		data, err := os.ReadFile("../../SECURITY.md")
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range settings {
			if !strings.Contains(string(data), "`"+s.name+"`") {
				t.Errorf("%s is not named", s.name)
			}
		}
	})
}

// documentedKey is a key in a document's sketch of the JSON rendering.
var documentedKey = regexp.MustCompile(`"([a-z_0-9]+)":`)

// The JSON rendering is a contract, sketched in README.md and in
// cmd/cgigate/README.md: each sketch shows every key the gateway writes,
// nested ones too, and no key it does not write. The keys are those of the
// result type (TestJSONIsWrittenAsEncodingJSONWritesIt holds writeJSON to
// them).
func TestDocumentsSketchEveryKeyOfTheJSONRendering(t *testing.T) {
	var want []string
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for f := range ty.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			want = append(want, name)
			if e := f.Type; e.Kind() == reflect.Slice && e.Elem().Kind() == reflect.Struct {
				walk(e.Elem())
			}
		}
	}
	walk(reflect.TypeFor[result]())
	slices.Sort(want)
	want = slices.Compact(want)
	docs := []struct{ name, file, section string }{
		{"README.md", "../../README.md", "## The JSON rendering"},
		{"cmd/cgigate/README.md", "README.md", "## The JSON rendering (a contract)"},
	}
	for _, d := range docs {
		t.Run(d.name+" sketches every key the gateway writes", func(t *testing.T) {
			text := docSection(t, d.file, d.section)
			_, sketch, ok := strings.Cut(text, "```\n{")
			sketch, _, ok2 := strings.Cut(sketch, "```")
			if !ok || !ok2 {
				t.Fatalf("%s: no sketch ({ in a fenced block) under %q", d.file, d.section)
			}
			var got []string
			for _, m := range documentedKey.FindAllStringSubmatch(sketch, -1) {
				got = append(got, m[1])
			}
			slices.Sort(got)
			got = slices.Compact(got)
			for _, k := range want {
				if !slices.Contains(got, k) {
					t.Errorf("%q is written but not in the sketch", k)
				}
			}
			for _, k := range got {
				if !slices.Contains(want, k) {
					t.Errorf("%q is in the sketch but never written", k)
				}
			}
		})
	}
}

// docSection is the text of file under the Markdown heading line, up to the
// next heading of the same or a higher level.
func docSection(t *testing.T, file, heading string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	level := heading[:strings.IndexByte(heading, ' ')+1] // "## "
	var b strings.Builder
	in := false
	for line := range strings.Lines(string(data)) {
		switch {
		case strings.TrimSuffix(line, "\n") == heading:
			in = true
			continue
		case in && strings.HasPrefix(line, "#"):
			if hashes, _, ok := strings.Cut(line, " "); ok && strings.Trim(hashes, "#") == "" && len(hashes)+1 <= len(level) {
				return b.String()
			}
		}
		if in {
			b.WriteString(line)
		}
	}
	if !in {
		t.Fatalf("%s has no heading %q", file, heading)
	}
	return b.String()
}
