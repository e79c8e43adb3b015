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
//	multipart.go multipart/form-data: boundary, parts, files, file names
//	limits.go    Limits and Config, every bound with its default
//	errors.go    Error and StatusOf: every refusal has its status
//	response.go  Negotiate, SetHeader, Respond, WriteError
//	handler.go   Handler and ResponseWriter: net/http's shape, not its code
//	header.go    Header, status.go the statuses and their reason phrases
//	serve.go     Serve: the CGI child's answer on stdout; Recover
//
// The package does not import net/http: a CGI process starts for every
// request, and net/http's packages and their initialisation would cost
// each start more than decoding the form does. Package cgihttp serves a
// Handler over net/http (FastCGI, tests).
//
// Client input never produces a 500: every refusal is a typed error with a
// 4xx status (StatusOf). Server faults (misconfiguration, a full disk) are
// 5xx, with the reason on stderr, which Apache writes to its error log.
//
// Under FastCGI (package cgi/fcgi) each request's parameters are its CGI
// environment and its stdin stream its body, served by ServeEnv as in CGI
// mode; cgihttp serves a Handler over net/http for the -http mode.
//
// The package makes no outbound request and starts no process, so
// HTTP_PROXY (httpoxy, CVE-2016-5385) and a Shellshock-style header
// (CVE-2014-6271) stay inert text.
package cgi
