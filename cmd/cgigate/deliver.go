//go:build !cgionly

package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/cgigate/cgigate/internal/cli"
	"github.com/cgigate/cgigate/internal/forms"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/cgigate/cgigate/internal/delivery"
)

// deliverUsage is the usage line's deliver subcommand in this build.
const deliverUsage = "\n       %[1]s deliver [flags]   (see %[1]s deliver -help)"

// stringList is a flag that may be given more than once.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// runDeliver is `cgigate deliver`: it follows the record file and delivers
// every record to every target the flags configure, until SIGTERM or
// SIGINT; with -status it prints each target's progress and backlog.
func runDeliver(env map[string]string, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("cgigate deliver", flag.ContinueOnError)
	record := fl.String("record", env["CGIGATE_RECORD"], "the record `FILE` to follow (default $CGIGATE_RECORD)")
	state := fl.String("state", "/var/lib/cgigate/deliver", "`DIR` of the checkpoints (<target>.checkpoint) and dead-letter files (<target>.dead)")
	status := fl.Bool("status", false, "print each target's progress and backlog, and exit")
	dsn := fl.String("postgres", "", "deliver into PostgreSQL at `DSN` (a libpq URL or key=value string), table cgigate_submissions, created if absent")
	var hooks, to stringList
	fl.Var(&hooks, "webhook", "POST each record to `URL`, signed (X-Cgigate-Signature: sha256=<hex HMAC-SHA256>); may be repeated")
	secretFile := fl.String("webhook-secret-file", "", "`FILE` holding the webhooks' HMAC secret (a file, so that it shows in no process list)")
	attempts := fl.Int("webhook-attempts", 6, "attempts per record (at least 5) before it is parked in the dead-letter file")
	timeout := fl.Duration("webhook-timeout", 10*time.Second, "timeout of one webhook attempt")
	smtpAddr := fl.String("smtp", "", "send one mail per record through the relay at `HOST:PORT`")
	from := fl.String("mail-from", "", "sender `ADDRESS` of the mails")
	fl.Var(&to, "mail-to", "recipient `ADDRESS` of the mails; may be repeated")
	replyTo := fl.String("reply-to", "", "set Reply-To from the form field called `FIELD`, when it holds one address, for records of no declared form or one that declares no email field")
	formsFile := fl.String("forms", env["CGIGATE_FORMS"], "the declared forms `FILE` (default $CGIGATE_FORMS): a record of a declared form takes its Reply-To from the form's first email field")
	batch := fl.Int("batch", 100, "most records handed to a target at once (one PostgreSQL transaction)")
	logEvery := fl.Int("log-every", 1000, "log a progress line every `N` records delivered")
	poll := fl.Duration("poll", 200*time.Millisecond, "how often the end of the record file is read again")
	backoffMax := fl.Duration("backoff-max", 30*time.Second, "longest wait between two attempts (the first waits 500ms, each next twice as long)")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: cgigate deliver -record FILE [-postgres DSN] [-webhook URL ...] [-smtp HOST:PORT -mail-from A -mail-to B]\n\n"+
			"Follows the record file from durable checkpoints and delivers each record to every\n"+
			"configured target, at least once and idempotently by the record's id; run it under\n"+
			"systemd (httpdconf/systemd/cgigate-deliver.service). Each target is optional.\n\n")
		fl.PrintDefaults()
	}
	if err := cli.Parse(fl, args, stdout, stderr); err != nil {
		return cli.Code(err)
	}
	if *record == "" || fl.NArg() > 0 {
		fl.Usage()
		return 2
	}
	logf := log.New(stderr, "", log.LstdFlags).Printf
	backoff := delivery.Backoff{Min: 500 * time.Millisecond, Max: *backoffMax}
	dead := func(name string) *delivery.DeadLetters {
		return &delivery.DeadLetters{Path: filepath.Join(*state, name+".dead")}
	}
	var targets []delivery.Target
	if *dsn != "" {
		targets = append(targets, &delivery.Postgres{DSN: *dsn, Backoff: backoff, DeadLetters: dead("postgres"), Logf: logf})
	}
	if len(hooks) > 0 {
		var secret []byte
		if *secretFile != "" {
			b, err := os.ReadFile(*secretFile)
			if err != nil {
				fmt.Fprintf(stderr, "cgigate deliver: %v\n", err)
				return 2
			}
			secret = []byte(strings.TrimSpace(string(b)))
		}
		for _, u := range hooks {
			w := &delivery.Webhook{URL: u, Secret: secret, Attempts: *attempts, Timeout: *timeout, Backoff: backoff, Logf: logf}
			w.DeadLetters = dead(w.Name())
			targets = append(targets, w)
		}
	}
	if *smtpAddr != "" {
		if *from == "" || len(to) == 0 {
			fmt.Fprintln(stderr, "cgigate deliver: -smtp needs -mail-from and -mail-to")
			return 2
		}
		m := &delivery.Mail{Addr: *smtpAddr, From: *from, To: to, Backoff: backoff, DeadLetters: dead("mail"), Logf: logf}
		var declared *forms.Set
		if *formsFile != "" {
			set, err := forms.Load(*formsFile)
			if err != nil {
				fmt.Fprintf(stderr, "cgigate deliver: %v\n", err)
				return 2
			}
			declared = set
		}
		m.ReplyTo = replyToField(declared, *replyTo)
		targets = append(targets, m)
	}
	if len(targets) == 0 {
		fmt.Fprintln(stderr, "cgigate deliver: no target: give -postgres, -webhook or -smtp")
		return 2
	}
	if *status {
		names := make([]string, len(targets))
		for i, t := range targets {
			names[i] = t.Name()
		}
		if err := delivery.Status(stdout, *record, *state, names); err != nil {
			fmt.Fprintf(stderr, "cgigate deliver: %v\n", err)
			return 1
		}
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	err := delivery.Run(ctx, delivery.Config{RecordPath: *record, StateDir: *state, Targets: targets, Batch: *batch, LogEvery: *logEvery, Poll: *poll, Logf: logf})
	if err != nil {
		logf("%v", err)
		return 1
	}
	return 0
}

// replyTo is where a mail's Reply-To comes from: the first email field of
// the record's declared form, else the field named by -reply-to, else
// none. It reads only the declaration, never the request, for which field
// that is.
func replyToField(declared *forms.Set, fallback string) func(*delivery.Record) string {
	return func(r *delivery.Record) string {
		field := fallback
		if declared != nil {
			if f := declared.Form(r.Form); f != nil {
				for _, fd := range f.Fields {
					if fd.Kind == forms.Email {
						field = fd.Name
						break
					}
				}
			}
		}
		if field == "" {
			return ""
		}
		v, _ := r.Value(field)
		return v
	}
}
