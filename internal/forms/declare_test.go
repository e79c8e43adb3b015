package forms

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const contactYAML = `forms:
  contact:
    title: Contact us
    charset: Shift_JIS
    lang: ja
    methods: [POST]
    fields:
      name:    {required: true, max: 100}
      email:   {required: true, kind: email}
      age:     {kind: number, min: 0, max: 150}
      topic:   {kind: choice, choices: [order, support, other]}
      message: {required: true, max: 5000, multiline: true, message: Tell us what you need.}
      cv:      {kind: file, max: 2000000, types: [application/pdf]}
      born:    {kind: date}
      agree:   {kind: checkbox, required: true, label: I agree}
    unknown: reject
    honeypot: website
    origins: [https://www.example.org]
    redirect: /thanks.html
    record: true
  search:
    methods: [GET]
    fields:
      q: {}
`

func f64(v float64) *float64 { return &v }

func TestParseReadsEveryKeyOfTheIssuesExample(t *testing.T) {
	set, err := Parse("forms.yaml", []byte(contactYAML))
	if err != nil {
		t.Fatal(err)
	}
	c := set.Form("contact")
	if c == nil {
		t.Fatal("no form contact")
	}
	want := &Form{
		Name: "contact", Title: "Contact us", Charset: "shift_jis", Lang: "ja", Methods: []string{"POST"},
		Fields: []Field{
			{Name: "name", Label: "name", Kind: Text, Required: true, Max: f64(100)},
			{Name: "email", Label: "email", Kind: Email, Required: true},
			{Name: "age", Label: "age", Kind: Number, Min: f64(0), Max: f64(150)},
			{Name: "topic", Label: "topic", Kind: Choice, Choices: []string{"order", "support", "other"}},
			{Name: "message", Label: "message", Kind: Text, Required: true, Max: f64(5000), Multiline: true, Message: "Tell us what you need."},
			{Name: "cv", Label: "cv", Kind: File, Max: f64(2000000), Types: []string{"application/pdf"}},
			{Name: "born", Label: "born", Kind: Date},
			{Name: "agree", Label: "I agree", Kind: Checkbox, Required: true},
		},
		Reject: true, Honeypot: "website", Origins: []string{"https://www.example.org"}, Redirect: "/thanks.html", Record: true,
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("contact:\n got %+v\nwant %+v", c, want)
	}
	s := set.Form("search")
	if s.Title != "search" || s.Charset != "utf-8" || s.Lang != "en" || !s.Accepts("GET") || !s.Accepts("HEAD") || s.Accepts("POST") || s.Allow() != "GET, HEAD" {
		t.Errorf("search's defaults: %+v", s)
	}
	if !c.Accepts("POST") || c.Accepts("GET") || c.Allow() != "GET, HEAD, POST" || !c.HasFiles() || !set.Recorded() {
		t.Errorf("contact: accepts POST %v GET %v, Allow %q", c.Accepts("POST"), c.Accepts("GET"), c.Allow())
	}
}

// Each bad file is reported with the line and the key at fault.
func TestParseNamesLineAndKeyOfEachFault(t *testing.T) {
	tests := []struct {
		name, yaml string
		line       int
		key, msg   string
	}{
		{"an unknown kind", "forms:\n  c:\n    fields:\n      age: {kind: numbr}\n", 4, "forms.c.fields.age.kind", `unknown kind "numbr"`},
		{"an unknown key of a form", "forms:\n  c:\n    fields: {a: {}}\n    redirct: /x\n", 4, "forms.c.redirct", "unknown key"},
		{"an unknown key of a field", "forms:\n  c:\n    fields:\n      a: {requird: true}\n", 4, "forms.c.fields.a.requird", "unknown key"},
		{"an unknown top-level key", "form:\n  c: {}\n", 1, "form", "unknown key"},
		{"an unknown charset", "forms:\n  c:\n    charset: klingon\n    fields: {a: {}}\n", 3, "forms.c.charset", "klingon"},
		{"a tab in the indentation", "forms:\n  c:\n\tfields: x\n", 3, "", "cannot start any token"},
		{"a field given twice", "forms:\n  c:\n    fields:\n      a: {}\n      a: {}\n", 5, "forms.c.fields.a", ""},
		{"min on a text field", "forms:\n  c:\n    fields:\n      a: {min: 3}\n", 4, "forms.c.fields.a.min", "only for kind number"},
		{"max on a choice", "forms:\n  c:\n    fields:\n      a: {kind: choice, choices: [x], max: 3}\n", 4, "forms.c.fields.a.max", "not for kind choice"},
		{"a choice without choices", "forms:\n  c:\n    fields:\n      a: {kind: choice}\n", 4, "forms.c.fields.a.choices", "missing"},
		{"a fractional text max", "forms:\n  c:\n    fields:\n      a: {max: 2.5}\n", 4, "forms.c.fields.a.max", "whole number"},
		{"min above max", "forms:\n  c:\n    fields:\n      a: {kind: number, min: 5, max: 1}\n", 4, "forms.c.fields.a.min", "above max"},
		{"a string for max", "forms:\n  c:\n    fields:\n      a: {max: lots}\n", 4, "forms.c.fields.a.max", "want a number"},
		{"a quoted number for max", "forms:\n  c:\n    fields:\n      a: {max: \"7\"}\n", 4, "forms.c.fields.a.max", "want a number"},
		{"yes-ish text for required", "forms:\n  c:\n    fields:\n      a: {required: maybe}\n", 4, "forms.c.fields.a.required", "true or false"},
		{"types on a text field", "forms:\n  c:\n    fields:\n      a: {types: [text/plain]}\n", 4, "forms.c.fields.a.types", "kind file"},
		{"a bad media type", "forms:\n  c:\n    fields:\n      a: {kind: file, types: [pdf]}\n", 4, "forms.c.fields.a.types", "not a media type"},
		{"a method other than GET and POST", "forms:\n  c:\n    methods: [PUT]\n    fields: {a: {}}\n", 3, "forms.c.methods", `"PUT"`},
		{"a language the built-in pages do not speak", "forms:\n  c:\n    lang: fr\n    fields: {a: {}}\n", 3, "forms.c.lang", "en and ja"},
		{"no fields", "forms:\n  c:\n    title: x\n", 3, "forms.c.fields", "missing"},
		{"a form name unfit for an address", "forms:\n  a/b:\n    fields: {a: {}}\n", 2, "forms.a/b", "letters, digits"},
		{"a scheme-relative redirect", "forms:\n  c:\n    fields: {a: {}}\n    redirect: //evil.example/\n", 4, "forms.c.redirect", "scheme-relative"},
		{"a javascript: redirect", "forms:\n  c:\n    fields: {a: {}}\n    redirect: javascript:alert(1)\n", 4, "forms.c.redirect", "want a path"},
		{"a relative redirect", "forms:\n  c:\n    fields: {a: {}}\n    redirect: thanks.html\n", 4, "forms.c.redirect", "want a path"},
		{"an origin with a path", "forms:\n  c:\n    fields: {a: {}}\n    origins: [https://a.example/form]\n", 4, "forms.c.origins", "no path"},
		{"an origin without a scheme", "forms:\n  c:\n    fields: {a: {}}\n    origins: [a.example]\n", 4, "forms.c.origins", "scheme://host"},
		{"unknown neither reject nor ignore", "forms:\n  c:\n    fields: {a: {}}\n    unknown: drop\n", 4, "forms.c.unknown", "reject or ignore"},
		{"a honeypot that is a declared field", "forms:\n  c:\n    fields: {a: {}}\n    honeypot: a\n", 4, "forms.c.honeypot", "declared field"},
		{"a field called _charset_", "forms:\n  c:\n    fields: {_charset_: {}}\n", 3, "forms.c.fields._charset_", "not a name"},
		{"no form at all", "forms: {}\n", 1, "forms", "declares no form"},
		{"an empty file", "", 0, "", "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is reported on its line", func(t *testing.T) {
			_, err := Parse("site/forms.yaml", []byte(tt.yaml))
			var de *DeclarationError
			if !errors.As(err, &de) {
				t.Fatalf("error %v (%T); want a *DeclarationError", err, err)
			}
			if de.File != "site/forms.yaml" || de.Line != tt.line || de.Key != tt.key || !strings.Contains(de.Msg, tt.msg) {
				t.Errorf("got %q (line %d, key %q); want line %d, key %q, a message with %q", err, de.Line, de.Key, tt.line, tt.key, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), "site/forms.yaml") {
				t.Errorf("%q does not start with the file", err)
			}
		})
	}
}

func TestAMergeKeySharesADeclaration(t *testing.T) {
	set, err := Parse("f.yaml", []byte("forms:\n  a: &a\n    charset: shift_jis\n    fields: {n: {required: true}}\n    record: true\n  b:\n    <<: *a\n    charset: euc-jp\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, b := set.Form("a"), set.Form("b")
	if b.Charset != "euc-jp" || a.Charset != "shift_jis" || !b.Record || len(b.Fields) != 1 || !b.Fields[0].Required || b.Name != "b" {
		t.Errorf("a %+v\nb %+v", a, b)
	}
	if _, err := Parse("f.yaml", []byte("forms:\n  b:\n    <<: [x]\n    fields: {n: {}}\n")); err == nil || !strings.Contains(err.Error(), "f.yaml:3: forms.b: << merges a mapping") {
		t.Errorf("merging a list: %v", err)
	}
}

func TestParseReportsEveryFaultNotOnlyTheFirst(t *testing.T) {
	_, err := Parse("f.yaml", []byte("forms:\n  c:\n    fields:\n      a: {kind: x}\n      b: {kind: y}\n"))
	if err == nil || !strings.Contains(err.Error(), "f.yaml:4:") || !strings.Contains(err.Error(), "f.yaml:5:") {
		t.Errorf("got %v; want lines 4 and 5", err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Run("a file is read and parsed", func(t *testing.T) {
		p := filepath.Join(dir, "forms.yaml")
		os.WriteFile(p, []byte(contactYAML), 0o644)
		if set, err := Load(p); err != nil || set.Form("contact") == nil || set.File != p {
			t.Fatalf("%v %+v", err, set)
		}
	})
	t.Run("a missing file is its path error", func(t *testing.T) {
		_, err := Load(filepath.Join(dir, "none.yaml"))
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v", err)
		}
	})
	t.Run("a file over 1 MiB is refused unparsed", func(t *testing.T) {
		p := filepath.Join(dir, "big.yaml")
		os.WriteFile(p, []byte("# "+strings.Repeat("x", maxFileBytes)+"\n"), 0o644)
		_, err := Load(p)
		var de *DeclarationError
		if !errors.As(err, &de) || !strings.Contains(de.Msg, "larger than") {
			t.Errorf("%v", err)
		}
	})
}

// A hostile file, the site's own mistake or not, is refused at a bound
// of the parse's time and memory rather than read as the millions of
// keys its aliases stand for.
func TestAFileWhoseAliasesMultiplyIsRefused(t *testing.T) {
	var fields strings.Builder
	for i := range 100 {
		fmt.Fprintf(&fields, "f%d: {}, ", i)
	}
	aliases := func(per string) string {
		var b strings.Builder
		b.WriteString("forms:\n  shared: &s {fields: {" + fields.String() + "}}\n")
		for i := range 2000 {
			fmt.Fprintf(&b, "  c%d: "+per+"\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name, yaml string
	}{
		{"2,000 forms aliasing one of 100 fields", aliases("*s")},
		{"2,000 forms merging one of 100 fields", aliases("{<<: *s}")},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is refused", func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), "bring in more than 100000 keys") {
				t.Errorf("got %.200v; want the key bound", err)
			}
		})
	}
}
