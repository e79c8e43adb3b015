package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/search"
)

// config is the gateway's configuration, read from the environment that
// httpd.conf sets with SetEnv. The zero value is the defaults.
type config struct {
	cgi      cgi.Config
	indexDir string // CGIGATE_INDEX_DIR: documents ISINDEX searches look in
	record   string // CGIGATE_RECORD: the file each submission is appended to
	filesDir string // CGIGATE_FILES_DIR: where recorded submissions' files are kept
	// forms, templates and siteName are a site's own forms and pages
	// (CGIGATE_FORMS, CGIGATE_TEMPLATES, CGIGATE_SITE_NAME): only paths
	// and a name here, read when a request needs them (forms.go).
	forms, templates, siteName string
	search                     searchConfig
}

// setting is one environment variable: its default as shown in -help and
// how a value is applied.
type setting struct {
	name string
	// def is the default, printed with fmt.Sprint by -help: the
	// libraries' own constants, which in an interface are static data,
	// where formatting them here would run at every process's start.
	def   any
	help  string
	apply func(c *config, v string) error
}

// settings is one literal, search's entries with the others, so that it is
// laid out by the linker and a CGI process builds nothing for it at start.
var settings = []setting{
	{"CGIGATE_CHARSET", "", "the deployment's charset (a WHATWG label), used when a request names none; empty: sniff, then UTF-8",
		func(c *config, v string) error {
			if _, err := charset.Lookup(v); err != nil {
				return err
			}
			c.cgi.Decoder.Charset = v
			return nil
		}},
	{"CGIGATE_SNIFF", "1", "0 turns charset sniffing off: unnamed non-UTF-8 bytes become U+FFFD with a warning",
		func(c *config, v string) error {
			b, err := parseBool(v)
			c.cgi.Decoder.NoSniff = !b
			return err
		}},
	{"CGIGATE_NCR", "0", "1 turns numeric character references (&#21360;) into characters",
		func(c *config, v string) error {
			b, err := parseBool(v)
			c.cgi.Decoder.NCR = b
			return err
		}},
	{"CGIGATE_SEPARATOR", "&", "pair separators: & or &; (';' as well, HTML 4.01 § B.2.2; see CVE-2021-23336)",
		func(c *config, v string) error {
			switch v {
			case "&":
				c.cgi.Decoder.Semicolon = false
			case "&;":
				c.cgi.Decoder.Semicolon = true
			default:
				return errors.New(`want "&" or "&;"`)
			}
			return nil
		}},
	{"CGIGATE_MAX_BODY", cgi.DefaultMaxBody, "largest request body in bytes (413 above)",
		func(c *config, v string) error {
			n, err := parsePositive(v)
			c.cgi.Limits.Body = int64(n)
			c.cgi.Decoder.Limits.TotalBytes = n
			return err
		}},
	{"CGIGATE_MAX_FIELDS", decoder.DefaultMaxFields, "most name=value fields in a request (413 above)",
		func(c *config, v string) error {
			n, err := parsePositive(v)
			c.cgi.Decoder.Limits.Fields = n
			return err
		}},
	{"CGIGATE_READ_TIMEOUT", cgi.DefaultReadTimeout, "deadline for reading a request body from stdin (408 after); keep it below Apache's Timeout",
		func(c *config, v string) error {
			d, err := time.ParseDuration(v)
			if err == nil && d <= 0 {
				err = errors.New("want a positive duration")
			}
			c.cgi.Limits.ReadTimeout = d
			return err
		}},
	{"CGIGATE_INDEX_DIR", "", "folder of .txt and .html documents ISINDEX searches look in; empty: no search",
		func(c *config, v string) error { c.indexDir = v; return nil }},
	{"CGIGATE_RECORD", "", "file each form submission is appended to as one JSON line; empty: none",
		func(c *config, v string) error { c.record = v; return nil }},
	{"CGIGATE_FILES_DIR", "", "folder where the uploaded files of recorded submissions are kept, named by their SHA-256; empty: not kept",
		func(c *config, v string) error { c.filesDir = v; return nil }},
	{"CGIGATE_FORMS", "", "YAML file declaring the site's forms, each answered at /cgi-bin/cgigate/NAME (check it with cgigate -check-forms FILE); empty: none",
		func(c *config, v string) error { c.forms = v; return nil }},
	{"CGIGATE_TEMPLATES", "", "folder of html/template files replacing the built-in pages (prompt.html, results.html, form.html, thanks.html, submitted.html, error.html); empty: the built-in pages",
		func(c *config, v string) error { c.templates = v; return nil }},
	{"CGIGATE_SITE_NAME", "", "the site's name, shown in the title and header of the built-in pages",
		func(c *config, v string) error { c.siteName = v; return nil }},
	// The search (search.go).
	{"CGIGATE_INDEX_CHARSET", "", "charset (a WHATWG label) of the .txt documents that are neither valid UTF-8 nor marked by a byte order mark; empty: sniff each", setIndexCharset},
	{"CGIGATE_INDEX_URL", "", "where the documents of CGIGATE_INDEX_DIR are served, a path (/docs/) or an absolute http(s) URL; each result links to it and its path; empty: results are not links", setIndexURL},
	{"CGIGATE_SEARCH_FIELD", defaultSearchField, "the field of a site's search box: a GET of it alone (with page and _charset_) searches the index", setSearchField},
	{"CGIGATE_PAGE_SIZE", search.DefaultPageSize, "results a page of search results holds", setPageSize},
}

// loadConfig reads the settings from env. An unset or empty variable keeps
// its default; a bad value is an error naming the variable, which the
// gateway answers with 500 (a server misconfiguration) and logs.
func loadConfig(env map[string]string) (config, error) {
	var c config
	var errs []error
	for _, s := range settings {
		v, ok := env[s.name]
		if !ok || v == "" {
			continue
		}
		if err := s.apply(&c, v); err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: %w", s.name, v, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return c, fmt.Errorf("%w: configuration: %w", cgi.ErrServer, err)
	}
	return c, nil
}

func parseBool(v string) (bool, error) {
	switch v {
	case "1":
		return true, nil
	case "0":
		return false, nil
	}
	return false, errors.New("want 0 or 1")
}

func parsePositive(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, errors.New("want a positive integer")
	}
	return n, nil
}

// printSettings writes the settings with their defaults, for -help.
func printSettings(w io.Writer) {
	fmt.Fprintln(w, "\nEnvironment (set with SetEnv in httpd.conf):")
	for _, s := range settings {
		def := fmt.Sprint(s.def)
		if def == "" {
			def = `""`
		}
		fmt.Fprintf(w, "  %s (default %s)\n    \t%s\n", s.name, def, s.help)
	}
}
