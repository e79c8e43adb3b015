package delivery

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"time"
)

// Backoff is exponential: Min after the first failure, doubling up to Max.
type Backoff struct {
	Min, Max time.Duration
}

// delay is the wait after the failed attempt number n (1 for the first).
func (b Backoff) delay(n int) time.Duration {
	lo, hi := b.Min, b.Max
	if lo <= 0 {
		lo = 500 * time.Millisecond
	}
	if hi < lo {
		hi = max(lo, 30*time.Second)
	}
	d := lo
	for i := 1; i < n && d < hi; i++ {
		d *= 2
	}
	return min(d, hi)
}

// wait sleeps for the delay after attempt n, or until ctx is done.
func (b Backoff) wait(ctx context.Context, n int) error {
	t := time.NewTimer(b.delay(n))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// DeadLetters is a file of records a target gave up on, one JSON line
// each, with why: an operator reads it, fixes the cause, and replays the
// records (each line's "record" is the record line as it was).
type DeadLetters struct {
	Path string
	mu   sync.Mutex
}

type deadLetter struct {
	Time     time.Time       `json:"time"`
	Target   string          `json:"target"`
	ID       string          `json:"id"`
	Attempts int             `json:"attempts"`
	Error    string          `json:"error"`
	Record   json.RawMessage `json:"record"`
}

// park appends r to the file, durably: the checkpoint moves past r only
// after this returns nil.
func (d *DeadLetters) park(target string, r Record, attempts int, cause error) error {
	line, err := json.Marshal(deadLetter{Time: time.Now().UTC(), Target: target, ID: r.ID, Attempts: attempts, Error: cause.Error(), Record: r.Line})
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	f, err := os.OpenFile(d.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o640)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
