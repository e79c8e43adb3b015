package delivery

import (
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/missing"
)

// smtpSink runs Debian's aiosmtpd, a real SMTP server, with its Mailbox
// handler: every message it accepts becomes a file of a maildir.
func smtpSink(t *testing.T) (addr, maildir string) {
	t.Helper()
	py := "/usr/bin/python3" // Debian's, where python3-aiosmtpd installs
	if err := exec.Command(py, "-c", "import aiosmtpd").Run(); err != nil {
		missing.SkipOrFail(t, "no aiosmtpd for "+py+" (apt-get install python3-aiosmtpd)")
	}
	port, err := apache.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	addr = fmt.Sprintf("127.0.0.1:%d", port)
	maildir = filepath.Join(t.TempDir(), "maildir")
	c := exec.Command(py, "-m", "aiosmtpd", "-n", "-l", addr, "-c", "aiosmtpd.handlers.Mailbox", maildir)
	c.Stderr = os.Stderr
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	waitFor(t, "aiosmtpd to listen on "+addr, func() bool {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
		}
		return err == nil
	})
	return addr, maildir
}

func messages(t *testing.T, maildir string) []*mail.Message {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(maildir, "new"))
	var ms []*mail.Message
	for _, e := range ents {
		f, err := os.Open(filepath.Join(maildir, "new", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m, err := mail.ReadMessage(f)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(m.Body)
		f.Close()
		m.Body = strings.NewReader(string(body))
		ms = append(ms, m)
	}
	return ms
}

func TestMailReachesARealSMTPServerReadableInAMailClient(t *testing.T) {
	addr, maildir := smtpSink(t)
	dir := t.TempDir()
	fields := []Field{{Name: "名前", Value: "山田 太郎", Source: "body"}, {Name: "email", Value: "taro@example.jp", Source: "body"}, {Name: "本文", Value: "印刷の件\nよろしく", Source: "body"}}
	id, line := testRecord(t, "お問い合わせ\r\nBcc: victim@example.org", fields...)
	m := &Mail{Addr: addr, From: "cgigate@example.org", To: []string{"owner@example.org"}, Backoff: Backoff{Min: 20 * time.Millisecond},
		ReplyTo:     func(r *Record) string { v, _ := r.Value("email"); return v },
		DeadLetters: &DeadLetters{Path: filepath.Join(dir, "dead")}, Logf: t.Logf}
	cfg := Config{RecordPath: filepath.Join(dir, "records"), StateDir: filepath.Join(dir, "state"), Targets: []Target{m}, Logf: t.Logf}
	appendLines(t, cfg.RecordPath, line)
	start(t, cfg)
	waitFor(t, "one message in the maildir", func() bool { return len(messages(t, maildir)) == 1 })

	msg := messages(t, maildir)[0]
	dec := new(mime.WordDecoder)
	subject, err := dec.DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, got, want string }{
		{"the subject names the form, its line break a space", subject, "Form submission: お問い合わせ Bcc: victim@example.org"},
		{"the visitor's line break adds no header", msg.Header.Get("Bcc"), ""},
		{"Reply-To is the email field", msg.Header.Get("Reply-To"), "<taro@example.jp>"},
		{"the Message-ID is made of the record's id", msg.Header.Get("Message-Id"), "<" + id + "@cgigate.invalid>"},
		{"the body is UTF-8 text", msg.Header.Get("Content-Type"), "text/plain; charset=utf-8"},
		{"the relay got the envelope's recipient", msg.Header.Get("X-RcptTo"), "owner@example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
	t.Run("the body lists every field, a multi-line value indented", func(t *testing.T) {
		// A maildir keeps lines ending LF, whatever the wire had.
		text := strings.ReplaceAll(string(body), "\r\n", "\n")
		for _, want := range []string{"名前: 山田 太郎\n", "email: taro@example.jp\n", "本文: 印刷の件\n    よろしく\n", "Form: お問い合わせ Bcc: victim@example.org\n", "Charset: euc-jp (sniffed, confidence 0.62)\n", "Id: " + id} {
			if !strings.Contains(text, want) {
				t.Errorf("body lacks %q:\n%s", want, body)
			}
		}
	})
}

func TestMailWaitsForARelayThatIsDown(t *testing.T) {
	dir := t.TempDir()
	port, err := apache.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	log := &logLines{}
	m := &Mail{Addr: fmt.Sprintf("127.0.0.1:%d", port), From: "cgigate@example.org", To: []string{"owner@example.org"},
		Backoff: Backoff{Min: 10 * time.Millisecond, Max: 20 * time.Millisecond}, DeadLetters: &DeadLetters{Path: filepath.Join(dir, "dead")}, Logf: log.logf}
	cfg := Config{RecordPath: filepath.Join(dir, "records"), StateDir: filepath.Join(dir, "state"), Targets: []Target{m}, Logf: log.logf}
	_, line := testRecord(t, "contact")
	appendLines(t, cfg.RecordPath, line)
	start(t, cfg)
	waitFor(t, "three failed attempts", func() bool { return strings.Contains(strings.Join(log.all(), "\n"), "attempt 3:") })
	if _, err := os.Stat(m.DeadLetters.Path); err == nil {
		t.Errorf("a relay that cannot be reached parked the record")
	}
}
