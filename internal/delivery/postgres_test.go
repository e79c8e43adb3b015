package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cgigate/cgigate/internal/pgtest"
)

// rows reads the table back: each id's fields, as PostgreSQL holds them.
func rows(t testing.TB, dsn string) map[string][]Field {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	rs, err := c.Query(ctx, `SELECT id::text, fields::text FROM cgigate_submissions`)
	if err != nil {
		if strings.Contains(err.Error(), "does not exist") {
			return map[string][]Field{}
		}
		t.Fatal(err)
	}
	got := map[string][]Field{}
	for rs.Next() {
		var id, fields string
		if err := rs.Scan(&id, &fields); err != nil {
			t.Fatal(err)
		}
		if _, dup := got[id]; dup {
			t.Errorf("id %s twice in the table", id)
		}
		var f []Field
		if err := json.Unmarshal([]byte(fields), &f); err != nil {
			t.Fatal(err)
		}
		got[id] = f
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// sameAsFile checks that the table holds exactly the records of want, each
// with the fields the record file gave it.
func sameAsFile(t testing.TB, dsn string, want map[string][]Field) {
	t.Helper()
	got := rows(t, dsn)
	if len(got) != len(want) {
		t.Errorf("%d rows, want %d", len(got), len(want))
	}
	for id, f := range want {
		g, ok := got[id]
		if !ok {
			t.Errorf("record %s is not in the table", id)
			continue
		}
		if !reflect.DeepEqual(g, f) {
			t.Errorf("record %s: fields %q in the table, %q in the file", id, g, f)
		}
	}
}

// someRecords appends n records with distinct fields, non-ASCII ones
// among them, and returns them by id.
func someRecords(t testing.TB, path string, n int, into map[string][]Field) {
	var lines [][]byte
	for i := 0; i < n; i++ {
		f := []Field{{Name: "名前", Value: fmt.Sprintf("印刷 %d\r\n<b>&", len(into)), Source: "body"}, {Name: "email", Value: "a@example.org", Source: "body"}}
		id, l := testRecord(t, "contact", f...)
		into[id] = f
		lines = append(lines, l)
	}
	appendLines(t, path, lines...)
}

func TestPostgresTakesEveryRecordOnceThroughAnOutage(t *testing.T) {
	pg := pgtest.Start(t, pgtest.Options{})
	dir := t.TempDir()
	log := &logLines{}
	target := &Postgres{DSN: pg.DSN, Backoff: Backoff{Min: 50 * time.Millisecond, Max: 400 * time.Millisecond}, Timeout: 5 * time.Second,
		DeadLetters: &DeadLetters{Path: filepath.Join(dir, "dead")}, Logf: log.logf}
	cfg := Config{RecordPath: filepath.Join(dir, "records"), StateDir: filepath.Join(dir, "state"), Targets: []Target{target}, Batch: 16, Logf: log.logf}
	want := map[string][]Field{}
	someRecords(t, cfg.RecordPath, 40, want)
	stop := start(t, cfg)
	waitFor(t, "40 rows", func() bool { return pg.Count("cgigate_submissions") == 40 })

	pg.Stop(t)
	someRecords(t, cfg.RecordPath, 40, want)
	waitFor(t, "a failed attempt while the database is down", func() bool {
		return strings.Contains(strings.Join(log.all(), "\n"), "deliver: postgres: attempt 2 for")
	})
	pg.Start(t)
	waitFor(t, "80 rows after the database came back", func() bool { return pg.Count("cgigate_submissions") == 80 })
	stop()
	sameAsFile(t, pg.DSN, want)

	// A lost checkpoint delivers everything again: the table is unchanged.
	os.RemoveAll(cfg.StateDir)
	target.Logf = t.Logf
	stop = start(t, cfg)
	waitFor(t, "the second pass to reach the end", func() bool {
		cp, _ := loadCheckpoint(checkpointPath(cfg.StateDir, "postgres"))
		return cp.Delivered == 80
	})
	stop()
	sameAsFile(t, pg.DSN, want)
}

func TestPostgresParksARecordItRefusesAndTakesTheRestOfItsBatch(t *testing.T) {
	pg := pgtest.Start(t, pgtest.Options{})
	dir := t.TempDir()
	target := &Postgres{DSN: pg.DSN, Backoff: Backoff{Min: 50 * time.Millisecond}, DeadLetters: &DeadLetters{Path: filepath.Join(dir, "dead")}, Logf: t.Logf}
	cfg := Config{RecordPath: filepath.Join(dir, "records"), StateDir: filepath.Join(dir, "state"), Targets: []Target{target}, Batch: 10, Logf: t.Logf}
	want := map[string][]Field{}
	someRecords(t, cfg.RecordPath, 3, want)
	// jsonb holds no U+0000: PostgreSQL refuses this record as data.
	nul, line := testRecord(t, "", Field{Name: "q", Value: "a\x00b", Source: "query"})
	appendLines(t, cfg.RecordPath, line)
	someRecords(t, cfg.RecordPath, 3, want)
	stop := start(t, cfg)
	waitFor(t, "six rows", func() bool { return pg.Count("cgigate_submissions") == 6 })
	stop()
	sameAsFile(t, pg.DSN, want)
	dead, err := os.ReadFile(target.DeadLetters.Path)
	if err != nil {
		t.Fatal(err)
	}
	var d deadLetter
	if err := json.Unmarshal(dead, &d); err != nil {
		t.Fatalf("dead-letter file %q: %v", dead, err)
	}
	if d.ID != nul || d.Target != "postgres" || string(d.Record) != string(line) || !strings.Contains(d.Error, "22P05") {
		t.Errorf("dead letter %+v, want record %s refused with SQLSTATE 22P05", d, nul)
	}
	cp, _ := loadCheckpoint(checkpointPath(cfg.StateDir, "postgres"))
	if cp.Delivered != 6 || cp.Dead != 1 {
		t.Errorf("checkpoint %+v, want 6 delivered and 1 dead", cp)
	}
}

// The child half of TestSIGKILLAtAnyPointLosesNothingAndInsertsNothingTwice:
// a deliverer in a process of its own, to be killed.
func TestMain(m *testing.M) {
	if dsn := os.Getenv("DELIVERY_TEST_CHILD_DSN"); dsn != "" {
		err := Run(context.Background(), Config{
			RecordPath: os.Getenv("DELIVERY_TEST_CHILD_RECORDS"), StateDir: os.Getenv("DELIVERY_TEST_CHILD_STATE"), Batch: 7, Poll: 5 * time.Millisecond,
			Targets: []Target{&Postgres{DSN: dsn, Backoff: Backoff{Min: 20 * time.Millisecond, Max: 100 * time.Millisecond}, Logf: func(string, ...any) {}}},
			Logf:    func(string, ...any) {},
		})
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func TestSIGKILLAtAnyPointLosesNothingAndInsertsNothingTwice(t *testing.T) {
	pg := pgtest.Start(t, pgtest.Options{})
	dir := t.TempDir()
	records, state := filepath.Join(dir, "records"), filepath.Join(dir, "state")
	child := func() *exec.Cmd {
		c := exec.Command(os.Args[0], "-test.run=^$")
		c.Env = append(os.Environ(), "DELIVERY_TEST_CHILD_DSN="+pg.DSN, "DELIVERY_TEST_CHILD_RECORDS="+records, "DELIVERY_TEST_CHILD_STATE="+state)
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		return c
	}
	want := map[string][]Field{}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 16))
	seed := rng.Uint64()
	rng = rand.New(rand.NewPCG(seed, 16))
	t.Logf("kill points drawn from seed %d", seed)
	const kills = 12
	for k := 0; k < kills; k++ {
		someRecords(t, records, 30+rng.IntN(60), want)
		c := child()
		// Anywhere: before the first batch, in a transaction, between
		// a commit and its checkpoint, in the checkpoint's rename.
		time.Sleep(time.Duration(rng.IntN(300)) * time.Millisecond)
		c.Process.Signal(syscall.SIGKILL)
		c.Wait()
	}
	c := child()
	defer func() { c.Process.Signal(syscall.SIGKILL); c.Wait() }()
	waitFor(t, fmt.Sprintf("%d rows", len(want)), func() bool { return pg.Count("cgigate_submissions") == len(want) })
	sameAsFile(t, pg.DSN, want)
	if t.Failed() {
		t.Logf("seed %d", seed)
	}
}
