package cgi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"os"
	"strings"

	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
)

// maxBoundary is RFC 2046 § 5.1.1: "boundary := 0*69<bchars> bcharsnospace",
// at most 70 characters. Go's mime/multipart takes any length.
const maxBoundary = 70

// rawFile is a stored file part before its name and file name are decoded
// with the request's charset.
type rawFile struct {
	name        string // raw bytes of the name parameter
	filename    string // raw bytes of filename, or text of filename*
	filenameExt bool   // filename came from filename* (already UTF-8)
	contentType string
	size        int64
	sha256      string
	content     *os.File
}

// readMultipart reads a multipart/form-data body (RFC 7578) with Go's
// mime/multipart, adding its text parts to raw, storing its file parts,
// and refusing what Go lets through:
//
//   - the boundary must be present, non-empty and at most 70 characters
//     (RFC 2046 § 5.1.1); a parameter given twice, in the Content-Type or
//     in a part's Content-Disposition, is 400 (see duplicateParam);
//   - parts are read raw (NextRawPart): a Content-Transfer-Encoding other
//     than 7bit, 8bit or binary is 400, since RFC 7578 § 4.7 deprecates it
//     and Go would decode quoted-printable into bytes the sender hid;
//   - each part has exactly one Content-Disposition, form-data with a
//     name; at most Limits.PartHeaders header lines (413), at most
//     Limits.Parts parts (413);
//   - a text part is at most the decoder's value limit, a file part at
//     most Limits.FileBytes (413);
//   - a body that ends without the closing boundary is 400, and so is an
//     empty one (readBody);
//   - the boundary in the preamble or the epilogue, where Go would skip
//     it and the part it opens, is 400; other bytes there are named in a
//     warning (see boundaryScanner).
func readMultipart(body io.Reader, params map[string]string, ct string, d *decoder.Decoder, raw *decoder.Raw, cfg Config, form *Form) ([]rawFile, error) {
	boundary, ok := params["boundary"]
	switch {
	case duplicateParam(ct) != "":
		return nil, errorf(StatusBadRequest, "multipart", ct, "parameter %q given twice", duplicateParam(ct))
	case !ok || boundary == "":
		return nil, errorf(StatusBadRequest, "multipart", ct, "no boundary (RFC 2046 § 5.1.1)")
	case len(boundary) > maxBoundary:
		return nil, errorf(StatusBadRequest, "multipart", "", "boundary of %d characters, more than %d (RFC 2046 § 5.1.1)", len(boundary), maxBoundary)
	}
	lim := cfg.Limits
	// With no value limit, the body's still holds.
	valueMax := min(int64(d.Options().Limits.Effective().ValueBytes), lim.body())
	bs := newBoundaryScanner(body, boundary)
	mr := multipart.NewReader(bs, boundary)
	var files []rawFile
	for n := 0; ; n++ {
		p, err := mr.NextRawPart()
		if n == 0 && (err == nil || err == io.EOF) {
			// Go has read past the preamble.
			if err := preambleCheck(bs, raw); err != nil {
				return nil, err
			}
		}
		if errors.Is(err, io.EOF) && !bs.seen {
			// Go also says io.EOF when the body ends inside a part's
			// headers, and wraps it when the body ends in the preamble;
			// only the closing delimiter ends a form.
			return nil, errorf(StatusBadRequest, "multipart", "", "body ended before the closing boundary (RFC 2046 § 5.1.1)")
		}
		if err == io.EOF {
			// The epilogue after the closing delimiter is read too, so
			// that a body shorter than its CONTENT_LENGTH is refused
			// (400) before the form is used, as for every body type, and
			// so that a part after the closing line is not lost unseen.
			if _, err := io.Copy(io.Discard, bs); err != nil {
				return nil, bodyError(err)
			}
			if bs.strayEpilogue {
				return nil, errorf(StatusBadRequest, "multipart", "", "the boundary appears after the closing boundary: a part there would be lost (RFC 2046 § 5.1.1)")
			}
			if bs.epilogue > 0 {
				raw.Warnings = append(raw.Warnings, fmt.Sprintf("%d bytes after the closing boundary ignored (an epilogue, RFC 2046 § 5.1.1)", bs.epilogue))
			}
			return files, nil
		}
		if err != nil {
			return nil, multipartError(err)
		}
		if n >= lim.parts() {
			return nil, errorf(StatusRequestEntityTooLarge, "multipart", "", "more than %d parts", lim.parts())
		}
		lines := 0
		for _, vs := range p.Header {
			lines += len(vs)
		}
		if lines > lim.partHeaders() {
			return nil, errorf(StatusRequestEntityTooLarge, "multipart", "", "part %d has %d header lines, more than %d", n+1, lines, lim.partHeaders())
		}
		if cte := strings.ToLower(p.Header.Get("Content-Transfer-Encoding")); cte != "" && cte != "7bit" && cte != "8bit" && cte != "binary" {
			return nil, errorf(StatusBadRequest, "multipart", cte, "part %d: Content-Transfer-Encoding is not used in multipart/form-data (RFC 7578 § 4.7)", n+1)
		}
		cds := p.Header.Values("Content-Disposition")
		if len(cds) != 1 {
			return nil, errorf(StatusBadRequest, "multipart", "", "part %d has %d Content-Disposition headers, not one", n+1, len(cds))
		}
		disp, dp, err := mime.ParseMediaType(cds[0])
		if err != nil {
			return nil, &Error{Status: StatusBadRequest, Op: "multipart", Input: cds[0], Msg: fmt.Sprintf("part %d Content-Disposition", n+1), Err: err}
		}
		if dup := duplicateParam(cds[0]); dup != "" {
			return nil, errorf(StatusBadRequest, "multipart", cds[0], "part %d: parameter %q given twice", n+1, dup)
		}
		name, hasName := dp["name"]
		if disp != "form-data" || !hasName {
			return nil, errorf(StatusBadRequest, "multipart", cds[0], "part %d is not form-data with a name (RFC 7578 § 4.2)", n+1)
		}
		fn, ext, isFile, warn := fileName(cds[0], dp)
		if warn != "" {
			raw.Warnings = append(raw.Warnings, fmt.Sprintf("part %d: %s", n+1, warn))
		}
		if !isFile {
			v, err := io.ReadAll(io.LimitReader(p, valueMax+1))
			if err != nil {
				return nil, multipartError(err)
			}
			if int64(len(v)) > valueMax {
				return nil, &decoder.LimitError{Limit: "value bytes", Max: int(valueMax)}
			}
			value := string(v)
			if err := d.Add(raw, name, value, "body"); err != nil {
				return nil, err
			}
			form.RawParts = append(form.RawParts, RawPart{name, value})
			continue
		}
		f, err := storeFile(p, form, cfg)
		if err != nil {
			return nil, err
		}
		f.name, f.filename, f.filenameExt = name, fn, ext
		f.contentType = p.Header.Get("Content-Type")
		files = append(files, f)
	}
}

// preambleCheck refuses a preamble that holds the boundary (a delimiter
// line with a byte before it, "A--B", which Go skips with the part it
// opens) and names any other preamble in a warning.
func preambleCheck(bs *boundaryScanner, raw *decoder.Raw) error {
	if bs.strayPreamble {
		return errorf(StatusBadRequest, "multipart", "", "the boundary appears before the first boundary line, not at the start of a line: the part it opens would be lost (RFC 2046 § 5.1.1)")
	}
	if bs.preamble > 0 {
		raw.Warnings = append(raw.Warnings, fmt.Sprintf("%d bytes before the first boundary ignored (a preamble, RFC 2046 § 5.1.1)", bs.preamble))
	}
	return nil
}

// duplicateParam returns the name of a parameter given twice in a header
// value such as a Content-Type or Content-Disposition ("boundary=abc;
// boundary=abc"), or "". mime.ParseMediaType refuses a repeated name only
// when the values differ; two of one parameter are two readings of one
// header, so the gateway refuses them all (corpus case 50). Quoted strings
// (RFC 9110 § 5.6.4) are skipped, so a ';' inside a file name is not a
// parameter.
func duplicateParam(v string) string {
	seen := map[string]bool{}
	inQuote := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"':
			inQuote = !inQuote
		case !inQuote && c == ';':
			rest := strings.TrimLeft(v[i+1:], " \t")
			name, _, ok := strings.Cut(rest, "=")
			if !ok {
				continue
			}
			name = strings.ToLower(strings.TrimSpace(name))
			if seen[name] {
				return name
			}
			seen[name] = true
		}
	}
	return ""
}

// multipartError types what mime/multipart returns: a limit is 413, the
// body's own error (short, slow) is kept, anything else is a broken body.
func multipartError(err error) error {
	var e *Error
	switch {
	case errors.As(err, &e):
		return err
	case errors.Is(err, multipart.ErrMessageTooLarge):
		return &Error{Status: StatusRequestEntityTooLarge, Op: "multipart", Msg: "part headers too large", Err: err}
	}
	return &Error{Status: StatusBadRequest, Op: "multipart", Msg: "broken body (truncated, or no closing boundary)", Err: err}
}

// storeFile streams a file part to a temporary file without a name
// (openTemp), hashing it on the way. The client's file name plays no part
// in it. The file stays open for File.Reader until Form.Close.
func storeFile(p io.Reader, form *Form, cfg Config) (rawFile, error) {
	dir := cfg.TempDir
	if dir == "" {
		dir = os.TempDir()
	}
	tf, err := openTemp(dir)
	if err != nil {
		return rawFile{}, &Error{Status: StatusInternalServerError, Op: "multipart", Msg: "temporary file", Err: errors.Join(ErrServer, err)}
	}
	form.stored = append(form.stored, tf) // closed by Form.Close, on error too
	max := cfg.Limits.fileBytes()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tf, h), io.LimitReader(p, max+1))
	if err != nil {
		var e *Error
		if errors.As(err, &e) || !isWriteError(err) {
			return rawFile{}, multipartError(err)
		}
		return rawFile{}, &Error{Status: StatusInternalServerError, Op: "multipart", Msg: "storing a file", Err: errors.Join(ErrServer, err)}
	}
	if n > max {
		return rawFile{}, errorf(StatusRequestEntityTooLarge, "multipart", "", "a file of more than %d bytes", max)
	}
	return rawFile{size: n, sha256: hex.EncodeToString(h.Sum(nil)), content: tf}, nil
}

func isWriteError(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) && pe.Op == "write"
}

// fileName applies the one rule for a part's file name (RFC 7578 § 4.2,
// RFC 6266 § 4.3): a part with a filename or filename* parameter is a file
// part. filename* (RFC 5987 / RFC 8187, UTF-8 or US-ASCII, as Go's
// mime.ParseMediaType decodes it) wins when it decodes; otherwise filename,
// whose raw bytes are decoded later with the request's charset. When both
// are present the loser is named in a warning (corpus case 52).
func fileName(cd string, dp map[string]string) (name string, ext, isFile bool, warn string) {
	if !strings.Contains(strings.ToLower(cd), "filename*") {
		name, isFile = dp["filename"]
		return name, false, isFile, ""
	}
	// Parse again with filename* renamed, so that Go reports both values.
	both := dp
	if _, p, err := mime.ParseMediaType(renameExt(cd)); err == nil {
		both = p
	}
	plain, hasPlain := both["filename"]
	extRaw, hasExt := both["x-cgigate-filename-ext"]
	if !hasExt {
		return plain, false, hasPlain, ""
	}
	text, ok := decodedExt(extRaw)
	if !ok {
		return plain, false, true, fmt.Sprintf("filename* %q not decodable (UTF-8 and US-ASCII only), filename used", extRaw)
	}
	if hasPlain && plain != text {
		warn = fmt.Sprintf("filename* %q used, filename %q ignored (RFC 6266 § 4.3)", text, strings.ToValidUTF8(plain, "\uFFFD"))
	}
	return text, true, true, warn
}

// decodedExt reports whether mime.ParseMediaType decodes an RFC 5987
// value on its own.
func decodedExt(v string) (string, bool) {
	_, p, err := mime.ParseMediaType("form-data; filename*=" + v)
	if err != nil {
		return "", false
	}
	s, ok := p["filename"]
	return s, ok
}

// renameExt renames each "filename*" parameter (after a ';') so that
// mime.ParseMediaType reports it beside "filename" instead of over it.
func renameExt(cd string) string {
	var b strings.Builder
	rest := cd
	for {
		i := strings.IndexByte(rest, ';')
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:i+1])
		rest = rest[i+1:]
		trimmed := strings.TrimLeft(rest, " \t")
		if len(trimmed) >= 10 && strings.EqualFold(trimmed[:10], "filename*=") {
			b.WriteString(rest[:len(rest)-len(trimmed)])
			b.WriteString("x-cgigate-filename-ext=")
			rest = trimmed[10:]
		}
	}
}

// decodeFiles decodes the stored parts' names and file names with the
// request's charset.
func decodeFiles(raws []rawFile, res *decoder.Result) ([]File, error) {
	if len(raws) == 0 {
		return []File{}, nil
	}
	cs, err := charset.Lookup(res.Charset)
	if err != nil {
		cs = charset.UTF8
	}
	text := func(s, what string, i int) string {
		t, bad := cs.Decode([]byte(s))
		if len(bad) > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("file %d %s: %d invalid byte sequences in %s, replaced by U+FFFD", i+1, what, len(bad), cs.Name()))
		}
		return strings.ReplaceAll(t, "\x00", "\uFFFD")
	}
	out := make([]File, 0, len(raws))
	for i, r := range raws {
		fn := r.filename
		if r.filenameExt {
			fn = strings.ReplaceAll(strings.ToValidUTF8(fn, "\uFFFD"), "\x00", "\uFFFD")
		} else {
			fn = text(fn, "filename", i)
		}
		out = append(out, File{
			Name: text(r.name, "name", i), Filename: fn,
			ContentType: strings.ToValidUTF8(r.contentType, "\uFFFD"),
			Size:        r.size, SHA256: r.sha256, content: r.content,
		})
	}
	return out, nil
}

// boundaryScanner watches, line by line, the bytes multipart.Reader reads,
// for what Go passes over in silence (RFC 2046 § 5.1.1):
//
//   - the preamble, before the first delimiter line. Go skips it whole,
//     so a boundary off the start of its line there ("A--B") hides the
//     part it was meant to open: strayPreamble says the boundary appeared
//     in the preamble, preamble counts its bytes other than white space.
//   - the closing delimiter line ("--B--", then only white space up to the
//     line's end). Go reports the end of a body cut inside a part's
//     headers as the same io.EOF as the form's end; seen tells the two
//     apart. The first closing line is where Go stops: in a part's body
//     it ends the part, in a part's headers it is a malformed header line
//     (an error, not io.EOF).
//   - the epilogue after it, which Go never reads, so a part after a
//     closing line sent too early would be lost: strayEpilogue says the
//     boundary appeared there, epilogue counts its bytes other than white
//     space.
//
// The boundary cannot hold CR or LF, so it is looked for within each line.
type boundaryScanner struct {
	r     io.Reader
	dash  []byte // "--" + boundary
	close []byte // "--" + boundary + "--"
	next  []int  // KMP: the length of dash matched after a mismatch
	phase int    // inPreamble, inParts, inEpilogue

	pos   int  // bytes of close matched at the start of the current line
	state int  // lineMatching, lineClose, lineOpen, lineOther
	k     int  // bytes of dash matched within the line (preamble, epilogue)
	found bool // the line holds dash (preamble, epilogue)

	seen                         bool
	preamble, epilogue           int64
	strayPreamble, strayEpilogue bool
}

const (
	inPreamble = iota
	inParts
	inEpilogue
)

const (
	lineMatching = iota // the line so far is a prefix of "--B--"
	lineClose           // "--B--", white space may follow
	lineOpen            // "--B" and white space, which may continue
	lineOther           // not a delimiter line
)

func newBoundaryScanner(r io.Reader, boundary string) *boundaryScanner {
	dash := []byte("--" + boundary)
	next := make([]int, len(dash)+1)
	for i, k := 1, 0; i < len(dash); i++ {
		for k > 0 && dash[i] != dash[k] {
			k = next[k]
		}
		if dash[i] == dash[k] {
			k++
		}
		next[i+1] = k
	}
	return &boundaryScanner{r: r, dash: dash, close: append(dash[:len(dash):len(dash)], '-', '-'), next: next}
}

func isPadding(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

func (f *boundaryScanner) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	b := p[:n]
	for i := 0; i < len(b); i++ {
		c := b[i]
		if f.state == lineOther && f.phase == inParts {
			// Not a closing line: nothing matters before its end, which
			// IndexByte finds many bytes at a time (a file part is mostly
			// such lines; a byte-at-a-time scan was a fifth of the time
			// of storing one).
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				break
			}
			i += j
			c = '\n'
		}
		if c == '\n' {
			f.endLine()
			continue
		}
		if f.phase != inParts {
			f.scanOutside(c)
		}
		switch f.state {
		case lineMatching:
			switch {
			case f.pos < len(f.close) && c == f.close[f.pos]:
				if f.pos++; f.pos == len(f.close) {
					f.state = lineClose
				}
			case f.pos == len(f.dash) && isPadding(c):
				f.state = lineOpen
			default:
				f.state = lineOther
			}
		case lineClose, lineOpen:
			if !isPadding(c) {
				f.state = lineOther
			}
		}
	}
	if err == io.EOF {
		f.endLine()
	}
	return n, err
}

// scanOutside counts a byte of the preamble or the epilogue and looks for
// the boundary among them.
func (f *boundaryScanner) scanOutside(c byte) {
	if !isPadding(c) {
		if f.phase == inPreamble {
			f.preamble++
		} else {
			f.epilogue++
		}
	}
	for f.k > 0 && c != f.dash[f.k] {
		f.k = f.next[f.k]
	}
	if c == f.dash[f.k] {
		if f.k++; f.k == len(f.dash) {
			f.found = true
			f.k = f.next[f.k]
		}
	}
}

// endLine ends the current line: a delimiter line moves to the next
// phase, and a boundary elsewhere in the preamble or epilogue is stray.
func (f *boundaryScanner) endLine() {
	open := f.state == lineOpen || f.state == lineMatching && f.pos == len(f.dash)
	closing := f.state == lineClose
	if f.phase == inPreamble && (open || closing) {
		// The delimiter line's own bytes were counted as preamble.
		f.preamble -= int64(f.pos)
	}
	switch {
	case f.phase == inPreamble && open:
		f.phase = inParts
	case f.phase != inEpilogue && closing:
		f.phase, f.seen = inEpilogue, true
	case f.phase == inPreamble && f.found:
		f.strayPreamble = true
	case f.phase == inEpilogue && f.found:
		f.strayEpilogue = true
	}
	f.pos, f.state, f.k, f.found = 0, lineMatching, 0, false
}
