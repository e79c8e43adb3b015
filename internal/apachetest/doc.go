// Package apachetest runs a real Apache httpd for tests.
//
// Start makes a throwaway ServerRoot under os.TempDir (readable by the
// www-data children Apache runs CGI programs as), copies the CGI programs a
// test names into its cgi-bin and static files into its DocumentRoot,
// renders the config with httpdconf (prefork with mod_cgi, or event with
// mod_cgid), starts "apache2 -f CONF -DFOREGROUND" on a free 127.0.0.1 port
// and stops it by its pid when the test ends. StartProcess does the same
// for a configuration the test laid out itself. Server.Do and Server.DoRaw
// send requests byte for byte, so percent-encoding reaches Apache exactly as
// written. BuildGo and EchoCGI build CGI programs to serve.
//
// The mechanism (layout, httpd.conf, process group, waiting, stopping) is
// package internal/apache, which returns errors for commands; this package
// adds what takes a testing.TB: skipping without Apache, failing the test
// with Apache's logs, stopping in t.Cleanup, and the requests of Do.
//
// Tests that use it skip when no Apache binary is installed, except under
// CI=true, where a missing Apache is a failure: CI must install it
// (.ci/run does).
package apachetest
