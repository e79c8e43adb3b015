// Package bench measures cgigate side by side with its peers: the same job
// (a FORM GET decoding the fields q and lang into a small escaped HTML
// page) done by a minimal C CGI (the floor), Perl's CGI.pm, Python's
// cgi.FieldStorage, a plain Go net/http/cgi program and cgigate, all under
// one cgi-bin of a real Apache httpd (prefork with mod_cgi, event with
// mod_cgid), loaded by wrk in interleaved rounds.
//
// A CGI program pays for a process start on every request (RFC 3875
// section 1.4: one request, one process), so req/s under Apache and the
// cold start from exec to exit are the product's speed. The machines the
// benchmarks run on are shared and noisy, so every figure that is compared
// is a ratio measured within one round (each peer right after the others)
// and the ratio quoted is the median over rounds.
//
// The site search is measured beside Xapian Omega the same way
// (GenerateSite, SiteQueries, StartSite, SiteLoad, QueryCost): one
// generated site indexed by both, both CGIs under one Apache.
//
// The command is internal/cmd/cgibench; BENCHMARKS.md holds its latest output. The
// tests of this package check the parsers, the table and that all peers
// print the same decoded fields; they assert nothing about time.
package bench
