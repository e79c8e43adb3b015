package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/record"
)

// lockHolder is the pid that holds the flock(2) on the file with inode
// ino, from /proc/locks, or 0. Waiters' lines carry "->" and are skipped.
func lockHolder(ino uint64) (int, error) {
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0, err
	}
	suffix := ":" + strconv.FormatUint(ino, 10)
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// 1: FLOCK  ADVISORY  WRITE 4242 fd:01:123456 0 EOF
		f := strings.Fields(sc.Text())
		if len(f) >= 6 && f[1] == "FLOCK" && f[3] == "WRITE" && strings.HasSuffix(f[5], suffix) {
			return strconv.Atoi(f[4])
		}
	}
	return 0, sc.Err()
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}

// Real writers killed at random points: concurrent submissions with large
// bodies (each value escapes to six times its size, so the write takes
// time), some sent SIGKILL or SIGTERM at a random moment of their life,
// others once they hold the lock and the file has started to grow, which
// lands mid-write. Afterwards every line must be whole JSON and every
// submission answered 2xx must be there, once.
//
// Whether a kill lands mid-write is a matter of timing, which a busy
// machine changes: a run where none did is run again, with a fresh file,
// up to three times, every run's lines checked.
func TestKilledWritersLeaveEveryLineWhole(t *testing.T) {
	if _, err := os.Stat("/proc/locks"); err != nil {
		t.Fatalf("no /proc/locks to find the writer by: %v", err)
	}
	for try := 1; ; try++ {
		cuts := killWriters(t, filepath.Join(t.TempDir(), "records.jsonl"))
		if cuts > 0 || t.Failed() {
			return
		}
		// A run where no kill landed mid-write tested nothing.
		if try == 3 {
			t.Fatalf("in %d runs no writer was killed mid-line: the test did not exercise the repair", try)
		}
	}
}

// killWriters runs the submissions of TestKilledWritersLeaveEveryLineWhole
// against a new record file at path, checks every line, and returns how
// many lines cut off by a killed writer were repaired.
func killWriters(t *testing.T, path string) int {
	if err := os.WriteFile(path, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	ino := fi.Sys().(*syscall.Stat_t).Ino
	const (
		n           = 40
		parallel    = 6
		pad         = 256 << 10 // bytes of U+0001, each \u0001 in the record
		perRequest  = time.Minute
		killedShare = 3 // one submission in killedShare is left alone
	)
	padValue := strings.Repeat("\x01", pad)
	body := func(i int) string {
		return fmt.Sprintf("id=%d&pad=%s", i, strings.Repeat("%01", pad))
	}
	var (
		mu       sync.Mutex
		answered = map[int]bool{} // ids answered 2xx
		signals  = map[string]int{}
	)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), perRequest)
			defer cancel()
			cmd, out, errb := gatewayCmd(ctx, nil, "application/x-www-form-urlencoded", body(i), "CGIGATE_RECORD", path)
			if err := cmd.Start(); err != nil {
				t.Error(err)
				return
			}
			done := make(chan struct{})
			if i%killedShare != 0 {
				sig := []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM}[rand.IntN(2)]
				mid := i%killedShare == 1 // at the write, or at a random moment
				go func() {
					if mid && !waitForWrite(cmd.Process.Pid, ino, path, done) {
						return
					}
					if !mid {
						select {
						case <-time.After(time.Duration(rand.IntN(40_000)) * time.Microsecond):
						case <-done:
							return
						}
					}
					if cmd.Process.Signal(sig) == nil {
						mu.Lock()
						signals[sig.String()]++
						mu.Unlock()
					}
				}()
			}
			err := cmd.Wait()
			close(done)
			if ctx.Err() != nil {
				t.Errorf("submission %d: no answer after %v: %s", i, perRequest, errb)
				return
			}
			// The status goes out only after the record is synced: a
			// process killed after it has answered has recorded.
			st, _, _ := strings.Cut(strings.TrimPrefix(out.String(), "Status: "), " ")
			if code, _ := strconv.Atoi(st); code >= 200 && code < 300 {
				mu.Lock()
				answered[i] = true
				mu.Unlock()
			} else if err == nil {
				t.Errorf("submission %d: not killed, yet answered %.100q: %s", i, out, errb)
			}
		})
	}
	wg.Wait()
	// One last writer repairs what the last killed one left.
	if a := postCGI(t, "application/x-www-form-urlencoded", "id=last", "CGIGATE_RECORD", path); a.status != 200 {
		t.Fatalf("last submission: status %d %s", a.status, a.body)
	}
	recs := readRecords(t, path) // fails on a line that is not a record
	seen := map[string]int{}
	for _, r := range recs {
		if len(r.Fields) == 0 || r.Fields[0].Name != "id" {
			t.Fatalf("record without an id: %.200v", r)
		}
		id := r.Fields[0].Value
		if id != "last" && (len(r.Fields) != 2 || r.Fields[1].Value != padValue) {
			t.Errorf("record %s is damaged", id)
		}
		seen[id]++
	}
	for id, c := range seen {
		if c != 1 {
			t.Errorf("submission %s recorded %d times", id, c)
		}
	}
	for i := range answered {
		if seen[strconv.Itoa(i)] != 1 {
			t.Errorf("submission %d was answered 2xx but is not in the record file", i)
		}
	}
	partial, _ := os.ReadFile(path + record.PartialSuffix)
	cuts := bytes.Count(partial, []byte{'\n'})
	t.Logf("%d submissions, %d answered 2xx, signals sent %v, %d partial lines cut (%d bytes)", n+1, len(answered)+1, signals, cuts, len(partial))
	return cuts
}

// waitForWrite waits until the process pid holds the record file's lock
// and the file has grown since, that is until its write(2) has begun; it
// is false when the process ends first.
func waitForWrite(pid int, ino uint64, path string, done <-chan struct{}) bool {
	locked, size := false, int64(0)
	for {
		select {
		case <-done:
			return false
		default:
		}
		if !locked {
			holder, err := lockHolder(ino)
			if err != nil {
				return false
			}
			if holder == pid {
				locked, size = true, fileSize(path)
			}
		} else if s := fileSize(path); s > size {
			return true
		} else {
			size = s // a repair cut the file back first
		}
		time.Sleep(50 * time.Microsecond)
	}
}
