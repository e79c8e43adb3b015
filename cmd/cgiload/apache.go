package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
)

// apacheServer is an Apache httpd cgiload started for its run.
type apacheServer struct {
	url, record, root string
	cmd               *exec.Cmd
	done              chan struct{}
}

// startApache lays out a throwaway ServerRoot under os.TempDir (mode
// 0755, so that Apache's www-data children can run the gateway and append
// to the record file), renders its httpd.conf with httpdconf (CGIGATE_RECORD
// set), starts "apache2 -f CONF -DFOREGROUND" on a free loopback port and
// waits until it answers.
func startApache(ctx context.Context, gateway, mpm string, stderr io.Writer) (*apacheServer, error) {
	bin, err := apacheBinary()
	if err != nil {
		return nil, err
	}
	root, err := os.MkdirTemp("", "cgiload-")
	if err != nil {
		return nil, err
	}
	s := &apacheServer{root: root}
	ok := false
	defer func() {
		if !ok {
			s.stop()
		}
	}()
	recDir := filepath.Join(root, "records")
	for d, mode := range map[string]os.FileMode{root: 0o755, filepath.Join(root, "htdocs"): 0o755,
		filepath.Join(root, "cgi-bin"): 0o755, filepath.Join(root, "logs"): 0o755, recDir: 0o777} {
		if err := os.MkdirAll(d, mode); err != nil {
			return nil, err
		}
		if err := os.Chmod(d, mode); err != nil {
			return nil, err
		}
	}
	exe := filepath.Join(root, "cgi-bin", "cgigate")
	if gateway == "" {
		build := exec.CommandContext(ctx, "go", "build", "-o", exe, "./cmd/cgigate")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build ./cmd/cgigate (run cgiload from the project's root, or give -gateway): %v\n%s", err, out)
		}
	} else if err := copyFile(gateway, exe); err != nil {
		return nil, err
	}
	if err := os.Chmod(exe, 0o755); err != nil {
		return nil, err
	}
	s.record = filepath.Join(recDir, "load.jsonl")
	if err := os.WriteFile(s.record, nil, 0o666); err != nil {
		return nil, err
	}
	if err := os.Chmod(s.record, 0o666); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	user, group := "www-data", "www-data"
	if os.Geteuid() != 0 {
		user, group = "#"+strconv.Itoa(os.Geteuid()), "#"+strconv.Itoa(os.Getegid())
	}
	cfg := httpdconf.Config{ServerRoot: root, Port: port, MPM: httpdconf.MPM(mpm), User: user, Group: group,
		Env: map[string]string{"CGIGATE_RECORD": s.record}}
	if fi, err := os.Stat("/usr/lib/apache2/modules"); err != nil || !fi.IsDir() {
		cfg.ModuleDir = filepath.Join(filepath.Dir(filepath.Dir(bin)), "modules")
	}
	var conf bytes.Buffer
	if err := cfg.Render(&conf); err != nil {
		return nil, err
	}
	confPath := filepath.Join(root, "httpd.conf")
	if err := os.WriteFile(confPath, conf.Bytes(), 0o644); err != nil {
		return nil, err
	}
	log, err := os.Create(filepath.Join(root, "startup.log"))
	if err != nil {
		return nil, err
	}
	defer log.Close()
	s.cmd = exec.Command(bin, "-f", confPath, "-DFOREGROUND")
	s.cmd.Stdout, s.cmd.Stderr = log, log
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	s.done = make(chan struct{})
	go func() { s.cmd.Wait(); close(s.done) }()
	base := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	s.url = base + "/cgi-bin/cgigate"
	cl := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-s.done:
			out, _ := os.ReadFile(filepath.Join(root, "startup.log"))
			elog, _ := os.ReadFile(filepath.Join(root, "logs", "error_log"))
			return nil, fmt.Errorf("%s exited before answering:\n%s%s", bin, out, elog)
		default:
		}
		if resp, err := cl.Get(base + "/"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("%s did not answer on %s", bin, base)
		}
		time.Sleep(50 * time.Millisecond)
	}
	fmt.Fprintf(stderr, "cgiload: Apache %s (%s) on %s, record %s\n", bin, mpm, base, s.record)
	ok = true
	return s, nil
}

// stop ends Apache by its pid (SIGTERM, then SIGKILL to its process group
// after 15s) and removes the ServerRoot.
func (s *apacheServer) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.done
		}
	}
	if s.root != "" {
		os.RemoveAll(s.root)
	}
}

// apacheBinary is $APACHE_BIN, or apache2 or httpd on PATH or in
// /usr/sbin.
func apacheBinary() (string, error) {
	if b := os.Getenv("APACHE_BIN"); b != "" {
		return b, nil
	}
	for _, name := range []string{"apache2", "httpd"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	for _, p := range []string{"/usr/sbin/apache2", "/usr/sbin/httpd"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Apache httpd found (set APACHE_BIN, or install Debian's apache2)")
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}
