package integration

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/pgtest"
	"github.com/cgigate/cgigate/internal/record"
)

// TestDeliveryIntoPostgreSQLSurvivesAKilledDelivererAndADatabaseRestart
// submits forms to the gateway under Apache, recording into a file that
// `cgigate deliver` (the built binary) follows into a real PostgreSQL. The
// deliverer is killed with SIGKILL while submissions come in and started
// again; the database is stopped as a crash would stop it while the
// gateway goes on answering, and started again. Afterwards the table holds
// every submission answered 2xx exactly once, with its fields and raw
// bytes, and none that was refused.
func TestDeliveryIntoPostgreSQLSurvivesAKilledDelivererAndADatabaseRestart(t *testing.T) {
	pg := pgtest.Start(t, pgtest.Options{})
	path := recordPath(t)
	s := startGateway(t, apachetest.Options{Env: map[string]string{"CGIGATE_RECORD": path}})
	d := newDeliverer(t, path, pg.DSN)
	d.start(t)
	var outcomes []outcome
	submitAll := func(from, to int) {
		outcomes = append(outcomes, mustSubmit(t, s, submitLoad(s, 8, from, to, nil))...)
	}

	// SIGKILL while submissions come in and rows go in.
	load := make(chan loadResult)
	go func() { load <- submitLoad(s, 8, 0, 60, nil) }()
	waitUntil(t, "the first rows", func() bool { return pg.Count("cgigate_submissions") > 0 })
	d.kill(t)
	outcomes = append(outcomes, mustSubmit(t, s, <-load)...)
	d.start(t)

	// The database down: the gateway answers as before, the deliverer
	// retries, and the records wait in the file.
	pg.Stop(t)
	submitAll(60, 100)
	waitUntil(t, "a failed attempt while the database is down", func() bool { return d.logHas("deliver: postgres: attempt 2 for") })
	pg.Start(t)
	submitAll(100, 120)

	waitDelivered(t, pg, outcomes, d)
	d.stop(t)
	checkDelivered(t, pg.DSN, []string{path}, outcomes)
}

// submission is one form submission of the delivery tests; n numbers it,
// as the query n=N, so that its row can be told from the others.
type submission struct {
	n           int
	contentType string
	body        []byte
	parts       map[string]string // the text parts of a multipart body
	refused     int               // the 4xx the gateway is to answer, or 0
}

// submissionN makes the n-th submission: mostly urlencoded UTF-8, every
// eighth a multipart form with a text part and a file, every eighth a
// legacy EUC-JP body, and two in eight that the gateway refuses (an
// unknown Content-Type, an unknown charset).
func submissionN(n int) submission {
	s := submission{n: n, contentType: "application/x-www-form-urlencoded"}
	switch n % 8 {
	case 3:
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		s.parts = map[string]string{"text": fmt.Sprintf("印刷 %d\r\nline two", n)}
		mw.WriteField("text", s.parts["text"])
		w, _ := mw.CreateFormFile("upload", fmt.Sprintf("f%d.txt", n))
		fmt.Fprintf(w, "file %d\n", n)
		mw.Close()
		s.contentType, s.body = mw.FormDataContentType(), body.Bytes()
	case 5:
		// 印刷 in EUC-JP, as a legacy page sends it.
		s.body = fmt.Appendf(nil, "text=%%B0%%F5%%BA%%FE+%d&email=n%d%%40example.org", n, n)
	case 6:
		s.contentType, s.body, s.refused = "application/x-no-such-type", fmt.Appendf(nil, "text=%d", n), http.StatusUnsupportedMediaType
	case 7:
		s.contentType, s.body, s.refused = "application/x-www-form-urlencoded; charset=no-such-charset", fmt.Appendf(nil, "text=%d", n), http.StatusBadRequest
	default:
		s.body = fmt.Appendf(nil, "text=%%E5%%8D%%B0%%E5%%88%%B7+%d&email=n%d%%40example.org&pad=%s", n, n, strings.Repeat("x", n%50))
	}
	return s
}

// outcome is a submission and what the gateway answered it.
type outcome struct {
	submission
	status int
	answer result // of a 2xx
}

// loadResult is what submitLoad got: each submission's outcome, and the
// error of each that was not answered as planned.
type loadResult struct {
	outs []outcome
	errs []error
}

// mustSubmit fails t unless every submission of l was answered as planned.
func mustSubmit(t *testing.T, s *apachetest.Server, l loadResult) []outcome {
	t.Helper()
	for i, err := range l.errs {
		if err != nil {
			t.Fatalf("submission %d: %v\n%s", l.outs[i].n, err, tail(s.ErrorLog()))
		}
	}
	return l.outs
}

// submitLoad posts submissions from to to-1 to s, workers at a time, and
// returns what each was answered, and an error for each whose answer was
// not the one planned: a 200 JSON rendering, or the planned 4xx. After
// each answer it calls answered, when set, with the count of answers so
// far. It is safe in any goroutine.
func submitLoad(s *apachetest.Server, workers, from, to int, answered func(int)) loadResult {
	outs := make([]outcome, to-from)
	errs := make([]error, to-from)
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				sub := submissionN(from + i)
				outs[i].submission = sub
				r, err := do(s, "POST", fmt.Sprintf("%s?n=%d", gatewayPath, sub.n), sub.contentType, sub.body, "application/json")
				if err == nil {
					outs[i].status = r.Status
					err = checkAnswer(sub, r, &outs[i].answer)
				}
				errs[i] = err
				mu.Lock()
				done++
				n := done
				mu.Unlock()
				if answered != nil {
					answered(n)
				}
			}
		})
	}
	for i := range to - from {
		next <- i
	}
	close(next)
	wg.Wait()
	return loadResult{outs, errs}
}

// checkAnswer checks that r is the answer planned for sub, and decodes a
// 200's JSON rendering into a.
func checkAnswer(sub submission, r reply, a *result) error {
	if sub.refused != 0 {
		if r.Status != sub.refused {
			return fmt.Errorf("status %d, want %d; body %s", r.Status, sub.refused, r.Body)
		}
		return nil
	}
	if r.Status != http.StatusOK {
		return fmt.Errorf("status %d, want 200; body %s", r.Status, r.Body)
	}
	if err := json.Unmarshal(r.Body, a); err != nil {
		return fmt.Errorf("the answer is not the JSON rendering: %v\n%s", err, r.Body)
	}
	return nil
}

// deliverer is a `cgigate deliver -postgres` process of the built binary,
// which a test starts, kills and starts again; its checkpoints stay in
// state across restarts.
type deliverer struct {
	args []string
	log  string // its standard error, across restarts
	cmd  *exec.Cmd
}

func newDeliverer(t *testing.T, recordPath, dsn string) *deliverer {
	t.Helper()
	dir := t.TempDir()
	d := &deliverer{
		// A short poll and backoff keep the test short; the rest is
		// the command's defaults.
		args: []string{"deliver", "-record", recordPath, "-state", filepath.Join(dir, "state"), "-postgres", dsn,
			"-poll", "20ms", "-batch", "16", "-backoff-max", "1s"},
		log: filepath.Join(dir, "deliver.log"),
	}
	t.Cleanup(func() {
		if d.cmd != nil {
			d.cmd.Process.Kill()
			d.cmd.Wait()
		}
		if t.Failed() {
			b, _ := os.ReadFile(d.log)
			t.Logf("%s:\n%s", d.log, tail(string(b)))
		}
	})
	return d
}

func (d *deliverer) start(t *testing.T) {
	t.Helper()
	out, err := os.OpenFile(d.log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	d.cmd = exec.Command(fastcgiBin, d.args...)
	d.cmd.Stdout, d.cmd.Stderr = out, out
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
}

// kill kills the deliverer as a crash would, wherever it is.
func (d *deliverer) kill(t *testing.T) {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGKILL)
	d.cmd.Wait()
	d.cmd = nil
}

// stop stops the deliverer as systemd does, and wants it to exit 0.
func (d *deliverer) stop(t *testing.T) {
	t.Helper()
	d.cmd.Process.Signal(syscall.SIGTERM)
	err := d.cmd.Wait()
	d.cmd = nil
	if err != nil {
		t.Errorf("cgigate deliver after SIGTERM: %v", err)
	}
}

func (d *deliverer) logHas(s string) bool {
	b, _ := os.ReadFile(d.log)
	return bytes.Contains(b, []byte(s))
}

var backlogLine = regexp.MustCompile(`(?m)^postgres: (\d+) delivered, (\d+) dead-lettered, (\d+) malformed; backlog (\d+) records`)

// backlog is what `cgigate deliver -status` says is left to deliver, and
// what it says was delivered.
func (d *deliverer) backlog(t *testing.T) (backlog, delivered int) {
	t.Helper()
	out, err := exec.Command(fastcgiBin, append(d.args, "-status")...).CombinedOutput()
	if err != nil {
		t.Fatalf("cgigate deliver -status: %v\n%s", err, out)
	}
	m := backlogLine.FindSubmatch(out)
	if m == nil {
		t.Fatalf("cgigate deliver -status says no backlog for postgres:\n%s", out)
	}
	if string(m[2]) != "0" || string(m[3]) != "0" {
		t.Errorf("cgigate deliver -status: records dead-lettered or malformed:\n%s", out)
	}
	backlog, _ = strconv.Atoi(string(m[4]))
	delivered, _ = strconv.Atoi(string(m[1]))
	return backlog, delivered
}

// waitDelivered waits until every deliverer's backlog is empty and the
// table holds a row for each submission answered 2xx.
func waitDelivered(t *testing.T, pg *pgtest.Server, outs []outcome, ds ...*deliverer) {
	t.Helper()
	want := len(accepted(outs))
	waitUntil(t, fmt.Sprintf("empty backlogs and %d rows", want), func() bool {
		for _, d := range ds {
			if b, _ := d.backlog(t); b != 0 {
				return false
			}
		}
		return pg.Count("cgigate_submissions") >= want
	})
}

// accepted are the submissions the gateway answered 2xx, by n.
func accepted(outs []outcome) map[int]outcome {
	m := map[int]outcome{}
	for _, o := range outs {
		if o.status >= 200 && o.status < 300 {
			m[o.n] = o
		}
	}
	return m
}

// waitUntil polls cond until it holds. The bound guards against a test
// that hangs; it is not a claim about speed.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s after 2 minutes", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// row is one row of cgigate_submissions, its jsonb columns decoded as the
// record's keys.
type row struct {
	ID         string
	Received   time.Time
	Form       string
	Charset    string
	RemoteAddr string
	Fields     []record.Field
	Files      []record.File
	Raw        record.Raw
}

// checksum covers what a row holds of its record; of the time, the
// microseconds that timestamptz keeps.
func (r row) checksum() [32]byte {
	b, _ := json.Marshal([]any{r.ID, r.Received.UTC().Truncate(time.Microsecond), r.Form, r.Charset, r.RemoteAddr, r.Fields, r.Files, r.Raw})
	return sha256.Sum256(b)
}

func readRows(t *testing.T, dsn string) []row {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	rs, err := c.Query(ctx, `SELECT id::text, received_at, form, charset, remote_addr, fields::text, files::text, raw::text FROM cgigate_submissions`)
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	for rs.Next() {
		var r row
		var fields, files, raw string
		if err := rs.Scan(&r.ID, &r.Received, &r.Form, &r.Charset, &r.RemoteAddr, &fields, &files, &raw); err != nil {
			t.Fatal(err)
		}
		for _, j := range []struct {
			text string
			v    any
		}{{fields, &r.Fields}, {files, &r.Files}, {raw, &r.Raw}} {
			if err := json.Unmarshal([]byte(j.text), j.v); err != nil {
				t.Fatalf("row %s: %v in %s", r.ID, err, j.text)
			}
		}
		rows = append(rows, r)
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// fileRows reads the record files as rows, by id.
func fileRows(t *testing.T, paths []string) map[string]row {
	t.Helper()
	m := map[string]row{}
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		rd := record.NewReader(f, 0)
		for {
			rec, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			tm, err := record.ParseTime(rec.Time)
			if err != nil {
				t.Fatalf("%s: record %s: %v", p, rec.ID, err)
			}
			if _, dup := m[rec.ID]; dup {
				t.Errorf("id %s twice in the record files", rec.ID)
			}
			m[rec.ID] = row{ID: rec.ID, Received: tm, Form: rec.Form, Charset: rec.Charset, RemoteAddr: rec.RemoteAddr, Fields: rec.Fields, Files: rec.Files, Raw: rec.Raw}
		}
		f.Close()
	}
	return m
}

// numberOf is the n of a record: its first field, from the query.
func numberOf(fields []record.Field) (int, bool) {
	if len(fields) == 0 || fields[0].Name != "n" || fields[0].Source != "query" {
		return 0, false
	}
	n, err := strconv.Atoi(fields[0].Value)
	return n, err == nil
}

// checkDelivered checks the table against the submissions and the record
// files: a row for every submission answered 2xx, exactly one, none for
// one refused; the rows' ids are the records' ids, each row's checksum
// its record's; and each row holds what was sent (its raw query and body
// give back the request's bytes) and what the gateway answered (fields,
// files, charset).
func checkDelivered(t *testing.T, dsn string, recordFiles []string, outs []outcome) {
	t.Helper()
	ok := accepted(outs)
	refused := map[int]bool{}
	for _, o := range outs {
		if o.refused != 0 {
			refused[o.n] = true
		}
	}
	rows := readRows(t, dsn)
	recs := fileRows(t, recordFiles)
	if len(rows) != len(ok) || len(recs) != len(ok) {
		t.Errorf("%d rows and %d records for %d submissions answered 2xx (%d refused)", len(rows), len(recs), len(ok), len(refused))
	}
	seen := map[int]int{}
	for _, r := range rows {
		rec, inFile := recs[r.ID]
		switch {
		case !inFile:
			t.Errorf("row %s is in no record file", r.ID)
		case r.checksum() != rec.checksum():
			t.Errorf("row %s differs from its record:\nrow    %+v\nrecord %+v", r.ID, r, rec)
		}
		n, isN := numberOf(r.Fields)
		if !isN {
			t.Errorf("row %s: fields %+v, want n first", r.ID, r.Fields)
			continue
		}
		seen[n]++
		if refused[n] {
			t.Errorf("row %s is submission %d, which was refused", r.ID, n)
			continue
		}
		o, isOK := ok[n]
		if !isOK {
			t.Errorf("row %s is submission %d, which no 2xx answered", r.ID, n)
			continue
		}
		checkRow(t, r, o)
	}
	for n := range ok {
		if seen[n] != 1 {
			t.Errorf("submission %d answered 2xx is %d times in the table, want once", n, seen[n])
		}
	}
}

// checkRow compares a row with the submission it holds.
func checkRow(t *testing.T, r row, o outcome) {
	t.Helper()
	if !sameJSON(r.Fields, o.answer.Fields) || !sameJSON(r.Files, o.answer.Files) || r.Charset != o.answer.Charset {
		t.Errorf("row of submission %d: fields %+v files %+v charset %q; the answer had %+v %+v %q",
			o.n, r.Fields, r.Files, r.Charset, o.answer.Fields, o.answer.Files, o.answer.Charset)
	}
	if want := fmt.Sprintf("n=%d", o.n); r.Raw.Query != want {
		t.Errorf("row of submission %d: raw query %q, want %q", o.n, r.Raw.Query, want)
	}
	if r.Raw.ContentType != o.contentType {
		t.Errorf("row of submission %d: raw content type %q, want %q", o.n, r.Raw.ContentType, o.contentType)
	}
	if o.parts == nil {
		// Percent-decoding raw.body gives back the body byte for byte.
		body, err := url.PathUnescape(r.Raw.Body)
		if err != nil || body != string(o.body) {
			t.Errorf("row of submission %d: raw body %q decodes to %q (%v), want %q", o.n, r.Raw.Body, body, err, o.body)
		}
		return
	}
	got := map[string]string{}
	for _, p := range r.Raw.Parts {
		b, err := base64.StdEncoding.DecodeString(p.Base64)
		if err != nil {
			t.Errorf("row of submission %d: part %q: %v", o.n, p.Name, err)
		}
		got[p.Name] = string(b)
	}
	if !sameJSON(got, o.parts) {
		t.Errorf("row of submission %d: raw parts %q, want %q", o.n, got, o.parts)
	}
}
