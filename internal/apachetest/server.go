package apachetest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
)

// Bounds on waiting for Apache. They are not assertions about speed: a
// server that has not answered by then is reported as broken, with its log.
const (
	startBound = 30 * time.Second
	stopBound  = 15 * time.Second
	portTries  = 3
)

// Options say what one test server holds. The zero value is an event MPM
// server with mod_cgid and an empty cgi-bin.
type Options struct {
	// MPM selects prefork/mod_cgi or event/mod_cgid (the default).
	MPM httpdconf.MPM
	// CGI maps a name in cgi-bin to the path of an executable to copy there
	// (mode 0755, so that Apache's www-data children can run it).
	CGI map[string]string
	// Files maps a slash-separated path under DocumentRoot to its content,
	// for static pages such as the HTML forms of browser tests.
	Files map[string][]byte
	// Env holds CGIGATE_* variables set with SetEnv.
	Env map[string]string
	// LimitRequestBody is passed to httpdconf.Config.
	LimitRequestBody int64
	// FastCGI and FastCGIPath are passed to httpdconf.Config.
	FastCGI     string
	FastCGIPath string
	// LogLevel defaults to "info" so that failures have CGI errors to show.
	LogLevel string
}

// Server is a running Apache httpd.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:PORT, without a slash.
	URL string
	// Root is the throwaway ServerRoot; DocumentRoot and CGIBin are in it.
	Root         string
	DocumentRoot string
	CGIBin       string
	// ConfigPath is the rendered httpd.conf; Config the value it came from.
	ConfigPath string
	Config     httpdconf.Config

	proc Process
	cmd  *exec.Cmd
	done chan struct{}
	// waitErr is set before done is closed.
	waitErr error
}

// Start starts Apache for t with opts and stops it in t.Cleanup. It skips
// (or fails under CI=true) when Apache is not installed, and fails t when
// the server cannot be set up or does not answer, showing Apache's error log.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	bin := Binary(t)
	root := Dir(t)

	user, group := Account(os.Geteuid(), os.Getegid())
	cfg := httpdconf.Config{
		ServerRoot:       root,
		MPM:              opts.MPM,
		ModuleDir:        ModuleDir(bin, fileExists),
		User:             user,
		Group:            group,
		Env:              opts.Env,
		LimitRequestBody: opts.LimitRequestBody,
		FastCGI:          opts.FastCGI,
		FastCGIPath:      opts.FastCGIPath,
		LogLevel:         opts.LogLevel,
	}
	if cfg.LogLevel == "" {
		cfg.LogLevel = "info"
	}
	cfg = cfg.WithDefaults()
	s := &Server{Root: root, DocumentRoot: cfg.DocumentRoot, CGIBin: cfg.CGIBin,
		ConfigPath: filepath.Join(root, "httpd.conf")}
	for _, d := range []string{cfg.DocumentRoot, cfg.CGIBin, cfg.LogDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatalf("apachetest: %v", err)
		}
		if err := os.Chmod(d, 0o755); err != nil { // MkdirAll's mode is filtered by the umask
			t.Fatalf("apachetest: %v", err)
		}
	}
	for name, src := range opts.CGI {
		if err := CopyExecutable(src, filepath.Join(cfg.CGIBin, name)); err != nil {
			t.Fatalf("apachetest: %v", err)
		}
	}
	for name, data := range opts.Files {
		if err := writeStatic(cfg.DocumentRoot, name, data); err != nil {
			t.Fatalf("apachetest: %v", err)
		}
	}

	var lastErr error
	for try := 0; try < portTries; try++ {
		port, err := FreePort()
		if err != nil {
			t.Fatalf("apachetest: %v", err)
		}
		cfg.Port = port
		s.Config = cfg
		var conf bytes.Buffer
		if err := cfg.Render(&conf); err != nil {
			t.Fatalf("apachetest: %v", err)
		}
		if err := os.WriteFile(s.ConfigPath, conf.Bytes(), 0o644); err != nil {
			t.Fatalf("apachetest: %v", err)
		}
		os.Remove(cfg.ErrorLog)
		s.proc = Process{Args: []string{"-f", s.ConfigPath}, Port: port, ErrorLog: cfg.ErrorLog, Dir: root}
		if lastErr = s.start(bin); lastErr == nil {
			s.stopAtCleanup(t)
			return s
		}
		if !strings.Contains(s.ErrorLog()+s.startupOutput(), "Address already in use") {
			break
		}
	}
	t.Fatalf("apachetest: %v\nconfig %s\n%s%s", lastErr, s.ConfigPath, s.startupOutput(), s.ErrorLog())
	return nil
}

// Process describes an Apache started from a configuration the test laid
// out itself, such as a copy of Debian's /etc/apache2 with a drop-in added.
type Process struct {
	// Args follow the binary, e.g. -d DIR -f FILE; -DFOREGROUND is added.
	Args []string
	// Env holds KEY=VALUE pairs added to the environment (Debian's
	// apache2.conf needs the APACHE_* variables of its envvars file).
	Env []string
	// Port is the 127.0.0.1 port the configuration listens on.
	Port int
	// ErrorLog is the error log's path, shown when something fails.
	ErrorLog string
	// Dir receives startup.log: what Apache prints before it opens ErrorLog.
	Dir string
}

// StartProcess starts Apache as p describes, waits until it answers on
// 127.0.0.1:p.Port and stops it in t.Cleanup. It skips (or fails under
// CI=true) when Apache is not installed.
func StartProcess(t testing.TB, p Process) *Server {
	t.Helper()
	bin := Binary(t)
	s := &Server{proc: p}
	if err := s.start(bin); err != nil {
		t.Fatalf("apachetest: %v\n%s%s", err, s.startupOutput(), s.ErrorLog())
	}
	s.stopAtCleanup(t)
	return s
}

func (s *Server) stopAtCleanup(t testing.TB) {
	t.Cleanup(func() {
		if err := s.stop(); err != nil {
			t.Errorf("apachetest: %v\n%s", err, s.ErrorLog())
		}
	})
}

// start runs Apache in the foreground as a child in its own process group,
// and waits until it answers HTTP.
func (s *Server) start(bin string) error {
	s.URL = "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(s.proc.Port))
	out, err := os.Create(filepath.Join(s.proc.Dir, "startup.log"))
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.Command(bin, append(s.proc.Args, "-DFOREGROUND")...)
	cmd.Env = append(os.Environ(), s.proc.Env...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { s.waitErr = cmd.Wait(); close(s.done) }()

	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(startBound)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("%s exited before answering: %v", bin, s.waitErr)
		default:
		}
		if resp, err := client.Get(s.URL + "/"); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	return fmt.Errorf("%s did not answer on %s within %v", bin, s.URL, startBound)
}

// stop sends SIGTERM to Apache's pid (it then stops its children and the
// cgid daemon) and waits; after stopBound it kills the whole process group.
func (s *Server) stop() error {
	if s.cmd == nil {
		return nil
	}
	pid := s.cmd.Process.Pid
	select {
	case <-s.done:
		return fmt.Errorf("apache (pid %d) had already exited: %v", pid, s.waitErr)
	default:
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return fmt.Errorf("SIGTERM to apache pid %d: %w", pid, err)
	}
	select {
	case <-s.done:
		return nil
	case <-time.After(stopBound):
	}
	syscall.Kill(-pid, syscall.SIGKILL)
	<-s.done
	return fmt.Errorf("apache (pid %d) ignored SIGTERM for %v and was killed", pid, stopBound)
}

// ErrorLog returns the contents of Apache's error log, for failure messages.
func (s *Server) ErrorLog() string {
	b, _ := os.ReadFile(s.proc.ErrorLog)
	return string(b)
}

// AccessLog returns the contents of the access log of a server from Start.
func (s *Server) AccessLog() string {
	b, _ := os.ReadFile(s.Config.AccessLog)
	return string(b)
}

func (s *Server) startupOutput() string {
	b, _ := os.ReadFile(filepath.Join(s.proc.Dir, "startup.log"))
	return string(b)
}

// CGIPath returns the URL path of the CGI program name, e.g. /cgi-bin/name.
func (s *Server) CGIPath(name string) string {
	return strings.TrimSuffix(s.Config.ScriptAlias, "/") + "/" + name
}

// Response is what Do read back.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends one HTTP/1.1 request whose request-target is written byte for
// byte as given (no client-side re-encoding, unlike net/http), with header
// and body (Content-Length set when body is not nil), and returns the
// response. It fails t, showing the error log, when the exchange fails.
func (s *Server) Do(t testing.TB, method, target string, header http.Header, body []byte) Response {
	t.Helper()
	var req bytes.Buffer
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n", method, target, s.addr())
	if body != nil {
		fmt.Fprintf(&req, "Content-Length: %d\r\n", len(body))
	}
	header.Write(&req)
	req.WriteString("\r\n")
	req.Write(body)
	return s.DoRaw(t, req.Bytes())
}

// DoRaw writes raw to the server as is (a whole request, which should ask
// for Connection: close) and reads one response; for requests Do cannot
// express, such as chunked bodies or malformed request lines. It fails t,
// showing the error log, when the exchange fails.
func (s *Server) DoRaw(t testing.TB, raw []byte) Response {
	t.Helper()
	resp, err := s.roundTrip(raw)
	if err != nil {
		line, _, _ := bytes.Cut(raw, []byte("\r\n"))
		t.Fatalf("apachetest: %q: %v\n%s", line, err, s.ErrorLog())
	}
	return resp
}

func (s *Server) addr() string { return strings.TrimPrefix(s.URL, "http://") }

func (s *Server) roundTrip(raw []byte) (Response, error) {
	conn, err := net.DialTimeout("tcp", s.addr(), 5*time.Second)
	if err != nil {
		return Response{}, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(60 * time.Second))
	if _, err := conn.Write(raw); err != nil {
		return Response{}, err
	}
	method, _, _ := bytes.Cut(raw, []byte(" "))
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: string(method)})
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return Response{}, err
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}

// Account returns the User and Group Apache's children should run as: as
// root, www-data (Apache refuses root); otherwise the current ids in
// Apache's "#id" form, since a non-root Apache cannot switch users.
func Account(euid, egid int) (user, group string) {
	if euid == 0 {
		return "www-data", "www-data"
	}
	return "#" + strconv.Itoa(euid), "#" + strconv.Itoa(egid)
}

// Dir returns a fresh folder under os.TempDir, mode 0755, removed when t
// ends. Unlike t.TempDir (mode 0700) it can hold files that Apache's
// www-data children read and run; it fails t when a folder above it is not
// searchable by others.
func Dir(t testing.TB) string {
	t.Helper()
	d, err := makeDir()
	if d != "" {
		t.Cleanup(func() { os.RemoveAll(d) })
	}
	if err != nil {
		t.Fatalf("apachetest: %v", err)
	}
	return d
}

func makeDir() (string, error) {
	dir, err := os.MkdirTemp("", "apachetest-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return dir, err
	}
	if os.Geteuid() == 0 {
		for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
			fi, err := os.Stat(d)
			if err != nil {
				return dir, err
			}
			if fi.Mode().Perm()&0o001 == 0 {
				return dir, fmt.Errorf("%s is not searchable by www-data (mode %v); set TMPDIR to a folder it can reach, such as /tmp", d, fi.Mode().Perm())
			}
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	return dir, nil
}

// CopyExecutable copies the program src to dst with mode 0755, whatever
// the umask, so that Apache's children can run it.
func CopyExecutable(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		return err
	}
	return os.Chmod(dst, 0o755) // WriteFile's mode is filtered by the umask
}

func writeStatic(docRoot, name string, data []byte) error {
	rel := filepath.FromSlash(name)
	if !filepath.IsLocal(rel) {
		return errors.New("static file name " + strconv.Quote(name) + " leaves DocumentRoot")
	}
	p := filepath.Join(docRoot, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		return err
	}
	return os.Chmod(p, 0o644)
}

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
