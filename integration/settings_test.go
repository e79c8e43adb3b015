package integration

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
)

// indexDocs are the documents of the search index served in
// TestSearchThroughApache.
var indexDocs = map[string]string{
	"katakana.txt":    "インサツ の 歴史 (the history of printing)",
	"street.html":     "<html><head><title>Die Straße</title></head><body><p>Eine Straße in Berlin.</p></body></html>",
	"sub/nested.html": "<title>Nested &amp; deep</title><p>printing in Berlin</p>",
	"other.txt":       "nothing to see",
}

// writeIndex lays out docs in a folder Apache's www-data children can read.
func writeIndex(t *testing.T, docs map[string]string) string {
	t.Helper()
	dir := filepath.Join(apachetest.Dir(t), "index")
	for name, text := range docs {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSearchThroughApache searches a folder named by SetEnv
// CGIGATE_INDEX_DIR with ISINDEX queries: width and case are folded, every
// word must match, and each result has its title and relative URL.
func TestSearchThroughApache(t *testing.T) {
	dir := writeIndex(t, indexDocs)
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			t.Parallel()
			s := startGateway(t, apachetest.Options{MPM: mpm, Env: map[string]string{"CGIGATE_INDEX_DIR": dir}})
			tests := []struct {
				name, query string
				want        []hit // title and URL only
			}{
				{"half-width katakana find full-width ones", "%EF%BD%B2%EF%BE%9D%EF%BD%BB%EF%BE%82", []hit{{Title: "katakana.txt", URL: "katakana.txt"}}},
				{"STRASSE finds Straße", "STRASSE", []hit{{Title: "Die Straße", URL: "street.html"}}},
				{"every word must match", "printing+berlin", []hit{{Title: "Nested & deep", URL: "sub/nested.html"}}},
				{"a word no document has finds nothing", "zzyzx", nil},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					r := getJSON(t, s, gatewayPath+"?"+tt.query)
					var got []hit
					for _, h := range r.Results {
						got = append(got, hit{Title: h.Title, URL: h.URL})
						if h.Snippet == "" || h.Score <= 0 {
							t.Errorf("result %+v: want a snippet and a positive score", h)
						}
					}
					if r.Kind != "isindex" || !slices.Equal(got, tt.want) {
						t.Errorf("kind %q results %+v, want isindex %+v", r.Kind, got, tt.want)
					}
				})
			}
		})
	}
}

// TestSettingsThroughSetEnv checks that SetEnv in httpd.conf reaches the
// gateway for the settings not covered elsewhere, and that a bad setting
// is a 500 whose reason is in Apache's error log only.
func TestSettingsThroughSetEnv(t *testing.T) {
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			t.Parallel()
			s := startGateway(t, apachetest.Options{MPM: mpm, Env: map[string]string{
				"CGIGATE_SNIFF": "0", "CGIGATE_SEPARATOR": "&;", "CGIGATE_MAX_FIELDS": "3"}})
			t.Run("CGIGATE_SEPARATOR=&; splits on semicolons too", func(t *testing.T) {
				r := getJSON(t, s, gatewayPath+"?a=1;b=2&c=3")
				want := []field{{"a", "1", "query"}, {"b", "2", "query"}, {"c", "3", "query"}}
				if !slices.Equal(r.Fields, want) {
					t.Errorf("fields %+v, want %+v", r.Fields, want)
				}
			})
			t.Run("CGIGATE_MAX_FIELDS=3 refuses a fourth field with 413", func(t *testing.T) {
				wantError(t, s, send(t, s, "GET", gatewayPath+"?a=1&b=2&c=3&d=4", "", nil, "application/json"), http.StatusRequestEntityTooLarge)
			})
			t.Run("CGIGATE_SNIFF=0 leaves unnamed EUC-JP bytes undecoded, with a warning", func(t *testing.T) {
				// 日本語の文字 in EUC-JP (Python: "日本語の文字".encode("euc_jp")).
				r := getJSON(t, s, gatewayPath+"?q=%C6%FC%CB%DC%B8%EC%A4%CE%CA%B8%BB%FA")
				if r.CharsetSource == "sniffed" || len(r.Fields) != 1 || !strings.Contains(r.Fields[0].Value, "\uFFFD") || len(r.Warnings) == 0 {
					t.Errorf("charset %q (%s) fields %+v warnings %q, want U+FFFD and a warning, not sniffing", r.Charset, r.CharsetSource, r.Fields, r.Warnings)
				}
			})

			full := startGateway(t, apachetest.Options{MPM: mpm, Env: map[string]string{"CGIGATE_RECORD": "/dev/full"}})
			t.Run("a submission that cannot be recorded (disk full) is 503", func(t *testing.T) {
				r := send(t, full, "POST", gatewayPath, "application/x-www-form-urlencoded", []byte("a=1"), "application/json")
				wantError(t, full, r, http.StatusServiceUnavailable)
			})

			bad := startGateway(t, apachetest.Options{MPM: mpm, Env: map[string]string{"CGIGATE_MAX_BODY": "ten-megabytes"}})
			t.Run("a bad CGIGATE_MAX_BODY is 500, its reason in Apache's error log and not in the answer", func(t *testing.T) {
				r := send(t, bad, "GET", gatewayPath+"?a=1", "", nil, "application/json")
				wantError(t, bad, r, http.StatusInternalServerError)
				if strings.Contains(string(r.Body), "ten-megabytes") {
					t.Errorf("the answer tells the client the server's configuration: %s", r.Body)
				}
				if log := bad.ErrorLog(); !strings.Contains(log, "CGIGATE_MAX_BODY") || !strings.Contains(log, "ten-megabytes") {
					t.Errorf("Apache's error log does not name the bad setting:\n%s", tail(log))
				}
			})
		})
	}
}
