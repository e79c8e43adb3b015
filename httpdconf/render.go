package httpdconf

import (
	"bytes"
	_ "embed"
	"io"
	"net"
	"path"
	"sort"
	"strconv"
	"strings"
	"text/template"
	"time"
)

//go:embed httpd.conf.tmpl
var confText string

var confTemplate = template.Must(template.New("httpd.conf").
	Funcs(template.FuncMap{"q": func(s string) string { return `"` + s + `"` }}).
	Parse(confText))

// module is one LoadModule line: the module's identifier and its file.
type module struct{ Name, Path string }

// envVar is one SetEnv line, kept in a sorted slice so output is stable.
type envVar struct{ Name, Value string }

// view is what the template reads: the defaulted Config plus derived values.
type view struct {
	Config
	Listen      string
	Modules     []module
	CGIBinSlash string
	SetEnv      []envVar
	// Gateway is the URL path where cgigate runs as a CGI program, if any.
	Gateway    string
	FastCGIURL string
	BalanceURL string
	// BodySeconds is BodyReadTimeout as mod_reqtimeout writes it.
	BodySeconds int64
}

// modules lists the modules c needs, in load order. Names and files are
// those of Apache 2.4's own build; each line is guarded by <IfModule !name>
// in the template, so modules compiled into the binary (Debian builds in
// mod_unixd and mod_log_config) are skipped rather than rejected.
func (c Config) modules() []module {
	names := []string{"mpm_" + string(c.MPM), "unixd", "log_config", "authz_core",
		"mime", "dir", "alias", "env", "reqtimeout"}
	names = append(names, string(c.CGIModule))
	if c.FastCGI != "" || len(c.Balance) > 0 {
		names = append(names, "proxy")
	}
	if c.FastCGI != "" {
		names = append(names, "proxy_fcgi")
	}
	if len(c.Balance) > 0 {
		// mod_proxy_balancer keeps the members' state in shared memory
		// (mod_slotmem_shm) and picks one with an lbmethod module.
		names = append(names, "proxy_http", "slotmem_shm", "proxy_balancer", "lbmethod_byrequests")
	}
	mods := make([]module, len(names))
	for i, n := range names {
		mods[i] = module{Name: n + "_module", Path: path.Join(c.ModuleDir, "mod_"+n+".so")}
	}
	return mods
}

// Render writes the httpd.conf for c to w, after filling defaults and
// validating; an invalid field is reported as a *ConfigError and nothing is
// written.
func (c Config) Render(w io.Writer) error {
	if err := c.Validate(); err != nil {
		return err
	}
	c = c.WithDefaults()
	v := view{
		Config:      c,
		Listen:      net.JoinHostPort(c.Host, strconv.Itoa(c.Port)),
		Modules:     c.modules(),
		CGIBinSlash: c.CGIBin,
		BodySeconds: int64(c.BodyReadTimeout / time.Second),
	}
	// Where FastCGI or a balancer takes cgigate's path, no CGI process
	// answers there.
	if g := strings.TrimSuffix(c.ScriptAlias, "/") + "/cgigate"; !(c.FastCGI != "" && c.FastCGIPath == g) && !(len(c.Balance) > 0 && c.BalancePath == g) {
		v.Gateway = g
	}
	if strings.HasSuffix(c.ScriptAlias, "/") && !strings.HasSuffix(c.CGIBin, "/") {
		v.CGIBinSlash += "/"
	}
	for k, val := range c.Env {
		v.SetEnv = append(v.SetEnv, envVar{k, val})
	}
	sort.Slice(v.SetEnv, func(i, j int) bool { return v.SetEnv[i].Name < v.SetEnv[j].Name })
	switch {
	case strings.HasPrefix(c.FastCGI, "/"):
		// mod_proxy names a worker by the URL after the '|', not by the
		// socket, and hands a request to a worker whose name is a prefix
		// of its URL: with Debian's php8.2-fpm.conf in the same server
		// ("unix:/run/php/php8.2-fpm.sock|fcgi://localhost"), a name of
		// fcgi://localhost/ would send PHP's requests to the gateway's
		// socket, or the gateway's to PHP-FPM's. Over a socket the host
		// only names the worker.
		v.FastCGIURL = "unix:" + c.FastCGI + "|fcgi://cgigate/"
	case c.FastCGI != "":
		v.FastCGIURL = "fcgi://" + c.FastCGI + "/"
	}
	if len(c.Balance) > 0 {
		v.BalanceURL = "balancer://cgigate" + c.BalancePath
	}
	var buf bytes.Buffer
	if err := confTemplate.Execute(&buf, v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
