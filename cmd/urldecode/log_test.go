package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/missing"
)

// logCase is one request of a generated log and what decoding it must give.
type logCase struct {
	line    string
	url     string // "" for lines that yield no object
	charset string
	source  string
}

// genLog writes n lines cycling through the formats and cases: targets
// from the Python-encoded cases under a query hint, raw 8-bit bytes as
// Apache logs them ("\xb0"), ASCII requests, "-" requests and lines that
// are no log lines at all.
func genLog(t *testing.T, n int) (path string, want []logCase) {
	t.Helper()
	var hinted []logCase
	for _, c := range readCases(t).Decode {
		if c.CharsetSource != "config" {
			continue
		}
		_, query, _ := strings.Cut(c.Args[2], "?")
		hinted = append(hinted, logCase{
			line: "/cgi-bin/search?[" + c.Charset + "]:" + query, url: c.URL, charset: c.Charset, source: "hint"})
	}
	path = filepath.Join(t.TempDir(), "access.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b bytes.Buffer
	const when = "[01/Dec/1998:10:00:00 +0900]"
	for i := 0; i < n; i++ {
		var c logCase
		switch {
		case i%997 == 996:
			c = logCase{line: "this is not a log line"}
		case i%10 == 0:
			target := fmt.Sprintf("/index.html?id=%d", i)
			c = logCase{line: fmt.Sprintf(`192.0.2.%d - - %s "GET %s HTTP/1.0" 200 1043`, i%256, when, target),
				url: target, charset: "utf-8", source: "default"}
		case i%10 == 1:
			// EUC-JP 印刷 sent raw, escaped by Apache's logger, in
			// vhost_combined with a referer and user agent.
			c = logCase{line: `www.jacme.co.jp:80 192.0.2.1 - - ` + when + ` "GET /search?[EUC-JP]:\xb0\xf5\xba\xfe HTTP/1.0" 200 512 "-" "Mozilla/4.0 (compatible; MSIE 4.01)"`,
				url: "/search?印刷", charset: "euc-jp", source: "hint"}
		case i%10 == 2:
			c = logCase{line: `192.0.2.9 - - ` + when + ` "-" 408 -`}
		default:
			h := hinted[i%len(hinted)]
			c = h
			c.line = fmt.Sprintf(`192.0.2.7 - frank %s "GET %s HTTP/1.1" 200 2326 "http://example.com/" "Mozilla/5.0"`, when, h.line)
		}
		want = append(want, c)
		b.WriteString(c.line + "\n")
		if b.Len() > 1<<16 {
			f.Write(b.Bytes())
			b.Reset()
		}
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	return path, want
}

// gnuTime measures a command's peak memory. The command's own ru_maxrss
// would count the test process's memory too: Go starts children with
// clone(CLONE_VM), and Linux folds the parent's high-water mark into the
// child's at exec. GNU time forks its child from its own small image.
const gnuTime = "/usr/bin/time"

// memLimit is the soft memory limit (runtime/debug.SetMemoryLimit) the
// measured runs get: a few MiB above what a run holds.
const memLimit = "8MiB"

// runLogMeasured runs the command under GNU time and returns its peak
// resident set in bytes, 0 when GNU time is absent.
func runLogMeasured(t *testing.T, args ...string) (result, int64) {
	t.Helper()
	name, rssFile := bin, ""
	if _, err := os.Stat(gnuTime); err == nil {
		rssFile = filepath.Join(t.TempDir(), "rss")
		args = append([]string{"-f", "%M", "-o", rssFile, bin}, args...)
		name = gnuTime
	}
	cmd := exec.Command(name, args...)
	// The collector's pace, not what the program holds, sets its peak when
	// it starts late: with every package's tests running at once, a CI run
	// saw 27 MiB for 100k lines where an idle machine sees 11. Under a soft
	// limit the heap is collected down to what is live before it grows
	// past the limit, so the peak follows what is held, and a program that
	// held the lines would still pass the limit and be seen.
	cmd.Env = append(os.Environ(), "GOMEMLIMIT="+memLimit)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var rss int64
	if rssFile != "" {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			t.Fatal(err)
		}
		// A failed command's status line comes first; %M is the last.
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
		if err != nil {
			t.Fatalf("GNU time wrote %q", b)
		}
		rss = kib << 10
	}
	return result{out.String(), errb.String(), code}, rss
}

func TestLogOf100kLinesDecodesEveryRequestInConstantMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the 100k-line log takes a few seconds")
	}
	small, _ := genLog(t, 10_000)
	path, want := genLog(t, 100_000)
	_, rssSmall := runLogMeasured(t, "-json", "-log", small)
	r, rss := runLogMeasured(t, "-json", "-log", path)

	t.Run("every request line yields one object with its line number, URL and charset", func(t *testing.T) {
		got := jsonLines(t, r.stdout)
		i := 0
		for n, w := range want {
			if w.url == "" {
				continue
			}
			if i >= len(got) {
				t.Fatalf("output ends before line %d", n+1)
			}
			g := got[i]
			i++
			if g.Line != n+1 || g.URL != w.url || g.Charset != w.charset || g.CharsetSource != w.source || g.Method != "GET" {
				t.Fatalf("line %d: got line %d %q %s (%s) %s, want %q %s (%s)\n%s",
					n+1, g.Line, g.URL, g.Charset, g.CharsetSource, g.Method, w.url, w.charset, w.source, w.line)
			}
		}
		if i != len(got) {
			t.Errorf("%d objects, want %d", len(got), i)
		}
	})
	t.Run("the summary counts lines, requests and charsets", func(t *testing.T) {
		counts := map[string]int{}
		var requests, none, bad int
		for _, w := range want {
			switch {
			case w.line == "this is not a log line":
				bad++
			case w.url == "":
				none++
			default:
				requests++
				if w.source == "default" {
					counts["ascii"]++
				} else {
					counts[w.charset]++
				}
			}
		}
		head := fmt.Sprintf("urldecode: %s: %d lines, %d requests, %d without a request, %d not understood, 0 with bytes not decoded\n",
			path, len(want), requests, none, bad)
		if !strings.Contains(r.stderr, head) {
			t.Errorf("no summary line %q in stderr tail:\n%s", head, tail(r.stderr, 20))
		}
		for cs, n := range counts {
			re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(cs) + ` +` + strconv.Itoa(n) + `  `)
			if !re.MatchString(r.stderr) {
				t.Errorf("summary lacks %s %d:\n%s", cs, n, tail(r.stderr, 20))
			}
		}
	})
	t.Run("each line that is no log line is named with its number, and the status is 1", func(t *testing.T) {
		for n, w := range want {
			if w.line == "this is not a log line" {
				msg := fmt.Sprintf("urldecode: %s:%d: not an Apache common or combined log line", path, n+1)
				if !strings.Contains(r.stderr, msg) {
					t.Fatalf("stderr lacks %q", msg)
				}
			}
		}
		if r.code != 1 {
			t.Errorf("exit %d, want 1", r.code)
		}
		if strings.Contains(r.stderr, "\r") {
			t.Errorf("a progress bar was drawn on a stderr that is no terminal")
		}
	})
	t.Run("ten times the lines take about the same memory", func(t *testing.T) {
		t.Logf("peak RSS: %d KiB for 10k lines, %d KiB for 100k lines", rssSmall>>10, rss>>10)
		if rssSmall == 0 || rss == 0 {
			missing.SkipOrFail(t, "no "+gnuTime+" to measure peak memory with (Debian package time)")
		}
		// Loose: holding the lines or the results would add tens of MiB.
		if rss > rssSmall+16<<20 {
			t.Errorf("peak RSS grew from %d KiB to %d KiB", rssSmall>>10, rss>>10)
		}
	})
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func TestLogFormatsAndFaults(t *testing.T) {
	const when = "[10/Oct/2000:13:55:36 -0700]"
	for _, tc := range []struct {
		name, line string
		out        string // the text output line, "" for none
		stderr     string // a regular expression; "" for none
	}{
		{"the common format", `127.0.0.1 - frank ` + when + ` "GET /apache_pb.gif HTTP/1.0" 200 2326`,
			"/apache_pb.gif\tutf-8 (default)", ""},
		{"the combined format with a query in Shift_JIS", `127.0.0.1 - - ` + when + ` "GET /s?[Shift_JIS]:q=%88%F3%8D%FC HTTP/1.1" 200 5 "http://x/" "Mozilla/4.08 [ja] (Win98; I)"`,
			"/s?q=印刷\tshift_jis (hint [Shift_JIS])", ""},
		{"an escaped quote inside the request line", `127.0.0.1 - - ` + when + ` "GET /a\"b HTTP/1.0" 400 0`,
			`/a"b` + "\tutf-8 (default)", ""},
		{"an HTTP/0.9 request has no protocol", `127.0.0.1 - - ` + when + ` "GET /old" 200 10`,
			"/old\tutf-8 (default)", ""},
		{"an absolute-form target is a URL", `127.0.0.1 - - ` + when + ` "GET http://xn--mnchen-3ya.de/ HTTP/1.1" 200 10`,
			"http://münchen.de/\tutf-8 (default)", ""},
		{"a request of - is skipped quietly", `127.0.0.1 - - ` + when + ` "-" 408 -`, "", ""},
		{"an unterminated request line is an error", `127.0.0.1 - - ` + when + ` "GET /x`, "", `:1: .*unterminated request line`},
		{"bytes invalid in the hinted charset are an error after the line is printed", `127.0.0.1 - - ` + when + ` "GET /?[utf-8]:%FF HTTP/1.0" 200 1`,
			"/?\uFFFD\tutf-8 (hint [utf-8])", `:1: keyword 1: bytes FF at offset 0 are invalid in utf-8, replaced by U\+FFFD$`},
		{"a line longer than 64 KiB is skipped", `127.0.0.1 - - ` + when + ` "GET /` + strings.Repeat("a", 70000) + ` HTTP/1.0" 200 1`,
			"", `:1: line longer than 65536 bytes, skipped`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := urldecode(t, tc.line+"\n", "-log", "-")
			if got := strings.TrimSuffix(r.stdout, "\n"); got != tc.out {
				t.Errorf("stdout %q, want %q", got, tc.out)
			}
			errs := regexp.MustCompile(`(?m)^urldecode: -:\d+: .*$`).FindAllString(r.stderr, -1)
			switch {
			case tc.stderr == "" && (len(errs) > 0 || r.code != 0):
				t.Errorf("exit %d, errors %q", r.code, errs)
			case tc.stderr != "" && (len(errs) != 1 || !regexp.MustCompile(tc.stderr).MatchString(errs[0]) || r.code != 1):
				t.Errorf("exit %d, errors %q, want one matching %s", r.code, errs, tc.stderr)
			}
			if !strings.Contains(r.stderr, "urldecode: standard input: 1 lines") {
				t.Errorf("no summary: %q", r.stderr)
			}
		})
	}
}

func TestProgressIsDrawnOnlyOnATerminal(t *testing.T) {
	t.Run("a buffer, a file or a pipe is no terminal", func(t *testing.T) {
		var b bytes.Buffer
		if newProgress(&b, 100).on {
			t.Error("progress on for a bytes.Buffer")
		}
		f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if isTerminal(f) {
			t.Error("a regular file taken for a terminal")
		}
	})
	t.Run("on a terminal the bar shows the share of bytes read, then is erased", func(t *testing.T) {
		var b bytes.Buffer
		p := &progress{w: &b, on: true, total: 1000}
		p.update(500, 1023) // not a multiple of 1024 lines: no redraw
		if b.Len() != 0 {
			t.Errorf("drawn at line 1023: %q", b.String())
		}
		p.update(500, 1024)
		if want := "\r[===============               ]  50% 1024 lines"; b.String() != want {
			t.Errorf("got %q, want %q", b.String(), want)
		}
		b.Reset()
		p.clear()
		if b.String() != "\r\033[K" {
			t.Errorf("clear wrote %q", b.String())
		}
	})
}

func TestAMissingLogIsNamed(t *testing.T) {
	r := urldecode(t, "", "-log", filepath.Join(t.TempDir(), "nope.log"))
	if r.code != 1 || !strings.Contains(r.stderr, "nope.log: no such file") {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
}
