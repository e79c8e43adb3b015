package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"strings"
	"time"
)

// Mail sends one message per record through an SMTP relay: UTF-8 text,
// every header that is not ASCII encoded per RFC 2047, the form's name in
// the subject, the fields in the body, and Reply-To from ReplyTo. The
// Message-ID is made of the record's id, so that a message sent twice (a
// deliverer killed between the relay's 250 and its checkpoint) is one
// message to a mail client that drops duplicates, and findable by id.
//
// A relay that cannot be reached, or answers 4xx, is retried with backoff
// for as long as it takes; a 5xx is final and parks the record.
type Mail struct {
	Addr        string   // the relay, host:port
	From        string   // envelope sender and From: address
	To          []string // recipients
	ReplyTo     func(*Record) string
	Backoff     Backoff
	DeadLetters *DeadLetters
	Logf        func(string, ...any)
	// send is smtp.SendMail; a test may watch it.
	send func(addr string, a smtp.Auth, from string, to []string, msg []byte) error
}

func (m *Mail) Name() string { return "mail" }
func (m *Mail) Close() error { return nil }

func (m *Mail) Deliver(ctx context.Context, recs []Record) (int, error) {
	send := m.send
	if send == nil {
		send = smtp.SendMail
	}
	dead := 0
	for _, r := range recs {
		msg := m.Message(&r)
		for attempt := 1; ; attempt++ {
			err := send(m.Addr, nil, m.From, m.To, msg)
			if err == nil {
				break
			}
			var te *textproto.Error
			if errors.As(err, &te) && te.Code >= 500 {
				if perr := m.DeadLetters.park(m.Name(), r, attempt, err); perr != nil {
					return dead, fmt.Errorf("dead-letter file: %w", perr)
				}
				m.Logf("deliver: mail: record %s refused by %s, parked in %s: %v", r.ID, m.Addr, m.DeadLetters.Path, err)
				dead++
				break
			}
			m.Logf("deliver: mail: record %s attempt %d: %v; again in %v", r.ID, attempt, err, m.Backoff.delay(attempt))
			if err := m.Backoff.wait(ctx, attempt); err != nil {
				return dead, err
			}
		}
	}
	return dead, nil
}

// Message is the whole message for r, header and body, lines ending CRLF.
func (m *Mail) Message(r *Record) []byte {
	var b bytes.Buffer
	h := func(name, value string) { fmt.Fprintf(&b, "%s: %s\r\n", name, value) }
	h("From", (&mail.Address{Name: "cgigate", Address: m.From}).String())
	to := make([]string, len(m.To))
	for i, a := range m.To {
		to[i] = (&mail.Address{Address: a}).String()
	}
	h("To", strings.Join(to, ", "))
	if m.ReplyTo != nil {
		if s := m.ReplyTo(r); s != "" {
			// Only a well-formed address goes in the header: a visitor's
			// text with CR or LF, or a list of addresses, would otherwise
			// add headers or recipients of its own.
			if a, err := mail.ParseAddress(s); err == nil {
				h("Reply-To", a.String())
			}
		}
	}
	h("Subject", mime.QEncoding.Encode("utf-8", subject(r)))
	h("Date", r.Received.Format(time.RFC1123Z))
	h("Message-ID", "<"+r.ID+"@cgigate.invalid>")
	h(IDHeader, r.ID)
	h("MIME-Version", "1.0")
	h("Content-Type", "text/plain; charset=utf-8")
	h("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	qp.Write([]byte(body(r)))
	qp.Close()
	return b.Bytes()
}

// subject names the form; a header is one line, so line breaks in a
// name become spaces (QEncoding would encode them, but a mail client shows
// them as nothing at all).
func subject(r *Record) string {
	form := oneLine(r.Form)
	if form == "" {
		return "Form submission"
	}
	return "Form submission: " + form
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// body lists the fields, then what the gateway knew of the request.
func body(r *Record) string {
	var b strings.Builder
	for _, f := range r.Fields {
		v := strings.ReplaceAll(strings.ReplaceAll(f.Value, "\r\n", "\n"), "\n", "\r\n    ")
		fmt.Fprintf(&b, "%s: %s\r\n", f.Name, v)
	}
	b.WriteString("\r\n--\r\n")
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	line("Form", oneLine(r.Form))
	line("Received", r.Received.UTC().Format(time.RFC3339))
	line("From address", r.RemoteAddr)
	line("User agent", r.UserAgent)
	line("Referer", r.Referer)
	cs := r.Charset
	if r.CharsetSource != "" {
		cs += " (" + r.CharsetSource
		if r.CharsetSource == "sniffed" {
			cs += fmt.Sprintf(", confidence %.2f", r.Confidence)
		}
		cs += ")"
	}
	line("Charset", cs)
	for _, f := range r.Files {
		line("File", fmt.Sprintf("%s: %s (%s, %d bytes, sha256 %s)", f.Name, oneLine(f.Filename), f.ContentType, f.Size, f.SHA256))
	}
	for _, w := range r.Warnings {
		line("Warning", w)
	}
	line("Id", r.ID)
	return b.String()
}
