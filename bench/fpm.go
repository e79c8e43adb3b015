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
	"slices"
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
	// PHPFPMUnix is the same pool on a Unix socket, as Debian ships it.
	PHPFPMUnix = "php-fpm-unix"
	Static     = "static-file"
	// PHPPath and PHPUnixPath are where a server proxies to PHP-FPM over
	// TCP and over its socket, StaticPath the file.
	PHPPath     = "/fcgi/php"
	PHPUnixPath = "/fcgi/php-unix"
	StaticPath  = "/static/cgigate.html"
)

//go:embed peers/fpm.php
var fpmPHP []byte

// PHPFPMChildren is the size of the pool, pm=static: as many workers as
// the sites that run PHP-FPM on a small machine keep.
const PHPFPMChildren = 4

// ErrNoPHPFPM says that no php-fpm binary was found; the bench leaves the
// peer out, the tests that need it skip (fail under CI=true).
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
// PHPFPMChildren workers, opcache on, on a loopback port or a Unix socket,
// running fpm.php.
type FPM struct {
	// Addr is where it listens: 127.0.0.1:PORT, or the socket's absolute
	// path.
	Addr string
	// Script is fpm.php's absolute path, which Apache names in the
	// proxied URL (PHP-FPM runs the SCRIPT_FILENAME it is sent).
	Script string
	child  *apache.Child
}

// fpmConf is the pool's configuration: no daemon, logs to stderr, the
// workers as Apache's user (the script is in a folder every user reads).
const fpmConf = `[global]
pid = %[1]s
error_log = /proc/self/fd/2
daemonize = no

[bench]
listen = %[2]s
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
	port, err := apache.FreePort()
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return startPHPFPM(bin, dir, "php-fpm", "127.0.0.1:"+strconv.Itoa(port))
}

// StartPHPFPMUnix is StartPHPFPM on the Unix socket dir/php-fpm.sock, as
// Debian's php-fpm listens (/run/php/php8.2-fpm.sock): owned by Apache's
// user, mode 0660, so that Apache's children can connect and others not.
// dir must be searchable by Apache's user.
func StartPHPFPMUnix(bin, dir string) (*FPM, error) {
	return startPHPFPM(bin, dir, "php-fpm-unix", filepath.Join(dir, "php-fpm.sock"))
}

// startPHPFPM starts a pool listening on addr (a socket's path when it
// starts with a slash), its configuration and pid files named after name.
func startPHPFPM(bin, dir, name, addr string) (*FPM, error) {
	script := filepath.Join(dir, "fpm.php")
	if err := os.WriteFile(script, fpmPHP, 0o644); err != nil {
		return nil, err
	}
	network, listen := "tcp", "listen.allowed_clients = 127.0.0.1"
	if strings.HasPrefix(addr, "/") {
		network, listen = "unix", "listen.mode = 0660"
	}
	// Run as root (a CI container), php-fpm wants the workers' user named
	// and -R; Apache's children run as the same account, which must own
	// the socket.
	user, group := apache.Account(os.Geteuid(), os.Getegid())
	if os.Geteuid() == 0 {
		listen += "\nuser = " + user + "\ngroup = " + group
		if network == "unix" {
			listen += "\nlisten.owner = " + user + "\nlisten.group = " + group
		}
	}
	conf := filepath.Join(dir, name+".conf")
	pid := filepath.Join(dir, name+".pid")
	if err := os.WriteFile(conf, fmt.Appendf(nil, fpmConf, pid, addr, listen, PHPFPMChildren), 0o644); err != nil {
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
		if conn, err := net.DialTimeout(network, addr, time.Second); err == nil {
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

// directives are the httpd.conf lines that proxy path to f, without
// enablereuse: over TCP as mod_proxy_fcgi's manual has sites proxy it,
// on a socket exactly as Debian's php8.2-fpm.conf does
// ("unix:/run/php/php8.2-fpm.sock|fcgi://localhost"), beside httpdconf's
// configuration for cgigate's socket, which names its worker apart so
// that the two are not taken for one.
func (f *FPM) directives(path string) string {
	url := "fcgi://" + f.Addr + f.Script
	if strings.HasPrefix(f.Addr, "/") {
		url = "unix:" + f.Addr + "|fcgi://localhost" + f.Script
	}
	return fmt.Sprintf("# PHP-FPM, the bench's pool, for the same job as cgigate.\nProxyPass %q %q", path, url)
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
	// VsPHPUnix and P99VsPHPUnix are the same against PHP-FPM on its
	// Unix socket; 0 without it.
	VsPHPUnix, P99VsPHPUnix float64
}

// SummarizeBackends returns the rows of the FastCGI backends and Static
// in the groups of Summarize's order.
func SummarizeBackends(res Results) []BackendRow {
	backends := []string{GatewayF, PHPFPM, GatewayFUnix, PHPFPMUnix, Static}
	var out []BackendRow
	for _, r := range Summarize(res) {
		if !slices.Contains(backends, r.Peer) {
			continue
		}
		row := BackendRow{Key: r.Key, RPS: r.RPS, P99: r.P99}
		var cpu []float64
		for _, round := range res.Rounds {
			if s, ok := round[r.Key]; ok && s.Requests > 0 && s.RPS > 0 && s.CPU > 0 {
				cpu = append(cpu, float64(s.CPU))
			}
		}
		row.CPU = time.Duration(Median(cpu))
		row.VsPHP, row.P99VsPHP = against(res, r.Key, PHPFPM)
		row.VsPHPUnix, row.P99VsPHPUnix = against(res, r.Key, PHPFPMUnix)
		out = append(out, row)
	}
	return out
}

// against returns the medians over rounds of k's req/s and p99 divided
// by those of ref in the same round and group; 0 where no round had both.
func against(res Results, k Key, ref string) (rps, p99 float64) {
	var vs, tail []float64
	for _, round := range res.Rounds {
		s, ok := round[k]
		if !ok || s.Requests == 0 || s.RPS == 0 {
			continue
		}
		if php, ok := round[Key{k.MPM, k.Conns, ref}]; ok && php.Requests > 0 && php.RPS > 0 {
			vs = append(vs, s.RPS/php.RPS)
			if php.P99 > 0 {
				tail = append(tail, float64(s.P99)/float64(php.P99))
			}
		}
	}
	return Median(vs), Median(tail)
}

// FormatBackends writes rows as a Markdown table.
func FormatBackends(w io.Writer, rows []BackendRow) error {
	var b strings.Builder
	b.WriteString("| MPM | conns | backend | req/s | × php-fpm | × php-fpm-unix | p99 | p99 × php-fpm | p99 × php-fpm-unix | CPU per request |\n")
	b.WriteString("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		cpu := "–"
		if r.CPU > 0 {
			cpu = fmt.Sprintf("%.0f µs", float64(r.CPU)/float64(time.Microsecond))
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %.0f | %s | %s | %s | %s | %s | %s |\n",
			r.MPM, r.Conns, r.Peer, r.RPS, ratio(r.VsPHP), ratio(r.VsPHPUnix),
			FormatDuration(r.P99), ratio(r.P99VsPHP), ratio(r.P99VsPHPUnix), cpu)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
