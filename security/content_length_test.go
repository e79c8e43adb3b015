package security

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
)

// CONTENT_LENGTH: RFC 3875 § 4.1.2 says 1*digit. Go's net/http/cgi
// parses it with strconv.ParseInt, which takes "-1" and "+5"; the gateway
// accepts only digits and answers anything else 400 without reading the
// body. Digits past the body limit, even past int64, are 413. Apache refuses the bad forms in the request itself
// (400) and trims the space of " 5", so those reach the gateway only
// from another host, or by hand here. A body shorter than its
// CONTENT_LENGTH is a client gone away: 400, nothing kept; one that
// stalls is 408 at CGIGATE_READ_TIMEOUT, below Apache's Timeout
// (CVE-2014-0231 is a CGI child left waiting on stdin).

func TestContentLengthFormsAreRefused(t *testing.T) {
	c := corpusCase(t, 61, "-1")
	lengths := append(append([]string{c.Input}, c.Also...), "5 ", "0x10")
	for _, cl := range lengths {
		t.Run(fmt.Sprintf("CONTENT_LENGTH %q is 400 (exec)", cl), func(t *testing.T) {
			env := postEnv("application/x-www-form-urlencoded", 0, "CONTENT_LENGTH", cl)
			r := execCGI(t, env, nil, strings.NewReader("a=123&b"))
			checkOutput(t, r, nil)
			refused(t, r, http.StatusBadRequest, "CONTENT_LENGTH")
		})
	}
	// 1*digit has no bound on its digits: a length past the limit, or
	// past int64, is too large, not malformed.
	for _, cl := range []string{"12345678901", "999999999999", "99999999999999999999"} {
		t.Run(fmt.Sprintf("CONTENT_LENGTH %q is 413 (exec)", cl), func(t *testing.T) {
			env := postEnv("application/x-www-form-urlencoded", 0, "CONTENT_LENGTH", cl)
			r := execCGI(t, env, nil, strings.NewReader("a=123&b"))
			checkOutput(t, r, nil)
			refused(t, r, http.StatusRequestEntityTooLarge, cl)
		})
	}
	for _, cl := range []string{"-1", "+5", "1e3", "99999999999999999999"} {
		t.Run(fmt.Sprintf("Content-Length %q through Apache", cl), func(t *testing.T) {
			raw := func(host string) []byte {
				return []byte("POST /cgi-bin/cgigate HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\nAccept: application/json\r\n" +
					"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + cl + "\r\n\r\na=123")
			}
			eachRaw(t, raw, func(t *testing.T, r response) {}, apacheRefuses(http.StatusBadRequest, "Apache parses Content-Length as 1*DIGIT"))
		})
	}
	t.Run(`Content-Length "  5" through Apache: Apache trims the space, the body is read`, func(t *testing.T) {
		raw := func(host string) []byte {
			return []byte("POST /cgi-bin/cgigate HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\nAccept: application/json\r\n" +
				"Content-Type: application/x-www-form-urlencoded\r\nContent-Length:  5\r\n\r\na=123")
		}
		eachRaw(t, raw, func(t *testing.T, r response) { wantFields(t, decoded(t, r), b("a", "123")) })
	})
	t.Run("a POST without CONTENT_LENGTH is read to the end of stdin (exec)", func(t *testing.T) {
		env := postEnv("application/x-www-form-urlencoded", 0)
		delete(env, "CONTENT_LENGTH")
		r := execCGI(t, env, nil, strings.NewReader("a=1"))
		checkOutput(t, r, nil)
		wantFields(t, decoded(t, r), b("a", "1"))
	})
	t.Run("a chunked POST through Apache reaches the gateway with no CONTENT_LENGTH and is read", func(t *testing.T) {
		raw := func(host string) []byte {
			return []byte("POST /cgi-bin/cgigate HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\nAccept: application/json\r\n" +
				"Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n3\r\na=1\r\n4\r\n&b=2\r\n0\r\n\r\n")
		}
		eachRaw(t, raw, func(t *testing.T, r response) { wantFields(t, decoded(t, r), b("a", "1"), b("b", "2")) })
	})
	t.Run("a chunked POST past CGIGATE_MAX_BODY is 413 once read past it", func(t *testing.T) {
		raw := func(host string) []byte {
			chunk := strings.Repeat("a", 3000)
			return []byte("POST /cgi-bin/cgigate-small HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\nAccept: application/json\r\n" +
				"Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n" +
				"bb8\r\n" + chunk + "\r\nbb8\r\n" + chunk + "\r\n0\r\n\r\n")
		}
		eachRaw(t, raw, func(t *testing.T, r response) { refused(t, r, http.StatusRequestEntityTooLarge, "4096") })
	})
	t.Run("a GET without CONTENT_LENGTH reads no stdin (exec)", func(t *testing.T) {
		r := execCGI(t, cgiEnv("QUERY_STRING", "a=1", "CONTENT_TYPE", "application/x-www-form-urlencoded"), nil, strings.NewReader("b=2"))
		wantFields(t, decoded(t, r), q("a", "1"))
	})
}

func TestCVE_2014_0231_ShortOrStalledBody(t *testing.T) {
	corpusCase(t, 62, "CONTENT_LENGTH=100 with 10 bytes and then EOF, or 10 bytes and then nothing")
	t.Run("10 bytes of 100 then EOF is 400 (exec)", func(t *testing.T) {
		env := postEnv("application/x-www-form-urlencoded", 100)
		r := execCGI(t, env, nil, strings.NewReader("a=1&b=2&c="))
		checkOutput(t, r, nil)
		refused(t, r, http.StatusBadRequest, "ended after 10 of the 100 bytes")
	})
	t.Run("10 bytes of 100 then a stall is 408 at CGIGATE_READ_TIMEOUT (exec)", func(t *testing.T) {
		env := postEnv("application/x-www-form-urlencoded", 100, "CGIGATE_READ_TIMEOUT", "100ms")
		needGateway(t)
		cmd := exec.Command(gateway)
		for _, k := range sortedKeys(env) {
			cmd.Env = append(cmd.Env, k+"="+env[k])
		}
		w, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, "a=1&b=2&c=")
		// stdin stays open and silent: only the gateway's deadline ends it.
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
		r, err := parseCGI(out.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		checkOutput(t, r, nil)
		refused(t, r, http.StatusRequestTimeout, "not received within 100ms")
	})
	t.Run("the same body cut by the client through Apache: Apache answers 400", func(t *testing.T) {
		for _, mpm := range []string{"event", "prefork"} {
			r := clientCut(t, mpm, "cgigate", "a=1&b=2&c=", 100)
			if r.Status != http.StatusBadRequest {
				t.Errorf("%s: status %d:\n%s", mpm, r.Status, trim(r.Body))
			}
		}
	})
}
