package bench

import (
	"slices"
	"testing"
)

func TestHTMLFields(t *testing.T) {
	tests := []struct {
		name string
		page string
		want []Field
	}{
		{"entities are read whatever their spelling",
			`<table class="fields"><tr><th>name</th><th>value</th></tr><tr><td>q</td><td>&lt;b&gt; &amp; &#39;&#x27;&quot;&#34;</td></tr></table>`,
			[]Field{{"q", `<b> & ''""`}}},
		{"a third cell (cgigate's source) is ignored",
			`<table class="x fields"><tr><td>q</td><td>v</td><td>query</td></tr><tr><td>lang</td><td>fr</td><td>query</td></tr></table>`,
			[]Field{{"q", "v"}, {"lang", "fr"}}},
		{"cgigate's list of what was sent is read as name and value pairs",
			`<dl class="received"><dt>q</dt><dd>caf&eacute; &lt;b&gt;</dd>
<dt>lang</dt><dd>fr</dd></dl>`,
			[]Field{{"q", "café <b>"}, {"lang", "fr"}}},
		{"other lists are not read",
			`<dl><dt>a</dt><dd>b</dd></dl><dl class="received"><dt>q</dt><dd>印刷</dd></dl>`,
			[]Field{{"q", "印刷"}}},
		{"other tables are not read",
			`<table><tr><td>a</td><td>b</td></tr></table><table class="fields"><tr><td>q</td><td>印刷</td></tr></table>`,
			[]Field{{"q", "印刷"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := HTMLFields([]byte(tt.page))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("HTMLFields = %q, want %q", got, tt.want)
			}
		})
	}
	t.Run("a page without the table is an error", func(t *testing.T) {
		if _, err := HTMLFields([]byte("<p>500 Internal Server Error</p>")); err == nil {
			t.Error("HTMLFields accepted a page without a fields table")
		}
	})
}

func TestJSONFields(t *testing.T) {
	got, err := JSONFields([]byte(`{"kind":"form","fields":[{"name":"q","value":"\u003cb\u003e","source":"query"},{"name":"lang","value":"fr"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []Field{{"q", "<b>"}, {"lang", "fr"}}; !slices.Equal(got, want) {
		t.Errorf("JSONFields = %q, want %q", got, want)
	}
	if _, err := JSONFields([]byte("Status: 500\n")); err == nil {
		t.Error("JSONFields accepted a body that is not JSON")
	}
}
