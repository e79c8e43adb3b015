package delivery

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// start runs a deliverer over cfg until the test ends or stop is called.
func start(t *testing.T, cfg Config) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	if cfg.Poll == 0 {
		cfg.Poll = 10 * time.Millisecond
	}
	if cfg.Grace == 0 {
		cfg.Grace = 50 * time.Millisecond
	}
	go func() { done <- Run(ctx, cfg) }()
	var once bool
	var err error
	stop = func() error {
		if !once {
			once = true
			cancel()
			err = <-done
		}
		return err
	}
	t.Cleanup(func() { stop() })
	return stop
}

func TestFollowingTheRecordFile(t *testing.T) {
	tests := []struct {
		name string
		// steps write to dir/records; want is the ids in delivery order.
		run func(t *testing.T, path string, cfg Config, tg *memTarget, log *logLines)
	}{
		{"malformed lines are skipped and reported and never block the lines after them", func(t *testing.T, path string, cfg Config, tg *memTarget, log *logLines) {
			a, la := testRecord(t, "")
			b, lb := testRecord(t, "")
			appendLines(t, path, la, []byte("not json"), []byte(`{"id":"x","time":"2025-01-01T00:00:00Z"}`), []byte(`{"time":"2025-01-01T00:00:00Z"}`), []byte(""), lb)
			start(t, cfg)
			waitFor(t, "two records", func() bool { return len(tg.got()) == 2 })
			if got := tg.got(); !slices.Equal(got, []string{a, b}) {
				t.Errorf("delivered %v, want %v", got, []string{a, b})
			}
			reports := 0
			for _, l := range log.all() {
				if strings.Contains(l, "skipped:") {
					reports++
				}
			}
			if reports != 4 {
				t.Errorf("%d lines reported skipped, want 4:\n%s", reports, strings.Join(log.all(), "\n"))
			}
			if want := "offset " + strconv.Itoa(len(la)+1) + " (8 bytes) skipped: not a JSON record"; !strings.Contains(strings.Join(log.all(), "\n"), want) {
				t.Errorf("no report %q in\n%s", want, strings.Join(log.all(), "\n"))
			}
		}},
		{"a line longer than the bound is skipped whole, without being kept", func(t *testing.T, path string, cfg Config, tg *memTarget, log *logLines) {
			cfg.MaxLine = 1000
			a, la := testRecord(t, "")
			long := bytes.Repeat([]byte("x"), 200<<10)
			appendLines(t, path, long, la)
			start(t, cfg)
			waitFor(t, "the record after the long line", func() bool { return len(tg.got()) == 1 })
			if got := tg.got(); got[0] != a {
				t.Errorf("delivered %v, want %v", got, a)
			}
			if !strings.Contains(strings.Join(log.all(), "\n"), "offset 0 (204800 bytes) skipped: longer than 1000 bytes") {
				t.Errorf("long line not reported:\n%s", strings.Join(log.all(), "\n"))
			}
		}},
		{"a line still being written waits for its newline", func(t *testing.T, path string, cfg Config, tg *memTarget, log *logLines) {
			a, la := testRecord(t, "")
			os.WriteFile(path, la[:len(la)/2], 0o644)
			var waits atomic.Int64
			cfg.idle = func(string) { waits.Add(1) }
			start(t, cfg)
			// The half line has been read and the deliverer has waited at
			// the end of the file, looked again, and waited again.
			waitFor(t, "three waits at the end of the file", func() bool { return waits.Load() >= 3 })
			if got := tg.got(); len(got) != 0 {
				t.Fatalf("delivered %v from half a line", got)
			}
			appendLines(t, path, la[len(la)/2:])
			waitFor(t, "the completed line", func() bool { return len(tg.got()) == 1 })
			if got := tg.got(); got[0] != a {
				t.Errorf("delivered %v, want %v", got, a)
			}
		}},
		{"logrotate's create: the old file is drained, late writers too, before the new one", func(t *testing.T, path string, cfg Config, tg *memTarget, log *logLines) {
			// The grace period runs on a clock the test moves, so that
			// the late line lands inside it however loaded the machine.
			clock := &testClock{t: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
			cfg.now, cfg.Grace = clock.now, time.Minute
			a, la := testRecord(t, "")
			b, lb := testRecord(t, "")
			c, lc := testRecord(t, "")
			appendLines(t, path, la)
			start(t, cfg)
			waitFor(t, "the first record", func() bool { return len(tg.got()) == 1 })
			if err := os.Rename(path, path+".1"); err != nil {
				t.Fatal(err)
			}
			appendLines(t, path, lc) // the new file logrotate created
			waitFor(t, "the deliverer to see the new file", func() bool { return log.has(path + " was rotated: ") })
			appendLines(t, path+".1", lb) // a gateway that opened the file before the rename
			waitFor(t, "two records", func() bool { return len(tg.got()) >= 2 })
			if got, want := tg.got(), []string{a, b}; !slices.Equal(got, want) {
				t.Fatalf("delivered %v within the grace period, want %v", got, want)
			}
			clock.advance(cfg.Grace)
			waitFor(t, "three records", func() bool { return len(tg.got()) == 3 })
			if got, want := tg.got(), []string{a, b, c}; !slices.Equal(got, want) {
				t.Errorf("delivered %v, want %v", got, want)
			}
		}},
		{"a rotation while the deliverer is stopped: the checkpoint's file is found by its inode", func(t *testing.T, path string, cfg Config, tg *memTarget, log *logLines) {
			a, la := testRecord(t, "")
			b, lb := testRecord(t, "")
			c, lc := testRecord(t, "")
			appendLines(t, path, la)
			stop := start(t, cfg)
			waitFor(t, "the first record", func() bool { return len(tg.got()) == 1 })
			stop()
			appendLines(t, path, lb)
			os.Rename(path, path+".1")
			appendLines(t, path, lc)
			stop = start(t, cfg)
			waitFor(t, "three records", func() bool { return len(tg.got()) == 3 })
			// A record delivered twice would be before the checkpoint
			// reaches the end of the new file.
			waitFor(t, "the checkpoint at the end of the new file", func() bool { return atEnd(t, cfg, "mem") })
			stop()
			if got, want := tg.got(), []string{a, b, c}; !slices.Equal(got, want) {
				t.Errorf("delivered %v, want %v", got, want)
			}
		}},
		{"a restart goes on from the checkpoint and delivers nothing twice", func(t *testing.T, path string, cfg Config, tg *memTarget, log *logLines) {
			var want []string
			for round := 0; round < 3; round++ {
				for i := 0; i < 5; i++ {
					id, l := testRecord(t, "")
					appendLines(t, path, l)
					want = append(want, id)
				}
				stop := start(t, cfg)
				waitFor(t, "the round's records", func() bool { return len(tg.got()) >= len(want) })
				stop()
			}
			if got := tg.got(); !slices.Equal(got, want) {
				t.Errorf("delivered %v, want %v", got, want)
			}
		}},
		{"a truncated file is read again from its start", func(t *testing.T, path string, cfg Config, tg *memTarget, log *logLines) {
			a, la := testRecord(t, "")
			b, lb := testRecord(t, "")
			appendLines(t, path, la, la)
			start(t, cfg)
			waitFor(t, "two records", func() bool { return len(tg.got()) == 2 })
			os.Truncate(path, 0)
			appendLines(t, path, lb)
			waitFor(t, "the record after the truncation", func() bool { return len(tg.got()) == 3 })
			if got, want := tg.got(), []string{a, a, b}; !slices.Equal(got, want) {
				t.Errorf("delivered %v, want %v", got, want)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tg := &memTarget{name: "mem"}
			log := &logLines{}
			cfg := Config{RecordPath: filepath.Join(dir, "records"), StateDir: filepath.Join(dir, "state"), Targets: []Target{tg}, Batch: 3, Logf: log.logf, Poll: 10 * time.Millisecond}
			tt.run(t, cfg.RecordPath, cfg, tg, log)
		})
	}
}

func TestASlowTargetHoldsBackNoOther(t *testing.T) {
	dir := t.TempDir()
	slow := &memTarget{name: "slow", hold: make(chan struct{})}
	fast := &memTarget{name: "fast"}
	cfg := Config{RecordPath: filepath.Join(dir, "records"), StateDir: filepath.Join(dir, "state"), Targets: []Target{slow, fast}, Logf: t.Logf}
	var want []string
	for i := 0; i < 10; i++ {
		id, l := testRecord(t, "")
		appendLines(t, cfg.RecordPath, l)
		want = append(want, id)
	}
	start(t, cfg)
	// The checkpoint is saved after the target took the records: Status
	// reads the checkpoint.
	waitFor(t, "the fast target's checkpoint", func() bool { return atEnd(t, cfg, "fast") })
	if n := len(fast.got()); n != 10 {
		t.Fatalf("the fast target took %d records, want 10", n)
	}
	if n := len(slow.got()); n != 0 {
		t.Fatalf("the held target took %d records", n)
	}
	var status bytes.Buffer
	if err := Status(&status, cfg.RecordPath, cfg.StateDir, []string{"slow", "fast"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"slow: 0 delivered, 0 dead-lettered, 0 malformed; backlog 10 records", "fast: 10 delivered, 0 dead-lettered, 0 malformed; backlog 0 records (0 bytes)"} {
		if !strings.Contains(status.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, status.String())
		}
	}
	close(slow.hold)
	waitFor(t, "the slow target", func() bool { return len(slow.got()) == 10 })
	if !slices.Equal(slow.got(), want) || !slices.Equal(fast.got(), want) {
		t.Errorf("slow got %v, fast got %v, want %v", slow.got(), fast.got(), want)
	}
}

func TestProgressIsLoggedEveryNRecords(t *testing.T) {
	dir := t.TempDir()
	log := &logLines{}
	tg := &memTarget{name: "mem"}
	cfg := Config{RecordPath: filepath.Join(dir, "records"), StateDir: filepath.Join(dir, "state"), Targets: []Target{tg}, Batch: 4, LogEvery: 10, Logf: log.logf}
	for i := 0; i < 25; i++ {
		_, l := testRecord(t, "")
		appendLines(t, cfg.RecordPath, l)
	}
	stop := start(t, cfg)
	waitFor(t, "25 records", func() bool { return len(tg.got()) == 25 })
	stop()
	var progress []string
	for _, l := range log.all() {
		if strings.Contains(l, " delivered, ") {
			progress = append(progress, l[:strings.Index(l, " delivered")])
		}
	}
	if want := []string{"deliver: mem: 12", "deliver: mem: 20"}; !slices.Equal(progress, want) {
		t.Errorf("progress lines %q, want %q", progress, want)
	}
}

func TestAStopWhileATargetTakesABatchKeepsItsCheckpoint(t *testing.T) {
	dir := t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	// The stop (SIGTERM from systemd, say) comes while the target is
	// taking the batch, which it then takes all the same.
	tg := &memTarget{name: "mem", took: stop}
	cfg := Config{RecordPath: filepath.Join(dir, "records"), StateDir: filepath.Join(dir, "state"), Targets: []Target{tg}, Logf: t.Logf}
	var want []string
	for range 5 {
		id, l := testRecord(t, "")
		appendLines(t, cfg.RecordPath, l)
		want = append(want, id)
	}
	if err := Run(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	if got := tg.got(); !slices.Equal(got, want) {
		t.Fatalf("delivered %v, want %v", got, want)
	}
	if !atEnd(t, cfg, "mem") {
		cp, _ := loadCheckpoint(checkpointPath(cfg.StateDir, "mem"))
		t.Errorf("checkpoint %+v is not past the batch the target took: a restart sends it again", cp)
	}
}
