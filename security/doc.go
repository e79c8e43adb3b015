// Package security holds cgigate's security and reliability tests: every
// case of the bad-input corpus (the table of internal/badinput, each case
// with the CVE or source it comes from), one file per theme and named by
// its CVE where there is one, as Apache's own t/security/CVE-*.t are; fuzz
// targets for the multipart reader and the response header writer; the load run of internal/cmd/cgiload; and the faults of
// SECURITY.md (a client that goes away, a short body, a closed stdout, a
// full or unwritable record file, a missing or unreadable index, a document
// that is not UTF-8).
//
// Each case runs the built gateway twice or three times: directly, as a CGI
// child of Go's net/http/cgi.Handler (or by exec with a hand-set
// environment where the case is about the environment), and through a real
// Apache httpd (event MPM with mod_cgid, one server for the whole package
// run; a prefork/mod_cgi server for a subset). Every response any case gets
// is also checked for the output rules: one well-formed header line each,
// no Location, a Content-Type naming charset=utf-8, valid UTF-8 throughout.
//
// The package has no API; this file only carries its documentation.
package security
