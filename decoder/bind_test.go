package decoder

import (
	"errors"
	"reflect"
	"testing"
)

type address struct {
	Street string `schema:"street"`
	Zip    int    `schema:"zip"`
}

type signup struct {
	Name    string    `schema:"name"`
	Role    string    `schema:"role"`
	Age     int       `schema:"age"`
	Ratio   float64   `schema:"ratio"`
	Tags    []string  `schema:"tags"`
	Address []address `schema:"addr"`
}

func fieldsOf(kv ...string) []Field {
	var fs []Field
	for i := 0; i+1 < len(kv); i += 2 {
		fs = append(fs, Field{Name: kv[i], Value: kv[i+1]})
	}
	return fs
}

func TestBindFillsAStruct(t *testing.T) {
	var s signup
	err := NewBinder(BindOptions{}).Bind(&s, fieldsOf(
		"name", "Ada", "age", "36", "ratio", "0.5", "tags", "a", "tags", "b",
		"addr.1.street", "Rue", "addr.1.zip", "75001", "submit", "Go"))
	if err != nil {
		t.Fatal(err)
	}
	want := signup{Name: "Ada", Age: 36, Ratio: 0.5, Tags: []string{"a", "b"},
		Address: []address{{}, {Street: "Rue", Zip: 75001}}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("bound %+v, want %+v", s, want)
	}
}

func TestBindRefuses(t *testing.T) {
	tests := []struct {
		name   string
		fields []Field
		bad    string // the key reported
	}{
		{"a negative slice index (panics inside schema v1.4.1)", fieldsOf("addr.-1.street", "x"), "addr.-1.street"},
		{"a huge slice index that would allocate gigabytes", fieldsOf("addr.999999999.street", "x"), "addr.999999999.street"},
		{"an index with a leading zero", fieldsOf("addr.01.street", "x"), "addr.01.street"},
		{"an index with a plus sign", fieldsOf("addr.+1.street", "x"), "addr.+1.street"},
		{"a scalar given twice, where schema would keep the last", fieldsOf("role", "user", "role", "admin"), "role"},
		{"a key that differs only in case from another", fieldsOf("role", "user", "ROLE", "admin"), "ROLE"},
		{"a non-ASCII key that folds to a field name", fieldsOf("\u212Aey", "x"), "\u212Aey"},
		{"NaN, which defeats range checks", fieldsOf("ratio", "NaN"), "ratio"},
		{"an infinity", fieldsOf("ratio", "1e309"), "ratio"},
		{"a number that does not parse", fieldsOf("age", "old"), "age"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s signup
			err := NewBinder(BindOptions{}).Bind(&s, tt.fields)
			var be *BindError
			if !errors.As(err, &be) {
				t.Fatalf("err = %v, want *BindError", err)
			}
			if _, ok := be.Fields[tt.bad]; !ok {
				t.Errorf("BindError %v does not name %q", be.Fields, tt.bad)
			}
		})
	}
}

func TestBindListsEveryFailure(t *testing.T) {
	var s signup
	err := NewBinder(BindOptions{ReportUnknown: true}).Bind(&s, fieldsOf("age", "x", "ratio", "Inf", "nope", "1", "name", "ok"))
	var be *BindError
	if !errors.As(err, &be) || len(be.Fields) != 3 {
		t.Fatalf("err = %v, want three failures", err)
	}
	if s.Name != "ok" {
		t.Errorf("a good field must still bind: %+v", s)
	}
}

func TestBindIsDeterministic(t *testing.T) {
	fs := fieldsOf("role", "user", "Role", "admin", "rOLE", "root")
	for i := 0; i < 50; i++ {
		var s signup
		err := NewBinder(BindOptions{}).Bind(&s, fs)
		if s.Role != "user" || err == nil {
			t.Fatalf("run %d: role %q, err %v: want the first key bound and the others refused", i, s.Role, err)
		}
	}
}

func TestBindNeedsAStructPointer(t *testing.T) {
	var s signup
	if err := NewBinder(BindOptions{}).Bind(s, nil); err == nil {
		t.Error("Bind accepted a struct value")
	}
}
