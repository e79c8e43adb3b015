//go:build !cgionly

package main

import (
	"testing"

	"github.com/cgigate/cgigate/internal/delivery"
	"github.com/cgigate/cgigate/internal/forms"
	"github.com/cgigate/cgigate/internal/record"
)

func TestReplyToComesFromTheDeclaredEmailField(t *testing.T) {
	declared, err := forms.Parse("forms.yaml", []byte(`forms:
  contact:
    fields:
      name: {}
      mail: {kind: email}
  note:
    fields:
      text: {}
`))
	if err != nil {
		t.Fatal(err)
	}
	rec := func(form string) *delivery.Record {
		return &delivery.Record{Record: record.Record{Form: form, Fields: []record.Field{
			{Name: "name", Value: "Ada"}, {Name: "mail", Value: "ada@example.org"}, {Name: "from", Value: "typed@example.org"},
		}}}
	}
	tests := []struct {
		name, form, fallback, want string
		declared                   *forms.Set
	}{
		{"a declared form's email field wins over -reply-to", "contact", "from", "ada@example.org", declared},
		{"a declared form with no email field falls back to -reply-to", "note", "from", "typed@example.org", declared},
		{"an undeclared form falls back to -reply-to", "", "from", "typed@example.org", declared},
		{"without -reply-to an undeclared form has none", "", "", "", declared},
		{"without a forms file only -reply-to counts", "contact", "from", "typed@example.org", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := replyToField(tt.declared, tt.fallback)(rec(tt.form)); got != tt.want {
				t.Errorf("Reply-To %q, want %q", got, tt.want)
			}
		})
	}
}
