package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cgigate/cgigate/bench"
	"github.com/cgigate/cgigate/internal/apache"
	searchindex "github.com/cgigate/cgigate/search"
)

// sideBySide is the omega part: for each size in o.omegaDocs, one
// generated site indexed by cgigate -index and by Omega's omindex, both
// CGIs under one Apache (event, mod_cgid) loaded with the same query set,
// their top 10 compared, and each Japanese query checked against the
// documents that contain it; beside them, cgigate -fcgi (fcgiGateway, the
// default build) over the same index, what a site whose searches outgrow
// a process each can run. Omega missing is an error that says so: the
// benchmark installs nothing.
func sideBySide(ctx context.Context, w, progress io.Writer, gateway, fcgiGateway string, o options) error {
	omega, err := bench.FindOmega(bench.DebianOmega)
	if err != nil {
		return err
	}
	var rows []bench.EngineRow
	var perQuery strings.Builder
	for _, n := range o.omegaDocs {
		if err := ctx.Err(); err != nil {
			return err
		}
		r, err := siteSize(ctx, &perQuery, progress, gateway, fcgiGateway, omega, n, o)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	fmt.Fprintln(w, "## cgigate beside Xapian Omega: one generated site, both CGIs under one Apache (event, mod_cgid)")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Documents: bench.GenerateSite, seed 1 (English, German, Japanese; .txt and .html; some ISO-8859-1, Shift_JIS, EUC-JP). Builds: `cgigate -index DIR` (-tags cgionly) and `omindex --db DB --url %s DIR` (defaults), after one read of every document (a warm page cache for both); CPU and peak RSS of the indexer (getrusage). Load: the %d queries below in turn (a wrk Lua script), `Accept: text/html`, Omega's stock `query` template with `P=`, cgigate's search box `q=`; %d interleaved rounds of %v per engine and connection count, medians. Agreement: |both top 10s| / the smaller top 10, averaged over the queries. CPU and page faults per query: each CGI run directly (no server), each query %d times after one unrecorded pass, the engines interleaved; the mean over the queries of each one's median (getrusage). %s: `cgigate -fcgi` (the default build) over the same index behind mod_proxy_fcgi, loaded in the same rounds; its CPU per query is its process's CPU over the requests of the load rounds at the most connections (median), Apache's not counted (nor is it for the CGIs).\n\n",
		bench.SitePath, len(bench.SiteQueries), o.plan.Rounds, o.plan.Duration, o.omegaRuns, bench.GatewayF)
	if err := bench.FormatSideBySide(w, rows, o.plan.Connections); err != nil {
		return err
	}
	fmt.Fprintln(w)
	_, err = io.WriteString(w, perQuery.String())
	return err
}

// siteSize measures one size; its per-query tables go to w.
func siteSize(ctx context.Context, w, progress io.Writer, gateway, fcgiGateway string, omega bench.Omega, n int, o options) ([]bench.EngineRow, error) {
	tmp, err := apache.TempDir("cgibench-omega-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	docs := filepath.Join(tmp, "site", strings.Trim(bench.SitePath, "/"))
	fmt.Fprintf(progress, "cgibench: omega: generating %d documents\n", n)
	if _, err := bench.GenerateSite(docs, n, 1); err != nil {
		return nil, err
	}
	var japanese []string
	for _, q := range bench.SiteQueries {
		if q.Lang == bench.Japanese {
			japanese = append(japanese, q.Text)
		}
	}
	// The truth, and a warm page cache for both indexers.
	truth, err := bench.Containing(docs, japanese)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(progress, "cgibench: omega: omindex, %d documents\n", n)
	dbs := filepath.Join(tmp, "omega-db")
	if err := os.Mkdir(dbs, 0o755); err != nil {
		return nil, err
	}
	db := filepath.Join(dbs, "default")
	ob, err := bench.TimeBuild(ctx, []string{omega.Omindex, "--db", db, "--url", bench.SitePath, docs}, nil)
	if err != nil {
		return nil, err
	}
	if ob.Size, err = bench.DiskSize(db); err != nil {
		return nil, err
	}
	fmt.Fprintf(progress, "cgibench: omega: omindex %v (CPU %v), %d bytes\n", ob.Wall, ob.CPU, ob.Size)
	fmt.Fprintf(progress, "cgibench: omega: cgigate -index, %d documents\n", n)
	gb, err := bench.TimeBuild(ctx, []string{gateway, "-index", docs}, nil)
	if err != nil {
		return nil, err
	}
	// The index is a manifest beside the segments and the builder's stat
	// table it names, all starting with IndexName: the size is their sum.
	parts, err := filepath.Glob(filepath.Join(docs, searchindex.IndexName+"*"))
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		size, err := bench.DiskSize(p)
		if err != nil {
			return nil, err
		}
		gb.Size += size
	}
	fmt.Fprintf(progress, "cgibench: omega: cgigate -index %v (CPU %v), %d bytes\n", gb.Wall, gb.CPU, gb.Size)

	conf, err := bench.OmegaConf(tmp, dbs, omega)
	if err != nil {
		return nil, err
	}
	fcgi, err := bench.StartFastCGI(fcgiGateway, bench.SiteEnv(docs))
	if err != nil {
		return nil, err
	}
	defer fcgi.Stop()
	s, err := bench.StartSite(filepath.Join(tmp, "site"), gateway, omega.CGI, conf, fcgi)
	if err != nil {
		return nil, err
	}
	defer s.Stop()

	var results []bench.QueryResult
	var sum float64
	for _, q := range bench.SiteQueries {
		r := bench.QueryResult{Query: q, Truth: -1}
		if r.Omega, _, err = s.Hits(bench.OmegaEngine, q.Text); err != nil {
			return nil, err
		}
		if r.Gate, r.GateTotal, err = s.Hits(bench.Gateway, q.Text); err != nil {
			return nil, err
		}
		// The FastCGI mode answers from the same index: the same page.
		f, total, err := s.Hits(bench.GatewayF, q.Text)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(f, r.Gate) || total != r.GateTotal {
			return nil, fmt.Errorf("cgibench: %q: cgigate -fcgi answers %q (%d), the CGI %q (%d)", q.Text, f, total, r.Gate, r.GateTotal)
		}
		r.Agreement = bench.Agreement(r.Omega, r.Gate)
		sum += r.Agreement
		if q.Lang == bench.Japanese {
			r.Truth = len(truth[q.Text])
			r.OmegaTrue = bench.FoundAny(r.Omega, bench.SitePath, truth[q.Text])
			r.GateTrue = bench.FoundAny(r.Gate, bench.SitePath, truth[q.Text])
		}
		results = append(results, r)
	}
	if err := bench.FormatQueries(w, n, results); err != nil {
		return nil, err
	}
	fmt.Fprintln(w)

	fmt.Fprintf(progress, "cgibench: omega: CPU per query process, %d documents\n", n)
	progs := []bench.Program{
		{Name: bench.Gateway, Argv: []string{gateway}, Env: append(bench.SiteEnv(docs), bench.DeployedEnv...)},
		{Name: bench.OmegaEngine, Argv: []string{omega.CGI}, Env: []string{"OMEGA_CONFIG_FILE=" + conf}},
	}
	queries := make([][]string, len(progs))
	for i, p := range progs {
		for _, q := range bench.SiteQueries {
			_, qs, _ := strings.Cut(s.QueryPath(p.Name, q.Text), "?")
			queries[i] = append(queries[i], qs)
		}
	}
	costs, err := bench.QueryCost(ctx, progs, queries, o.omegaRuns)
	if err != nil {
		return nil, err
	}

	scripts := map[string]string{}
	for _, e := range s.Engines() {
		var paths []string
		for _, q := range bench.SiteQueries {
			paths = append(paths, s.QueryPath(e, q.Text))
		}
		p := filepath.Join(tmp, e+".lua")
		if err := os.WriteFile(p, []byte(bench.WrkScript(paths)), 0o644); err != nil {
			return nil, err
		}
		scripts[e] = p
	}
	fmt.Fprintf(progress, "cgibench: omega: load, %d documents\n", n)
	res := bench.SiteLoad(ctx, s, scripts, o.plan, progress)
	load := bench.Summarize(res)
	// cgigate -fcgi's CPU a query is its process's over the load at the
	// most connections: it is not run as a process a query.
	var fcgiCost bench.Timing
	for _, r := range bench.SummarizeBackends(res) {
		if r.Peer == bench.GatewayF && len(o.plan.Connections) > 0 && r.Conns == slices.Max(o.plan.Connections) {
			fcgiCost.CPU = r.CPU
		}
	}
	rows := []bench.EngineRow{{Docs: n, Engine: bench.Gateway, Build: gb, Query: costs[0]},
		{Docs: n, Engine: bench.GatewayF, Build: gb, Query: fcgiCost},
		{Docs: n, Engine: bench.OmegaEngine, Build: ob, Query: costs[1]}}
	for i := range rows {
		rows[i].Agreement = sum / float64(len(results))
		rows[i].Load = map[int]bench.Row{}
		for _, l := range load {
			if l.Peer == rows[i].Engine {
				rows[i].Load[l.Conns] = l
			}
		}
	}
	return rows, ctx.Err()
}
