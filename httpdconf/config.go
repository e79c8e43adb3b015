package httpdconf

import (
	"errors"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// MPM names an Apache multi-processing module. It also decides the default
// CGI module (Config.CGIModule): prefork runs CGI scripts with mod_cgi
// (forked from each worker), event with mod_cgid (forked by a separate
// daemon reached over ScriptSock), because forking from a threaded worker
// is unsafe.
type MPM string

const (
	// MPMEvent is Debian's default MPM; CGI goes through mod_cgid.
	MPMEvent MPM = "event"
	// MPMPrefork is the non-threaded MPM; CGI goes through mod_cgi unless
	// Config.CGIModule says mod_cgid.
	MPMPrefork MPM = "prefork"
)

// CGIModule names the Apache module that runs CGI programs.
type CGIModule string

const (
	// CGIModuleCGI is mod_cgi, which forks each program from the worker
	// that took the request; prefork only. Its cleanup (APR's
	// kill-after-timeout) finds a program that has closed its output but
	// not yet exited, sends it SIGTERM and sleeps 47 ms: under load, one
	// request in two of the C floor and one in seven of cgigate's, in
	// BENCHMARKS.md.
	CGIModuleCGI CGIModule = "cgi"
	// CGIModuleCGID is mod_cgid, which forks programs from a daemon of its
	// own, reached over ScriptSock, and reaps them there; any MPM.
	CGIModuleCGID CGIModule = "cgid"
)

// Layout names where an installation keeps its module files and which user
// it runs its children as by default.
type Layout string

const (
	// LayoutDebian is Debian's apache2 package: modules in
	// /usr/lib/apache2/modules, children run as www-data.
	LayoutDebian Layout = "debian"
	// LayoutHTTPDImage is the official httpd:2.4 container image: prefix
	// /usr/local/apache2, modules in ServerRoot/modules, children run as
	// www-data (the image rewrites the stock "daemon").
	LayoutHTTPDImage Layout = "httpd-image"
)

// DefaultPort is the port used when Config.Port is zero.
const DefaultPort = 8080

// DefaultBodyReadTimeout is mod_reqtimeout's own default for a request
// body, used when Config.BodyReadTimeout is zero.
const DefaultBodyReadTimeout = 20 * time.Second

// MaxLimitRequestBody is the largest value Apache 2.4 accepts for
// LimitRequestBody (2 GiB - 1).
const MaxLimitRequestBody = 2147483647

// Config describes one standalone httpd.conf. The zero value is usable: it
// renders an event/mod_cgid server for Debian's layout listening on
// 127.0.0.1:8080, with every path derived from the layout's ServerRoot.
type Config struct {
	// Host is the IP address to listen on; empty means 127.0.0.1 so that a
	// test or a first try never exposes the gateway beyond the machine.
	Host string
	// Port is the TCP port; zero means DefaultPort.
	Port int

	// Layout selects module directory and default ServerRoot; empty means
	// LayoutDebian.
	Layout Layout
	// MPM selects the MPM; empty means MPMEvent.
	MPM MPM
	// CGIModule selects the CGI module; empty means the MPM's: mod_cgid
	// under event, mod_cgi under prefork, as Debian's a2enmod does.
	// Prefork with mod_cgid answers more requests (see CGIModuleCGI);
	// event with mod_cgi is refused.
	CGIModule CGIModule
	// ModuleDir overrides the layout's module directory.
	ModuleDir string

	// ServerRoot is the base of relative paths; empty means the layout's
	// (/var/lib/cgigate/httpd for Debian, /usr/local/apache2 for the image).
	ServerRoot string
	// DocumentRoot defaults to ServerRoot/htdocs.
	DocumentRoot string
	// CGIBin is the folder mapped at ScriptAlias; defaults to ServerRoot/cgi-bin.
	CGIBin string
	// ScriptAlias is the URL prefix of CGIBin; defaults to /cgi-bin/.
	ScriptAlias string
	// LogDir holds logs, the pid file, the cgid socket and Apache's runtime
	// files (DefaultRuntimeDir); defaults to ServerRoot/logs.
	LogDir string
	// PidFile defaults to LogDir/httpd.pid.
	PidFile string
	// ErrorLog defaults to LogDir/error_log.
	ErrorLog string
	// AccessLog defaults to LogDir/access_log.
	AccessLog string
	// ScriptSock is mod_cgid's socket; defaults to LogDir/cgisock. Unused
	// with mod_cgi.
	ScriptSock string
	// LogLevel defaults to "warn".
	LogLevel string

	// User and Group run Apache's children (and so the CGI programs).
	// Empty means www-data, which is what both layouts use; Apache refuses
	// to run children as root. "#uid" and "#gid" forms are accepted.
	User  string
	Group string

	// Env holds CGIGATE_* variables set with SetEnv for every request
	// (mod_env). Keys must match CGIGATE_[A-Z0-9_]+.
	Env map[string]string

	// LimitRequestBody caps request bodies in bytes before the CGI program
	// sees them (Apache answers 413 beyond it). Zero leaves Apache's
	// default (1 GiB since 2.4.54).
	LimitRequestBody int64

	// BodyReadTimeout is how long Apache waits for a request's body before
	// it answers 408 itself (mod_reqtimeout's body stage, whole seconds,
	// extended by one for every 500 bytes that arrive, so an upload that
	// keeps sending is not cut); zero means DefaultBodyReadTimeout. It is the
	// only bound on a client that stops sending: mod_cgi and mod_cgid read
	// the body for the CGI program, so the program's own deadline
	// (CGIGATE_READ_TIMEOUT) never sees the client. Headers keep
	// mod_reqtimeout's default, 20 to 40 seconds.
	BodyReadTimeout time.Duration

	// FastCGI, when set to a host:port, adds mod_proxy_fcgi and proxies
	// FastCGIPath to fcgi://FastCGI/ (for "cgigate -fcgi ADDR"); set to
	// the absolute path of a Unix socket ("cgigate -fcgi PATH"), to
	// unix:FastCGI|fcgi://cgigate/ (a worker name of its own, apart from
	// the fcgi://localhost that Debian's PHP-FPM configuration uses).
	FastCGI string
	// FastCGIPath is the URL path proxied to FastCGI; defaults to
	// /cgi-bin/cgigate so that URLs are the same as under CGI.
	FastCGIPath string

	// Balance, when set, makes the server a balancing front for several
	// nodes (README, "Scaling out"): BalancePath is proxied over HTTP to
	// these members in turn (mod_proxy_balancer, lbmethod=byrequests).
	// Each is a base URL, http://IP:PORT, of a node's Apache with cgigate.
	Balance []string
	// BalancePath is the URL path proxied to the members; defaults to
	// /cgi-bin/cgigate, so that the nodes' URLs are the front's.
	BalancePath string
}

// defaultServerRoot gives each layout's conventional ServerRoot.
var defaultServerRoot = map[Layout]string{
	LayoutDebian:     "/var/lib/cgigate/httpd",
	LayoutHTTPDImage: "/usr/local/apache2",
}

// WithDefaults returns c with every empty field filled in as documented on
// Config. It does not validate; Render does.
func (c Config) WithDefaults() Config {
	if c.Host == "" {
		c.Host = "127.0.0.1"
	}
	if c.Port == 0 {
		c.Port = DefaultPort
	}
	if c.Layout == "" {
		c.Layout = LayoutDebian
	}
	if c.MPM == "" {
		c.MPM = MPMEvent
	}
	if c.CGIModule == "" {
		c.CGIModule = CGIModuleCGID
		if c.MPM == MPMPrefork {
			c.CGIModule = CGIModuleCGI
		}
	}
	if c.ModuleDir == "" {
		if c.Layout == LayoutDebian {
			c.ModuleDir = "/usr/lib/apache2/modules"
		} else {
			c.ModuleDir = "modules"
		}
	}
	if c.ServerRoot == "" {
		c.ServerRoot = defaultServerRoot[c.Layout]
	}
	def := func(p *string, v string) {
		if *p == "" {
			*p = v
		}
	}
	def(&c.DocumentRoot, filepath.Join(c.ServerRoot, "htdocs"))
	def(&c.CGIBin, filepath.Join(c.ServerRoot, "cgi-bin"))
	def(&c.ScriptAlias, "/cgi-bin/")
	def(&c.LogDir, filepath.Join(c.ServerRoot, "logs"))
	def(&c.PidFile, filepath.Join(c.LogDir, "httpd.pid"))
	def(&c.ErrorLog, filepath.Join(c.LogDir, "error_log"))
	def(&c.AccessLog, filepath.Join(c.LogDir, "access_log"))
	def(&c.ScriptSock, filepath.Join(c.LogDir, "cgisock"))
	def(&c.LogLevel, "warn")
	def(&c.User, "www-data")
	def(&c.Group, "www-data")
	if c.FastCGI != "" {
		def(&c.FastCGIPath, "/cgi-bin/cgigate")
	}
	if len(c.Balance) > 0 {
		def(&c.BalancePath, "/cgi-bin/cgigate")
	}
	if c.BodyReadTimeout == 0 {
		c.BodyReadTimeout = DefaultBodyReadTimeout
	}
	return c
}

var (
	errNotAbsolute = errors.New("must be an absolute path")
	errUnsafe      = errors.New(`must not contain a double quote, a backslash, "${" or a control character`)
	errEnvName     = errors.New("must match CGIGATE_[A-Z0-9_]+")
	envName        = regexp.MustCompile(`^CGIGATE_[A-Z0-9_]+$`)
	logLevel       = regexp.MustCompile(`^[a-z0-9_:]+( [a-z0-9_:]+)*$`)
	accountName    = regexp.MustCompile(`^(#[0-9]+|[A-Za-z_][A-Za-z0-9_.-]*\$?)$`)
)

// fastCGIAddr checks FastCGI: an IP host:port, or a Unix socket's
// absolute path, which the proxied URL "unix:PATH|fcgi://cgigate/" holds
// whole only without a '|' or white space.
func fastCGIAddr(addr string) error {
	if strings.HasPrefix(addr, "/") {
		if !safeArg(addr) || strings.ContainsAny(addr, "| \t") {
			return errors.New(`a socket's path must not hold '|', white space, a double quote, a backslash, "${" or a control character`)
		}
		return nil
	}
	return ipPort(addr)
}

// ipPort checks an IP address and a port, host:port.
func ipPort(hostport string) error {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return err
	}
	if net.ParseIP(host) == nil {
		return errors.New("host must be an IP address")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return errors.New("port must be in 1..65535")
	}
	return nil
}

// safeArg reports whether s can be written inside a double-quoted httpd.conf
// argument and read back unchanged: Apache's ap_getword_conf treats \" as an
// escaped quote, and the config reader expands ${NAME} before parsing.
func safeArg(s string) bool {
	if strings.ContainsAny(s, `"\`) || strings.Contains(s, "${") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return false
		}
	}
	return true
}

// Validate reports the first field of c (after WithDefaults) that cannot be
// rendered, as a *ConfigError.
func (c Config) Validate() error {
	c = c.WithDefaults()
	bad := func(field, value string, err error) error {
		return &ConfigError{Field: field, Value: value, Err: err}
	}
	if ip := net.ParseIP(c.Host); ip == nil {
		return bad("Host", c.Host, errors.New("must be an IP address"))
	}
	if c.Port < 1 || c.Port > 65535 {
		return bad("Port", strconv.Itoa(c.Port), errors.New("must be in 1..65535"))
	}
	switch c.Layout {
	case LayoutDebian, LayoutHTTPDImage:
	default:
		return bad("Layout", string(c.Layout), errors.New(`must be "debian" or "httpd-image"`))
	}
	switch c.MPM {
	case MPMEvent, MPMPrefork:
	default:
		return bad("MPM", string(c.MPM), errors.New(`must be "event" or "prefork"`))
	}
	switch {
	case c.CGIModule != CGIModuleCGI && c.CGIModule != CGIModuleCGID:
		return bad("CGIModule", string(c.CGIModule), errors.New(`must be "cgi" or "cgid"`))
	case c.CGIModule == CGIModuleCGI && c.MPM != MPMPrefork:
		return bad("CGIModule", string(c.CGIModule), errors.New("mod_cgi forks from the worker, which a threaded MPM makes unsafe: use cgid"))
	}
	if !filepath.IsAbs(c.ServerRoot) {
		return bad("ServerRoot", c.ServerRoot, errNotAbsolute)
	}
	for _, f := range []struct{ name, value string }{
		{"ServerRoot", c.ServerRoot}, {"ModuleDir", c.ModuleDir},
		{"DocumentRoot", c.DocumentRoot}, {"CGIBin", c.CGIBin},
		{"ScriptAlias", c.ScriptAlias}, {"LogDir", c.LogDir},
		{"PidFile", c.PidFile}, {"ErrorLog", c.ErrorLog},
		{"AccessLog", c.AccessLog}, {"ScriptSock", c.ScriptSock},
		{"FastCGIPath", c.FastCGIPath}, {"BalancePath", c.BalancePath},
	} {
		if !safeArg(f.value) {
			return bad(f.name, f.value, errUnsafe)
		}
	}
	if !strings.HasPrefix(c.ScriptAlias, "/") {
		return bad("ScriptAlias", c.ScriptAlias, errors.New("must start with /"))
	}
	if !logLevel.MatchString(c.LogLevel) {
		return bad("LogLevel", c.LogLevel, errors.New("must be Apache LogLevel words such as \"warn\" or \"info cgid:debug\""))
	}
	if !accountName.MatchString(c.User) {
		return bad("User", c.User, errors.New("must be a user name or #uid"))
	}
	if !accountName.MatchString(c.Group) {
		return bad("Group", c.Group, errors.New("must be a group name or #gid"))
	}
	if c.User == "root" || c.User == "#0" {
		return bad("User", c.User, errors.New("Apache refuses to run its children as root"))
	}
	for k, v := range c.Env {
		if !envName.MatchString(k) {
			return bad("Env", k, errEnvName)
		}
		if !safeArg(v) {
			return bad("Env["+k+"]", v, errUnsafe)
		}
	}
	if c.LimitRequestBody < 0 || c.LimitRequestBody > MaxLimitRequestBody {
		return bad("LimitRequestBody", strconv.FormatInt(c.LimitRequestBody, 10),
			errors.New("must be in 0..2147483647"))
	}
	if t := c.BodyReadTimeout; t < time.Second || t%time.Second != 0 {
		return bad("BodyReadTimeout", t.String(), errors.New("must be a whole number of seconds, at least 1s"))
	}
	if c.FastCGI != "" {
		if err := fastCGIAddr(c.FastCGI); err != nil {
			return bad("FastCGI", c.FastCGI, err)
		}
		if !strings.HasPrefix(c.FastCGIPath, "/") {
			return bad("FastCGIPath", c.FastCGIPath, errors.New("must start with /"))
		}
	}
	for _, m := range c.Balance {
		if err := balancerMember(m); err != nil {
			return bad("Balance", m, err)
		}
	}
	if len(c.Balance) > 0 && !strings.HasPrefix(c.BalancePath, "/") {
		return bad("BalancePath", c.BalancePath, errors.New("must start with /"))
	}
	return nil
}

// balancerMember checks a member of Config.Balance: http://IP:PORT and
// nothing more, so that it is written into httpd.conf unchanged.
func balancerMember(m string) error {
	u, err := url.Parse(m)
	if err != nil {
		return err
	}
	if u.Scheme != "http" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return errors.New("must be http://IP:PORT")
	}
	return ipPort(u.Host)
}
