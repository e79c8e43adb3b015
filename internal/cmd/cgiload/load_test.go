package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// A server may close a kept-alive connection just as the next request goes
// out on it; Apache's event MPM does so under load. This server does it to
// the first submission on purpose, after a GET has left the connection idle
// in the client's pool.
func TestASubmissionOnAConnectionTheServerClosesIsSentAgain(t *testing.T) {
	var (
		mu    sync.Mutex
		keys  []string
		first = true
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			mu.Lock()
			keys = append(keys, r.Header.Get("Idempotency-Key"))
			drop := first
			first = false
			mu.Unlock()
			if drop {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err != nil {
					t.Errorf("hijack: %v", err)
					return
				}
				conn.Close()
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"kind":"form","fields":[{"name":"a","value":"b","source":"body"}],"files":[]}`))
	}))
	defer srv.Close()

	rep := &report{byKind: map[string]map[int]int{}}
	cl := client(1)
	fields := []field{{Name: "a", Value: "b", Source: "body"}}
	rep.do(context.Background(), cl, srv.URL, job{kind: "get-form", id: "t-0", method: "GET", query: "a=b", status: 200, fields: fields})
	rep.do(context.Background(), cl, srv.URL, job{kind: "urlencoded", id: "t-1", method: "POST",
		ct: "application/x-www-form-urlencoded", body: []byte("a=b"), status: 200, fields: fields})

	if rep.failed() {
		t.Fatalf("failures: %q", rep.failures)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(keys) != 2 || keys[0] != "t-1" || keys[1] != "t-1" {
		t.Errorf("the server saw the submission with keys %q; want it twice, as t-1", keys)
	}
}
