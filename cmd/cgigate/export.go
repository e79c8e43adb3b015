//go:build !cgionly

package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"github.com/cgigate/cgigate/internal/cli"
	"io"
	"mime"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/internal/record"
)

// exportSource is the charset_source of a record that `cgigate export
// -charset` decoded again.
const exportSource = "export"

// exportOptions are the flags of `cgigate export`.
type exportOptions struct {
	charset *charset.Charset // nil: the fields as recorded
	csv     bool
	bom     bool
	since   time.Time
	decoder decoder.Options // the deployment's settings, from the environment
}

// runExport is `cgigate export [flags] FILE`: the submissions of a record
// file, as JSON lines or CSV, decoded again from their raw bytes with
// -charset. Lines that are not records, and records that cannot be decoded
// again, are named on stderr and left out; the exit status is then 1.
// exportUsage is the usage line's export subcommand in this build.
const exportUsage = "\n       %[1]s export [-charset NAME] [-format jsonl|csv] [-since TIME] FILE"

func runExport(env map[string]string, name string, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet(name+" export", flag.ContinueOnError)
	cs := fl.String("charset", "", "decode each submission again from its raw bytes as if `NAME` (a WHATWG label) had been the charset chosen, whatever chose it then")
	format := fl.String("format", "jsonl", "`jsonl` (one record a line, as the file holds them) or csv (a header and one row a submission: id, time, form, remote_addr, user_agent, referer, charset, charset_source, confidence, one column per field name in first-seen order, files, warnings)")
	since := fl.String("since", "", "only submissions recorded at or after `TIME` (RFC 3339, or a date 2006-01-02, UTC)")
	bom := fl.Bool("bom", true, "begin the CSV with a UTF-8 byte order mark, by which spreadsheets know it is UTF-8")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: %s export [-charset NAME] [-format jsonl|csv] [-since TIME] FILE\n\nPrints the submissions of the record file FILE (CGIGATE_RECORD). The\ndeployment's CGIGATE_SEPARATOR, CGIGATE_NCR and limits, from the\nenvironment, apply to -charset.\n\n", name)
		fl.PrintDefaults()
	}
	if err := cli.Parse(fl, args, stdout, stderr); err != nil {
		return cli.Code(err)
	}
	if fl.NArg() != 1 {
		fl.Usage()
		return 2
	}
	cfg, err := loadConfig(env)
	if err != nil {
		fmt.Fprintf(stderr, "%s export: %v\n", name, err)
		return 2
	}
	opts := exportOptions{bom: *bom, decoder: cfg.cgi.Decoder}
	switch *format {
	case "jsonl":
	case "csv":
		opts.csv = true
	default:
		fmt.Fprintf(stderr, "%s export: -format %q: want jsonl or csv\n", name, *format)
		return 2
	}
	if *cs != "" {
		if opts.charset, err = charset.Lookup(*cs); err != nil {
			fmt.Fprintf(stderr, "%s export: -charset: %v\n", name, err)
			return 2
		}
	}
	if *since != "" {
		if opts.since, err = parseSince(*since); err != nil {
			fmt.Fprintf(stderr, "%s export: -since: %v\n", name, err)
			return 2
		}
	}
	out := bufio.NewWriter(stdout)
	err = export(fl.Arg(0), opts, out, func(err error) { fmt.Fprintf(stderr, "%s export: %v\n", name, err) })
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	switch {
	case errors.Is(err, errSkipped):
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "%s export: %v\n", name, err)
		return 1
	}
	return 0
}

// parseSince reads -since: an RFC 3339 time, or a date at midnight UTC.
func parseSince(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 time nor a date (2006-01-02)", s)
	}
	return t, nil
}

// errSkipped says that export left something out, after naming it.
var errSkipped = errors.New("some lines were left out")

// export writes the submissions of the record file at path to out. A line
// or record it leaves out is passed to report. CSV reads the file twice:
// once for the field names, which make the header, then for the rows, so
// that a file of any length is exported in the memory of one record.
func export(path string, opts exportOptions, out io.Writer, report func(error)) error {
	skipped := false
	each := func(emit func(rec record.Record, line []byte) error) error {
		skipped = false
		return eachRecord(path, opts, emit, func(err error) { skipped = true; report(err) })
	}
	var err error
	if !opts.csv {
		err = each(func(rec record.Record, line []byte) error {
			if opts.charset == nil {
				// Unchanged: the line as the file holds it.
				_, err := out.Write(append(line, '\n'))
				return err
			}
			var buf bytes.Buffer
			if err := record.Encode(&buf, rec); err != nil {
				return err
			}
			_, err := out.Write(buf.Bytes())
			return err
		})
	} else {
		var cols csvColumns
		if err := each(func(rec record.Record, _ []byte) error { cols.add(rec); return nil }); err != nil {
			return err
		}
		if opts.bom {
			io.WriteString(out, "\uFEFF")
		}
		w := csv.NewWriter(out)
		// Rows end in LF, not RFC 4180's CRLF: with UseCRLF, encoding/csv
		// writes every LF inside a cell as CRLF too, and a value would not
		// come back as it was typed. Spreadsheets read either.
		w.Write(cols.header())
		err = each(func(rec record.Record, _ []byte) error { return w.Write(cols.row(rec)) })
		w.Flush()
		err = errors.Join(err, w.Error())
	}
	if err == nil && skipped {
		err = errSkipped
	}
	return err
}

// eachRecord calls emit with every record of the file at path that
// -since keeps, decoded again when -charset asks; what it leaves out goes
// to report.
func eachRecord(path string, opts exportOptions, emit func(record.Record, []byte) error, report func(error)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := record.NewReader(f, 0)
	for {
		rec, err := r.Next()
		var le *record.LineError
		switch {
		case err == io.EOF:
			if fi, serr := f.Stat(); serr == nil && fi.Size() > r.Offset() {
				report(fmt.Errorf("%s: the last line, at offset %d, has no newline: left out (a writer is writing it, or was killed mid-line)", path, r.Offset()))
			}
			return nil
		case errors.As(err, &le):
			report(fmt.Errorf("%s: %w", path, err))
			continue
		case err != nil:
			return err
		}
		if !opts.since.IsZero() {
			t, err := record.ParseTime(rec.Time)
			if err != nil {
				report(fmt.Errorf("%s: record %s: time %q: %w", path, rec.ID, rec.Time, err))
				continue
			}
			if t.Before(opts.since) {
				continue
			}
		}
		if opts.charset != nil {
			if rec, err = redecode(rec, opts.charset, opts.decoder); err != nil {
				report(fmt.Errorf("%s: record %s at offset %d not decoded again: %w", path, rec.ID, r.Offset(), err))
				continue
			}
		}
		if err := emit(rec, r.Line()); err != nil {
			return err
		}
	}
}

// errNoRaw is a record written before records kept their raw input.
var errNoRaw = errors.New("it holds no raw input (recorded before raw bytes were kept)")

// redecode decodes rec again from its raw input as the gateway did, but in
// cs, with the decoder options opts: its fields, charset and warnings are
// replaced, the source is "export" and the confidence 1. File names are
// not in the raw input and stay as recorded.
func redecode(rec record.Record, cs *charset.Charset, opts decoder.Options) (record.Record, error) {
	// A line without "raw" decodes to nil parts; every line with it has a
	// list, empty or not.
	if rec.Raw.Parts == nil {
		return rec, errNoRaw
	}
	d := decoder.New(opts)
	// The recorded query keeps its escapes and escapes only bare bytes,
	// which percent-decoding reads alike.
	raw, err := d.SplitQuery(rec.Raw.Query, "query")
	if err != nil {
		return rec, err
	}
	mt, _, _ := mime.ParseMediaType(rec.Raw.ContentType)
	if raw.Kind == decoder.ISINDEX && rec.Raw.ContentType != "" {
		// A POST's ISINDEX query gives no keywords (cgi.ReadForm).
		raw.Keywords, raw.Kind = nil, decoder.Empty
	}
	body, err := record.UnescapeBody(rec.Raw.Body)
	if err != nil {
		return rec, fmt.Errorf("raw body: %w", err)
	}
	switch {
	case mt == "text/plain":
		err = d.SplitTextPlain(raw, body, "body")
	case mt == "application/x-www-form-urlencoded":
		err = d.SplitURLEncoded(raw, body, "body")
	case body != "":
		err = fmt.Errorf("raw body of Content-Type %q, which is neither urlencoded nor text/plain", rec.Raw.ContentType)
	}
	for i, p := range rec.Raw.Parts {
		if err != nil {
			break
		}
		var name, value string
		name, err = p.RawName()
		if err == nil {
			value, err = p.Value()
		}
		if err == nil {
			err = d.Add(raw, name, value, "body")
		} else {
			err = fmt.Errorf("raw part %d: %w", i+1, err)
		}
	}
	if err != nil {
		return rec, err
	}
	res, err := d.DecodeAs(raw, decoder.Choice{Charset: cs, Source: exportSource, Confidence: 1})
	if err != nil {
		return rec, err
	}
	rec.Charset, rec.CharsetSource, rec.Confidence = res.Charset, exportSource, 1
	rec.Fields = make([]record.Field, len(res.Fields))
	for i, f := range res.Fields {
		rec.Fields[i] = record.Field{Name: valid(f.Name), Value: valid(f.Value), Source: f.Origin}
	}
	rec.Warnings = nil
	for _, w := range res.Warnings {
		rec.Warnings = append(rec.Warnings, valid(w))
	}
	return rec, nil
}

// csvColumns are the CSV's columns: the fixed ones, then one per field
// name in the order the names were first seen, then files and warnings.
type csvColumns struct {
	names []string
	index map[string]int
}

var csvFixed = []string{"id", "time", "form", "remote_addr", "user_agent", "referer", "charset", "charset_source", "confidence"}
var csvTail = []string{"files", "warnings"}

func (c *csvColumns) add(rec record.Record) {
	if c.index == nil {
		c.index = map[string]int{}
	}
	for _, f := range rec.Fields {
		if _, ok := c.index[f.Name]; !ok {
			c.index[f.Name] = len(c.names)
			c.names = append(c.names, f.Name)
		}
	}
}

// header names the columns; a field whose name is a fixed column's is
// "NAME (field)".
func (c *csvColumns) header() []string {
	h := append([]string(nil), csvFixed...)
	for _, n := range c.names {
		for _, fixed := range append(csvFixed, csvTail...) {
			if n == fixed {
				n += " (field)"
				break
			}
		}
		h = append(h, n)
	}
	return cells(append(h, csvTail...))
}

// row is rec's cells. A field given more than once has its values in one
// cell, a line each; so have the files and the warnings.
func (c *csvColumns) row(rec record.Record) []string {
	row := []string{rec.ID, rec.Time, rec.Form, rec.RemoteAddr, rec.UserAgent, rec.Referer, rec.Charset, rec.CharsetSource,
		strconv.FormatFloat(rec.Confidence, 'f', -1, 64)}
	fields := make([][]string, len(c.names))
	for _, f := range rec.Fields {
		i := c.index[f.Name]
		fields[i] = append(fields[i], f.Value)
	}
	for _, vs := range fields {
		row = append(row, strings.Join(vs, "\n"))
	}
	var files []string
	for _, f := range rec.Files {
		kept := f.Path
		if kept == "" {
			kept = "sha256 " + f.SHA256 + ", not kept"
		}
		files = append(files, fmt.Sprintf("%s (%s, %d bytes): %s", f.Filename, f.ContentType, f.Size, kept))
	}
	row = append(row, strings.Join(files, "\n"), strings.Join(rec.Warnings, "\n"))
	return cells(row)
}

// cells defuses formulas: a spreadsheet runs a cell that begins with '=',
// '+', '-' or '@' (and some a tab or CR before them) as a formula, and
// submissions are whatever a visitor typed (CSV injection, CWE-1236). Such
// a cell gets a leading apostrophe, which spreadsheets show as text.
func cells(row []string) []string {
	for i, v := range row {
		if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
			row[i] = "'" + v
		}
	}
	return row
}
