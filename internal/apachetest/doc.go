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
// Tests that use it skip when no Apache binary is installed, except under
// CI=true, where a missing Apache is a failure: CI must install it
// (.ci/run does).
package apachetest
