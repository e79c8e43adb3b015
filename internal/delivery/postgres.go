package delivery

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Schema creates the table every node delivers into. The id is the
// primary key, so that a record delivered twice (a deliverer killed
// between the commit and its checkpoint) is inserted once.
const Schema = `CREATE TABLE IF NOT EXISTS cgigate_submissions (
	id             uuid PRIMARY KEY,
	received_at    timestamptz NOT NULL,
	form           text NOT NULL DEFAULT '',
	charset        text NOT NULL DEFAULT '',
	charset_source text NOT NULL DEFAULT '',
	confidence     double precision,
	remote_addr    text NOT NULL DEFAULT '',
	user_agent     text NOT NULL DEFAULT '',
	referer        text NOT NULL DEFAULT '',
	fields         jsonb NOT NULL,
	files          jsonb NOT NULL,
	raw            jsonb NOT NULL,
	warnings       jsonb NOT NULL
)`

const insertSQL = `INSERT INTO cgigate_submissions
	(id, received_at, form, charset, charset_source, confidence, remote_addr, user_agent, referer, fields, files, raw, warnings)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12::jsonb, $13::jsonb)
	ON CONFLICT (id) DO NOTHING`

// Postgres inserts records into cgigate_submissions, a batch in one
// transaction. While the database is down or unreachable it reconnects
// with backoff, for as long as it takes: the records wait in the file.
// A record the database refuses as data (SQLSTATE class 22, say a string
// jsonb cannot hold) is parked in DeadLetters, alone, and the rest of its
// batch goes in.
type Postgres struct {
	DSN         string // a libpq connection string or URL
	Backoff     Backoff
	Timeout     time.Duration // of connecting and of one batch; 30s when zero
	DeadLetters *DeadLetters
	Logf        func(string, ...any)

	conn *pgx.Conn
}

func (p *Postgres) Name() string { return "postgres" }

func (p *Postgres) Close() error {
	if p.conn == nil {
		return nil
	}
	err := p.conn.Close(context.Background())
	p.conn = nil
	return err
}

func (p *Postgres) timeout() time.Duration {
	if p.Timeout <= 0 {
		return 30 * time.Second
	}
	return p.Timeout
}

func (p *Postgres) Deliver(ctx context.Context, recs []Record) (int, error) {
	for attempt := 1; ; attempt++ {
		dead, err := p.try(ctx, recs)
		if err == nil {
			if attempt > 1 {
				p.Logf("deliver: postgres: %d records inserted at attempt %d", len(recs), attempt)
			}
			return dead, nil
		}
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		var park *parkError
		if errors.As(err, &park) {
			return 0, err
		}
		p.Logf("deliver: postgres: attempt %d for %d records: %v; again in %v", attempt, len(recs), err, p.Backoff.delay(attempt))
		p.Close()
		if err := p.Backoff.wait(ctx, attempt); err != nil {
			return 0, err
		}
	}
}

type parkError struct{ err error }

func (e *parkError) Error() string { return "dead-letter file: " + e.err.Error() }

// try connects if need be and inserts recs in one transaction.
func (p *Postgres) try(ctx context.Context, recs []Record) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout())
	defer cancel()
	if p.conn == nil {
		c, err := pgx.Connect(ctx, p.DSN)
		if err != nil {
			return 0, err
		}
		if _, err := c.Exec(ctx, Schema); err != nil {
			c.Close(context.Background())
			return 0, err
		}
		p.conn = c
	}
	err := p.insert(ctx, recs)
	if !isDataError(err) {
		return 0, err
	}
	// One record spoils the batch: insert them one by one, and park
	// those the database refuses.
	dead := 0
	for _, r := range recs {
		err := p.insert(ctx, []Record{r})
		if isDataError(err) {
			if perr := p.DeadLetters.park(p.Name(), r, 1, err); perr != nil {
				return 0, &parkError{perr}
			}
			p.Logf("deliver: postgres: record %s refused, parked in %s: %v", r.ID, p.DeadLetters.Path, err)
			dead++
			continue
		}
		if err != nil {
			return 0, err
		}
	}
	return dead, nil
}

func (p *Postgres) insert(ctx context.Context, recs []Record) error {
	return pgx.BeginFunc(ctx, p.conn, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		for _, r := range recs {
			var conf any
			if r.CharsetSource == "sniffed" {
				conf = r.Confidence
			}
			b.Queue(insertSQL, r.ID, r.Received, r.Form, r.Charset, r.CharsetSource, conf, r.RemoteAddr, r.UserAgent, r.Referer,
				jsonOr(mustJSON(r.Fields), "[]"), jsonOr(mustJSON(r.Files), "[]"), jsonOr(mustJSON(r.Raw), "{}"), jsonOr(mustJSON(r.Warnings), "[]"))
		}
		return tx.SendBatch(ctx, b).Close()
	})
}

// isDataError is an error of the record, not of the database: retrying
// it would fail forever.
func isDataError(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (strings.HasPrefix(pe.Code, "22") || pe.Code == "23502" || pe.Code == "23514")
}

func jsonOr(b []byte, empty string) string {
	if len(b) == 0 || string(b) == "null" {
		return empty
	}
	return string(b)
}

// mustJSON re-encodes a part of a decoded record for its jsonb column.
func mustJSON(v any) []byte {
	b, err := jsonMarshal(v)
	if err != nil {
		panic(fmt.Sprintf("delivery: re-encoding a decoded record: %v", err))
	}
	return b
}
