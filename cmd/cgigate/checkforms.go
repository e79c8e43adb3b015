package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/cgigate/cgigate/internal/forms"
)

// runCheckForms is cgigate -check-forms FILE, for deploy scripts: the
// faults a request would log (each with its file, line and key), or the
// forms declared, and exit status 1 when there is a fault. A form that
// records while CGIGATE_RECORD is unset in env is a warning: its
// submissions would be answered and kept nowhere.
func runCheckForms(path string, env map[string]string, stdout, stderr io.Writer) int {
	set, err := forms.Load(path)
	if err != nil {
		var joined interface{ Unwrap() []error }
		if errors.As(err, &joined) {
			for _, e := range joined.Unwrap() {
				fmt.Fprintln(stderr, e)
			}
		} else {
			fmt.Fprintln(stderr, err)
		}
		return 1
	}
	for _, n := range slices.Sorted(maps.Keys(set.Forms)) {
		f := set.Forms[n]
		var fields []string
		for _, fd := range f.Fields {
			fields = append(fields, fd.Name+" ("+string(fd.Kind)+")")
		}
		after := "a thank-you page"
		if f.Redirect != "" {
			after = "303 to " + f.Redirect
		}
		fmt.Fprintf(stdout, "%s: form %s at /cgi-bin/cgigate/%s, %s, %s, %s; %s\n",
			path, n, n, strings.Join(f.Methods, " and "), f.Charset, strings.Join(fields, ", "), after)
		if f.Record && env["CGIGATE_RECORD"] == "" {
			fmt.Fprintf(stderr, "%s: warning: forms.%s.record is true but CGIGATE_RECORD is not set: its submissions will not be kept\n", path, n)
		}
	}
	return 0
}
