package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cgigate/cgigate/decoder"
)

// logLine is what the command needs of one access log line.
type logLine struct {
	VHost  string // %v of vhost_combined, without its port; "" otherwise
	Method string
	Target string // the request target, Apache's escapes undone
	Status int
}

// logFormatError says a line is not in Apache's common, combined or
// vhost_combined format.
type logFormatError struct{ Reason string }

func (e *logFormatError) Error() string {
	return "not an Apache common or combined log line: " + e.Reason
}

// errNoRequest marks a line whose request is "-" (a connection closed
// before a request, Apache's 408): nothing to decode, nothing wrong.
var errNoRequest = errors.New("no request")

// parseLogLine reads the formats of Apache's mod_log_config:
//
//	common          %h %l %u %t "%r" %>s %b
//	combined        common "%{Referer}i" "%{User-agent}i"
//	vhost_combined  %v:%p common... (one field more before %t)
//
// Apache writes the request line with '"' and '\' escaped and every other
// byte outside printable ASCII as "\xhh" (mod_log_config, since 2.0.46);
// those are undone, so a browser that sent raw 8-bit bytes in its request
// line is decoded like one that percent-encoded them.
func parseLogLine(line []byte) (logLine, error) {
	var l logLine
	open := bytes.IndexByte(line, '[')
	if open < 0 {
		return l, &logFormatError{"no [time]"}
	}
	head := strings.Fields(string(line[:open]))
	switch len(head) {
	case 3: // %h %l %u
	case 4: // %v:%p %h %l %u
		l.VHost = head[0]
		if i := strings.LastIndexByte(l.VHost, ':'); i >= 0 && !strings.Contains(l.VHost[i:], "]") {
			l.VHost = l.VHost[:i]
		}
	default:
		return l, &logFormatError{fmt.Sprintf("%d fields before [time], want 3 or 4", len(head))}
	}
	rest := line[open:]
	close := bytes.IndexByte(rest, ']')
	if close < 0 {
		return l, &logFormatError{"no ] after the time"}
	}
	rest = bytes.TrimLeft(rest[close+1:], " ")
	if len(rest) == 0 || rest[0] != '"' {
		return l, &logFormatError{`no "request line"`}
	}
	req, after, ok := unquoteLog(rest[1:])
	if !ok {
		return l, &logFormatError{"unterminated request line"}
	}
	if f := strings.Fields(string(after)); len(f) > 0 {
		l.Status, _ = strconv.Atoi(f[0])
	}
	if req == "-" || req == "" {
		return l, errNoRequest
	}
	sp := strings.IndexByte(req, ' ')
	if sp < 0 {
		return l, &logFormatError{"request line without a target"}
	}
	l.Method, l.Target = req[:sp], req[sp+1:]
	if end := strings.LastIndexByte(l.Target, ' '); end >= 0 && strings.HasPrefix(l.Target[end+1:], "HTTP/") {
		l.Target = l.Target[:end]
	}
	return l, nil
}

// unquoteLog reads up to the '"' that closes a quoted log field, undoing
// "\"", "\\" and "\xhh". ok is false when there is none.
func unquoteLog(s []byte) (field string, rest []byte, ok bool) {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return string(b), s[i+1:], true
		case c == '\\' && i+1 < len(s):
			switch n := s[i+1]; {
			case n == 'x' && i+3 < len(s) && ishex(s[i+2]) && ishex(s[i+3]):
				b = append(b, unhex(s[i+2])<<4|unhex(s[i+3]))
				i += 3
			case n == '"' || n == '\\':
				b = append(b, n)
				i++
			default:
				b = append(b, c)
			}
		default:
			b = append(b, c)
		}
	}
	return "", nil, false
}

// logJSON is one log line: the decoded target with the line's request.
type logJSON struct {
	urlJSON
	Method string `json:"method"`
	Status int    `json:"status"`
}

// summary counts requests by charset and source. It holds one entry per
// charset and source, a set bounded by the charsets there are, whatever
// the log's length.
type summary struct {
	lines, requests, noRequest, unreadable, undecodable int
	ascii                                               int
	counts                                              map[string]map[string]int
}

func (s *summary) add(d *decoded) {
	s.requests++
	if d.Choice.source == "default" && !hasNonASCII(d.Input) {
		s.ascii++
		return
	}
	if s.counts == nil {
		s.counts = map[string]map[string]int{}
	}
	name := d.Choice.cs.Name()
	if s.counts[name] == nil {
		s.counts[name] = map[string]int{}
	}
	s.counts[name][string(d.Choice.source)]++
}

func hasNonASCII(s string) bool {
	b, _ := percentDecode(s)
	return decoder.NeedsCharset(b)
}

func (s *summary) write(w io.Writer, name string) {
	fmt.Fprintf(w, "urldecode: %s: %d lines, %d requests", name, s.lines, s.requests)
	if s.noRequest > 0 {
		fmt.Fprintf(w, ", %d without a request", s.noRequest)
	}
	fmt.Fprintf(w, ", %d not understood, %d with bytes not decoded\n", s.unreadable, s.undecodable)
	type row struct {
		name string
		n    int
		by   string
	}
	rows := []row{}
	if s.ascii > 0 {
		rows = append(rows, row{"ascii", s.ascii, "no byte beyond ASCII"})
	}
	for cs, bySource := range s.counts {
		r := row{name: cs}
		var parts []string
		for src, n := range bySource {
			r.n += n
			parts = append(parts, fmt.Sprintf("%s %d", src, n))
		}
		sort.Strings(parts)
		r.by = strings.Join(parts, ", ")
		rows = append(rows, r)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].n != rows[j].n {
			return rows[i].n > rows[j].n
		}
		return rows[i].name < rows[j].name
	})
	for _, r := range rows {
		fmt.Fprintf(w, "  %-14s %9d  %s\n", r.name, r.n, r.by)
	}
}

// maxLogLine bounds one log line; Apache's own LimitRequestLine is 8190
// bytes, so a longer line is not a request line Apache accepted.
const maxLogLine = 64 << 10

// runLog decodes an access log in one pass and constant memory: a line at
// a time through a fixed buffer, no line kept after it is printed.
func runLog(c *config, stdin io.Reader, out *bufio.Writer, stderr io.Writer) int {
	name := c.Log
	var r io.Reader = stdin
	var size int64 = -1
	if name == "-" {
		name = "standard input"
	} else {
		f, err := os.Open(c.Log)
		if err != nil {
			fmt.Fprintf(stderr, "urldecode: %v\n", err)
			return exitPartial
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			size = st.Size()
		}
		r = f
	}
	counter := &countingReader{r: r}
	lines := newLineReader(counter, maxLogLine)
	bar := newProgress(stderr, size)
	d := newURLDecoder(c)
	var sum summary
	status := exitOK
	complain := func(n int, err error) {
		out.Flush()
		bar.clear()
		fmt.Fprintf(stderr, "urldecode: %s:%d: %v\n", c.Log, n, err)
		status = exitPartial
	}
	for n := 1; ; n++ {
		line, err := lines.next()
		var tooLong *lineTooLongError
		switch {
		case errors.As(err, &tooLong):
			sum.lines++
			sum.unreadable++
			complain(n, err)
			continue
		case err == io.EOF:
		case err != nil:
			complain(n, err)
		}
		if err != nil {
			break
		}
		sum.lines++
		if len(bytes.TrimSpace(line)) > 0 {
			if e := d.logLine(n, line, out, &sum); e != nil {
				complain(n, e)
			}
		}
		bar.update(counter.n, n)
	}
	out.Flush()
	bar.clear()
	sum.write(stderr, name)
	return status
}

// logLine decodes and prints one line of a log.
func (d *urlDecoder) logLine(n int, line []byte, w *bufio.Writer, sum *summary) error {
	l, err := parseLogLine(line)
	if errors.Is(err, errNoRequest) {
		sum.noRequest++
		return nil
	}
	if err != nil {
		sum.unreadable++
		return err
	}
	host := d.c.Host
	if l.VHost != "" {
		host = l.VHost
	}
	res, err := d.decode(l.Target, host)
	if err != nil {
		sum.undecodable++
		if d.c.JSON {
			writeJSON(w, errorJSON{Line: n, Input: l.Target, Error: err.Error()})
		}
		return err
	}
	sum.add(res)
	if len(res.Failed) > 0 {
		sum.undecodable++
	}
	if d.c.JSON {
		writeJSON(w, logJSON{urlJSON: res.json(n), Method: l.Method, Status: l.Status})
	} else {
		fmt.Fprintf(w, "%s\t%s\n", res.url(), res.Choice.text())
	}
	return joinFailed(res.Failed)
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// progress draws a bar on stderr, only when stderr is a terminal: a file
// or a pipe gets no carriage returns. golang.org/x/term is not a
// dependency; a character device is what a terminal is to os.File.
type progress struct {
	w     io.Writer
	on    bool
	total int64
	last  time.Time
	drawn bool
}

func newProgress(w io.Writer, total int64) *progress {
	return &progress{w: w, on: isTerminal(w), total: total}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) update(done int64, lines int) {
	if !p.on || lines%1024 != 0 {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last = now
	p.drawn = true
	if p.total <= 0 {
		fmt.Fprintf(p.w, "\r%d lines", lines)
		return
	}
	const width = 30
	frac := min(float64(done)/float64(p.total), 1)
	full := int(frac * width)
	fmt.Fprintf(p.w, "\r[%s%s] %3.0f%% %d lines", strings.Repeat("=", full), strings.Repeat(" ", width-full), frac*100, lines)
}

func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}
