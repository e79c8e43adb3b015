package cgi

import (
	"errors"
	"fmt"
	"strings"
)

// A Redirector is a ResponseWriter that can carry the one Location header
// the gateway ever sends: the redirect a site declared for a form, sent
// with 303 See Other. Every other Location is refused by the header writer
// (see refusedHeader); this is the single, declared exception, and the
// writer sends it only with a 3xx status, so it can never become Apache's
// internal redirect (a Location with 200, RFC 3875 § 6.2.2,
// CVE-2024-38476).
type Redirector interface {
	SetRedirect(location string)
}

// SeeOther answers 303 See Other with Location: location and body, as
// Respond writes it. location comes from the site's declaration, never
// from a request: it must be a path ("/thanks.html") or an http(s) URL,
// one header value with no control byte or space. The error is a refused
// location, or a writer that cannot redirect; nothing is written then.
func SeeOther(w ResponseWriter, location string, f Format, body []byte) error {
	if err := checkLocation(location); err != nil {
		return err
	}
	rd, ok := w.(Redirector)
	if !ok {
		return fmt.Errorf("cgi: %T cannot send a redirect", w)
	}
	rd.SetRedirect(location)
	Respond(w, StatusSeeOther, f, body)
	return nil
}

func checkLocation(s string) error {
	ok := strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") ||
		strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://")
	if !ok || strings.ContainsFunc(s, func(r rune) bool { return r <= 0x20 || r == 0x7F || r == '\\' }) {
		return fmt.Errorf("cgi: redirect %q: %w", s, errBadLocation)
	}
	return nil
}

var errBadLocation = errors.New("want a path or an http(s) URL, with no space or control byte")

// redirectHeader is the Location line a writer adds after SanitizeHeader
// has removed every other one: only for a redirect status.
func redirectHeader(location string, status int) (string, bool) {
	return location, location != "" && status/100 == 3
}
