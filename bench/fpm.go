package bench

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cgigate/cgigate/internal/apache"
)

// PHP-FPM and the static page stand beside cgigate -fcgi: the persistent
// FastCGI stack most sites run, and Apache serving cgigate's own page as a
// file, a ceiling no backend behind Apache passes.
const (
	PHPFPM = "php-fpm"
	Static = "static-file"
	// PHPPath is where a server proxies to PHP-FPM, StaticPath the file.
	PHPPath    = "/fcgi/php"
	StaticPath = "/static/cgigate.html"
)

//go:embed peers/fpm.php
var fpmPHP []byte

// PHPFPMChildren is the size of the pool, pm=static: as many workers as
// the sites that run PHP-FPM on a small machine keep.
const PHPFPMChildren = 4

// ErrNoPHPFPM says that no php-fpm binary was found; the bench leaves the
// peer out (it is not in CI).
var ErrNoPHPFPM = errors.New("bench: no php-fpm (apt-get install php-fpm)")

// FindPHPFPM returns Debian's php-fpm binary (php-fpm8.2 in /usr/sbin, or
// any php-fpm on PATH), or ErrNoPHPFPM.
func FindPHPFPM() (string, error) {
	for _, name := range []string{"php-fpm", "php-fpm8.2"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	if m, _ := filepath.Glob("/usr/sbin/php-fpm*"); len(m) > 0 {
		return m[len(m)-1], nil
	}
	return "", ErrNoPHPFPM
}

// FPM is a running PHP-FPM master with its own pool: pm=static with
// PHPFPMChildren workers, opcache on, on a loopback port, running fpm.php.
type FPM struct {
	// Addr is where it listens, 127.0.0.1:PORT.
	Addr string
	// Script is fpm.php's absolute path, which Apache names in the
	// proxied URL (PHP-FPM runs the SCRIPT_FILENAME it is sent).
	Script string
	child  *apache.Child
}

// fpmConf is the pool's configuration: no daemon, logs to stderr, the
// workers as Apache's user (the script is in a folder every user reads).
const fpmConf = `[global]
pid = %[1]s/php-fpm.pid
error_log = /proc/self/fd/2
daemonize = no

[bench]
listen = %[2]s
listen.allowed_clients = 127.0.0.1
%[3]s
pm = static
pm.max_children = %[4]d
pm.max_requests = 0
catch_workers_output = yes
clear_env = yes
`

// StartPHPFPM writes fpm.php and the pool's configuration into dir (which
// Apache's user must be able to read) and starts bin -F on a free port,
// opcache on, until it accepts connections.
func StartPHPFPM(bin, dir string) (*FPM, error) {
	script := filepath.Join(dir, "fpm.php")
	if err := os.WriteFile(script, fpmPHP, 0o644); err != nil {
		return nil, err
	}
	port, err := apache.FreePort()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	// Run as root (a CI container), php-fpm wants the workers' user named
	// and -R; Apache's children run as the same account.
	user, group := apache.Account(os.Geteuid(), os.Getegid())
	account := ""
	if os.Geteuid() == 0 {
		account = "user = " + user + "\ngroup = " + group
	}
	conf := filepath.Join(dir, "php-fpm.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, fpmConf, dir, addr, account, PHPFPMChildren), 0o644); err != nil {
		return nil, err
	}
	args := []string{"-F", "-y", conf, "-d", "opcache.enable=1", "-d", "opcache.validate_timestamps=0"}
	if os.Geteuid() == 0 {
		args = append(args, "-R")
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = cleanEnv()
	cmd.Stderr = os.Stderr
	cmd.WaitDelay = apache.StopBound
	c, err := apache.StartChild(bin, cmd)
	if err != nil {
		return nil, fmt.Errorf("bench: %s: %w", bin, err)
	}
	f := &FPM{Addr: addr, Script: script, child: c}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			return f, nil
		}
		select {
		case <-c.Done():
			return nil, fmt.Errorf("bench: %s exited: %v", bin, c.Err())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.Stop()
			return nil, fmt.Errorf("bench: %s did not listen on %s within 10s", bin, addr)
		}
	}
}

// Stop stops the master by its pid, which stops its workers.
func (f *FPM) Stop() error { return f.child.Stop() }

// CPU is the user and system time of the master and its workers so far.
func (f *FPM) CPU() (time.Duration, error) { return GroupCPU(f.child.Pid()) }

// CPU is the user and system time of cgigate -fcgi so far.
func (f *FastCGI) CPU() (time.Duration, error) { return GroupCPU(f.child.Pid()) }

// directives are the httpd.conf lines that proxy PHPPath to f, as
// httpdconf proxies FastCGIPath to cgigate, with the same proxy options.
func (f *FPM) directives(reuse string) string {
	return fmt.Sprintf("# PHP-FPM, the bench's pool, for the same job as cgigate.\nProxyPass %q %q%s",
		PHPPath, "fcgi://"+f.Addr+f.Script, reuse)
}

// clockTick is USER_HZ, the unit of /proc's CPU times: 100 on every Linux
// architecture Go runs on (sysconf(_SC_CLK_TCK)).
const clockTick = 10 * time.Millisecond

// GroupCPU sums the CPU time (user and system, with that of the children
// they have reaped) of the live processes of process group pgid, from
// /proc/PID/stat (proc(5)).
func GroupCPU(pgid int) (time.Duration, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	var ticks int64
	found := false
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue // gone since ReadDir
		}
		st, err := parseStat(string(b))
		if err != nil || st.pgrp != pgid {
			continue
		}
		found = true
		ticks += st.ticks
	}
	if !found {
		return 0, fmt.Errorf("bench: no process in group %d", pgid)
	}
	return time.Duration(ticks) * clockTick, nil
}

type procStat struct {
	pgrp  int
	ticks int64 // utime+stime+cutime+cstime
}

// parseStat reads /proc/PID/stat: the command, in parentheses, may hold
// spaces and parentheses, so the fields are counted from its last ')'.
func parseStat(s string) (procStat, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, fmt.Errorf("bench: /proc stat %.80q", s)
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state): pgrp is field 5, utime..cstime 14..17.
	if len(f) < 15 {
		return procStat{}, fmt.Errorf("bench: /proc stat %.80q", s)
	}
	var st procStat
	var err error
	if st.pgrp, err = strconv.Atoi(f[2]); err != nil {
		return st, err
	}
	for _, x := range f[11:15] {
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return st, err
		}
		st.ticks += n
	}
	return st, nil
}

// BackendRow is one long-lived backend (or the static ceiling) in one
// group, against PHP-FPM in the same rounds.
type BackendRow struct {
	Key
	RPS float64
	P99 time.Duration
	// CPU is the median over rounds of the backend's CPU per request; 0
	// for the static file.
	CPU time.Duration
	// VsPHP and P99VsPHP are the medians of per-round ratios of req/s
	// and of p99 to PHP-FPM's; 0 without PHP-FPM.
	VsPHP, P99VsPHP float64
}

// SummarizeBackends returns the rows of GatewayF, PHPFPM and Static in
// the groups of Summarize's order.
func SummarizeBackends(res Results) []BackendRow {
	var out []BackendRow
	for _, r := range Summarize(res) {
		if r.Peer != GatewayF && r.Peer != PHPFPM && r.Peer != Static {
			continue
		}
		row := BackendRow{Key: r.Key, RPS: r.RPS, P99: r.P99}
		var cpu, vs, p99 []float64
		for _, round := range res.Rounds {
			s, ok := round[r.Key]
			if !ok || s.Requests == 0 || s.RPS == 0 {
				continue
			}
			if s.CPU > 0 {
				cpu = append(cpu, float64(s.CPU))
			}
			if php, ok := round[Key{r.MPM, r.Conns, PHPFPM}]; ok && php.Requests > 0 && php.RPS > 0 {
				vs = append(vs, s.RPS/php.RPS)
				if php.P99 > 0 {
					p99 = append(p99, float64(s.P99)/float64(php.P99))
				}
			}
		}
		row.CPU, row.VsPHP, row.P99VsPHP = time.Duration(Median(cpu)), Median(vs), Median(p99)
		out = append(out, row)
	}
	return out
}

// FormatBackends writes rows as a Markdown table.
func FormatBackends(w io.Writer, rows []BackendRow) error {
	var b strings.Builder
	b.WriteString("| MPM | conns | backend | req/s | × php-fpm | p99 | p99 × php-fpm | CPU per request |\n")
	b.WriteString("|---|---:|---|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		cpu := "–"
		if r.CPU > 0 {
			cpu = fmt.Sprintf("%.0f µs", float64(r.CPU)/float64(time.Microsecond))
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %.0f | %s | %s | %s | %s |\n",
			r.MPM, r.Conns, r.Peer, r.RPS, ratio(r.VsPHP), FormatDuration(r.P99), ratio(r.P99VsPHP), cpu)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
