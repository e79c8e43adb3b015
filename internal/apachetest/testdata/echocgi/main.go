// Command echocgi is a CGI program for tests: it answers every request with
// a JSON object holding its argv words, QUERY_STRING, environment and the
// request body, so tests can see exactly what Apache handed a CGI program.
package main

import (
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
)

type report struct {
	Args        []string          `json:"args"`
	ArgBytes    [][]byte          `json:"arg_bytes"`
	QueryString string            `json:"query_string"`
	Env         map[string]string `json:"env"`
	Body        []byte            `json:"body"`
}

func main() {
	r := report{Args: os.Args[1:], QueryString: os.Getenv("QUERY_STRING"), Env: map[string]string{}}
	if r.Args == nil {
		r.Args = []string{}
	}
	for _, a := range r.Args {
		r.ArgBytes = append(r.ArgBytes, []byte(a))
	}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		r.Env[k] = v
	}
	if n, err := strconv.ParseInt(os.Getenv("CONTENT_LENGTH"), 10, 64); err == nil && n > 0 {
		r.Body, _ = io.ReadAll(io.LimitReader(os.Stdin, n))
	} else if _, set := os.LookupEnv("CONTENT_LENGTH"); !set && os.Getenv("REQUEST_METHOD") == "POST" {
		// A chunked request comes with no CONTENT_LENGTH; Apache closes
		// stdin after the body.
		r.Body, _ = io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
	}
	os.Stdin.Close()
	out, err := json.Marshal(r)
	if err != nil {
		os.Stdout.WriteString("Status: 500\r\nContent-Type: text/plain\r\n\r\n" + err.Error())
		return
	}
	os.Stdout.WriteString("Content-Type: application/json\r\n\r\n")
	os.Stdout.Write(out)
	os.Stdout.WriteString("\n")
}
