package forms

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Value is one decoded name=value field of a submission.
type Value struct{ Name, Value string }

// Upload is one file part of a submission, as the gateway stored it.
type Upload struct {
	Name, Filename, ContentType string
	Size                        int64
}

// Problem is a field that fails its declaration, and what the visitor is
// told about it: the declared message, or a built-in one.
type Problem struct {
	Name    string `json:"name"`
	Problem string `json:"problem"`
}

// Validate judges a submission against f: every declared field with its
// kind and limits, then, with unknown: reject, every field f does not
// declare. It returns one problem per field name at most, declared fields
// first in their declared order. _charset_ and the honeypot are never
// unknown. The work is linear in the submission.
func (f *Form) Validate(values []Value, files []Upload) []Problem {
	var problems []Problem
	byName := map[string][]string{}
	for _, v := range values {
		byName[v.Name] = append(byName[v.Name], v.Value)
	}
	filesByName := map[string][]Upload{}
	for _, u := range files {
		filesByName[u.Name] = append(filesByName[u.Name], u)
	}
	for i := range f.Fields {
		fd := &f.Fields[i]
		if msg := fd.check(byName[fd.Name], filesByName[fd.Name]); msg != "" {
			if fd.Message != "" {
				msg = fd.Message
			}
			problems = append(problems, Problem{fd.Name, msg})
		}
	}
	if !f.Reject {
		return problems
	}
	reported := map[string]bool{}
	unknown := func(name string) {
		if name == "_charset_" || name == f.Honeypot || f.Field(name) != nil || reported[name] {
			return
		}
		reported[name] = true
		problems = append(problems, Problem{name, "This is not a field of this form."})
	}
	for _, v := range values {
		unknown(v.Name)
	}
	for _, u := range files {
		unknown(u.Name)
	}
	return problems
}

// Trapped reports whether the submission filled the form's honeypot, a
// field hidden from people: only a program fills it.
func (f *Form) Trapped(values []Value) bool {
	if f.Honeypot == "" {
		return false
	}
	for _, v := range values {
		if v.Name == f.Honeypot && strings.TrimSpace(v.Value) != "" {
			return true
		}
	}
	return false
}

// check returns what is wrong with the values and files sent for fd, or "".
func (fd *Field) check(values []string, files []Upload) string {
	if fd.Kind == File {
		return fd.checkFile(values, files)
	}
	if len(files) > 0 {
		return "This field takes text, not a file."
	}
	var filled []string
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			filled = append(filled, v)
		}
	}
	if len(filled) == 0 {
		if fd.Required {
			if fd.Kind == Checkbox {
				return "Please tick this box."
			}
			return "Please fill in this field."
		}
		return ""
	}
	if fd.Kind == Checkbox {
		for _, v := range filled {
			if len(fd.Choices) > 0 && !contains(fd.Choices, v) {
				return "Choose from: " + strings.Join(fd.Choices, ", ") + "."
			}
		}
		return ""
	}
	if len(filled) > 1 {
		return "Give one value only."
	}
	v := filled[0]
	switch fd.Kind {
	case Text:
		if !fd.Multiline && strings.ContainsAny(v, "\r\n") {
			return "Keep this to one line."
		}
		if fd.Max != nil {
			if n := utf8.RuneCountInString(v); float64(n) > *fd.Max {
				return fmt.Sprintf("Use at most %d characters (this has %d).", int64(*fd.Max), n)
			}
		}
	case Email:
		if !ValidEmail(v) {
			return "Enter an e-mail address, such as name@example.org."
		}
		if fd.Max != nil {
			if n := utf8.RuneCountInString(v); float64(n) > *fd.Max {
				return fmt.Sprintf("Use at most %d characters (this has %d).", int64(*fd.Max), n)
			}
		}
	case Number:
		n, ok := parseNumber(v)
		switch {
		case !ok:
			return "Enter a number, such as 42 or 3.5."
		case fd.Min != nil && n < *fd.Min:
			return fmt.Sprintf("Enter a number of at least %s.", formatNumber(*fd.Min))
		case fd.Max != nil && n > *fd.Max:
			return fmt.Sprintf("Enter a number of at most %s.", formatNumber(*fd.Max))
		}
	case Date:
		if _, err := time.Parse(time.DateOnly, v); err != nil || len(v) != len(time.DateOnly) {
			return "Enter a date as year-month-day, such as 2024-03-31."
		}
	case Choice:
		if !contains(fd.Choices, v) {
			return "Choose one of: " + strings.Join(fd.Choices, ", ") + "."
		}
	}
	return ""
}

func (fd *Field) checkFile(values []string, files []Upload) string {
	var chosen []Upload
	for _, u := range files {
		// A file input left empty is sent as a part with an empty file
		// name and no content (HTML § 4.10.21.4).
		if u.Filename != "" || u.Size > 0 {
			chosen = append(chosen, u)
		}
	}
	if len(chosen) == 0 {
		for _, v := range values {
			if v != "" {
				// An urlencoded form sends a file input's file name
				// as its value, and never the file.
				return `This form must be sent as multipart/form-data to carry a file.`
			}
		}
		if fd.Required {
			return "Please choose a file."
		}
		return ""
	}
	if len(chosen) > 1 {
		return "Send one file only."
	}
	u := chosen[0]
	if fd.Max != nil && float64(u.Size) > *fd.Max {
		return fmt.Sprintf("The file may be at most %d bytes (this one has %d).", int64(*fd.Max), u.Size)
	}
	if len(fd.Types) > 0 && !typeAllowed(fd.Types, u.ContentType) {
		return fmt.Sprintf("The file must be of type %s.", strings.Join(fd.Types, " or "))
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// typeAllowed matches a part's Content-Type (its parameters dropped,
// case-insensitive, RFC 2045 § 5.1) against the declared types, where
// "image/*" stands for every image type.
func typeAllowed(types []string, ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	for _, t := range types {
		t = strings.ToLower(t)
		if t == mt || strings.HasSuffix(t, "/*") && strings.HasPrefix(mt, t[:len(t)-1]) {
			return true
		}
	}
	return false
}

// parseNumber reads a number as HTML's number input sends one (a valid
// floating-point number, HTML § 2.3.4.3): digits, one optional leading
// minus, a fraction, an exponent. strconv alone would also take "Inf",
// "0x1p4" and "1_0".
func parseNumber(s string) (float64, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
			return 0, false
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
		return 0, false
	}
	return n, true
}

func formatNumber(n float64) string { return strconv.FormatFloat(n, 'f', -1, 64) }

// ValidEmail reports whether s is a valid e-mail address as HTML's email
// input defines one (HTML § 4.10.5.1.5): the pattern browsers check before
// they submit, written as loops rather than a regexp compiled at start.
func ValidEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || domain == "" {
		return false
	}
	for i := 0; i < len(local); i++ {
		c := local[i]
		if !(isAlnum(c) || strings.IndexByte(".!#$%&'*+/=?^_`{|}~-", c) >= 0) {
			return false
		}
	}
	for label := range strings.SplitSeq(domain, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if !isAlnum(label[i]) && label[i] != '-' {
				return false
			}
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// OriginError is a submission refused as cross-site: its Origin is
// neither the gateway's own nor one the form lists, or is "null" (a
// sandboxed or opaque page), or it has none and Sec-Fetch-Site says
// cross-site.
type OriginError struct {
	Form         string
	Origin       string // "" when the request sent none
	SecFetchSite string
	Self         string // the gateway's own origin
}

func (e *OriginError) Error() string {
	if e.Origin == "" {
		return fmt.Sprintf("form %s: cross-site submission refused: no Origin, Sec-Fetch-Site %q", e.Form, e.SecFetchSite)
	}
	return fmt.Sprintf("form %s: cross-site submission refused: Origin %q is neither %s nor listed in origins", e.Form, e.Origin, e.Self)
}

// CheckOrigin refuses a submission from another site (Fetch § 3.1.2: the
// Origin header; Fetch Metadata's Sec-Fetch-Site when a browser sends no
// Origin). self is the gateway's own origin, its scheme and Host. A
// request with neither header, from a script or an old browser, is
// accepted: such a client can send anything anyway, and the check is
// against browsers carrying a visitor's session to another site's form.
func (f *Form) CheckOrigin(origin, secFetchSite, self string) error {
	fail := &OriginError{Form: f.Name, Origin: origin, SecFetchSite: secFetchSite, Self: self}
	if origin == "" {
		if strings.EqualFold(secFetchSite, "cross-site") {
			return fail
		}
		return nil
	}
	o, err := normalOrigin(origin)
	if err != nil {
		return fail // "null" among them
	}
	if s, err := normalOrigin(self); err == nil && o == s {
		return nil
	}
	if contains(f.Origins, o) {
		return nil
	}
	return fail
}

// normalOrigin is an origin serialised as Origin headers carry it (RFC
// 6454 § 6.2): scheme and host in lower case, the scheme's default port
// left out. A declared origin may end in one "/".
func normalOrigin(s string) (string, error) {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return "", errors.New("want scheme://host, such as https://www.example.org")
	}
	scheme = strings.ToLower(scheme)
	if scheme != "http" && scheme != "https" {
		return "", errors.New("want an http or https origin")
	}
	rest = strings.TrimSuffix(rest, "/")
	if rest == "" || strings.ContainsAny(rest, "/?#@ \\") {
		return "", errors.New("an origin is scheme://host[:port], with no path")
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] < 0x21 || rest[i] > 0x7E {
			return "", errors.New("write the host in ASCII (punycode, xn--...)")
		}
	}
	host := strings.ToLower(rest)
	if h, port, ok := strings.Cut(host, ":"); ok && !strings.HasPrefix(host, "[") {
		if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
			host = h
		}
	} else if i := strings.LastIndex(host, "]:"); i >= 0 {
		port := host[i+2:]
		if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
			host = host[:i+1]
		}
	}
	return scheme + "://" + host, nil
}

// SelfOrigin is the gateway's own origin: the request's scheme with its
// Host header.
func SelfOrigin(scheme, host string) string {
	if scheme == "" {
		scheme = "http"
	}
	return scheme + "://" + host
}
