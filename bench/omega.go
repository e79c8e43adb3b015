package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apache"
)

// Omega is Xapian Omega as Debian's xapian-omega installs it: the indexer,
// the CGI and its stock OmegaScript templates.
type Omega struct {
	Omindex   string // omindex
	CGI       string // the omega CGI program
	Templates string // folder holding the stock "query" template
}

// OmegaEngine names Omega's CGI in cgi-bin and in the tables; the gateway
// is Gateway.
const OmegaEngine = "omega"

// DebianOmega is where Debian's packages put Omega.
var DebianOmega = Omega{
	Omindex:   "/usr/bin/omindex",
	CGI:       "/usr/lib/cgi-bin/omega/omega",
	Templates: "/usr/share/xapian-omega/templates",
}

// ErrNoOmega is wrapped by FindOmega's error.
var ErrNoOmega = errors.New("Xapian Omega is not installed (Debian: apt-get install xapian-omega xapian-tools); the benchmark installs nothing")

// FindOmega returns o when every part of it is there, else an error that
// names what is missing.
func FindOmega(o Omega) (Omega, error) {
	var missing []string
	for _, p := range []string{o.Omindex, o.CGI, filepath.Join(o.Templates, "query")} {
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return o, fmt.Errorf("bench: %w: missing %s", ErrNoOmega, strings.Join(missing, ", "))
	}
	return o, nil
}

// Build is what building one search index cost.
type Build struct {
	Wall    time.Duration
	CPU     time.Duration // user + system of the indexer (getrusage)
	PeakRSS int64         // bytes, the indexer's maximum resident set
	Size    int64         // bytes on disk of what it wrote
}

// TimeBuild runs argv (an indexer) with env added to a clean environment
// and returns its wall time, CPU and peak RSS; Size is left to the caller.
// When ctx ends, the indexer is killed.
func TimeBuild(ctx context.Context, argv, env []string) (Build, error) {
	cmd := command(ctx, argv[0], argv[1:]...)
	cmd.Env = append(cleanEnv(), env...)
	out := limitedBuffer{max: 4096}
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	err := cmd.Run()
	b := Build{Wall: time.Since(t0)}
	if ps := cmd.ProcessState; ps != nil {
		b.CPU = ps.UserTime() + ps.SystemTime()
		if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
			b.PeakRSS = ru.Maxrss * 1024 // kilobytes on Linux
		}
	}
	if err != nil {
		return b, fmt.Errorf("bench: %s: %v\n%s", strings.Join(argv, " "), err, out.Bytes())
	}
	return b, nil
}

// DiskSize is the size of the regular files at or under p.
func DiskSize(p string) (int64, error) {
	var n int64
	err := filepath.WalkDir(p, func(_ string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		info, err := e.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	return n, err
}

// OmegaHits returns the result links of a page from Omega's stock "query"
// template, in rank order: the href of each title link (<td><b><a>) of its
// hit list. A page without Omega's search box (name=P) is an error, so
// that an error page is not read as no results.
func OmegaHits(page []byte) ([]string, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	var hits []string
	box := false
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode {
			continue
		}
		switch {
		case n.DataAtom == atom.Input && attr(n, "name") == "P":
			box = true
		case n.DataAtom == atom.A && n.Parent != nil && n.Parent.DataAtom == atom.B &&
			n.Parent.Parent != nil && n.Parent.Parent.DataAtom == atom.Td:
			hits = append(hits, attr(n, "href"))
		}
	}
	if !box {
		return nil, fmt.Errorf("bench: not an Omega results page (no search box): %.300q", page)
	}
	return hits, nil
}

// GatewayHits returns the result URLs of cgigate's JSON answer, in rank
// order, and its total.
func GatewayHits(body []byte) (urls []string, total int, err error) {
	var v struct {
		Results []struct {
			URL string `json:"url"`
		} `json:"results"`
		Total *int `json:"total"`
	}
	if err := json.Unmarshal(body, &v); err != nil || v.Total == nil {
		return nil, 0, fmt.Errorf("bench: not a cgigate search answer: %.300q", body)
	}
	for _, r := range v.Results {
		urls = append(urls, r.URL)
	}
	return urls, *v.Total, nil
}

// Agreement is how far two top-10 lists agree: the number of URLs in both
// top tens over the size of the smaller one (at most 10), so that two
// engines that each find the only 3 matching documents agree fully. Two
// empty lists agree (1); an empty and a non-empty one do not (0). URLs are
// compared percent-decoded, so that /a%20b and /a b are one document.
func Agreement(a, b []string) float64 {
	a, b = a[:min(10, len(a))], b[:min(10, len(b))]
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	in := map[string]bool{}
	for _, u := range a {
		in[unescapedPath(u)] = true
	}
	both := 0
	for _, u := range b {
		if p := unescapedPath(u); in[p] {
			both++
			in[p] = false // a URL listed twice counts once
		}
	}
	return float64(both) / float64(min(len(a), len(b)))
}

func unescapedPath(u string) string {
	if p, err := url.PathUnescape(u); err == nil {
		return p
	}
	return u
}

// FoundAny reports whether any of the result URLs is one of the documents
// (paths relative to the site's folder) that truly contain the word,
// and how many of them; base is the URL path the folder is served at.
func FoundAny(results []string, base string, truth []string) int {
	want := map[string]bool{}
	for _, p := range truth {
		want[p] = true
	}
	n := 0
	for _, u := range results {
		if want[strings.TrimPrefix(unescapedPath(u), base)] {
			n++
		}
	}
	return n
}

// SitePath is where a site server serves the generated documents.
const SitePath = "/docs/"

// SiteServer is one Apache serving a generated site at SitePath, with
// cgigate (Gateway) and Omega's CGI (OmegaEngine) in its cgi-bin, each
// configured for the site's index, and, when started with one, cgigate
// -fcgi (GatewayF) proxied at FastCGIPath over the same index.
type SiteServer struct {
	server *Server // its Apache, and cgigate -fcgi's CPU when there is one
}

// SiteEnv is the environment cgigate answers a site's searches with: the
// index of docs, its documents served at SitePath.
func SiteEnv(docs string) []string {
	return []string{"CGIGATE_INDEX_DIR=" + docs, "CGIGATE_INDEX_URL=" + SitePath}
}

// StartSite starts Apache (event MPM with mod_cgid) with docRoot as its
// DocumentRoot (the documents in docRoot/docs, cgigate's index among
// them), gateway and omegaCGI in its cgi-bin, OMEGA_CONFIG_FILE set to
// omegaConf for every request and, when fcgi is not nil, FastCGIPath
// proxied to it (started with SiteEnv of the same documents).
func StartSite(docRoot, gateway, omegaCGI, omegaConf string, fcgi *FastCGI) (*SiteServer, error) {
	docs := filepath.Join(docRoot, strings.Trim(SitePath, "/"))
	env := map[string]string{}
	for _, kv := range SiteEnv(docs) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	cfg := httpdconf.Config{MPM: httpdconf.MPMEvent, LogLevel: "warn", DocumentRoot: docRoot, Env: env}
	if fcgi != nil {
		cfg.FastCGI, cfg.FastCGIPath = fcgi.Addr, FastCGIPath
	}
	s, err := startApache(Setup{MPM: httpdconf.MPMEvent}, apache.Options{
		Config:     cfg,
		CGI:        map[string]string{Gateway: gateway, OmegaEngine: omegaCGI},
		Directives: "SetEnv OMEGA_CONFIG_FILE " + strconv.Quote(omegaConf),
	})
	if err != nil {
		return nil, err
	}
	if fcgi != nil {
		s.cpu = map[string]func() (time.Duration, error){GatewayF: fcgi.CPU}
	}
	return &SiteServer{server: s}, nil
}

// Engines are the search engines s serves, in table order.
func (s *SiteServer) Engines() []string {
	if s.server.FastCGI {
		return []string{Gateway, GatewayF, OmegaEngine}
	}
	return []string{Gateway, OmegaEngine}
}

// Stop stops Apache and removes its ServerRoot (not the DocumentRoot).
func (s *SiteServer) Stop() error { return s.server.Apache.Stop() }

// QueryPath is the path and query that asks engine for q: Omega's P= and
// cgigate's search box (CGIGATE_SEARCH_FIELD's default, q=), in cgi-bin
// or at FastCGIPath.
func (s *SiteServer) QueryPath(engine, q string) string {
	switch engine {
	case OmegaEngine:
		return s.server.Apache.CGIPath(engine) + "?P=" + url.QueryEscape(q)
	case GatewayF:
		return FastCGIPath + "?q=" + url.QueryEscape(q)
	}
	return s.server.Apache.CGIPath(engine) + "?q=" + url.QueryEscape(q)
}

// OmegaConf writes Omega's configuration file into dir: its databases in
// databases (where omindex --db wrote DATABASES/default), the stock
// templates, logs in dir.
func OmegaConf(dir, databases string, o Omega) (string, error) {
	p := filepath.Join(dir, "omega.conf")
	conf := "database_dir " + databases + "\ntemplate_dir " + o.Templates + "\nlog_dir " + dir + "\n"
	return p, os.WriteFile(p, []byte(conf), 0o644)
}

// Hits asks engine for q through Apache and returns its top results (at
// most a page, 10 for both engines) and, for cgigate, its total (-1 for
// Omega, whose stock page does not give it in a form worth parsing).
func (s *SiteServer) Hits(engine, q string) ([]string, int, error) {
	accept := "application/json"
	if engine == OmegaEngine {
		accept = "text/html"
	}
	body, err := fetch(http.DefaultClient, s.server.Apache.URL+s.QueryPath(engine, q), accept)
	if err != nil {
		return nil, 0, fmt.Errorf("bench: %s %q: %w", engine, q, err)
	}
	if engine == OmegaEngine {
		hits, err := OmegaHits(body)
		return hits, -1, err
	}
	return GatewayHits(body)
}

// WrkScript is a wrk Lua script that sends the paths in turn, one per
// request, so that one run loads every query of a set.
func WrkScript(paths []string) string {
	var b strings.Builder
	b.WriteString("local paths = {\n")
	for _, p := range paths {
		b.WriteString("  " + strconv.Quote(p) + ",\n") // ASCII, percent-encoded: Go's quoting is Lua's
	}
	b.WriteString("}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n")
	return b.String()
}

// SiteLoad loads each engine of s with wrk, its script (a file from
// WrkScript) sending the query set in turn, in interleaved rounds as
// LoadRounds does: per round every connection count and engine, the
// engines' order swapped every round, after one unrecorded warm-up run
// each. Samples are keyed by MPM "event", the connection count and the
// engine; GatewayF's carry the CPU its process used per request. A wrk
// run that fails is said on progress and left out.
func SiteLoad(ctx context.Context, s *SiteServer, scripts map[string]string, plan Plan, progress io.Writer) Results {
	plan = plan.withDefaults()
	engines := s.Engines()
	run := func(engine string, conns int, d time.Duration) (Sample, error) {
		return s.server.wrk(ctx, engine, Load{URL: s.server.Apache.URL + "/", Connections: conns, Duration: d,
			Header: []string{"Accept: " + plan.Accept}, Script: scripts[engine]})
	}
	for _, c := range plan.Connections {
		for _, e := range engines {
			if _, err := run(e, c, plan.Warmup); err != nil {
				fmt.Fprintf(progress, "warmup: %v\n", err)
			}
		}
	}
	var res Results
	start := time.Now()
	for r := 0; r < plan.Rounds && ctx.Err() == nil; r++ {
		if r > 0 && time.Since(start)+time.Since(start)/time.Duration(r) > plan.Budget {
			fmt.Fprintf(progress, "budget %v reached after %d rounds\n", plan.Budget, r)
			break
		}
		round := map[Key]Sample{}
		for _, c := range plan.Connections {
			for i := range engines {
				e := engines[(i+r)%len(engines)]
				smp, err := run(e, c, plan.Duration)
				if err != nil {
					fmt.Fprintf(progress, "round %d: %v\n", r+1, err)
					continue
				}
				round[Key{"event", c, e}] = smp
				fmt.Fprintf(progress, "round %d c=%-2d %-8s %8.1f req/s  p99 %v  non-2xx %d\n", r+1, c, e, smp.RPS, smp.P99, smp.Non2xx)
			}
		}
		res.Rounds = append(res.Rounds, round)
	}
	return res
}

// QueryCost runs each program (a CGI search engine) as Apache would, with
// no server in between, once per query string of its own in queries[i]
// (QUERY_STRING, Accept: text/html), the programs interleaved query by
// query, in runs passes after one unrecorded pass. It returns, per
// program, the mean over its queries of each query's median CPU (user +
// system, getrusage) and median page faults: the cost of one answer,
// which bounds req/s once the cores are busy and moves less than req/s
// with other load on the machine. When ctx ends, the run under way is
// killed and ctx's error returned.
func QueryCost(ctx context.Context, progs []Program, queries [][]string, runs int) ([]Timing, error) {
	cpu := make([][][]float64, len(progs))
	faults := make([][][]float64, len(progs))
	for i := range progs {
		cpu[i] = make([][]float64, len(queries[i]))
		faults[i] = make([][]float64, len(queries[i]))
	}
	for pass := -1; pass < runs; pass++ {
		for q := range queries[0] {
			for i, p := range progs {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				t, err := Exec(ctx, p.Argv, append(CGIEnv(p.Name, queries[i][q], "text/html"), p.Env...))
				if err != nil {
					return nil, err
				}
				if pass >= 0 {
					cpu[i][q] = append(cpu[i][q], float64(t.CPU))
					faults[i][q] = append(faults[i][q], float64(t.Faults))
				}
			}
		}
	}
	out := make([]Timing, len(progs))
	for i := range progs {
		var c, f float64
		for q := range queries[i] {
			c += Median(cpu[i][q])
			f += Median(faults[i][q])
		}
		n := float64(len(queries[i]))
		out[i] = Timing{CPU: time.Duration(c / n), Counts: Counts{Faults: int64(f / n)}}
	}
	return out, nil
}

// EngineRow is one engine's line of the side-by-side table, for one size.
type EngineRow struct {
	Docs   int
	Engine string
	Build  Build
	// Query is one answer's cost as a process (QueryCost): CPU and page
	// faults, means over the query set.
	Query Timing
	// Load is the load summary per connection count (RPS and P99 are
	// medians over rounds).
	Load map[int]Row
	// Agreement is the mean over the queries of the top-10 agreement
	// between the two engines (the same on both engines' rows).
	Agreement float64
}

// FormatSideBySide writes rows as one Markdown table, with a req/s and
// a p99 column per connection count in conns.
func FormatSideBySide(w io.Writer, rows []EngineRow, conns []int) error {
	var b strings.Builder
	b.WriteString("| documents | engine | build wall | build CPU | build peak RSS | index size | CPU per query | page faults per query |")
	sep := "|---:|---|---:|---:|---:|---:|---:|---:|"
	for _, c := range conns {
		fmt.Fprintf(&b, " req/s at %d | p99 at %d |", c, c)
		sep += "---:|---:|"
	}
	b.WriteString(" top-10 agreement |\n" + sep + "---:|\n")
	for _, r := range rows {
		if r.Engine == GatewayF {
			// The CGI's index, and a process that stays: no faults of its own per query.
			fmt.Fprintf(&b, "| %d | %s | (the same index) | | | | %s | – |", r.Docs, r.Engine, FormatDuration(r.Query.CPU))
		} else {
			fmt.Fprintf(&b, "| %d | %s | %s | %s | %s | %s | %s | %d |", r.Docs, r.Engine, formatSeconds(r.Build.Wall),
				formatSeconds(r.Build.CPU), formatBytes(r.Build.PeakRSS), formatBytes(r.Build.Size), FormatDuration(r.Query.CPU), r.Query.Faults)
		}
		for _, c := range conns {
			if l, ok := r.Load[c]; ok && l.Rounds > 0 {
				fmt.Fprintf(&b, " %.0f | %s |", l.RPS, FormatDuration(l.P99))
			} else {
				b.WriteString(" – | – |")
			}
		}
		fmt.Fprintf(&b, " %.0f%% |\n", 100*r.Agreement)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// QueryResult is what both engines answered to one query over one size.
type QueryResult struct {
	Query       SiteQuery
	Omega, Gate []string // top results, rank order
	GateTotal   int
	Agreement   float64
	Truth       int // documents whose decoded text contains the query (Japanese only; -1 otherwise)
	OmegaTrue   int // of Omega's top results, documents in Truth
	GateTrue    int // of cgigate's
}

// FormatQueries writes, for one size, each query's top-10 counts and
// agreement, then for each Japanese query whether each engine found a
// document that contains it.
func FormatQueries(w io.Writer, docs int, res []QueryResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Per query, %d documents:\n\n| query | what | Omega top 10 | cgigate top 10 (total) | agreement |\n|---|---|---:|---:|---:|\n", docs)
	for _, r := range res {
		fmt.Fprintf(&b, "| `%s` | %s | %d | %d (%d) | %.0f%% |\n", r.Query.Text, r.Query.Kind, len(r.Omega), len(r.Gate), r.GateTotal, 100*r.Agreement)
	}
	fmt.Fprintf(&b, "\nJapanese queries, %d documents: documents containing the word (the generated files decoded and searched, independent of both engines), and how many of each engine's top 10 are among them:\n\n| query | documents containing it | Omega | cgigate |\n|---|---:|---|---|\n", docs)
	for _, r := range res {
		if r.Query.Lang != Japanese {
			continue
		}
		fmt.Fprintf(&b, "| `%s` | %d | %s | %s |\n", r.Query.Text, r.Truth, found(r.OmegaTrue, len(r.Omega)), found(r.GateTrue, len(r.Gate)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func found(hits, of int) string {
	if hits == 0 {
		return fmt.Sprintf("**missed** (0 of %d)", of)
	}
	return fmt.Sprintf("found (%d of %d)", hits, of)
}

func formatSeconds(d time.Duration) string {
	if d < 10*time.Second {
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// formatBytes prints n in MB (10^6 bytes), three significant digits.
func formatBytes(n int64) string {
	mb := float64(n) / 1e6
	switch {
	case mb < 10:
		return fmt.Sprintf("%.2f MB", mb)
	case mb < 100:
		return fmt.Sprintf("%.1f MB", mb)
	}
	return fmt.Sprintf("%.0f MB", mb)
}
