package delivery

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// newID is a UUIDv7 (RFC 9562 § 5.7): 48 bits of Unix milliseconds, the
// version and variant bits, and random bits.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	binary.BigEndian.PutUint64(b[:8], uint64(time.Now().UnixMilli())<<16|uint64(b[6])<<8|uint64(b[7]))
	b[6] = 0x70 | b[6]&0x0f
	b[8] = 0x80 | b[8]&0x3f
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// testRecord is a record line as the gateway writes one.
func testRecord(t testing.TB, form string, fields ...Field) (string, []byte) {
	t.Helper()
	id := newID()
	if fields == nil {
		fields = []Field{}
	}
	line, err := json.Marshal(map[string]any{
		"id": id, "time": time.Now().UTC().Format(time.RFC3339Nano), "form": form,
		"remote_addr": "192.0.2.7", "user_agent": "Mozilla/5.0", "referer": "http://example.org/form.html",
		"charset": "euc-jp", "charset_source": "sniffed", "confidence": 0.62,
		"fields": fields, "files": []any{}, "warnings": []string{},
		"raw": map[string]any{"query": "", "body": "name=%B0%F5%BA%FE"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return id, line
}

// appendLines appends lines to path, each with its newline, as the
// gateway does: one write of a whole line each.
func appendLines(t testing.TB, path string, lines ...[]byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		if _, err := f.Write(append(append([]byte(nil), l...), '\n')); err != nil {
			t.Fatal(err)
		}
	}
}

// memTarget keeps the ids it was given, in order.
type memTarget struct {
	name string
	mu   sync.Mutex
	ids  []string
	hold chan struct{} // when set, Deliver waits for it to close
	took func()        // when set, called by Deliver after it took the records
}

func (m *memTarget) Name() string { return m.name }
func (m *memTarget) Close() error { return nil }
func (m *memTarget) Deliver(ctx context.Context, recs []Record) (int, error) {
	if m.hold != nil {
		select {
		case <-m.hold:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range recs {
		m.ids = append(m.ids, r.ID)
	}
	if m.took != nil {
		m.took()
	}
	return 0, nil
}

func (m *memTarget) got() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.ids...)
}

// waitFor polls cond until it holds; the bound is generous, since it is
// not an assertion about speed but a guard against a test that hangs.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s after 90s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// logLines is a Logf that keeps what it is given.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

func (l *logLines) has(s string) bool {
	return strings.Contains(strings.Join(l.all(), "\n"), s)
}

// testClock is a clock that moves only when the test says.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// atEnd says whether the target's checkpoint is at the end of the record
// file: everything in it was delivered or skipped.
func atEnd(t testing.TB, cfg Config, target string) bool {
	t.Helper()
	cp, err := loadCheckpoint(checkpointPath(cfg.StateDir, target))
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(cfg.RecordPath)
	return err == nil && cp.Inode == inodeOf(fi) && cp.Offset == fi.Size()
}
