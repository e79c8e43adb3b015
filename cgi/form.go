package cgi

import (
	"errors"
	"os"

	"github.com/cgigate/cgigate/decoder"
)

// Form is a decoded request: the decoder's Result (kind, keywords, fields
// with their source, the charset and where it came from, warnings) and the
// files of a multipart body.
type Form struct {
	Method string
	*decoder.Result
	Files []File

	// paths are the request's temporary files, one per file part stored.
	// They lie in Config.TempDir itself: a folder of the request's own
	// would cost a mkdir and an rmdir per upload, about a sixth of the
	// time of storing a 1 MB file on these machines (BenchmarkMultipart).
	paths []string
}

// File is one multipart file part (RFC 7578 § 4.2), stored in a temporary
// file while the request is answered. Filename is what the client sent,
// decoded; it is data to show, never a path (CVE-2004-0959).
type File struct {
	Name        string // the form field
	Filename    string
	ContentType string
	Size        int64
	SHA256      string // hex
	Path        string // the temporary file; removed by RemoveAll
}

// RemoveAll removes the files stored for f. Call it once the response is
// written.
func (f *Form) RemoveAll() error {
	if f == nil {
		return nil
	}
	var errs []error
	for _, p := range f.paths {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	f.paths = nil
	return errors.Join(errs...)
}
