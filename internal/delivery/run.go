// Package delivery delivers the gateway's record file to the site owner:
// into PostgreSQL, to webhooks and by mail. It is the outbox half of the
// gateway: a CGI process only appends a line to the record file, durably,
// and answers; `cgigate deliver`, a long-running process, follows that
// file and hands every record to every target, so that no visitor waits
// on, or fails because of, a database or a mail server.
//
// Delivery is at least once, and exactly once in effect: every target has
// its own checkpoint (Checkpoint), saved durably after the target took a
// batch, so a deliverer killed at any point delivers again at most the
// batch it was on; PostgreSQL drops the repeats by id (ON CONFLICT DO
// NOTHING), and webhooks and mail carry the id for the receiver to drop
// them. A target that is down (the database restarting, a relay away) is
// retried with backoff while the records wait in the file; a slow target
// holds back no other, since each follows the file on its own.
package delivery

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"time"

	"github.com/cgigate/cgigate/internal/record"
)

// Target takes records. Deliver returns once every record of recs was
// delivered or parked in the target's dead-letter file (the count of
// those is dead), retrying meanwhile as the target says; it returns an
// error only when ctx is done, or when it cannot park a record.
type Target interface {
	Name() string // names the target's checkpoint file and its log lines
	Deliver(ctx context.Context, recs []Record) (dead int, err error)
	Close() error
}

// Config is a deliverer: the record file, where the checkpoints live, and
// the targets. Zero values of the tuning fields mean the defaults.
type Config struct {
	RecordPath string
	StateDir   string // one <target>.checkpoint per target
	Targets    []Target

	Batch    int           // most records handed to a target at once (100)
	Poll     time.Duration // how often the end of the file is read again (200ms)
	Grace    time.Duration // how long a rotated file is still read for late writers (2s)
	LogEvery int           // a progress line every this many records (1000)
	MaxLine  int           // longest record line; a longer one is skipped (256 MiB)
	Logf     func(format string, args ...any)

	// Tests set these, so that they wait on events rather than on time:
	// now is the clock of the rotation's grace period (time.Now when
	// nil); idle is called each time a target's reader has read to the
	// end of the file and waits for more.
	now  func() time.Time
	idle func(target string)
}

func (c *Config) defaults() {
	if c.Batch <= 0 {
		c.Batch = 100
	}
	if c.Poll <= 0 {
		c.Poll = 200 * time.Millisecond
	}
	if c.Grace <= 0 {
		c.Grace = 2 * time.Second
	}
	if c.LogEvery <= 0 {
		c.LogEvery = 1000
	}
	if c.MaxLine <= 0 {
		c.MaxLine = record.DefaultMaxLine
	}
	if c.Logf == nil {
		c.Logf = log.Printf
	}
	if c.now == nil {
		c.now = time.Now
	}
}

// Run delivers until ctx is done, each target in its own goroutine, and
// returns the first error that stopped a target (nil when ctx stopped them
// all).
func Run(ctx context.Context, cfg Config) error {
	cfg.defaults()
	if len(cfg.Targets) == 0 {
		return errors.New("deliver: no target configured")
	}
	if err := os.MkdirAll(cfg.StateDir, 0o750); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, len(cfg.Targets))
	for i, t := range cfg.Targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := runTarget(ctx, cfg, t); err != nil && ctx.Err() == nil {
				errs[i] = fmt.Errorf("deliver: %s: %w", t.Name(), err)
				cfg.Logf("%v", errs[i])
				cancel()
			}
		}()
	}
	wg.Wait()
	for _, t := range cfg.Targets {
		t.Close()
	}
	return errors.Join(errs...)
}

// runTarget follows the file for one target from its checkpoint.
func runTarget(ctx context.Context, cfg Config, t Target) error {
	cpPath := checkpointPath(cfg.StateDir, t.Name())
	cp, err := loadCheckpoint(cpPath)
	if err != nil {
		return err
	}
	fw := &follower{path: cfg.RecordPath, maxLine: cfg.MaxLine, poll: cfg.Poll, grace: cfg.Grace, now: cfg.now,
		logf: func(f string, a ...any) { cfg.Logf("deliver: %s: "+f, append([]any{t.Name()}, a...)...) }}
	if cfg.idle != nil {
		fw.idle = func() { cfg.idle(t.Name()) }
	}
	fw.report = func(e *LineError) {
		cp.Malformed++
		cfg.Logf("deliver: %s: %v", t.Name(), e)
	}
	for {
		err := fw.open(cp)
		if err == nil {
			break
		}
		if !errors.Is(err, errNoFile) {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(cfg.Poll):
		}
	}
	defer fw.close()
	cfg.Logf("deliver: %s: following %s from offset %d (%d delivered so far)", t.Name(), fw.name, fw.offset(), cp.Delivered)
	for {
		recs, err := fw.next(ctx, cfg.Batch)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		dead, err := t.Deliver(ctx, recs)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil // not delivered for sure: the checkpoint stays before them
		case err != nil:
			return err
		}
		// Taken, even if a stop came meanwhile: the checkpoint moves past
		// them, so that a webhook or a mailbox does not get them again
		// after a plain restart.
		before := cp.Delivered
		pos := fw.checkpoint()
		cp.Inode, cp.Offset, cp.LastID = pos.Inode, pos.Offset, pos.LastID
		cp.Delivered += int64(len(recs) - dead)
		cp.Dead += int64(dead)
		cp.Updated = time.Now().UTC()
		if err := saveCheckpoint(cpPath, cp); err != nil {
			return err
		}
		if cp.Delivered/int64(cfg.LogEvery) != before/int64(cfg.LogEvery) {
			cfg.Logf("deliver: %s: %d delivered, %d dead-lettered, %d malformed; at %s offset %d, last id %s",
				t.Name(), cp.Delivered, cp.Dead, cp.Malformed, fw.name, cp.Offset, cp.LastID)
		}
	}
}

// Status writes, for every target, its checkpoint and the backlog behind
// it: the bytes and records of the record file not yet delivered. It reads
// only files, so it runs beside a running deliverer.
func Status(w io.Writer, recordPath, stateDir string, targets []string) error {
	for _, name := range targets {
		cp, err := loadCheckpoint(checkpointPath(stateDir, name))
		if err != nil {
			return err
		}
		bytes, lines, err := backlog(recordPath, cp)
		if err != nil {
			return err
		}
		updated := "never"
		if !cp.Updated.IsZero() {
			updated = cp.Updated.Format(time.RFC3339)
		}
		fmt.Fprintf(w, "%s: %d delivered, %d dead-lettered, %d malformed; backlog %d records (%d bytes); last id %q; checkpoint updated %s\n",
			name, cp.Delivered, cp.Dead, cp.Malformed, lines, bytes, cp.LastID, updated)
	}
	return nil
}

// backlog counts what lies after the checkpoint: the rest of a rotated
// file it still names, and the current file.
func backlog(recordPath string, cp Checkpoint) (bytes, lines int64, err error) {
	count := func(name string, off int64) error {
		f, err := os.Open(name)
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		defer f.Close()
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			return err
		}
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			bytes += int64(n)
			for _, b := range buf[:n] {
				if b == '\n' {
					lines++
				}
			}
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
	fi, err := os.Stat(recordPath)
	switch {
	case err == nil && (cp.Inode == 0 || inodeOf(fi) == cp.Inode):
		return bytes, lines, count(recordPath, cp.Offset)
	case err != nil && !os.IsNotExist(err):
		return 0, 0, err
	}
	if old := findInode(recordPath, cp.Inode); old != "" {
		if err := count(old, cp.Offset); err != nil {
			return 0, 0, err
		}
	}
	return bytes, lines, count(recordPath, 0)
}
