package forms

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func contact(t *testing.T) *Form {
	t.Helper()
	set, err := Parse("forms.yaml", []byte(contactYAML))
	if err != nil {
		t.Fatal(err)
	}
	return set.Form("contact")
}

// good is a submission that passes contactYAML's form.
func good() []Value {
	return []Value{{"_charset_", "shift_jis"}, {"name", "Ada"}, {"email", "ada@example.org"}, {"age", "36"},
		{"topic", "support"}, {"message", "line one\r\nline two"}, {"born", "1815-12-10"}, {"agree", "on"}, {"website", ""}}
}

// with replaces (or, when absent, adds) the field name in vs.
func with(vs []Value, name, value string) []Value {
	out := append([]Value(nil), vs...)
	for i := range out {
		if out[i].Name == name {
			out[i].Value = value
			return out
		}
	}
	return append(out, Value{name, value})
}

func without(vs []Value, name string) []Value {
	var out []Value
	for _, v := range vs {
		if v.Name != name {
			out = append(out, v)
		}
	}
	return out
}

func TestValidateEveryKindAndLimit(t *testing.T) {
	f := contact(t)
	pdf := []Upload{{Name: "cv", Filename: "cv.pdf", ContentType: "application/pdf", Size: 1000}}
	tests := []struct {
		name   string
		values []Value
		files  []Upload
		want   []Problem // nil: valid
	}{
		{"a full submission is valid", good(), pdf, nil},
		{"a submission without the optional fields is valid", without(without(without(without(good(), "age"), "topic"), "born"), "website"), nil, nil},
		{"an empty file input is no file", good(), []Upload{{Name: "cv"}}, nil},
		{"a missing required field is reported", without(good(), "name"), nil, []Problem{{"name", "Please fill in this field."}}},
		{"a required field of spaces is missing", with(good(), "name", "  \t"), nil, []Problem{{"name", "Please fill in this field."}}},
		{"a declared message replaces the built-in one", without(good(), "message"), nil, []Problem{{"message", "Tell us what you need."}}},
		{"an unticked required checkbox is reported", without(good(), "agree"), nil, []Problem{{"agree", "Please tick this box."}}},
		{"100 characters pass a max of 100, counted as characters not bytes", with(good(), "name", strings.Repeat("印", 100)), nil, nil},
		{"101 characters fail a max of 100", with(good(), "name", strings.Repeat("印", 101)), nil, []Problem{{"name", "Use at most 100 characters (this has 101)."}}},
		{"a line break fails a one-line field", with(good(), "name", "Ada\nLovelace"), nil, []Problem{{"name", "Keep this to one line."}}},
		{"a bad e-mail address is reported", with(good(), "email", "ada at example"), nil, []Problem{{"email", "Enter an e-mail address, such as name@example.org."}}},
		{"a number at its min passes", with(good(), "age", "0"), nil, nil},
		{"a number at its max passes", with(good(), "age", "150"), nil, nil},
		{"a number under its min fails", with(good(), "age", "-1"), nil, []Problem{{"age", "Enter a number of at least 0."}}},
		{"a number over its max fails", with(good(), "age", "150.5"), nil, []Problem{{"age", "Enter a number of at most 150."}}},
		{"Inf is not a number", with(good(), "age", "Inf"), nil, []Problem{{"age", "Enter a number, such as 42 or 3.5."}}},
		{"hexadecimal is not a number", with(good(), "age", "0x10"), nil, []Problem{{"age", "Enter a number, such as 42 or 3.5."}}},
		{"a date not in year-month-day fails", with(good(), "born", "10/12/1815"), nil, []Problem{{"born", "Enter a date as year-month-day, such as 2024-03-31."}}},
		{"a date that does not exist fails", with(good(), "born", "2023-02-29"), nil, []Problem{{"born", "Enter a date as year-month-day, such as 2024-03-31."}}},
		{"a choice not listed fails", with(good(), "topic", "refund"), nil, []Problem{{"topic", "Choose one of: order, support, other."}}},
		{"two values for a choice fail", append(good(), Value{"topic", "order"}), nil, []Problem{{"topic", "Give one value only."}}},
		{"a file over its max fails", good(), []Upload{{Name: "cv", Filename: "cv.pdf", ContentType: "application/pdf", Size: 2000001}}, []Problem{{"cv", "The file may be at most 2000000 bytes (this one has 2000001)."}}},
		{"a file of a type not listed fails", good(), []Upload{{Name: "cv", Filename: "cv.exe", ContentType: "application/x-msdownload", Size: 10}}, []Problem{{"cv", "The file must be of type application/pdf."}}},
		{"a type's parameters and case do not matter", good(), []Upload{{Name: "cv", Filename: "cv.pdf", ContentType: "Application/PDF; x=y", Size: 10}}, nil},
		{"a file name sent as text means the form was not multipart", with(good(), "cv", "cv.pdf"), nil, []Problem{{"cv", "This form must be sent as multipart/form-data to carry a file."}}},
		{"a file for a text field fails", good(), []Upload{{Name: "name", Filename: "a.txt", Size: 3}}, []Problem{{"name", "This field takes text, not a file."}}},
		{"an unknown field is rejected; _charset_ and the honeypot are not unknown", append(good(), Value{"admin", "1"}, Value{"admin", "2"}), nil, []Problem{{"admin", "This is not a field of this form."}}},
		{"an unknown file is rejected", good(), []Upload{{Name: "x", Filename: "x", Size: 1}}, []Problem{{"x", "This is not a field of this form."}}},
		{"every failing field is reported, declared ones in order", with(without(good(), "email"), "name", ""), nil, []Problem{{"name", "Please fill in this field."}, {"email", "Please fill in this field."}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := f.Validate(tt.values, tt.files); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
	t.Run("unknown: ignore lets an unknown field pass", func(t *testing.T) {
		g := *f
		g.Reject = false
		if got := g.Validate(append(good(), Value{"admin", "1"}), nil); got != nil {
			t.Errorf("%q", got)
		}
	})
	t.Run("checkbox choices bound every ticked value", func(t *testing.T) {
		g := &Form{Fields: []Field{{Name: "c", Kind: Checkbox, Choices: []string{"a", "b"}}}}
		if got := g.Validate([]Value{{"c", "a"}, {"c", "b"}}, nil); got != nil {
			t.Errorf("a and b: %q", got)
		}
		if got := g.Validate([]Value{{"c", "a"}, {"c", "z"}}, nil); len(got) != 1 {
			t.Errorf("a and z: %q", got)
		}
	})
}

func TestTrapped(t *testing.T) {
	f := contact(t)
	for _, tt := range []struct {
		name   string
		values []Value
		want   bool
	}{
		{"an empty honeypot is a person", good(), false},
		{"a filled honeypot is a program", with(good(), "website", "http://spam.example"), true},
		{"a honeypot of spaces is left empty", with(good(), "website", "  "), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := f.Trapped(tt.values); got != tt.want {
				t.Errorf("got %v", got)
			}
		})
	}
	if (&Form{}).Trapped([]Value{{"", "x"}}) {
		t.Error("a form without a honeypot trapped a field with no name")
	}
}

// htmlEmail is the pattern of HTML § 4.10.5.1.5 "valid e-mail address",
// copied from the standard: the truth ValidEmail is held to.
var htmlEmail = regexp.MustCompile("^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$")

func TestValidEmailIsHTMLsPattern(t *testing.T) {
	inputs := []string{"a@b", "ada@example.org", "a.b+c@x-y.example", "@example.org", "a@", "a@@b", "a b@c", "a@b..c",
		"a@-b.c", "a@b-.c", "a@" + strings.Repeat("x", 63) + ".c", "a@" + strings.Repeat("x", 64) + ".c", "印@example.org",
		"a@例え.jp", "a@b.c.", "a@.b", "!#$%&'*+/=?^_`{|}~-@x", "a\"b@c", "a@b_c", "a@b@c", ""}
	for _, in := range inputs {
		t.Run(fmt.Sprintf("%q is judged as the standard's pattern judges it", in), func(t *testing.T) {
			if got, want := ValidEmail(in), htmlEmail.MatchString(in); got != want {
				t.Errorf("ValidEmail %v, pattern %v", got, want)
			}
		})
	}
}

func TestCheckOrigin(t *testing.T) {
	f := contact(t)
	self := SelfOrigin("https", "forms.example.net")
	tests := []struct {
		name, origin, site string
		ok                 bool
	}{
		{"the gateway's own origin is accepted", "https://forms.example.net", "same-origin", true},
		{"the own origin with its default port is the same origin", "https://forms.example.net:443", "", true},
		{"case does not make another origin", "HTTPS://Forms.Example.NET", "", true},
		{"a listed origin is accepted", "https://www.example.org", "cross-site", true},
		{"another origin is refused", "https://evil.example", "cross-site", false},
		{"the own host over another scheme is refused", "http://forms.example.net", "", false},
		{"the own host on another port is refused", "https://forms.example.net:8443", "", false},
		{"the opaque origin null is refused", "null", "cross-site", false},
		{"no Origin but Sec-Fetch-Site cross-site is refused", "", "cross-site", false},
		{"no Origin and Sec-Fetch-Site same-site is accepted", "", "same-site", true},
		{"neither header (a script, an old browser) is accepted", "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := f.CheckOrigin(tt.origin, tt.site, self)
			if (err == nil) != tt.ok {
				t.Errorf("error %v; want accepted %v", err, tt.ok)
			}
			if err != nil {
				if oe, ok := err.(*OriginError); !ok || oe.Self != self || oe.Form != "contact" {
					t.Errorf("%T %v", err, err)
				}
			}
		})
	}
}
