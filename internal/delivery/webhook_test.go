package delivery

import (
	"bufio"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWebhooksAreSignedRetriedAndParked(t *testing.T) {
	secret := []byte("s3cret")
	dir := t.TempDir()
	ok, lok := testRecord(t, "contact")
	flaky, lflaky := testRecord(t, "contact")
	down, ldown := testRecord(t, "contact")
	gone, lgone := testRecord(t, "contact")
	var mu sync.Mutex
	attempts := map[string]int{}
	received := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		// The receiver's check, written from the header's definition
		// rather than with Sign.
		m := hmac.New(sha256.New, secret)
		m.Write(body)
		if r.Header.Get("X-Cgigate-Signature") != "sha256="+hex.EncodeToString(m.Sum(nil)) {
			t.Errorf("bad signature %q", r.Header.Get("X-Cgigate-Signature"))
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var rec struct{ ID string }
		json.Unmarshal(body, &rec)
		if r.Header.Get("X-Cgigate-Id") != rec.ID {
			t.Errorf("X-Cgigate-Id %q for record %q", r.Header.Get("X-Cgigate-Id"), rec.ID)
		}
		mu.Lock()
		attempts[rec.ID]++
		n := attempts[rec.ID]
		mu.Unlock()
		switch {
		case rec.ID == flaky && n < 3, rec.ID == down:
			w.WriteHeader(http.StatusServiceUnavailable)
		case rec.ID == gone:
			w.WriteHeader(http.StatusGone)
		default:
			mu.Lock()
			received[rec.ID]++
			mu.Unlock()
		}
	}))
	defer srv.Close()
	log := &logLines{}
	hook := &Webhook{URL: srv.URL, Secret: secret, Attempts: 5, Backoff: Backoff{Min: 5 * time.Millisecond, Max: 40 * time.Millisecond},
		DeadLetters: &DeadLetters{Path: filepath.Join(dir, "dead")}, Logf: log.logf}
	cfg := Config{RecordPath: filepath.Join(dir, "records"), StateDir: filepath.Join(dir, "state"), Targets: []Target{hook}, Logf: log.logf}
	appendLines(t, cfg.RecordPath, lok, lflaky, ldown, lgone)
	stop := start(t, cfg)
	waitFor(t, "every record delivered or parked", func() bool {
		cp, _ := loadCheckpoint(checkpointPath(cfg.StateDir, hook.Name()))
		return cp.Delivered+cp.Dead == 4
	})
	stop()

	mu.Lock()
	defer mu.Unlock()
	if received[ok] != 1 || received[flaky] != 1 || received[down] != 0 || received[gone] != 0 {
		t.Errorf("received %v", received)
	}
	for id, want := range map[string]int{ok: 1, flaky: 3, down: 5, gone: 1} {
		if attempts[id] != want {
			t.Errorf("record %s: %d attempts, want %d", id, attempts[id], want)
		}
	}
	f, err := os.Open(hook.DeadLetters.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var parked []deadLetter
	for sc := bufio.NewScanner(f); sc.Scan(); {
		var d deadLetter
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		parked = append(parked, d)
	}
	if len(parked) != 2 || parked[0].ID != down || parked[1].ID != gone ||
		string(parked[0].Record) != string(ldown) || !strings.Contains(parked[0].Error, "503") || !strings.Contains(parked[1].Error, "410") {
		t.Errorf("dead letters %+v", parked)
	}
	logged := 0
	for _, l := range log.all() {
		if strings.Contains(l, "record "+down+" attempt ") {
			logged++
		}
	}
	if logged != 5 {
		t.Errorf("%d attempts logged for the record that never went through, want 5:\n%s", logged, strings.Join(log.all(), "\n"))
	}
}

func TestBackoffDoublesUpToItsBound(t *testing.T) {
	b := Backoff{Min: 100 * time.Millisecond, Max: time.Second}
	var got []time.Duration
	for n := 1; n <= 6; n++ {
		got = append(got, b.delay(n))
	}
	want := []time.Duration{100, 200, 400, 800, 1000, 1000}
	for i := range want {
		if got[i] != want[i]*time.Millisecond {
			t.Fatalf("delays %v, want %v ms", got, want)
		}
	}
}
