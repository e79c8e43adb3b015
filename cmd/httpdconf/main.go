// Command httpdconf prints a standalone httpd.conf that serves cgigate, as
// rendered by package httpdconf:
//
//	httpdconf -root /srv/cgigate -port 8080 -mpm event > /srv/cgigate/httpd.conf
//	apache2 -f /srv/cgigate/httpd.conf -DFOREGROUND
//
// With -fcgi ADDR the config proxies /cgi-bin/cgigate to "cgigate -fcgi ADDR"
// through mod_proxy_fcgi instead of running it as a CGI program. It needs
// no source tree: "go install ./cmd/..." installs it beside cgigate.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/cli"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// envFlags collects repeated -env NAME=VALUE flags.
type envFlags map[string]string

func (e envFlags) String() string {
	var kv []string
	for k, v := range e {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

func (e envFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	e[k] = v
	return nil
}

const usageText = `usage: httpdconf [flags] > httpd.conf

Prints a standalone httpd.conf that serves cgigate under Apache httpd 2.4
(apache2 -f FILE -DFOREGROUND): the MPM with its CGI module, cgigate's
cgi-bin or a FastCGI proxy (-fcgi), request limits and SetEnv for
CGIGATE_* variables. Exit status: 0 written, 1 the configuration could not
be written out, 2 usage (a flag or a value that cannot make a working
configuration, named on one line).
`

// run is main without the process: it parses args, writes the config (or
// what -help and -version print) to stdout and errors to stderr, and
// returns the exit status: 2 for a usage error (a bad flag, or a value
// the configuration refuses), 1 when the configuration cannot be written.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("httpdconf", flag.ContinueOnError)
	cli.SetUsage(fs, usageText)
	var c httpdconf.Config
	env := envFlags{}
	fs.IntVar(&c.Port, "port", httpdconf.DefaultPort, "TCP port to listen on (on 127.0.0.1 unless -host)")
	fs.StringVar(&c.Host, "host", "127.0.0.1", "IP address to listen on")
	fs.StringVar(&c.ServerRoot, "root", "", "ServerRoot; htdocs, cgi-bin and logs go under it (default: the layout's)")
	fs.StringVar(&c.CGIBin, "cgi-bin", "", "folder holding cgigate, mapped at /cgi-bin/ (default ROOT/cgi-bin)")
	fs.StringVar(&c.DocumentRoot, "docroot", "", "DocumentRoot (default ROOT/htdocs)")
	mpm := fs.String("mpm", string(httpdconf.MPMEvent), "MPM: event (with mod_cgid) or prefork (with mod_cgi unless -cgi-module cgid)")
	module := fs.String("cgi-module", "", "CGI module: cgi or cgid (default: the MPM's; cgid under prefork answers more requests, see BENCHMARKS.md)")
	layout := fs.String("layout", string(httpdconf.LayoutDebian), "module layout: debian or httpd-image")
	fs.StringVar(&c.FastCGI, "fcgi", "", "proxy /cgi-bin/cgigate to a FastCGI server at this host:port, or on the Unix socket at this absolute path, instead of running CGI")
	fs.StringVar(&c.User, "user", "", "user for Apache's children (default www-data)")
	fs.StringVar(&c.Group, "group", "", "group for Apache's children (default www-data)")
	fs.Int64Var(&c.LimitRequestBody, "limit-body", 0, "LimitRequestBody in bytes (0: Apache's default)")
	fs.DurationVar(&c.BodyReadTimeout, "body-timeout", httpdconf.DefaultBodyReadTimeout, "answer 408 to a client whose body has not arrived in this long, in whole seconds (mod_reqtimeout)")
	fs.Var(env, "env", "CGIGATE_NAME=VALUE to SetEnv (repeatable)")
	if err := cli.Parse(fs, args, stdout, stderr); err != nil {
		return cli.Code(err)
	}
	if fs.NArg() > 0 {
		return cli.Exit(stderr, "httpdconf", fmt.Errorf("unexpected arguments %q", fs.Args()))
	}
	c.MPM, c.Layout, c.CGIModule = httpdconf.MPM(*mpm), httpdconf.Layout(*layout), httpdconf.CGIModule(*module)
	if len(env) > 0 {
		c.Env = env
	}
	// A value the configuration refuses is a flag given wrong, like one
	// the flag cannot parse: a usage error. Its *ConfigError names the
	// field and already begins "httpdconf:".
	if err := c.Validate(); err != nil {
		fmt.Fprintln(stderr, err)
		return cli.ExitUsage
	}
	if err := c.Render(stdout); err != nil {
		fmt.Fprintln(stderr, "httpdconf:", err)
		return 1
	}
	return 0
}
