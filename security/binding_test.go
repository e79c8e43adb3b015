package security

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/decoder"
)

// Schema binding: the gateway itself binds nothing (it renders the fields
// it decoded), but an application built on package decoder binds them to
// structs with decoder.Binder over gorilla/schema v1.4.1, which panics on
// a negative index, allocates up to any index it is given
// (CVE-2024-37298), folds case and keeps the last of several values, so
// that two keys race in map order. Each case here sends the corpus body
// through the gateway on every path, then binds the fields the gateway
// decoded, as such an application would: the body arrives intact as data,
// and the Binder refuses what schema would mishandle.

type order struct {
	Items  []item  `schema:"Items"`
	Role   string  `schema:"role"`
	Kind   string  `schema:"kind"`
	F      float64 `schema:"F"`
	Person string  `schema:"person"`
	Phone  string  `schema:"phone"`
}

type item struct {
	Name string `schema:"Name"`
	Sub  []sub  `schema:"Sub"`
}

type sub struct {
	A string `schema:"A"`
}

// bound is one path's outcome: the fields the gateway decoded and what
// binding them gave.
type bound struct {
	fields []field
	order  order
	err    *decoder.BindError
}

// bindEach sends body on every path and binds what each decoded.
func bindEach(t *testing.T, rq request, check func(t *testing.T, got bound)) {
	t.Helper()
	each(t, rq, func(t *testing.T, r response) {
		res := decoded(t, r)
		var fs []decoder.Field
		for _, f := range res.Fields {
			fs = append(fs, decoder.Field{Name: f.Name, Value: f.Value, Origin: f.Source})
		}
		got := bound{fields: res.Fields}
		err := decoder.NewBinder(decoder.BindOptions{}).Bind(&got.order, fs)
		if err != nil && !errors.As(err, &got.err) {
			t.Fatalf("Bind: %v; want nil or a *decoder.BindError", err)
		}
		check(t, got)
	})
}

func (g bound) refuses(t *testing.T, keys ...string) {
	t.Helper()
	if g.err == nil {
		t.Fatalf("Bind accepted %q as %+v", g.fields, g.order)
	}
	for _, k := range keys {
		if _, ok := g.err.Fields[k]; !ok {
			t.Errorf("BindError %q does not name %q", g.err.Fields, k)
		}
	}
}

func TestNegativeSliceIndexIsRefusedNotAPanic(t *testing.T) {
	c := corpusCase(t, 28, "Items.-1.Name=x")
	bindEach(t, form(c.Input), func(t *testing.T, g bound) {
		if len(g.fields) != 1 || g.fields[0] != b("Items.-1.Name", "x") {
			t.Errorf("fields %q", g.fields)
		}
		g.refuses(t, "Items.-1.Name")
	})
}

func TestCVE_2024_37298_SparseIndexesCannotAllocate(t *testing.T) {
	corpusCase(t, 29, "Items.<i*80>.Sub.15999.A=x")
	var keys []string
	for i := range 200 {
		keys = append(keys, "Items."+itoa(i*80)+".Sub.15999.A=x")
	}
	body := strings.Join(keys, "&")
	bindEach(t, form(body), func(t *testing.T, g bound) {
		if len(g.fields) != 200 {
			t.Fatalf("%d fields; want 200", len(g.fields))
		}
		g.refuses(t, "Items.80.Sub.15999.A", "Items.15920.Sub.15999.A")
	})
	t.Run("binding them allocates kilobytes, not the 197 MB schema's MaxSize allows", func(t *testing.T) {
		var fs []decoder.Field
		for _, k := range keys {
			name, value, _ := strings.Cut(k, "=")
			fs = append(fs, decoder.Field{Name: name, Value: value})
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		var o order
		err := decoder.NewBinder(decoder.BindOptions{}).Bind(&o, fs)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatal("Bind accepted sparse indexes up to 15999")
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
			t.Errorf("Bind allocated %d bytes for a 5 KB body", n)
		}
	})
}

func TestHugeSliceIndexIsAnError(t *testing.T) {
	c := corpusCase(t, 30, "Items.16001.Name=x&Items.9223372036854775807.Name=y")
	bindEach(t, form(c.Input), func(t *testing.T, g bound) {
		g.refuses(t, "Items.16001.Name", "Items.9223372036854775807.Name")
		if len(g.order.Items) != 0 {
			t.Errorf("%d items allocated", len(g.order.Items))
		}
	})
}

func TestDuplicateScalarKeyIsRefused(t *testing.T) {
	c := corpusCase(t, 31, "role=user&role=admin")
	bindEach(t, form(c.Input), func(t *testing.T, g bound) {
		g.refuses(t, "role")
		if g.order.Role == "admin" {
			t.Error("the last value won")
		}
	})
}

// TestQueryAndBodyKeepTheirSources: the query's fields come first, each
// field says where it came from, and binding both is refused as a
// duplicate; an application binding the body's fields alone gets "body".
func TestQueryAndBodyKeepTheirSources(t *testing.T) {
	c := corpusCase(t, 32, "role=body")
	rq := form(c.Input)
	rq.Query = "role=query"
	bindEach(t, rq, func(t *testing.T, g bound) {
		if len(g.fields) != 2 || g.fields[0] != q("role", "query") || g.fields[1] != b("role", "body") {
			t.Fatalf("fields %q", g.fields)
		}
		g.refuses(t, "role")
		var o order
		if err := decoder.NewBinder(decoder.BindOptions{}).Bind(&o, []decoder.Field{{Name: g.fields[1].Name, Value: g.fields[1].Value}}); err != nil || o.Role != "body" {
			t.Errorf("the body alone bound %q, %v", o.Role, err)
		}
	})
}

func TestKeysFoldingToOneFieldAreRefused(t *testing.T) {
	c := corpusCase(t, 33, "role=user&ROLE=admin")
	bindEach(t, form(c.Input), func(t *testing.T, g bound) {
		g.refuses(t, "ROLE")
		if g.order.Role != "user" {
			t.Errorf("role %q; want the first key's user", g.order.Role)
		}
	})
	t.Run("the same way in every one of 50 runs", func(t *testing.T) {
		fs := []decoder.Field{{Name: "role", Value: "user"}, {Name: "ROLE", Value: "admin"}}
		for i := range 50 {
			var o order
			if err := decoder.NewBinder(decoder.BindOptions{}).Bind(&o, fs); err == nil || o.Role != "user" {
				t.Fatalf("run %d: role %q, err %v", i, o.Role, err)
			}
		}
	})
}

func TestKelvinSignKeyIsRefused(t *testing.T) {
	c := corpusCase(t, 34, "%E2%84%AAind=x")
	bindEach(t, form("%E2%84%AAind=x"), func(t *testing.T, g bound) {
		if len(g.fields) != 1 || g.fields[0].Name != "\u212Aind" {
			t.Fatalf("fields %q (%s)", g.fields, c.Want)
		}
		g.refuses(t, "\u212Aind")
		if g.order.Kind != "" {
			t.Errorf("bound to Kind: %q", g.order.Kind)
		}
	})
}

// TestSchema33_PathThroughAScalarIsAnError: "person.phone" walks through
// a string field. By default the Binder ignores it as a key no field
// takes (a form carries buttons and hidden fields), without a panic; with
// ReportUnknown it is the error the corpus asks for. "phone" binds either
// way.
func TestSchema33_PathThroughAScalarIsAnError(t *testing.T) {
	c := corpusCase(t, 35, "person.phone=John&phone=1")
	bindEach(t, form(c.Input), func(t *testing.T, g bound) {
		if g.order.Phone != "1" || g.order.Person != "" {
			t.Errorf("bound %+v", g.order)
		}
		var fs []decoder.Field
		for _, f := range g.fields {
			fs = append(fs, decoder.Field{Name: f.Name, Value: f.Value})
		}
		var o order
		err := decoder.NewBinder(decoder.BindOptions{ReportUnknown: true}).Bind(&o, fs)
		var be *decoder.BindError
		if !errors.As(err, &be) {
			t.Fatalf("ReportUnknown: err %v; want a *decoder.BindError", err)
		}
		if _, ok := be.Fields["person.phone"]; !ok || o.Phone != "1" {
			t.Errorf("ReportUnknown: %q, phone %q", be.Fields, o.Phone)
		}
	})
}

// TestNonCanonicalSliceIndexIsRefused: "+1" on the wire is " 1" once the
// urlencoded '+' is a space; "%2B1" is a literal "+1"; "01" has a leading
// zero. Only "1" binds.
func TestNonCanonicalSliceIndexIsRefused(t *testing.T) {
	c := corpusCase(t, 69, "Items.1.Name=a&Items.+1.Name=b&Items.01.Name=c")
	bindEach(t, form(c.Input+"&Items.%2B1.Name=d"), func(t *testing.T, g bound) {
		if len(g.fields) != 4 || g.fields[1].Name != "Items. 1.Name" || g.fields[3].Name != "Items.+1.Name" {
			t.Fatalf("fields %q", g.fields)
		}
		g.refuses(t, "Items. 1.Name", "Items.01.Name", "Items.+1.Name")
		if len(g.order.Items) != 2 || g.order.Items[1].Name != "a" {
			t.Errorf("items %+v; want Items.1 alone bound", g.order.Items)
		}
	})
}

func TestNonFiniteNumbersAreRefused(t *testing.T) {
	c := corpusCase(t, 70, "F=NaN")
	for _, body := range []string{c.Input, c.Also[0], c.Also[1], "F=%2BInf", "F=1e309"} {
		t.Run(body, func(t *testing.T) {
			bindEach(t, form(body), func(t *testing.T, g bound) {
				g.refuses(t, "F")
				if g.order.F != 0 {
					t.Errorf("F bound to %v", g.order.F)
				}
			})
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
