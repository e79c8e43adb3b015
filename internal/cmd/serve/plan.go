package main

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"github.com/cgigate/cgigate/httpdconf"
)

// defaultAddr is where the gateway is served unless -addr says otherwise:
// loopback only, so that trying it out exposes nothing.
const defaultAddr = "127.0.0.1:8080"

// scriptPath is the gateway's URL path, the same under Apache and under
// Go's own CGI host, so that the printed URL means the same thing.
const scriptPath = "/cgi-bin/cgigate"

// AddrError reports an -addr value that cannot be served.
type AddrError struct {
	Addr string
	Err  error
}

func (e *AddrError) Error() string { return fmt.Sprintf("serve: -addr %q: %v", e.Addr, e.Err) }
func (e *AddrError) Unwrap() error { return e.Err }

// splitAddr parses -addr as IP:PORT. httpdconf writes the host into a
// Listen directive, which takes an address, not a name.
func splitAddr(addr string) (host string, port int, err error) {
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, &AddrError{addr, err}
	}
	if net.ParseIP(h) == nil {
		return "", 0, &AddrError{addr, errors.New("the host must be an IP address, such as 127.0.0.1")}
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 {
		return "", 0, &AddrError{addr, errors.New("the port must be in 1..65535")}
	}
	return h, n, nil
}

// openURL is the URL to print for a server on host:port.
func openURL(host string, port int) string {
	return "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + scriptPath
}

// siteURL is the URL of the -docroot files' / on host:port.
func siteURL(host string, port int) string {
	return "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/"
}

// gatewayEnv picks the gateway's settings (CGIGATE_*, see cgigate -help)
// out of environ, a process environment as os.Environ returns it. Empty
// values are left out: the gateway treats them as unset anyway.
func gatewayEnv(environ []string) map[string]string {
	env := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.HasPrefix(k, "CGIGATE_") && v != "" {
			env[k] = v
		}
	}
	return env
}

// apacheConfig is the standalone httpd.conf for serving the gateway from
// root/cgi-bin: the event MPM with mod_cgid (Debian's default), Apache's
// error log on its stderr and the access log on its stdout, since the
// server runs in the foreground of a terminal and root is removed at exit.
func apacheConfig(root, moduleDir, user, group, host string, port int, env map[string]string) httpdconf.Config {
	return httpdconf.Config{
		Host:       host,
		Port:       port,
		MPM:        httpdconf.MPMEvent,
		ModuleDir:  moduleDir,
		ServerRoot: root,
		User:       user,
		Group:      group,
		ErrorLog:   "/dev/stderr",
		AccessLog:  "/dev/stdout",
		Env:        env,
	}.WithDefaults()
}
