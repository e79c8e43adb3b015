package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/missing"
)

// hostileBodySize is the size of every body in the cost tests: the largest
// value the decoder takes by default (decoder.DefaultMaxValueBytes).
const hostileBodySize = 1 << 20

// cost is what one run of the gateway took, from the kernel's accounting
// of the finished child (getrusage(2)).
type cost struct {
	answer int           // bytes written to stdout
	record int           // bytes appended to CGIGATE_RECORD
	rss    int64         // peak resident set, bytes
	cpu    time.Duration // user + system
}

// timeCommand is GNU time, which reports its child's peak RSS and CPU
// time. The gateway is not measured with this process's own getrusage: Go
// starts a child with vfork(2), and Linux carries the parent's high-water
// RSS into the child's across execve(2), so every child of a test process
// that has grown would report the test's peak.
const timeCommand = "/usr/bin/time"

// runCost runs the gateway once as a CGI child on body and measures it.
func runCost(t *testing.T, ct string, body []byte, status int, accept string, kv ...string) cost {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "record.jsonl")
	env := postEnv(ct, string(body), append([]string{"HTTP_ACCEPT", accept, "CGIGATE_RECORD", rec}, kv...)...)
	usage := filepath.Join(t.TempDir(), "usage")
	cmd := exec.Command(timeCommand, "-f", "%M %U %S", "-o", usage, bin)
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = bytes.NewReader(body)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v\nstderr: %.2000s", err, errb.String())
	}
	a := parseAnswer(t, out.Bytes(), errb.String())
	if a.status != status {
		t.Fatalf("status %d, want %d: %.500s", a.status, status, a.body)
	}
	u, err := os.ReadFile(usage)
	if err != nil {
		t.Fatal(err)
	}
	var kib int64
	var user, sys float64
	if _, err := fmt.Sscanf(string(u), "%d %g %g", &kib, &user, &sys); err != nil {
		t.Fatalf("%s printed %q: %v", timeCommand, u, err)
	}
	c := cost{
		answer: out.Len(),
		rss:    kib << 10,
		cpu:    time.Duration((user + sys) * float64(time.Second)),
	}
	if fi, err := os.Stat(rec); err == nil {
		c.record = int(fi.Size())
	}
	return c
}

// hostileBody is one request body that the gateway must answer with
// status at a cost bounded by its size.
type hostileBody struct {
	name, ct string
	body     []byte
	env      []string
	status   int
}

// hostileBodies are 1 MiB bodies that each cost the gateway far more than
// their size before it bounded its warnings, its charset sniffing and its
// records: one warning per bad byte, a sniffer that read every byte, and a
// record that escaped '<' as six bytes.
func hostileBodies() []hostileBody {
	const urlencoded = "application/x-www-form-urlencoded"
	rnd := rand.New(rand.NewPCG(1, 2))
	high := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 0x80 | byte(rnd.IntN(0x80))
		}
		return b
	}
	field := func(prefix string, fill []byte) []byte {
		return append([]byte(prefix), fill[:hostileBodySize-len(prefix)]...)
	}
	var tenFields []byte
	for i := range 10 {
		if i > 0 {
			tenFields = append(tenFields, '&')
		}
		tenFields = append(tenFields, "f"+strconv.Itoa(i)+"="...)
		tenFields = append(tenFields, high(hostileBodySize/10-4)...)
	}
	tenFields = append(tenFields, bytes.Repeat([]byte("x"), hostileBodySize-len(tenFields))...)
	boundary := "hostileboundary"
	mp := []byte("--" + boundary + "\r\nContent-Disposition: form-data; name=\"v\"\r\n\r\n")
	tail := "\r\n--" + boundary + "--\r\n"
	mp = append(mp, bytes.Repeat([]byte{0xFF}, hostileBodySize-len(mp)-len(tail))...)
	mp = append(mp, tail...)
	return []hostileBody{
		{"percent-encoded bytes invalid in UTF-8", urlencoded + "; charset=utf-8",
			field("v=", bytes.Repeat([]byte("%FF"), hostileBodySize)), nil, 200},
		{"raw bytes invalid in UTF-8", urlencoded + "; charset=utf-8",
			field("v=", bytes.Repeat([]byte{0xFF}, hostileBodySize)), nil, 200},
		{"malformed escapes", urlencoded,
			field("v=", bytes.Repeat([]byte("%G%"), hostileBodySize)), nil, 200},
		{"high bytes with no charset named", urlencoded,
			field("v=", high(hostileBodySize)), nil, 200},
		{"ten fields of high bytes with no charset named", urlencoded, tenFields, nil, 200},
		{"a flood of less-than signs", urlencoded,
			field("v=", bytes.Repeat([]byte("<"), hostileBodySize)), nil, 200},
		{"NULs", urlencoded,
			field("v=", bytes.Repeat([]byte("%00"), hostileBodySize)), nil, 200},
		// The field limit answers 413 at the 1,001st field, before any is
		// decoded: each field costs the renderings a fixed overhead, so the
		// limit is what bounds them.
		{"many tiny fields", urlencoded,
			field("", bytes.Repeat([]byte("a&"), hostileBodySize)), nil, 413},
		{"a multipart text part of bytes invalid in UTF-8", "multipart/form-data; boundary=" + boundary, mp, nil, 200},
	}
}

// TestHostileBodiesCostAtMostAFixedMultipleOfAPlainOne holds every answer
// and record to 8x the body, the peak RSS to max(96 MiB, 4x) and the CPU
// time to max(2 s, 20x) those of a plain 1 MiB body, measured in the same
// run, in each of the three renderings.
func TestHostileBodiesCostAtMostAFixedMultipleOfAPlainOne(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the gateway on 1 MiB bodies some 30 times")
	}
	if _, err := os.Stat(timeCommand); err != nil {
		missing.SkipOrFail(t, timeCommand+" (Debian's time package) is not installed")
	}
	plainBody := field1MiB("v=", 'a')
	for _, accept := range []string{"text/html", "application/json", "text/plain"} {
		t.Run(accept, func(t *testing.T) {
			plain := runCost(t, "application/x-www-form-urlencoded", plainBody, 200, accept)
			maxRSS := max(96<<20, 4*plain.rss)
			maxCPU := max(2*time.Second, 20*plain.cpu)
			t.Logf("%-50s answer %8d B  record %8d B  rss %5.1f MiB  cpu %v", "plain", plain.answer, plain.record, float64(plain.rss)/(1<<20), plain.cpu)
			for _, h := range hostileBodies() {
				t.Run(h.name, func(t *testing.T) {
					c := runCost(t, h.ct, h.body, h.status, accept, h.env...)
					t.Logf("%-50s answer %8d B  record %8d B  rss %5.1f MiB  cpu %v", h.name, c.answer, c.record, float64(c.rss)/(1<<20), c.cpu)
					if max := 8 * len(h.body); c.answer > max {
						t.Errorf("answer %d bytes, more than 8x the %d-byte body", c.answer, len(h.body))
					}
					if max := 8 * len(h.body); c.record > max {
						t.Errorf("record %d bytes, more than 8x the %d-byte body", c.record, len(h.body))
					}
					if c.rss > maxRSS {
						t.Errorf("peak RSS %d MiB, more than %d MiB (plain body: %d MiB)", c.rss>>20, maxRSS>>20, plain.rss>>20)
					}
					if c.cpu > maxCPU {
						t.Errorf("CPU %v, more than %v (plain body: %v)", c.cpu, maxCPU, plain.cpu)
					}
				})
			}
		})
	}
}

// field1MiB is one field of hostileBodySize bytes in all, its value c
// repeated.
func field1MiB(prefix string, c byte) []byte {
	return []byte(prefix + strings.Repeat(string(c), hostileBodySize-len(prefix)))
}
