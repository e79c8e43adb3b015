// Package pgtest runs a real PostgreSQL server for tests: Debian's
// postgresql package, a cluster made by initdb in a temporary folder, on a
// free loopback port, run as the postgres user when the test runs as root
// (PostgreSQL refuses to run as root), and removed when the test ends.
// Stop and Start let a test take the database away and bring it back.
//
// A machine without PostgreSQL skips the test, except under CI=true,
// where it fails: .ci/run installs the postgresql package.
package pgtest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/missing"
)

// Server is one cluster. DSN connects to its postgres database.
type Server struct {
	Addr string // the loopback address it listens on
	Port int
	DSN  string

	bin  string // the folder of pg_ctl, initdb and postgres
	dir  string // data, socket and log
	cred *syscall.Credential
}

// Options choose the address; the zero value listens on 127.0.0.1.
type Options struct {
	Addr string
}

// BinDir is the folder of Debian's newest installed PostgreSQL, or
// PGTEST_BIN when set.
func BinDir() (string, error) {
	if d := os.Getenv("PGTEST_BIN"); d != "" {
		return d, nil
	}
	m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(m) == 0 {
		if p, err := exec.LookPath("pg_ctl"); err == nil {
			return filepath.Dir(p), nil
		}
		return "", fmt.Errorf("no PostgreSQL: no /usr/lib/postgresql/*/bin/pg_ctl and no pg_ctl on PATH (apt-get install postgresql)")
	}
	sort.Slice(m, func(i, j int) bool { return version(m[i]) < version(m[j]) })
	return filepath.Dir(m[len(m)-1]), nil
}

func version(pgctl string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(pgctl))))
	return n
}

// Start makes a cluster and starts it; the test's cleanup stops it and
// removes its folder.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	bin, err := BinDir()
	if err != nil {
		missing.SkipOrFail(t, err.Error())
	}
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1"
	}
	s := &Server{Addr: opts.Addr, bin: bin}
	// Not t.TempDir: its folders are the test user's alone, and the
	// server runs as postgres.
	s.dir, err = os.MkdirTemp("", "pgtest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(s.dir) })
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			missing.SkipOrFail(t, "no postgres user to run PostgreSQL as (apt-get install postgresql): "+err.Error())
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(s.dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := s.cmd("initdb", "-D", s.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "-N").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	if s.Port, err = apache.FreePort(); err != nil {
		t.Fatal(err)
	}
	s.DSN = fmt.Sprintf("postgres://postgres@%s:%d/postgres?sslmode=disable&connect_timeout=5", s.Addr, s.Port)
	s.Start(t)
	t.Cleanup(func() { s.stop("fast") })
	return s
}

func (s *Server) data() string { return filepath.Join(s.dir, "data") }

func (s *Server) cmd(name string, args ...string) *exec.Cmd {
	c := exec.Command(filepath.Join(s.bin, name), args...)
	c.Dir = s.dir
	c.Env = append(os.Environ(), "LC_ALL=C")
	if s.cred != nil {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return c
}

// Start starts the server (again) and waits until it takes connections.
// fsync is off: the tests stop the server, never the machine.
func (s *Server) Start(t testing.TB) {
	t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=%s -c fsync=off -c max_connections=50", s.Port, s.dir, s.Addr)
	if out, err := s.cmd("pg_ctl", "start", "-w", "-t", "60", "-D", s.data(), "-l", filepath.Join(s.dir, "log"), "-o", opts).CombinedOutput(); err != nil {
		t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, s.Log())
	}
}

// Stop stops the server as a crash would (immediate mode: no checkpoint,
// every connection cut), and waits until it has exited.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if out, err := s.stop("immediate"); err != nil {
		t.Fatalf("pg_ctl stop: %v\n%s", err, out)
	}
}

func (s *Server) stop(mode string) ([]byte, error) {
	return s.cmd("pg_ctl", "stop", "-w", "-t", "60", "-m", mode, "-D", s.data()).CombinedOutput()
}

// Log is the server's log so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "log"))
	return strings.TrimSpace(string(b))
}

// Count is the number of rows in table, or -1 while the server or the
// table is not there (stopped, restarting, not yet created), for a test
// that waits until a count is reached.
func (s *Server) Count(table string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, s.DSN)
	if err != nil {
		return -1
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM "+pgx.Identifier{table}.Sanitize()).Scan(&n); err != nil {
		return -1
	}
	return n
}
