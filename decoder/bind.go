package decoder

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/gorilla/schema"
)

// BindOptions configures a Binder. The zero value is the safe default.
type BindOptions struct {
	// MaxIndex is the largest slice index a key may name ("items.7.name");
	// default 99. gorilla/schema allocates the slice up to the index, so
	// the bound keeps "a.999999999" from allocating gigabytes.
	MaxIndex int
	// ReportUnknown makes a key that matches no field an error; by default
	// it is ignored, as a form holds buttons and hidden fields a struct
	// need not know.
	ReportUnknown bool
}

// Binder fills structs from decoded fields with gorilla/schema, after
// refusing what schema would mishandle. It is safe for concurrent use.
//
// schema matches names case-insensitively, and of several values for one
// scalar field keeps the last; two keys that differ only in case would then
// race in map order. A Binder makes both deterministic by refusing them: a
// key must be ASCII, two keys may not fold to the same field, and a key
// given more than once must bind to a slice. A slice index must be a
// canonical decimal ("1", not "01" or "+1") no larger than MaxIndex, which
// also refuses the negative indexes that panic inside schema v1.4.1.
// Floating-point fields refuse NaN and infinities, which defeat range
// checks.
type Binder struct {
	opts   BindOptions
	schema *schema.Decoder
}

// NewBinder returns a Binder with the given options.
func NewBinder(opts BindOptions) *Binder {
	if opts.MaxIndex <= 0 {
		opts.MaxIndex = 99
	}
	s := schema.NewDecoder()
	s.MaxSize(opts.MaxIndex + 1)
	s.IgnoreUnknownKeys(true) // unknown keys are found, and reported, before schema runs
	return &Binder{opts: opts, schema: s}
}

// Bind fills the struct dst points to from fields. Every field that fails
// is listed in one *BindError; the fields that bound are set all the same.
func (b *Binder) Bind(dst any, fields []Field) (err error) {
	t := reflect.TypeOf(dst)
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("decoder: Bind needs a pointer to a struct, not %v", t)
	}
	failed := map[string]string{}
	src := map[string][]string{}
	canonical := map[string]string{} // resolved field path -> first key seen for it
	for _, f := range fields {
		path, target, why := b.resolve(t.Elem(), f.Name)
		switch {
		case why == errUnknownKey && !b.opts.ReportUnknown:
			continue
		case why != "":
			failed[f.Name] = why
			continue
		}
		if first, ok := canonical[path]; ok && first != f.Name {
			failed[f.Name] = fmt.Sprintf("names the same field as %q", first)
			continue
		}
		canonical[path] = f.Name
		if len(src[f.Name]) > 0 && target.Kind() != reflect.Slice {
			failed[f.Name] = "given more than once for a single value"
			continue
		}
		if k := indirect(target).Kind(); k == reflect.Float32 || k == reflect.Float64 {
			if v, err := strconv.ParseFloat(strings.TrimSpace(f.Value), 64); err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
				failed[f.Name] = "not a finite number"
				continue
			}
		}
		src[f.Name] = append(src[f.Name], f.Value)
	}
	for k := range failed {
		delete(src, k)
	}
	defer func() {
		if p := recover(); p != nil {
			failed["*"] = fmt.Sprintf("schema: %v", p)
			err = &BindError{Fields: failed}
		}
	}()
	if serr := b.schema.Decode(dst, src); serr != nil {
		if m, ok := serr.(schema.MultiError); ok {
			for k, e := range m {
				failed[k] = e.Error()
			}
		} else {
			failed["*"] = serr.Error()
		}
	}
	if len(failed) > 0 {
		return &BindError{Fields: failed}
	}
	return nil
}

const errUnknownKey = "matches no field"

// resolve follows a dotted key through t the way schema will, returning a
// canonical path, the type it ends at, and why it is refused ("" if not).
func (b *Binder) resolve(t reflect.Type, key string) (path string, target reflect.Type, why string) {
	for i := 0; i < len(key); i++ {
		if key[i] >= 0x80 || key[i] < 0x20 {
			return "", nil, "not an ASCII key"
		}
	}
	parts := strings.Split(key, ".")
	var canon []string
	for i := 0; i < len(parts); i++ {
		seg := parts[i]
		t = indirect(t)
		if t.Kind() != reflect.Struct {
			return "", nil, errUnknownKey
		}
		f, ok := fieldByAlias(t, seg)
		if !ok {
			return "", nil, errUnknownKey
		}
		canon = append(canon, f.Name)
		t = f.Type
		if indirect(t).Kind() == reflect.Slice && i+1 < len(parts) {
			idx := parts[i+1]
			n, err := strconv.Atoi(idx)
			if err != nil || idx != strconv.Itoa(n) || n < 0 {
				return "", nil, fmt.Sprintf("slice index %q is not a canonical decimal", idx)
			}
			if n > b.opts.MaxIndex {
				return "", nil, fmt.Sprintf("slice index %d is larger than %d", n, b.opts.MaxIndex)
			}
			canon = append(canon, idx)
			t = indirect(t).Elem()
			i++
		}
	}
	return strings.Join(canon, "."), t, ""
}

// fieldByAlias finds the field schema would bind name to: by its "schema"
// tag or its Go name, compared with strings.EqualFold, through embedded
// structs as well.
func fieldByAlias(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		alias, _, _ := strings.Cut(f.Tag.Get("schema"), ",")
		if alias == "-" {
			continue
		}
		if alias == "" {
			alias = f.Name
		}
		if strings.EqualFold(alias, name) {
			return f, true
		}
		if f.Anonymous && indirect(f.Type).Kind() == reflect.Struct {
			if g, ok := fieldByAlias(indirect(f.Type), name); ok {
				return g, true
			}
		}
	}
	return reflect.StructField{}, false
}

func indirect(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}
