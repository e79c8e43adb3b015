package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/cgigate/cgigate/internal/cli"
)

// report gathers what a run saw.
type report struct {
	mu       sync.Mutex
	n, c     int
	elapsed  time.Duration
	byKind   map[string]map[int]int // kind -> status -> count
	failures []string
	notes    []string
	jobs     []job
	records  string // the record summary line
}

func (r *report) fail(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *report) note(s string) { r.notes = append(r.notes, s) }

func (r *report) failed() bool { return len(r.failures) > 0 }

// answer is the part of the JSON rendering a job checks.
type answer struct {
	Kind     string   `json:"kind"`
	Keywords []string `json:"keywords"`
	Fields   []field  `json:"fields"`
	Files    []file   `json:"files"`
	Error    string   `json:"error"`
	Status   int      `json:"status"`
}

// load sends the jobs, c at a time, and checks each answer.
func load(ctx context.Context, target string, jobs []job, c int) *report {
	rep := &report{n: len(jobs), c: c, byKind: map[string]map[int]int{}, jobs: jobs}
	cl := client(c)
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rep.do(ctx, cl, target, jobs[i])
			}
		}()
	}
feed:
	for i := range jobs {
		select {
		case next <- i:
		case <-ctx.Done():
			why := "stopped by -timeout"
			if se := cli.Signalled(ctx); se != nil {
				why = se.Error()
			}
			rep.fail("run %s after %d of %d requests", why, i, len(jobs))
			break feed
		}
	}
	close(next)
	wg.Wait()
	rep.elapsed = time.Since(start)
	return rep
}

func (r *report) do(ctx context.Context, cl *http.Client, target string, j job) {
	u := target
	if j.query != "" {
		u += "?" + j.query
	}
	var body io.Reader
	if j.body != nil {
		body = bytes.NewReader(j.body)
	}
	req, err := http.NewRequestWithContext(ctx, j.method, u, body)
	if err != nil {
		r.fail("%s %s: %v", j.kind, j.id, err)
		return
	}
	req.Header.Set("Accept", "application/json")
	// A kept-alive connection that the server closes as a request goes out
	// fails that request with EOF (RFC 9112 § 9.3.1), and Go's transport
	// then resends only what it may replay: idempotent methods (RFC 9110
	// § 9.2.2), or a request with this header (an IETF httpapi draft). A
	// resent submission cannot go unseen: each id must be in the record
	// exactly once.
	req.Header.Set("Idempotency-Key", j.id)
	if j.ct != "" {
		req.Header.Set("Content-Type", j.ct)
	}
	resp, err := cl.Do(req)
	if err != nil {
		r.fail("%s %s: %v", j.kind, j.id, err)
		r.count(j.kind, 0)
		return
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	r.count(j.kind, resp.StatusCode)
	if err != nil {
		r.fail("%s %s: reading the answer: %v", j.kind, j.id, err)
		return
	}
	if resp.StatusCode != j.status {
		r.fail("%s %s: status %d; want %d: %.300s", j.kind, j.id, resp.StatusCode, j.status, data)
		return
	}
	var a answer
	if err := json.Unmarshal(data, &a); err != nil {
		r.fail("%s %s: not JSON: %v: %.300s", j.kind, j.id, err, data)
		return
	}
	switch {
	case j.bad():
		if a.Status != j.status || a.Error == "" {
			r.fail("%s %s: error body %.300s", j.kind, j.id, data)
		}
	case j.kind == "isindex":
		if a.Kind != "isindex" || !slices.Equal(a.Keywords, j.keywords) {
			r.fail("%s %s: kind %s keywords %q; want %q", j.kind, j.id, a.Kind, a.Keywords, j.keywords)
		}
	default:
		if a.Kind != "form" || !slices.Equal(a.Fields, j.fields) || !slices.Equal(a.Files, j.files) {
			r.fail("%s %s: fields %q files %+v; want %q %+v", j.kind, j.id, a.Fields, a.Files, j.fields, j.files)
		}
	}
}

func (r *report) count(kind string, status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.byKind[kind] == nil {
		r.byKind[kind] = map[int]int{}
	}
	r.byKind[kind][status]++
}

// recordLine is one line of a CGIGATE_RECORD file.
type recordLine struct {
	Fields []field `json:"fields"`
	Files  []file  `json:"files"`
}

// digest is the checksum of a set of submissions: SHA-256 over their
// canonical JSON ({"fields":...,"files":...}), one per line, sorted.
func digest(recs []recordLine) string {
	lines := make([]string, 0, len(recs))
	for _, rec := range recs {
		if rec.Files == nil {
			rec.Files = []file{}
		}
		b, _ := json.Marshal(rec)
		lines = append(lines, string(b))
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		io.WriteString(h, l+"\n")
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// checkRecords reads the record file: it must hold only whole JSON lines;
// every recorded job of this run exactly once and as sent; no bad job.
func (r *report) checkRecords(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		r.fail("record file: %v", err)
		return
	}
	r.checkRecordData(data)
}

func (r *report) checkRecordData(data []byte) {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		r.fail("record file: a partial last line")
	}
	want := map[string]job{}
	bad := map[string]job{}
	var expected []recordLine
	for _, j := range r.jobs {
		switch {
		case j.recorded:
			want[j.id] = j
			expected = append(expected, recordLine{Fields: j.fields, Files: j.files})
		case j.bad():
			bad[j.id] = j
		}
	}
	seen := map[string]int{}
	var found []recordLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	line := 0
	for sc.Scan() {
		line++
		var rec recordLine
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			r.fail("record line %d is not JSON: %v: %.200s", line, err, sc.Text())
			continue
		}
		id := ""
		for _, f := range rec.Fields {
			if f.Name == "id" {
				id = f.Value
				break
			}
		}
		if j, ok := bad[id]; ok {
			r.fail("record line %d is the bad request %s %s", line, j.kind, id)
			continue
		}
		j, ok := want[id]
		if !ok {
			if strings.Contains(sc.Text(), r.token()) {
				r.fail("record line %d holds this run's token but no job's id: %.200s", line, sc.Text())
			}
			continue
		}
		seen[id]++
		found = append(found, rec)
		if rec.Files == nil {
			rec.Files = []file{}
		}
		wantFiles := j.files
		if wantFiles == nil {
			wantFiles = []file{}
		}
		if !slices.Equal(rec.Fields, j.fields) || !slices.Equal(rec.Files, wantFiles) {
			r.fail("record line %d (%s): fields %q files %+v; want %q %+v", line, id, rec.Fields, rec.Files, j.fields, wantFiles)
		}
	}
	if err := sc.Err(); err != nil {
		r.fail("record file: %v", err)
	}
	missing, dup := 0, 0
	for id := range want {
		switch seen[id] {
		case 1:
		case 0:
			missing++
			if missing <= 5 {
				r.fail("submission %s (%s) is not in the record", id, want[id].kind)
			}
		default:
			dup++
			r.fail("submission %s is in the record %d times", id, seen[id])
		}
	}
	if missing > 5 {
		r.fail("... %d submissions missing in all", missing)
	}
	ew, fw := digest(expected), digest(found)
	if ew != fw && missing == 0 && dup == 0 {
		r.fail("record checksum %s; want %s", fw, ew)
	}
	r.records = fmt.Sprintf("records: %d expected, %d found (%d missing, %d duplicated); checksum %s, want %s",
		len(want), len(found), missing, dup, fw, ew)
}

// token is the run's id prefix.
func (r *report) token() string {
	if len(r.jobs) == 0 {
		return "\x00"
	}
	t, _, _ := strings.Cut(r.jobs[0].id, "-")
	return t + "-"
}

func (r *report) print(w io.Writer) {
	rate := float64(r.n) / r.elapsed.Seconds()
	fmt.Fprintf(w, "cgiload: %d requests, concurrency %d, %.2fs (%.1f requests/s)\n", r.n, r.c, r.elapsed.Seconds(), rate)
	kinds := make([]string, 0, len(r.byKind))
	for k := range r.byKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		var parts []string
		sts := make([]int, 0)
		for st := range r.byKind[k] {
			sts = append(sts, st)
		}
		sort.Ints(sts)
		for _, st := range sts {
			parts = append(parts, fmt.Sprintf("%d x%d", st, r.byKind[k][st]))
		}
		fmt.Fprintf(w, "  %-14s %s\n", k, strings.Join(parts, ", "))
	}
	if r.records != "" {
		fmt.Fprintln(w, "  "+r.records)
	}
	for _, n := range r.notes {
		fmt.Fprintln(w, "  note:", n)
	}
	for i, f := range r.failures {
		if i == 20 {
			fmt.Fprintf(w, "  ... %d failures in all\n", len(r.failures))
			break
		}
		fmt.Fprintln(w, "  FAIL:", f)
	}
	if r.failed() {
		fmt.Fprintln(w, "FAIL")
	} else {
		fmt.Fprintln(w, "PASS")
	}
}
