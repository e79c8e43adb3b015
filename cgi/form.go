package cgi

import (
	"errors"
	"io"
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

	// RawBody is an urlencoded or text/plain body as it arrived, and
	// RawParts a multipart body's text parts, so that a record can keep
	// the bytes whatever charset decoded them. They are the strings the
	// body was read into and split from, not copies.
	RawBody  string
	RawParts []RawPart

	// stored are the request's temporary files, one per file part, open
	// and without a name in any folder (see openTemp): Close releases
	// them, and so does the kernel when the process ends in any way.
	stored []*os.File
}

// RawPart is a multipart text part as it arrived: its name and its bytes.
type RawPart struct {
	Name, Value string
}

// File is one multipart file part (RFC 7578 § 4.2), stored in a temporary
// file that has no name in any folder, so that no path to it exists and
// nothing outlives the process, even one killed mid-upload. Filename is
// what the client sent, decoded; it is data to show, never a path
// (CVE-2004-0959).
type File struct {
	Name        string // the form field
	Filename    string
	ContentType string
	Size        int64
	SHA256      string // hex

	content *os.File
}

// Reader returns a reader of the stored content from its first byte. Each
// reader reads with ReadAt and keeps its own offset, so readers do not
// disturb one another. Once the form is closed, reading fails
// (os.ErrClosed).
func (f File) Reader() *io.SectionReader {
	if f.content == nil {
		return io.NewSectionReader(closedFile{}, 0, f.Size)
	}
	return io.NewSectionReader(f.content, 0, f.Size)
}

// closedFile is the content of a File that ReadForm did not store.
type closedFile struct{}

func (closedFile) ReadAt([]byte, int64) (int, error) { return 0, os.ErrClosed }

// Close releases the files stored for f. Call it once the response is
// written; a process that ends first loses nothing, the files having no
// names to leave behind.
func (f *Form) Close() error {
	if f == nil {
		return nil
	}
	var errs []error
	for _, fd := range f.stored {
		if err := fd.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	f.stored = nil
	return errors.Join(errs...)
}
