package apache

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
)

// portTries is how many free ports Start tries: FreePort's port can be
// taken by another process before Apache binds it.
const portTries = 3

// Options say what one server holds and where its output goes. The zero
// value is an event MPM server with mod_cgid and an empty cgi-bin, on a
// free 127.0.0.1 port, in a fresh ServerRoot that Stop removes.
type Options struct {
	// Config is the httpd.conf to render (MPM, SetEnv variables in Env,
	// LimitRequestBody, FastCGI, LogLevel, log paths...). A DocumentRoot
	// (or CGIBin, LogDir) that exists outside ServerRoot is used as it
	// is; any other is made, mode 0755. Start fills in
	// what is empty: ServerRoot (a fresh folder from TempDir, removed by
	// Stop; a ServerRoot given here is the caller's to remove), ModuleDir
	// (ModuleDir of the binary), User and Group (Account of this process),
	// then httpdconf's defaults. Port zero means a free port on Host,
	// retried when Apache finds it taken (not httpdconf's DefaultPort);
	// any other Host:Port is used once, as given.
	Config httpdconf.Config
	// CGI maps a name in cgi-bin to the path of an executable to copy there
	// (mode 0755, so that Apache's www-data children can run it).
	CGI map[string]string
	// Files maps a slash-separated path under DocumentRoot to its content,
	// for static pages such as the HTML forms of browser tests.
	Files map[string][]byte
	// Directives are appended to the rendered httpd.conf, for what
	// httpdconf does not model: cgibench proxies a second FastCGI backend
	// (PHP-FPM) beside cgigate's.
	Directives string
	// Environ is Apache's environment; nil means this process's.
	Environ []string
	// Stdout and Stderr receive what Apache itself prints (before it opens
	// its error log, or all of it when the logs are /dev/stdout and
	// /dev/stderr, as for a server in a terminal). Nil means the file
	// startup.log in ServerRoot, shown in a StartError.
	Stdout, Stderr io.Writer
}

// Process describes an Apache started from a configuration the caller laid
// out itself, such as a copy of Debian's /etc/apache2 with a drop-in added.
type Process struct {
	// Args follow the binary, e.g. -d DIR -f FILE; -DFOREGROUND is added.
	Args []string
	// Environ is the base environment; nil means this process's.
	Environ []string
	// Env holds KEY=VALUE pairs added to Environ (Debian's apache2.conf
	// needs the APACHE_* variables of its envvars file).
	Env []string
	// Host and Port are where the configuration listens, polled until it
	// answers; an empty Host means 127.0.0.1.
	Host string
	Port int
	// ErrorLog is the error log's path, read by Server.ErrorLog and shown
	// in a StartError.
	ErrorLog string
	// Dir receives startup.log, what Apache prints before it opens
	// ErrorLog, unless Stdout and Stderr say otherwise. Empty Dir and nil
	// writers discard it.
	Dir string
	// Stdout and Stderr receive Apache's own output instead of startup.log.
	Stdout, Stderr io.Writer
}

// Server is a running Apache httpd.
type Server struct {
	// URL is the server's base URL, http://HOST:PORT, without a slash.
	URL string
	// Root is the ServerRoot; DocumentRoot and CGIBin are in it. These and
	// ConfigPath and Config are set by Start, not by StartProcess.
	Root         string
	DocumentRoot string
	CGIBin       string
	// ConfigPath is the rendered httpd.conf; Config the value it came from.
	ConfigPath string
	Config     httpdconf.Config

	proc       Process
	startupLog string
	child      *Child
	ownRoot    bool
}

// StartError reports an Apache that did not come up, with what it said, so
// that the reason (a module missing, a port taken, a bad directive) is in
// the message and not only in a file removed with its ServerRoot.
type StartError struct {
	// Bin is the httpd binary, named by Err too.
	Bin string
	// ConfigPath is the rendered httpd.conf (empty for StartProcess).
	ConfigPath string
	// Err says what went wrong: an exit before answering, no answer within
	// StartBound, or a failure to run the binary at all.
	Err error
	// Startup is what Apache printed before opening its error log (empty
	// when its output went to Options.Stdout and Stderr).
	Startup string
	// ErrorLog is the error log's contents, when it is a regular file.
	ErrorLog string
}

func (e *StartError) Error() string {
	s := "apache: " + e.Err.Error() // which names Bin
	if e.ConfigPath != "" {
		s += "\nconfig " + e.ConfigPath
	}
	if e.Startup != "" || e.ErrorLog != "" {
		s += "\n" + e.Startup + e.ErrorLog
	}
	return s
}

func (e *StartError) Unwrap() error { return e.Err }

// Start lays out a ServerRoot as opts says, renders its httpd.conf, starts
// Apache from bin and waits until it answers. A failure to start is a
// *StartError; a fresh ServerRoot is removed on any failure.
func Start(bin string, opts Options) (*Server, error) {
	cfg := opts.Config
	s := &Server{}
	if cfg.ServerRoot == "" {
		root, err := TempDir("apache-")
		if err != nil {
			return nil, err
		}
		cfg.ServerRoot, s.ownRoot = root, true
	}
	if err := s.start(bin, cfg, opts); err != nil {
		if s.ownRoot {
			os.RemoveAll(cfg.ServerRoot)
		}
		return nil, err
	}
	return s, nil
}

// start does Start's work in cfg.ServerRoot, which exists.
func (s *Server) start(bin string, cfg httpdconf.Config, opts Options) error {
	if cfg.ModuleDir == "" {
		cfg.ModuleDir = ModuleDir(bin, fileExists)
	}
	user, group := Account(os.Geteuid(), os.Getegid())
	if cfg.User == "" {
		cfg.User = user
	}
	if cfg.Group == "" {
		cfg.Group = group
	}
	free := cfg.Port == 0
	cfg = cfg.WithDefaults()
	s.Root, s.DocumentRoot, s.CGIBin = cfg.ServerRoot, cfg.DocumentRoot, cfg.CGIBin
	s.ConfigPath = filepath.Join(cfg.ServerRoot, "httpd.conf")
	for _, d := range []string{cfg.ServerRoot, cfg.DocumentRoot, cfg.CGIBin, cfg.LogDir} {
		if isDir(d) && !within(cfg.ServerRoot, d) {
			continue // the caller's own folder, such as a site's pages: its modes stay the caller's
		}
		if err := Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	for name, src := range opts.CGI {
		if err := CopyExecutable(src, filepath.Join(cfg.CGIBin, name)); err != nil {
			return err
		}
	}
	for name, data := range opts.Files {
		if err := writeStatic(cfg.DocumentRoot, name, data); err != nil {
			return err
		}
	}

	tries := 1
	if free {
		tries = portTries
	}
	var lastErr error
	for try := 0; try < tries; try++ {
		if free {
			port, err := FreePort()
			if err != nil {
				return err
			}
			cfg.Port = port
		}
		s.Config = cfg
		var conf bytes.Buffer
		if err := cfg.Render(&conf); err != nil {
			return err
		}
		if opts.Directives != "" {
			conf.WriteString("\n" + opts.Directives + "\n")
		}
		if err := os.WriteFile(s.ConfigPath, conf.Bytes(), 0o644); err != nil {
			return err
		}
		if try > 0 && isRegular(cfg.ErrorLog) {
			os.Remove(cfg.ErrorLog) // the last try's "Address already in use"
		}
		s.proc = Process{Args: []string{"-f", s.ConfigPath}, Environ: opts.Environ, Host: cfg.Host, Port: cfg.Port,
			ErrorLog: cfg.ErrorLog, Dir: cfg.ServerRoot, Stdout: opts.Stdout, Stderr: opts.Stderr}
		if lastErr = s.run(bin); lastErr == nil {
			return nil
		}
		if !strings.Contains(s.ErrorLog()+s.startup(), "Address already in use") {
			break
		}
	}
	return s.startError(bin, lastErr)
}

// StartProcess starts Apache from bin as p describes and waits until it
// answers on p.Host:p.Port. A failure is a *StartError.
func StartProcess(bin string, p Process) (*Server, error) {
	s := &Server{proc: p}
	if err := s.run(bin); err != nil {
		return nil, s.startError(bin, err)
	}
	return s, nil
}

func (s *Server) startError(bin string, err error) error {
	return &StartError{Bin: bin, ConfigPath: s.ConfigPath, Err: err, Startup: s.startup(), ErrorLog: s.ErrorLog()}
}

// run starts Apache in the foreground as a child in its own process group
// and waits until it answers HTTP, or exits, or StartBound passes.
func (s *Server) run(bin string) error {
	p := s.proc
	host := p.Host
	if host == "" {
		host = "127.0.0.1"
	}
	s.URL = "http://" + net.JoinHostPort(host, strconv.Itoa(p.Port))
	cmd := exec.Command(bin, slices.Concat(p.Args, []string{"-DFOREGROUND"})...)
	env := p.Environ
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = slices.Concat(env, p.Env)
	cmd.Stdout, cmd.Stderr = p.Stdout, p.Stderr
	s.startupLog = ""
	if (p.Stdout == nil || p.Stderr == nil) && p.Dir != "" {
		s.startupLog = filepath.Join(p.Dir, "startup.log")
		out, err := os.Create(s.startupLog)
		if err != nil {
			return err
		}
		defer out.Close()
		if cmd.Stdout == nil {
			cmd.Stdout = out
		}
		if cmd.Stderr == nil {
			cmd.Stderr = out
		}
	}
	// Bounds Wait when Apache's output goes through a pipe that a
	// grandchild (the cgid daemon) could hold open.
	cmd.WaitDelay = StopBound
	c, err := StartChild("apache", cmd)
	if err != nil {
		return err
	}
	s.child = c

	// No proxy: the server is on this machine, whatever HTTP_PROXY says.
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{Proxy: nil}}
	deadline := time.Now().Add(StartBound)
	for time.Now().Before(deadline) {
		select {
		case <-c.Done():
			return fmt.Errorf("%s exited before answering: %v", bin, c.Err())
		default:
		}
		if resp, err := client.Get(s.URL + "/"); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.Stop()
	return fmt.Errorf("%s did not answer on %s within %v", bin, s.URL, StartBound)
}

// Stop stops Apache by its pid (see Child.Stop) and removes the ServerRoot
// when Start made it. Only the first call acts.
func (s *Server) Stop() error {
	var err error
	if s.child != nil {
		err = s.child.Stop()
	}
	if s.ownRoot {
		os.RemoveAll(s.Root)
		s.ownRoot = false
	}
	return err
}

// Pid is the process id of Apache's parent, which leads a process group
// holding its children and the cgid daemon.
func (s *Server) Pid() int { return s.child.Pid() }

// Done is closed when Apache has exited, whether by Stop or not, for a
// caller that waits on the server and on a signal at once.
func (s *Server) Done() <-chan struct{} { return s.child.Done() }

// Err returns how Apache exited, once Done is closed.
func (s *Server) Err() error { return s.child.Err() }

// ErrorLog returns the contents of Apache's error log, for failure
// messages; nothing when the log is not a regular file (such as
// /dev/stderr, which must not be read).
func (s *Server) ErrorLog() string { return readRegular(s.proc.ErrorLog) }

// AccessLog returns the contents of the access log of a server from Start,
// so that a caller can see which requests reached Apache.
func (s *Server) AccessLog() string { return readRegular(s.Config.AccessLog) }

func (s *Server) startup() string { return readRegular(s.startupLog) }

// CGIPath returns the URL path of the CGI program name, e.g.
// /cgi-bin/name, following the configuration's ScriptAlias.
func (s *Server) CGIPath(name string) string {
	return strings.TrimSuffix(s.Config.ScriptAlias, "/") + "/" + name
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// within says whether path p is root or under it.
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && filepath.IsLocal(rel) // "." is local too
}

func isRegular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func readRegular(p string) string {
	if p == "" || !isRegular(p) {
		return ""
	}
	b, _ := os.ReadFile(p)
	return string(b)
}
