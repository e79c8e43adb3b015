package cgi

import (
	"time"

	"github.com/cgigate/cgigate/decoder"
)

// Limits bounds what one request may make the gateway read, store and
// hold. A zero field means its default; there is no "unlimited": a CGI
// gateway faces the open internet in a process that starts per request.
// The limits on fields, keywords and bytes per name and value are the
// decoder's (decoder.Limits), set in Config.Decoder.
type Limits struct {
	// Body is the largest CONTENT_LENGTH accepted (default 10 MiB). A
	// larger one is answered 413 before a byte of the body is read.
	Body int64
	// FileBytes is the largest multipart file part (default: Body).
	FileBytes int64
	// Parts is the most multipart parts, text and file (default 1000;
	// CVE-2023-24536 is what an unbounded count costs).
	Parts int
	// PartHeaders is the most header lines in one multipart part (default
	// 16: a browser sends two or three).
	PartHeaders int
	// ReadTimeout is the deadline for reading the whole body from stdin
	// (default 30s). It must stay below Apache's Timeout and
	// CGIDScriptTimeout (60s by default), so that a stalled client gets a
	// 408 from the gateway rather than a 504 from Apache (CVE-2014-0231:
	// a CGI child left waiting on stdin).
	ReadTimeout time.Duration
}

// Defaults of Limits.
const (
	DefaultMaxBody        = 10 << 20
	DefaultMaxParts       = 1000
	DefaultMaxPartHeaders = 16
	DefaultReadTimeout    = 30 * time.Second
)

func (l Limits) body() int64 {
	if l.Body <= 0 {
		return DefaultMaxBody
	}
	return l.Body
}

func (l Limits) fileBytes() int64 {
	if l.FileBytes <= 0 {
		return l.body()
	}
	return l.FileBytes
}

func (l Limits) parts() int {
	if l.Parts <= 0 {
		return DefaultMaxParts
	}
	return l.Parts
}

func (l Limits) partHeaders() int {
	if l.PartHeaders <= 0 {
		return DefaultMaxPartHeaders
	}
	return l.PartHeaders
}

func (l Limits) readTimeout() time.Duration {
	if l.ReadTimeout <= 0 {
		return DefaultReadTimeout
	}
	return l.ReadTimeout
}

// Config is how a gateway reads requests. The zero value is the safe
// default: the decoder's defaults (WHATWG lenient decoding, '&' only,
// sniffing on) and the Limits' defaults, temporary files in os.TempDir.
type Config struct {
	Decoder decoder.Options
	Limits  Limits
	// TempDir is the folder whose file system holds multipart file parts
	// while a request is answered, as files without a name in it (see
	// File); "" means os.TempDir().
	TempDir string
}
