package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Body kinds of the memory measurement.
const (
	Multipart  = "multipart"
	URLEncoded = "urlencoded"
)

// WriteMultipart writes to path a multipart/form-data body (RFC 7578)
// made by mime/multipart: a text field q and one file part of size
// pseudo-random bytes. It returns the Content-Type to send it with.
func WriteMultipart(path string, size int64) (string, error) {
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	mw := multipart.NewWriter(bw)
	if err := mw.WriteField("q", QueryValue); err != nil {
		return "", err
	}
	part, err := mw.CreateFormFile("upload", "upload.bin")
	if err != nil {
		return "", err
	}
	rng := rand.NewChaCha8([32]byte{1})
	if _, err := io.CopyN(part, rng, size); err != nil {
		return "", err
	}
	if err := mw.Close(); err != nil {
		return "", err
	}
	if err := bw.Flush(); err != nil {
		return "", err
	}
	return mw.FormDataContentType(), f.Close()
}

// WriteURLEncoded writes to path an application/x-www-form-urlencoded body
// of about size bytes: fields v0, v1, ... of 100 000 bytes each, every
// value "%E5%8D%B0" (U+5370, UTF-8) repeated, so that decoding does real
// work and no value passes the decoder's 1 MiB limit. It returns the
// Content-Type.
func WriteURLEncoded(path string, size int64) (string, error) {
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	const chunk = "%E5%8D%B0"
	const perField = 100_000 / len(chunk) * len(chunk)
	var n int64
	for i := 0; ; i++ {
		prefix := "v" + strconv.Itoa(i) + "="
		if i > 0 {
			prefix = "&" + prefix
		}
		k := min(int64(perField), size-n-int64(len(prefix))) / int64(len(chunk))
		if k <= 0 {
			break
		}
		bw.WriteString(prefix)
		bw.WriteString(strings.Repeat(chunk, int(k)))
		n += int64(len(prefix)) + k*int64(len(chunk))
	}
	if err := bw.Flush(); err != nil {
		return "", err
	}
	return "application/x-www-form-urlencoded", f.Close()
}

// Mem is the peak resident set of one run of the gateway for one body.
type Mem struct {
	Kind     string
	Body     int64 // bytes
	PeakKB   int64 // /usr/bin/time -v "Maximum resident set size (kbytes)"
	Wall     time.Duration
	Status   string // the CGI Status line the gateway printed
	Response int    // bytes it printed
}

// PeakRSS runs gateway as a CGI child for a POST of the body in path
// (stdin a pipe, as Apache gives it), under /usr/bin/time -v, with env
// added to the CGI environment, and returns its peak RSS. When ctx ends,
// time and the gateway are killed.
func PeakRSS(ctx context.Context, gateway, kind, path, contentType string, env []string) (Mem, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Mem{}, err
	}
	in, err := os.Open(path)
	if err != nil {
		return Mem{}, err
	}
	defer in.Close()
	report := filepath.Join(filepath.Dir(path), "time.txt")
	cmd := command(ctx, "/usr/bin/time", "-v", "-o", report, gateway)
	cmd.Env = append(cgiEnv("POST", Gateway, "", "text/html"), env...)
	cmd.Env = append(cmd.Env, "CONTENT_TYPE="+contentType, "CONTENT_LENGTH="+strconv.FormatInt(fi.Size(), 10))
	cmd.Stdin = struct{ io.Reader }{in} // not an *os.File: exec gives the child a pipe
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	t0 := time.Now()
	err = cmd.Run()
	m := Mem{Kind: kind, Body: fi.Size(), Wall: time.Since(t0), Response: out.Len()}
	if err != nil {
		return m, fmt.Errorf("bench: %s %s body of %d bytes: %v\n%s", gateway, kind, fi.Size(), err, stderr.Bytes())
	}
	m.Status, _, _ = strings.Cut(out.String(), "\n")
	rep, err := os.ReadFile(report)
	if err != nil {
		return m, err
	}
	m.PeakKB, err = ParseMaxRSS(rep)
	return m, err
}

// ParseMaxRSS reads "Maximum resident set size (kbytes): N" from the
// report of GNU time -v.
func ParseMaxRSS(report []byte) (int64, error) {
	for line := range strings.SplitSeq(string(report), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Maximum resident set size (kbytes):"); ok {
			return strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, fmt.Errorf("bench: no maximum resident set size in %.300q", report)
}

// Slope fits y = a + b*x by least squares and returns b: how much the
// peak grows per byte of body.
func Slope(x, y []float64) float64 {
	n := float64(len(x))
	if len(x) < 2 || len(x) != len(y) {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		sxy += x[i] * y[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / d
}
