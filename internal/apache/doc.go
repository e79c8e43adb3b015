// Package apache runs a real Apache httpd as a child of a Go program: the
// test helpers of internal/apachetest, internal/cmd/serve (a first try on a fresh
// machine), internal/cmd/cgiload (load with records) and the benchmarks all need the
// same mechanism, and it lives here once, returning errors rather than
// stopping a test.
//
// Start lays out a ServerRoot (a fresh one from TempDir, readable by the
// www-data children Apache runs CGI programs as, or one the caller made),
// copies CGI programs into its cgi-bin and static files into its
// DocumentRoot, renders httpd.conf with httpdconf, starts
// "apache2 -f CONF -DFOREGROUND" in its own process group and waits until
// it answers HTTP. StartProcess does the same for a configuration the
// caller laid out itself. Server.Stop stops Apache by its pid: SIGTERM,
// on which Apache stops its own children and the cgid daemon, then SIGKILL
// to the whole process group if it has not exited within StopBound.
//
// FindBinary and ModuleDir find an installed httpd (Debian's apache2, a
// source build, the official httpd image); Account picks the User and
// Group its children can run as.
package apache
