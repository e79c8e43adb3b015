package security

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/httpdconf"
)

// TestMultipartShorterThanContentLengthIs400: a complete multipart body
// (closing delimiter included) whose CONTENT_LENGTH claims more bytes than
// stdin holds is refused with 400 and not recorded, as every other body
// type is: mime/multipart stops at the closing delimiter, so the gateway
// reads the epilogue to the end before it uses the form.
func TestMultipartShorterThanContentLengthIs400(t *testing.T) {
	marker := randomHex(t)
	body := "--X\r\nContent-Disposition: form-data; name=\"m\"\r\n\r\n" + marker + "\r\n--X--\r\n"
	rec := filepath.Join(t.TempDir(), "r.jsonl")
	env := postEnv(mpX, len(body)+10, "CGIGATE_RECORD", rec)
	r := execCGI(t, env, nil, strings.NewReader(body))
	checkOutput(t, r, nil)
	refused(t, r, http.StatusBadRequest, "CONTENT_LENGTH")
	if data, err := os.ReadFile(rec); err == nil && strings.Contains(string(data), marker) {
		t.Error("the short body was recorded")
	}
	// The urlencoded twin is refused, as it should be.
	ubody := "m=" + marker
	u := execCGI(t, postEnv("application/x-www-form-urlencoded", len(ubody)+10), nil, strings.NewReader(ubody))
	refused(t, u, http.StatusBadRequest)
}

// TestApacheRefusesAMultipartBodyShortOfItsLength: through Apache the gap
// above does not show for a client that stops after the closing delimiter:
// Apache finds the body short, answers 400 itself, and the submission is
// not recorded.
func TestApacheRefusesAMultipartBodyShortOfItsLength(t *testing.T) {
	for _, mpm := range []string{"event", "prefork"} {
		t.Run(mpm, func(t *testing.T) {
			srv := apache(t, httpdconf.MPM(mpm))
			marker := randomHex(t)
			body := "--X\r\nContent-Disposition: form-data; name=\"m\"\r\n\r\n" + marker + "\r\n--X--\r\n"
			conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(60 * time.Second))
			fmt.Fprintf(conn, "POST /cgi-bin/cgigate-rec HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAccept: application/json\r\n"+
				"Content-Type: %s\r\nContent-Length: %d\r\n\r\n%s", mpX, len(body)+10, body)
			conn.(*net.TCPConn).CloseWrite()
			all, _ := io.ReadAll(conn)
			r, err := parseHTTP(all, "POST")
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != http.StatusBadRequest || isGateway(r) {
				t.Errorf("status %d from %s", r.Status, origin(r))
			}
			if n := countMarker(t, filepath.Join(runDir, "rec.jsonl"), marker); n != 0 {
				t.Errorf("recorded %d times", n)
			}
		})
	}
}
