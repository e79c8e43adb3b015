// Package integration runs the built cgigate binary under a real Apache
// httpd 2.4 (both MPM/module pairs: prefork with mod_cgi, event with
// mod_cgid, and mod_proxy_fcgi in front of "cgigate -fcgi") and submits real
// forms to it from headless Chromium. It holds tests only; this file
// is here for the package documentation.
//
// The gateway is built once per test binary run, in TestMain, and copied
// into each server's cgi-bin. Tests skip when Apache or Chromium is absent,
// except under CI=true, where that is a failure.
//
//	go test ./integration                      # everything, about 20 s on 2 cores
//	go test -run Browser ./integration          # the Chromium tests; screenshots in artifacts/
//	go test -run '^$' -bench . ./integration    # the gateway per request against the echo CGI
//
// Expectations come from outside the code under test: Python's codecs
// (testdata/integration/gen.py writes charsets.json), net/url for ISINDEX
// words, crypto/sha256 for uploads, what was typed into the browser, and
// apachetest's echo CGI for what Apache put in QUERY_STRING and argv.
package integration
