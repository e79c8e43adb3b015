package cgi_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"testing"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/decoder"
	"github.com/cgigate/cgigate/decoder/charset"
)

func TestStatusOf(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		status int
	}{
		{"no error is 200", nil, 200},
		{"an *Error is its status", &cgi.Error{Status: 415}, 415},
		{"a wrapped *Error is its status", fmt.Errorf("x: %w", &cgi.Error{Status: 408}), 408},
		{"a decoder limit is 413", &decoder.LimitError{Limit: "fields", Max: 1}, 413},
		{"a strict escape error is 400", &decoder.EscapeError{Origin: "query", Escape: "%zz"}, 400},
		{"an unknown charset is 400", &decoder.CharsetError{Label: "x", Err: &charset.UnknownError{Label: "x"}}, 400},
		{"multipart's too large is 413", fmt.Errorf("m: %w", multipart.ErrMessageTooLarge), 413},
		{"a deadline is 408", context.DeadlineExceeded, 408},
		{"a truncated body is 400", io.ErrUnexpectedEOF, 400},
		{"anything else is a server fault", errors.New("disk"), 500},
		{"a server fault is 500 whatever it wraps", fmt.Errorf("%w: config: %w", cgi.ErrServer, &charset.UnknownError{Label: "x"}), 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := cgi.StatusOf(tc.err); got != tc.status {
				t.Errorf("StatusOf(%v) = %d; want %d", tc.err, got, tc.status)
			}
		})
	}
	t.Run("an unknown charset's message names the label", func(t *testing.T) {
		err := &decoder.CharsetError{Source: decoder.SourceHint, Label: "x-mac-klingon", Err: &charset.UnknownError{Label: "x-mac-klingon"}}
		if msg := cgi.Message(err); msg != `unknown or unusable charset "x-mac-klingon" (from hint)` {
			t.Errorf("message %q", msg)
		}
	})
}
