package integration

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/apachetest"
)

// startFastCGI runs "cgigate -fcgi 127.0.0.1:PORT" with the settings in
// env (FastCGI mode reads them from its own environment, once), waits for
// the line saying it listens, and stops it by its pid when t ends.
func startFastCGI(t testing.TB, env ...string) string {
	t.Helper()
	port, err := apachetest.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	startFastCGIOn(t, addr, env...)
	return addr
}

// startFastCGIOn is startFastCGI listening on addr: a host:port, or a
// Unix socket's path.
func startFastCGIOn(t testing.TB, addr string, env ...string) {
	t.Helper()
	cmd := exec.Command(fastcgiBin, "-fcgi", addr)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CGIGATE_") && !strings.HasPrefix(kv, "GATEWAY_INTERFACE=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(line, "FastCGI on "+addr) {
		t.Fatalf("cgigate -fcgi %s printed %q (%v), want it to say it listens; stderr: %s", addr, line, err, stderr.String())
	}
}

// TestFastCGIOnAUnixSocketBehindModProxyFCGI runs "cgigate -fcgi PATH"
// behind the configuration httpdconf renders for that path
// (unix:PATH|fcgi://cgigate/), for each MPM.
func TestFastCGIOnAUnixSocketBehindModProxyFCGI(t *testing.T) {
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			t.Parallel()
			dir, err := apache.TempDir("cgigate-fcgi-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(dir) })
			sock := filepath.Join(dir, "fcgi.sock")
			startFastCGIOn(t, sock)
			// The operator's part: Apache's user may write to the socket.
			if err := os.Chmod(sock, 0o666); err != nil {
				t.Fatal(err)
			}
			s := apachetest.Start(t, apachetest.Options{MPM: mpm, FastCGI: sock, FastCGIPath: gatewayPath})
			for i := range 3 { // over kept connections too
				r := getJSON(t, s, gatewayPath+"?a=%E5%8D%B0")
				if want := []field{{"a", "印", "query"}}; !slices.Equal(r.Fields, want) {
					t.Fatalf("request %d: fields %+v, want %+v", i, r.Fields, want)
				}
			}
		})
	}
}

// TestFastCGIModeBehindModProxyFCGI runs the gateway as a FastCGI server
// behind Apache's mod_proxy_fcgi, for each MPM. There is no argv there: an
// ISINDEX query's words come from QUERY_STRING alone, with no warning.
func TestFastCGIModeBehindModProxyFCGI(t *testing.T) {
	for _, mpm := range mpms {
		t.Run(string(mpm), func(t *testing.T) {
			t.Parallel()
			addr := startFastCGI(t, "CGIGATE_MAX_BODY=10000", "CGIGATE_NCR=1", "CGIGATE_CHARSET=windows-1251")
			s := apachetest.Start(t, apachetest.Options{MPM: mpm, FastCGI: addr, FastCGIPath: gatewayPath})

			t.Run("an ISINDEX query gives its words as keywords, with no argv to compare", func(t *testing.T) {
				q := "a%26b%3Bc+-s+x%3Dy"
				r := getJSON(t, s, gatewayPath+"?"+q)
				if want := searchWords(t, q); r.Kind != "isindex" || !slices.Equal(r.Keywords, want) {
					t.Errorf("kind %q keywords %q, want isindex %q", r.Kind, r.Keywords, want)
				}
				if len(r.Warnings) != 0 {
					t.Errorf("warnings %q, want none", r.Warnings)
				}
			})
			t.Run("no query is the prompt page", func(t *testing.T) {
				r := send(t, s, "GET", gatewayPath, "", nil, "")
				if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `<form id="isindex"`) {
					t.Errorf("status %d, want 200 and the prompt form:\n%s", r.Status, r.Body)
				}
			})
			t.Run("a GET form is decoded with the process's CGIGATE_CHARSET and CGIGATE_NCR", func(t *testing.T) {
				// "Привет" in windows-1251, then &#21360; (印) as browsers send it.
				r := getJSON(t, s, gatewayPath+"?q=%CF%F0%E8%E2%E5%F2+%26%2321360%3B")
				want := []field{{"q", "Привет 印", "query"}}
				if !slices.Equal(r.Fields, want) || r.Charset != "windows-1251" || r.CharsetSource != "config" {
					t.Errorf("fields %+v charset %q (%s), want %+v windows-1251 (config)", r.Fields, r.Charset, r.CharsetSource, want)
				}
			})
			t.Run("a POST keeps query fields first, then body fields", func(t *testing.T) {
				r := postJSON(t, s, gatewayPath+"?a=1", "application/x-www-form-urlencoded; charset=utf-8", []byte("b=%E5%8D%B0"))
				want := []field{{"a", "1", "query"}, {"b", "印", "body"}}
				if !slices.Equal(r.Fields, want) {
					t.Errorf("fields %+v, want %+v", r.Fields, want)
				}
			})
			t.Run("a body over CGIGATE_MAX_BODY is 413", func(t *testing.T) {
				body := []byte("a=" + strings.Repeat("x", 20000))
				wantError(t, s, send(t, s, "POST", gatewayPath, "application/x-www-form-urlencoded", body, "application/json"), http.StatusRequestEntityTooLarge)
			})
			t.Run("a Content-Type that is no form encoding is 415", func(t *testing.T) {
				wantError(t, s, send(t, s, "POST", gatewayPath, "application/xml", []byte("<a/>"), "application/json"), http.StatusUnsupportedMediaType)
			})
			t.Run("an unknown _charset_ is 400 naming it", func(t *testing.T) {
				wantError(t, s, send(t, s, "GET", gatewayPath+"?_charset_=x-nope&q=1", "", nil, "application/json"), http.StatusBadRequest, "x-nope")
			})

			// A second process with the defaults and recording on: one
			// FastCGI process answers concurrent requests in goroutines,
			// each appending to the record file through its own descriptor.
			path := recordPath(t)
			rec := apachetest.Start(t, apachetest.Options{MPM: mpm, FastCGI: startFastCGI(t, "CGIGATE_RECORD="+path), FastCGIPath: gatewayPath})
			t.Run("50 concurrent submissions are each recorded once", func(t *testing.T) {
				checkRecords(t, rec, path, submitConcurrently(t, rec))
			})
			t.Run("a multipart POST with a 5 MB file reports its size and SHA-256", func(t *testing.T) {
				data := payload(fileSize)
				sum := sha256.Sum256(data)
				var body bytes.Buffer
				mw := multipart.NewWriter(&body)
				w, _ := mw.CreateFormFile("upload", "big.bin")
				w.Write(data)
				mw.Close()
				r := postJSON(t, rec, gatewayPath+"?n=big", mw.FormDataContentType(), body.Bytes())
				if len(r.Files) != 1 || r.Files[0].Size != fileSize || r.Files[0].SHA256 != hex.EncodeToString(sum[:]) {
					t.Errorf("files %+v, want one of %d bytes with SHA-256 %x", r.Files, fileSize, sum)
				}
			})
		})
	}
}
