package delivery

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"time"
)

// SignatureHeader carries the HMAC-SHA256 of a webhook's body under the
// shared secret, as "sha256=<hex>" (the form GitHub's webhooks use), so
// that the receiver knows the body came from this deliverer unchanged.
const SignatureHeader = "X-Cgigate-Signature"

// IDHeader carries the record's id: a receiver that has seen it already
// drops the repeat (delivery is at least once).
const IDHeader = "X-Cgigate-Id"

// Sign is the value of SignatureHeader for body under secret.
func Sign(secret, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Webhook POSTs each record's line, as the gateway wrote it, to URL. A
// timeout, a connection error, a 5xx, 408 or 429 is retried with backoff,
// Attempts times in all; then, or at once on another status, the record
// is parked in DeadLetters. Every attempt is logged.
type Webhook struct {
	URL         string
	Secret      []byte
	Attempts    int           // at least 5; 6 when zero
	Timeout     time.Duration // of one attempt; 10s when zero
	Backoff     Backoff
	DeadLetters *DeadLetters
	Client      *http.Client // http.DefaultClient's transport when nil
	Logf        func(string, ...any)
	TargetName  string // the checkpoint's name; "webhook-" and a hash of URL when empty
}

func (w *Webhook) Name() string {
	if w.TargetName == "" {
		h := sha256.Sum256([]byte(w.URL))
		w.TargetName = "webhook-" + hex.EncodeToString(h[:4])
	}
	return w.TargetName
}

func (w *Webhook) Close() error { return nil }

func (w *Webhook) Deliver(ctx context.Context, recs []Record) (int, error) {
	dead := 0
	for _, r := range recs {
		err := w.deliverOne(ctx, r)
		if ctx.Err() != nil {
			return dead, ctx.Err()
		}
		if err != nil {
			if err := w.DeadLetters.park(w.Name(), r, w.attempts(), err); err != nil {
				return dead, fmt.Errorf("dead-letter file: %w", err)
			}
			w.Logf("deliver: %s: record %s parked in %s: %v", w.Name(), r.ID, w.DeadLetters.Path, err)
			dead++
		}
	}
	return dead, nil
}

func (w *Webhook) attempts() int {
	if w.Attempts <= 0 {
		return 6
	}
	return max(w.Attempts, 5)
}

// deliverOne returns nil once the receiver answered 2xx, or the last
// attempt's error.
func (w *Webhook) deliverOne(ctx context.Context, r Record) error {
	n := w.attempts()
	var err error
	for i := 1; i <= n; i++ {
		var retry bool
		retry, err = w.post(ctx, r)
		if err == nil {
			w.Logf("deliver: %s: record %s attempt %d/%d: delivered", w.Name(), r.ID, i, n)
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !retry {
			w.Logf("deliver: %s: record %s attempt %d/%d: %v; not retried", w.Name(), r.ID, i, n, err)
			return err
		}
		if i == n {
			w.Logf("deliver: %s: record %s attempt %d/%d: %v; giving up", w.Name(), r.ID, i, n, err)
			break
		}
		w.Logf("deliver: %s: record %s attempt %d/%d: %v; again in %v", w.Name(), r.ID, i, n, err, w.Backoff.delay(i))
		if err := w.Backoff.wait(ctx, i); err != nil {
			return err
		}
	}
	return fmt.Errorf("%d attempts: %w", n, err)
}

// post makes one attempt; retry says whether a failure may pass.
func (w *Webhook) post(ctx context.Context, r Record) (retry bool, err error) {
	timeout := w.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(r.Line))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "cgigate-deliver")
	req.Header.Set(IDHeader, r.ID)
	req.Header.Set(SignatureHeader, Sign(w.Secret, r.Line))
	client := w.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return true, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		return false, nil
	case c >= 500, c == http.StatusRequestTimeout, c == http.StatusTooManyRequests:
		return true, fmt.Errorf("%s answered %s", w.URL, resp.Status)
	default:
		return false, fmt.Errorf("%s answered %s", w.URL, resp.Status)
	}
}
