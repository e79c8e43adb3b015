package main

import (
	"errors"
	"time"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/internal/record"
)

// recordSubmission keeps the form's files in filesDir (a declared form's
// `files`) or, when that is "", where CGIGATE_FILES_DIR says, if it does;
// then it appends the submission to CGIGATE_RECORD: the record never
// names a file that is not kept. Either failing is a 503, the submission
// not taken (a file kept before a failed append stays, named by its
// content, and is harmless).
func (g *gateway) recordSubmission(r *cgi.Request, form *cgi.Form, res result, filesDir string) error {
	rec := newRecord(g.now, r, form, res)
	if filesDir == "" {
		filesDir = g.cfg.filesDir
	}
	var err error
	if filesDir != "" {
		err = keepFiles(filesDir, form, &rec)
	}
	if err == nil {
		err = record.Append(g.cfg.record, rec)
	}
	if err != nil {
		return &cgi.Error{Status: cgi.StatusServiceUnavailable, Op: "record", Msg: "the submission could not be recorded", Err: errors.Join(cgi.ErrServer, err)}
	}
	return nil
}

// keepFiles stores the uploaded files of form in dir, by their SHA-256
// (record.KeepFile), and names each in rec. A declared form that keeps its
// files in a folder of its own calls it with that folder.
func keepFiles(dir string, form *cgi.Form, rec *record.Record) error {
	for i, f := range form.Files {
		path, err := record.KeepFile(dir, f.Reader(), f.SHA256)
		if err != nil {
			return err
		}
		rec.Files[i].Path = path
	}
	return nil
}

// newRecord is the record line of a submission: the fields and files as
// rendered in res, the request's charset choice, and its raw input. The
// time is read after the id is made, so that the id's millisecond is not
// later than the record's time unless the process makes over 4,096 ids in
// one millisecond or its clock goes back (NewID then counts past it).
func newRecord(now func() time.Time, r *cgi.Request, form *cgi.Form, res result) record.Record {
	rec := record.Record{
		ID: record.NewID(time.Now()), Time: record.Stamp(now()), Form: res.Form, RemoteAddr: r.RemoteAddr,
		UserAgent: valid(r.Header.Get("User-Agent")), Referer: valid(r.Header.Get("Referer")),
		Charset: res.Charset, CharsetSource: res.CharsetSource, Confidence: form.Confidence,
		Fields:   make([]record.Field, len(res.Fields)),
		Files:    make([]record.File, len(res.Files)),
		Warnings: res.Warnings,
	}
	for i, f := range res.Fields {
		rec.Fields[i] = record.Field{Name: f.Name, Value: f.Value, Source: f.Source}
	}
	for i, f := range res.Files {
		rec.Files[i] = record.File{Name: f.Name, Filename: f.Filename, ContentType: f.ContentType, Size: f.Size, SHA256: f.SHA256}
	}
	parts := make([]record.Part, len(form.RawParts))
	for i, p := range form.RawParts {
		parts[i] = record.NewPart(p.Name, p.Value)
	}
	rec.Raw = record.NewRaw(r.RawQuery, r.Header.Get("Content-Type"), form.RawBody, parts)
	return rec
}
