package delivery

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/cgigate/cgigate/internal/atomicfile"
)

// Checkpoint is how far one target has delivered the record file: the
// file (by inode, since logrotate renames it), the offset just after the
// last line delivered or skipped, and that line's id, with the counts
// since the checkpoint was first written. It is saved after the target
// has taken the lines before Offset, so a deliverer killed at any moment
// delivers again at most the batch it was working on, which every target
// takes idempotently by id (PostgreSQL) or marks with the id (webhooks,
// mail) for the receiver to drop.
type Checkpoint struct {
	Inode     uint64    `json:"inode"`
	Offset    int64     `json:"offset"`
	LastID    string    `json:"last_id"`
	Delivered int64     `json:"delivered"`
	Malformed int64     `json:"malformed"`
	Dead      int64     `json:"dead"` // parked in the dead-letter file
	Updated   time.Time `json:"updated"`
}

// checkpointPath is the file of the target named name in dir.
func checkpointPath(dir, name string) string {
	return filepath.Join(dir, name+".checkpoint")
}

// loadCheckpoint reads the checkpoint at path; a missing file is the zero
// Checkpoint, the start of the record file.
func loadCheckpoint(path string) (Checkpoint, error) {
	var c Checkpoint
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return c, nil
}

// saveCheckpoint replaces the checkpoint at path atomically and durably: a
// temporary file written and fsync'd, renamed over the old one, and the
// folder fsync'd so that the rename itself survives a power cut. A reader
// (or a restart) sees the old checkpoint or the new one, never a mixture.
func saveCheckpoint(path string, c Checkpoint) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, filepath.Base(path)+".tmp*", append(b, '\n'), 0o600)
}
