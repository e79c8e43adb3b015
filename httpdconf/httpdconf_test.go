package httpdconf_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apachetest"
)

func TestValidateNamesTheFieldItRejects(t *testing.T) {
	tests := []struct {
		name  string
		cfg   httpdconf.Config
		field string
	}{
		{"a host name is refused where Listen needs an IP", httpdconf.Config{Host: "localhost"}, "Host"},
		{"a port above 65535 is refused", httpdconf.Config{Port: 70000}, "Port"},
		{"an unknown layout is refused", httpdconf.Config{Layout: "suse"}, "Layout"},
		{"the worker MPM is refused (no CGI module is chosen for it)", httpdconf.Config{MPM: "worker"}, "MPM"},
		{"a relative ServerRoot is refused", httpdconf.Config{ServerRoot: "srv/httpd"}, "ServerRoot"},
		{"a double quote in a path is refused", httpdconf.Config{DocumentRoot: `/srv/a"b`}, "DocumentRoot"},
		{"a newline in a path is refused", httpdconf.Config{CGIBin: "/srv/cgi\nLoadModule x y"}, "CGIBin"},
		{"a ${VAR} in a path is refused because Apache would expand it", httpdconf.Config{LogDir: "/srv/${HOME}"}, "LogDir"},
		{"a ScriptAlias that is not a URL path is refused", httpdconf.Config{ScriptAlias: "cgi-bin/"}, "ScriptAlias"},
		{"a variable outside CGIGATE_ is refused", httpdconf.Config{Env: map[string]string{"PATH": "/bin"}}, "Env"},
		{"a lower-case variable is refused", httpdconf.Config{Env: map[string]string{"cgigate_charset": "x"}}, "Env"},
		{"a value with a newline is refused", httpdconf.Config{Env: map[string]string{"CGIGATE_CHARSET": "a\nb"}}, "Env[CGIGATE_CHARSET]"},
		{"a value with a backslash is refused", httpdconf.Config{Env: map[string]string{"CGIGATE_SEPARATOR": `\`}}, "Env[CGIGATE_SEPARATOR]"},
		{"a negative body limit is refused", httpdconf.Config{LimitRequestBody: -1}, "LimitRequestBody"},
		{"a body limit above Apache's 2 GiB maximum is refused", httpdconf.Config{LimitRequestBody: 1 << 31}, "LimitRequestBody"},
		{"a FastCGI address without a port is refused", httpdconf.Config{FastCGI: "127.0.0.1"}, "FastCGI"},
		{"a FastCGI host name is refused", httpdconf.Config{FastCGI: "localhost:9000"}, "FastCGI"},
		{"a relative FastCGI socket path is refused", httpdconf.Config{FastCGI: "run/fcgi.sock"}, "FastCGI"},
		{"a FastCGI socket path with a | is refused, as it ends the unix: part of the URL", httpdconf.Config{FastCGI: "/run/a|b.sock"}, "FastCGI"},
		{"a FastCGI socket path with a space is refused", httpdconf.Config{FastCGI: "/run/a b.sock"}, "FastCGI"},
		{"a balancer member by host name is refused", httpdconf.Config{Balance: []string{"http://node1:80"}}, "Balance"},
		{"a balancer member with a path is refused", httpdconf.Config{Balance: []string{"http://127.0.0.2:80/x"}}, "Balance"},
		{"a balancer member over https is refused", httpdconf.Config{Balance: []string{"https://127.0.0.2:443"}}, "Balance"},
		{"a balancer member without a port is refused", httpdconf.Config{Balance: []string{"http://127.0.0.2"}}, "Balance"},
		{"a balanced path that is not a URL path is refused", httpdconf.Config{Balance: []string{"http://127.0.0.2:80"}, BalancePath: "cgigate"}, "BalancePath"},
		{"root as the children's user is refused, as Apache does", httpdconf.Config{User: "root"}, "User"},
		{"a user name with spaces is refused", httpdconf.Config{User: "www data"}, "User"},
		{"a LogLevel with a quote is refused", httpdconf.Config{LogLevel: `warn"`}, "LogLevel"},
		{"mod_cgi under the event MPM is refused", httpdconf.Config{MPM: httpdconf.MPMEvent, CGIModule: httpdconf.CGIModuleCGI}, "CGIModule"},
		{"an unknown CGI module is refused", httpdconf.Config{CGIModule: "fastcgi"}, "CGIModule"},
		{"a body read timeout in part seconds is refused, as mod_reqtimeout counts whole ones", httpdconf.Config{BodyReadTimeout: 1500 * time.Millisecond}, "BodyReadTimeout"},
		{"a body read timeout under a second is refused", httpdconf.Config{BodyReadTimeout: 500 * time.Millisecond}, "BodyReadTimeout"},
		{"a negative body read timeout is refused", httpdconf.Config{BodyReadTimeout: -time.Second}, "BodyReadTimeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			var ce *httpdconf.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("Validate() = %v, want a *ConfigError", err)
			}
			if ce.Field != tt.field {
				t.Errorf("ConfigError.Field = %q, want %q (%v)", ce.Field, tt.field, err)
			}
			var out bytes.Buffer
			if err := tt.cfg.Render(&out); err == nil || out.Len() != 0 {
				t.Errorf("Render wrote %d bytes and returned %v; want nothing written and an error", out.Len(), err)
			}
		})
	}
}

func TestZeroConfigIsValidAndListensOnLoopback(t *testing.T) {
	c := httpdconf.Config{}
	if err := c.Validate(); err != nil {
		t.Fatalf("zero Config: %v", err)
	}
	d := c.WithDefaults()
	if d.Host != "127.0.0.1" || d.Port != httpdconf.DefaultPort || d.MPM != httpdconf.MPMEvent || d.Layout != httpdconf.LayoutDebian {
		t.Errorf("defaults = %s:%d %s %s, want 127.0.0.1:%d event debian", d.Host, d.Port, d.MPM, d.Layout, httpdconf.DefaultPort)
	}
}

// tree makes a throwaway ServerRoot holding the folders a config names, so
// that apache2 -t (which checks DocumentRoot and the log folder) can pass.
func tree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"htdocs", "cgi-bin", "logs"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// apache runs the Apache binary with args and returns its combined output
// and whether it exited 0.
func apache(t *testing.T, bin string, env []string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

func writeConf(t *testing.T, c httpdconf.Config) string {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(&buf); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(c.ServerRoot, "httpd.conf")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The rendered file is checked by Apache itself: -t parses it and loads
// every module, -M lists the modules it loaded, -S prints the settings it
// understood.
func TestApacheAcceptsRenderedConfigs(t *testing.T) {
	bin := apachetest.Binary(t)
	mods := moduleDir(bin)
	tests := []struct {
		name    string
		cfg     httpdconf.Config
		modules []string // that -M must list
		absent  []string // that -M must not list
	}{
		{"event MPM runs CGI through mod_cgid", httpdconf.Config{MPM: httpdconf.MPMEvent},
			[]string{"mpm_event_module", "cgid_module", "alias_module", "env_module"}, []string{"cgi_module", "proxy_fcgi_module"}},
		{"prefork MPM runs CGI through mod_cgi", httpdconf.Config{MPM: httpdconf.MPMPrefork},
			[]string{"mpm_prefork_module", "cgi_module"}, []string{"cgid_module"}},
		{"prefork MPM runs CGI through mod_cgid when asked", httpdconf.Config{MPM: httpdconf.MPMPrefork, CGIModule: httpdconf.CGIModuleCGID},
			[]string{"mpm_prefork_module", "cgid_module"}, []string{"cgi_module"}},
		{"SetEnv lines and a body limit are accepted", httpdconf.Config{
			Env: map[string]string{
				"CGIGATE_CHARSET": "Shift_JIS", "CGIGATE_SNIFF": "1", "CGIGATE_NCR": "0",
				"CGIGATE_SEPARATOR": "&", "CGIGATE_MAX_BODY": "10485760", "CGIGATE_MAX_FIELDS": "1000",
				"CGIGATE_INDEX_DIR": "/var/lib/cgigate/index", "CGIGATE_RECORD": "", "CGIGATE_ODD": "a b;c'd$e",
			},
			LimitRequestBody: 10485760,
		}, []string{"env_module"}, nil},
		{"a body read timeout loads mod_reqtimeout", httpdconf.Config{BodyReadTimeout: 5 * time.Second},
			[]string{"reqtimeout_module"}, nil},
		{"the FastCGI variant loads mod_proxy_fcgi", httpdconf.Config{FastCGI: "127.0.0.1:9000"},
			[]string{"proxy_module", "proxy_fcgi_module", "cgid_module"}, nil},
		{"the FastCGI variant on a Unix socket loads mod_proxy_fcgi", httpdconf.Config{FastCGI: "/run/cgigate/fcgi.sock"},
			[]string{"proxy_module", "proxy_fcgi_module"}, nil},
		{"the FastCGI variant works under prefork too", httpdconf.Config{FastCGI: "127.0.0.1:9000", MPM: httpdconf.MPMPrefork, FastCGIPath: "/fcgi/cgigate"},
			[]string{"proxy_fcgi_module", "cgi_module"}, nil},
		{"a balancing front loads mod_proxy_balancer and its lbmethod", httpdconf.Config{Balance: []string{"http://127.0.0.2:8080", "http://127.0.0.3:8080"}},
			[]string{"proxy_module", "proxy_http_module", "proxy_balancer_module", "slotmem_shm_module", "lbmethod_byrequests_module"}, []string{"proxy_fcgi_module"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.cfg
			c.ServerRoot, c.ModuleDir = tree(t), mods
			c.Port = 18080 // never bound: -t, -M and -S do not listen
			conf := writeConf(t, c)
			if out, ok := apache(t, bin, nil, "-t", "-f", conf); !ok || !strings.Contains(out, "Syntax OK") {
				t.Fatalf("apache2 -t refused the config:\n%s", out)
			}
			out, ok := apache(t, bin, nil, "-M", "-f", conf)
			if !ok {
				t.Fatalf("apache2 -M:\n%s", out)
			}
			for _, m := range tt.modules {
				if !strings.Contains(out, " "+m+" ") {
					t.Errorf("module %s not loaded; apache2 -M:\n%s", m, out)
				}
			}
			for _, m := range tt.absent {
				if strings.Contains(out, " "+m+" ") {
					t.Errorf("module %s loaded but should not be; apache2 -M:\n%s", m, out)
				}
			}
			d := c.WithDefaults()
			out, _ = apache(t, bin, nil, "-S", "-f", conf)
			for _, want := range []string{
				`ServerRoot: "` + d.ServerRoot + `"`,
				`Main DocumentRoot: "` + d.DocumentRoot + `"`,
				`Main ErrorLog: "` + d.ErrorLog + `"`,
				`PidFile: "` + d.PidFile + `"`,
				`User: name="www-data"`,
			} {
				if !strings.Contains(out, want) {
					t.Errorf("apache2 -S lacks %s:\n%s", want, out)
				}
			}
		})
	}
}

// The official image keeps modules in ServerRoot/modules; a symlink to this
// machine's module folder stands in for it.
func TestApacheAcceptsTheHTTPDImageLayout(t *testing.T) {
	bin := apachetest.Binary(t)
	mods := moduleDir(bin)
	for _, mpm := range []httpdconf.MPM{httpdconf.MPMEvent, httpdconf.MPMPrefork} {
		t.Run(string(mpm)+" loads modules relative to ServerRoot", func(t *testing.T) {
			root := tree(t)
			if err := os.Symlink(mods, filepath.Join(root, "modules")); err != nil {
				t.Fatal(err)
			}
			conf := writeConf(t, httpdconf.Config{ServerRoot: root, Layout: httpdconf.LayoutHTTPDImage, MPM: mpm, Port: 18080})
			if out, ok := apache(t, bin, nil, "-t", "-f", conf); !ok {
				t.Fatalf("apache2 -t refused the config:\n%s", out)
			}
		})
	}
}

// imageMain mimics the parts of the official image's conf/httpd.conf that
// cgigate.conf relies on (its stock ScriptAlias and cgi-bin <Directory>),
// loading every module from ServerRoot/modules as the image does, but no
// CGI module: that is the drop-in's job, included at the end.
func imageMain(root string, mpm httpdconf.MPM, port int, cgiDir, dropIn string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ServerRoot %q\nListen 127.0.0.1:%d\nServerName localhost\n", root, port)
	for _, m := range []string{"mpm_" + string(mpm), "unixd", "log_config", "authz_core", "alias", "env", "mime"} {
		fmt.Fprintf(&b, "<IfModule !%s_module>\nLoadModule %s_module modules/mod_%s.so\n</IfModule>\n", m, m, m)
	}
	// The image's build puts runtime files (and so mod_cgid's default
	// ScriptSock) in logs/; Debian's build would use /var/run/apache2.
	b.WriteString("DefaultRuntimeDir logs\n")
	fmt.Fprintf(&b, "PidFile logs/httpd.pid\nErrorLog logs/error_log\nTypesConfig conf/mime.types\nDocumentRoot %q\n", filepath.Join(root, "htdocs"))
	fmt.Fprintf(&b, "ScriptAlias /cgi-bin/ %q\n", cgiDir+"/")
	fmt.Fprintf(&b, "<Directory %q>\n    AllowOverride None\n    Options None\n    Require all granted\n</Directory>\n", cgiDir)
	fmt.Fprintf(&b, "Include %q\n", dropIn)
	return b.String()
}

func snippet(layout string) string {
	p, err := filepath.Abs(filepath.Join(layout, "cgigate.conf"))
	if err != nil {
		panic(err)
	}
	return p
}

func TestHTTPDImageSnippetLoadsModCgidUnlessModCgiIsLoaded(t *testing.T) {
	bin := apachetest.Binary(t)
	mods := moduleDir(bin)
	tests := []struct {
		name   string
		mpm    httpdconf.MPM
		define []string
		before string // configuration read before the drop-in
		want   string
		absent string
	}{
		{"under event it loads mod_cgid", httpdconf.MPMEvent, nil, "", "cgid_module", "cgi_module"},
		{"under prefork it loads mod_cgid too", httpdconf.MPMPrefork, nil, "", "cgid_module", "cgi_module"},
		{"under prefork a mod_cgi loaded before it is kept, and mod_cgid not added", httpdconf.MPMPrefork, nil,
			"LoadModule cgi_module modules/mod_cgi.so\n", "cgi_module", "cgid_module"},
		{"with -DCGIGATE_RECORD it is still accepted", httpdconf.MPMEvent, []string{"-DCGIGATE_RECORD"}, "", "cgid_module", "cgi_module"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tree(t)
			if err := os.Symlink(mods, filepath.Join(root, "modules")); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(root, "conf"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "conf", "mime.types"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			conf := filepath.Join(root, "httpd.conf")
			main := imageMain(root, tt.mpm, 18080, "/usr/local/apache2/cgi-bin", snippet("httpd-image"))
			main = strings.Replace(main, "Include ", tt.before+"Include ", 1)
			if err := os.WriteFile(conf, []byte(main), 0o644); err != nil {
				t.Fatal(err)
			}
			out, ok := apache(t, bin, nil, append([]string{"-t", "-f", conf}, tt.define...)...)
			if !ok {
				t.Fatalf("apache2 -t refused the snippet:\n%s", out)
			}
			if strings.Contains(out, "AH00671") {
				t.Errorf("an alias overlaps another:\n%s", out)
			}
			out, _ = apache(t, bin, nil, append([]string{"-M", "-f", conf}, tt.define...)...)
			if !strings.Contains(out, " "+tt.want+" ") {
				t.Errorf("%s not loaded; apache2 -M:\n%s", tt.want, out)
			}
			if strings.Contains(out, " "+tt.absent+" ") {
				t.Errorf("%s loaded; apache2 -M:\n%s", tt.absent, out)
			}
		})
	}
}

// debianCopy copies Debian's /etc/apache2 into a throwaway folder, so the
// drop-in can be checked inside the distribution's real main config, and
// enables there the MPM mpm and the modules mods (as a2dismod/a2enmod would),
// every other MPM and CGI module disabled.
func debianCopy(t *testing.T, mpm string, mods ...string) string {
	t.Helper()
	if _, err := os.Stat("/etc/apache2/apache2.conf"); err != nil {
		apachetest.SkipOrFail(t, "Debian's /etc/apache2 is absent (install Debian's apache2 package)")
	}
	etc := filepath.Join(t.TempDir(), "apache2")
	if out, err := exec.Command("cp", "-a", "/etc/apache2", etc).CombinedOutput(); err != nil {
		t.Fatalf("cp -a /etc/apache2: %v\n%s", err, out)
	}
	for _, m := range []string{"cgi", "cgid", "mpm_event", "mpm_prefork", "mpm_worker"} {
		os.Remove(filepath.Join(etc, "mods-enabled", m+".load"))
		os.Remove(filepath.Join(etc, "mods-enabled", m+".conf"))
	}
	for _, m := range append([]string{mpm}, mods...) {
		enable(t, etc, "mods", m+".load", "../mods-available/"+m+".load")
		if _, err := os.Stat(filepath.Join(etc, "mods-available", m+".conf")); err == nil {
			enable(t, etc, "mods", m+".conf", "../mods-available/"+m+".conf")
		}
	}
	return etc
}

// moduleDir is where the modules of the Apache at bin live.
func moduleDir(bin string) string {
	return apachetest.ModuleDir(bin, func(p string) bool { _, err := os.Stat(p); return err == nil })
}

// debianEnv is what /etc/apache2/envvars would set, pointed at dir.
func debianEnv(dir string) []string {
	return []string{
		"APACHE_RUN_USER=www-data", "APACHE_RUN_GROUP=www-data",
		"APACHE_PID_FILE=" + filepath.Join(dir, "apache2.pid"),
		"APACHE_RUN_DIR=" + dir, "APACHE_LOCK_DIR=" + dir, "APACHE_LOG_DIR=" + dir,
	}
}

func enable(t *testing.T, etc, kind, name, target string) {
	t.Helper()
	if err := os.Symlink(target, filepath.Join(etc, kind+"-enabled", name)); err != nil && !errors.Is(err, os.ErrExist) {
		t.Fatal(err)
	}
}

func TestDebianDropInInsideDebiansOwnConfig(t *testing.T) {
	bin := apachetest.Binary(t)
	tests := []struct {
		name    string
		mpm     string
		modules []string // enabled besides Debian's defaults
		ok      bool
		want    string // in apache2's output
	}{
		{"with mod_cgid enabled it is accepted", "mpm_event", []string{"cgid"}, true, "Syntax OK"},
		{"with mod_cgi under prefork it is accepted", "mpm_prefork", []string{"cgi"}, true, "Syntax OK"},
		{"with mod_cgid under prefork it is accepted", "mpm_prefork", []string{"cgid"}, true, "Syntax OK"},
		{"with no CGI module it is refused with a hint", "mpm_event", nil, false, "a2enmod cgid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			etc := debianCopy(t, tt.mpm, tt.modules...)
			enable(t, etc, "conf", "cgigate.conf", snippet("debian"))
			run := t.TempDir()
			out, ok := apache(t, bin, debianEnv(run), "-t", "-d", etc, "-f", filepath.Join(etc, "apache2.conf"))
			if ok != tt.ok || !strings.Contains(out, tt.want) {
				t.Fatalf("apache2 -t: ok=%v, want %v and %q in:\n%s", ok, tt.ok, tt.want, out)
			}
			if strings.Contains(out, "AH00671") {
				t.Errorf("cgigate's alias overlaps serve-cgi-bin's:\n%s", out)
			}
		})
	}
}

func ExampleConfig_Render() {
	c := httpdconf.Config{
		ServerRoot: "/srv/cgigate",
		Port:       8081,
		MPM:        httpdconf.MPMPrefork,
		Env:        map[string]string{"CGIGATE_CHARSET": "EUC-JP"},
	}
	var buf bytes.Buffer
	if err := c.Render(&buf); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(line, "Listen") || strings.HasPrefix(line, "ScriptAlias") ||
			strings.HasPrefix(line, "SetEnv") || strings.Contains(line, "LoadModule cgi") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// Listen 127.0.0.1:8081
	// LoadModule cgi_module "/usr/lib/apache2/modules/mod_cgi.so"
	// ScriptAlias "/cgi-bin/" "/srv/cgigate/cgi-bin/"
	// SetEnv CGIGATE_CHARSET "EUC-JP"
}

func ExampleConfig_Validate() {
	err := httpdconf.Config{Env: map[string]string{"PATH": "/bin"}}.Validate()
	fmt.Println(err)
	// Output: httpdconf: invalid Env "PATH": must match CGIGATE_[A-Z0-9_]+
}

func ExampleConfig_WithDefaults() {
	c := httpdconf.Config{Layout: httpdconf.LayoutHTTPDImage}.WithDefaults()
	fmt.Println(c.ServerRoot, c.ModuleDir, c.CGIBin, c.MPM)
	// Output: /usr/local/apache2 modules /usr/local/apache2/cgi-bin event
}

func ExampleCGIModule() {
	c := httpdconf.Config{ServerRoot: "/srv/cgigate", MPM: httpdconf.MPMPrefork, CGIModule: httpdconf.CGIModuleCGID,
		BodyReadTimeout: 10 * time.Second}
	var buf bytes.Buffer
	if err := c.Render(&buf); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, "LoadModule cgi") || strings.HasPrefix(line, "ScriptSock") || strings.HasPrefix(line, "RequestReadTimeout") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	fmt.Println(httpdconf.Config{MPM: httpdconf.MPMEvent, CGIModule: httpdconf.CGIModuleCGI}.Validate())
	// Output:
	// LoadModule cgid_module "/usr/lib/apache2/modules/mod_cgid.so"
	// ScriptSock "/srv/cgigate/logs/cgisock"
	// RequestReadTimeout header=20-40,MinRate=500 body=10,MinRate=500
	// httpdconf: invalid CGIModule "cgi": mod_cgi forks from the worker, which a threaded MPM makes unsafe: use cgid
}
