package security

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Known bugs: each test here fails against the gateway as it is, and is
// skipped so that CI stays green until the gateway is fixed. Remove the
// t.Skip to see the failure. SECURITY.md lists them under known gaps.

// TestKnownBug_MultipartShorterThanContentLength: a complete multipart
// body (closing delimiter included) whose CONTENT_LENGTH claims more
// bytes than stdin holds is accepted with 200, and recorded, where a
// body shorter than its CONTENT_LENGTH is 400 for every other body type
// (cgi/body.go: "be as long as its CONTENT_LENGTH (400)"). mime/multipart
// stops reading at the closing delimiter, so the shortfall is found only
// when ServeEnv drains stdin after the answer is written. Expected: 400,
// nothing recorded, as for application/x-www-form-urlencoded.
func TestKnownBug_MultipartShorterThanContentLength(t *testing.T) {
	t.Skip("known bug: a complete multipart body shorter than CONTENT_LENGTH is 200 and recorded, not 400 (see the doc comment)")
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
