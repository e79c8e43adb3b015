package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// startMode runs the gateway in a server mode (-http or -fcgi) on a free
// loopback port until t ends, and returns what its first line says after
// prefix: the URL or address it listens on.
func startMode(t *testing.T, mode, prefix string) string {
	t.Helper()
	return startModeOn(t, mode, "127.0.0.1:0", prefix)
}

// startModeOn is startMode listening on addr.
func startModeOn(t *testing.T, mode, addr, prefix string) string {
	t.Helper()
	cmd := exec.Command(bin, mode, addr)
	cmd.Env = []string{"CGIGATE_NCR=1"}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), prefix)
	if !ok {
		t.Fatalf("%s printed %q, want a line starting %q", mode, line, prefix)
	}
	return rest
}

// -http serves through net/http/cgi.Handler running the binary itself.
func TestHTTPMode(t *testing.T) {
	u := startMode(t, "-http", "cgigate: open ")
	if !strings.HasPrefix(u, "http://127.0.0.1:") {
		t.Fatalf("printed the URL %q", u)
	}
	t.Run("it prints the URL to open and answers through the CGI path", func(t *testing.T) {
		req, _ := http.NewRequest("GET", u+"?q=%26%2321360%3B", nil)
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Proxy", "http://127.0.0.1:9/")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		r := jsonResult(t, string(b))
		// CGIGATE_NCR=1 reached the child: the settings are inherited.
		if resp.StatusCode != 200 || len(r.Fields) != 1 || r.Fields[0].Value != "印" {
			t.Errorf("status %d body %s", resp.StatusCode, b)
		}
	})
	t.Run("a POST body goes through the child's stdin", func(t *testing.T) {
		resp, err := http.Post(u, "application/x-www-form-urlencoded", strings.NewReader("a=1&b=2"))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.Contains(string(b), "<dt>b</dt><dd>2</dd>") || !strings.Contains(string(b), "<li><code>b</code> from the body</li>") {
			t.Errorf("status %d body %s", resp.StatusCode, b)
		}
	})
	// Linux's MAX_ARG_STRLEN (include/uapi/linux/binfmts.h, PAGE_SIZE *
	// 32): the longest "NAME=value" string, its NUL counted, that execve
	// takes. REQUEST_URI is the longest meta-variable a query makes.
	const maxArgStrlen = 131072
	fill := maxArgStrlen - len("REQUEST_URI=") - len("/?q=") - 1
	for _, tc := range []struct {
		name   string
		target string
		header string
		status int
	}{
		{"a query whose REQUEST_URI fills execve's limit exactly reaches the child", "?q=" + strings.Repeat("a", fill), "", 0},
		{"a query one byte longer is 414, not the exec's 500", "?q=" + strings.Repeat("a", fill+1), "", http.StatusRequestURITooLong},
		{"an ISINDEX query of 200 KB is 414", "?" + strings.Repeat("word+", 40<<10), "", http.StatusRequestURITooLong},
		{"a header of 200 KB is 431, not the exec's 500", "?q=1", strings.Repeat("b", 200<<10), http.StatusRequestHeaderFieldsTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", u+tc.target, nil)
			req.Header.Set("Accept", "application/json")
			if tc.header != "" {
				req.Header.Set("X-Big", tc.header)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			switch {
			case tc.status == 0 && (resp.StatusCode == http.StatusInternalServerError || resp.StatusCode == http.StatusRequestURITooLong):
				t.Errorf("status %d: %.200s", resp.StatusCode, b)
			case tc.status != 0 && (resp.StatusCode != tc.status || !strings.Contains(string(b), fmt.Sprintf(`"status":%d`, tc.status))):
				t.Errorf("status %d; want %d with the gateway's JSON error: %.200s", resp.StatusCode, tc.status, b)
			}
		})
	}
}

func TestNoModeIsUsage(t *testing.T) {
	out, err := execOut(t, nil)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(out, "usage:") {
		t.Errorf("exit %v output %q", err, out)
	}
}

// A client that goes away closes the CGI's stdout: the write fails, the
// gateway says so on stderr and exits 1, and removes its temporary files.
func TestStdoutClosedEarly(t *testing.T) {
	tmp := t.TempDir()
	var body strings.Builder
	body.WriteString("--X\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a\"\r\n\r\nfile\r\n")
	for i := range 500 {
		fmt.Fprintf(&body, "--X\r\nContent-Disposition: form-data; name=\"field%d\"\r\n\r\nvalue %d\r\n", i, i)
	}
	body.WriteString("--X--\r\n")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer w.Close()
	cmd := exec.Command(bin)
	for k, v := range postEnv("multipart/form-data; boundary=X", body.String(), "TMPDIR", tmp) {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = strings.NewReader(body.String())
	cmd.Stdout = w
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "broken pipe") {
		t.Errorf("exit %v stderr %q", err, stderr.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in TMPDIR: %v", left)
	}
}
