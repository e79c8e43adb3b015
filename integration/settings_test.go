package integration

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
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
				{"half-width katakana find full-width ones", "%EF%BD%B2%EF%BE%9D%EF%BD%BB%EF%BE%82", []hit{{Title: "インサツ の 歴史 (the history of printing)", URL: "katakana.txt"}}},
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
						if h.Snippet == "" || h.Score <= 0 || len(h.Highlights) == 0 {
							t.Errorf("result %+v: want a snippet, a positive score and highlights", h)
						}
					}
					if r.Kind != "isindex" || !reflect.DeepEqual(got, tt.want) {
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

// servedDocs are documents Apache serves under /docs/ and the gateway
// searches: names that need escaping, in subfolders, in Japanese.
var servedDocs = map[string]string{
	"a file & more.txt":   "Site search\nprinting for everyone",
	"日本/印刷.html":          `<html><head><meta charset="utf-8"><title>印刷</title></head><body>printing in Japan</body></html>`,
	"sub/100% cotton.txt": "Paper\nprinting on 100% cotton paper",
	"d10.txt":             "Ten\nprinting ten",
	"d9.txt":              "Nine\nprinting nine",
}

// startDocsGateway starts the gateway searching servedDocs, which Apache
// also serves under /docs/ (CGIGATE_INDEX_URL), two results a page.
func startDocsGateway(t *testing.T) *apachetest.Server {
	t.Helper()
	dir := writeIndex(t, servedDocs)
	files := map[string][]byte{}
	for name, text := range servedDocs {
		files["docs/"+name] = []byte(text)
	}
	s := startGateway(t, apachetest.Options{Files: files, Env: map[string]string{"CGIGATE_INDEX_DIR": dir, "CGIGATE_INDEX_URL": "/docs/", "CGIGATE_PAGE_SIZE": "2"}})
	return s
}

// TestResultLinksResolveThroughApache serves documents under /docs/ with
// CGIGATE_INDEX_URL=/docs/ and follows every result link through Apache:
// each must be a 200 with the document itself.
func TestResultLinksResolveThroughApache(t *testing.T) {
	s := startDocsGateway(t)
	seen := map[string]bool{}
	for page := 1; page <= 3; page++ {
		r := getJSON(t, s, gatewayPath+"?q=printing&page="+strconv.Itoa(page))
		if r.Total != len(servedDocs) || r.Pages != 3 || r.Page != page {
			t.Fatalf("page %d: total %d pages %d", page, r.Total, r.Pages)
		}
		for _, h := range r.Results {
			u, err := url.Parse(h.URL)
			if err != nil || !strings.HasPrefix(h.URL, "/docs/") {
				t.Errorf("result URL %q: %v", h.URL, err)
				continue
			}
			name := strings.TrimPrefix(u.Path, "/docs/")
			got := send(t, s, "GET", h.URL, "", nil, "")
			if got.Status != http.StatusOK || string(got.Body) != servedDocs[name] {
				t.Errorf("GET %s: status %d body %.80q; want %s", h.URL, got.Status, got.Body, name)
			}
			seen[name] = true
		}
	}
	if len(seen) != len(servedDocs) {
		t.Errorf("the pages linked %d documents of %d: %v", len(seen), len(servedDocs), seen)
	}
	t.Run("the HTML page's links are the same", func(t *testing.T) {
		r := send(t, s, "GET", gatewayPath+"?q=cotton", "", nil, "text/html")
		if !strings.Contains(string(r.Body), `<a href="/docs/sub/100%25%20cotton.txt">Paper</a>`) {
			t.Errorf("body:\n%s", r.Body)
		}
	})
}
