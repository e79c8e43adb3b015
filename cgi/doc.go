// Package cgi is the CGI side of cgigate: it reads a request from the
// RFC 3875 environment, reads and bounds its body
// (application/x-www-form-urlencoded, multipart/form-data, text/plain),
// hands the bytes to package decoder, and writes the answer through one
// header writer that no input can add a header line to.
//
// The roles follow net/http/cgi's split:
//
//	request.go   RequestFromMap: the environment, QUERY_STRING as the truth
//	body.go      ReadForm: query then body, one charset for both
//	form.go      Form and File: what ReadForm gives the handler
//	multipart.go multipart/form-data: boundary, parts, files, file names
//	tempfile.go  file parts in temporary files with no name (O_TMPFILE)
//	deadline.go  the body read under Limits.ReadTimeout (408 after it)
//	limits.go    Limits and Config, every bound with its default
//	errors.go    Error and StatusOf: every refusal has its status
//	response.go  Negotiate, SetHeader, Respond, WriteError
//	stream.go    RespondStream: a large page written as it is made
//	redirect.go  SeeOther: the one Location, a declared form's redirect
//	handler.go   Handler and ResponseWriter: net/http's shape, not its code
//	header.go    Header, status.go the statuses and their reason phrases
//	serve.go     Serve and ServeEnv: the CGI child's answer on stdout; Recover
//
// The package does not import net/http: a CGI process starts for every
// request, and net/http's packages and their initialisation would cost
// each start more than decoding the form does. Package cgi/fcgi serves a
// Handler over FastCGI without net/http either; package cgihttp serves one
// over net/http, for tests and the -http mode's own refusals.
//
// Client input never produces a 500: every refusal is a typed error with a
// 4xx status (StatusOf). Server faults (misconfiguration, a full disk) are
// 5xx, with the reason on stderr, which Apache writes to its error log.
//
// Under FastCGI (package cgi/fcgi) each request's parameters are its CGI
// environment and its stdin stream its body, served by ServeEnv as in CGI
// mode. The -http mode runs the binary itself as a CGI child for every
// request (net/http/cgi), so it too answers through Serve.
//
// The package makes no outbound request and starts no process, so
// HTTP_PROXY (httpoxy, CVE-2016-5385) and a Shellshock-style header
// (CVE-2014-6271) stay inert text.
package cgi
