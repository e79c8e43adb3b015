package cgi_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cgigate/cgigate/cgi"
)

func ExampleRequestFromMap() {
	env := map[string]string{
		"GATEWAY_INTERFACE": "CGI/1.1", "SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "GET",
		"QUERY_STRING": "a=1", "REQUEST_URI": "/rewritten?b=2", "HTTP_PROXY": "http://evil/",
	}
	r, err := cgi.RequestFromMap(env, nil, nil)
	fmt.Println(r.RawQuery, r.Header.Get("Proxy") == "", err)
	// Output: a=1 true <nil>
}

func ExampleRequestFromMap_badContentLength() {
	env := map[string]string{"SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "POST", "CONTENT_LENGTH": "+5"}
	_, err := cgi.RequestFromMap(env, nil, strings.NewReader("a=1&b"))
	fmt.Println(cgi.StatusOf(err), err)
	// Output: 400 cgi: CONTENT_LENGTH "+5": not a decimal byte count (RFC 3875 § 4.1.2)
}

func ExampleFromProcess() {
	// In a CGI child: the environment, os.Args and os.Stdin of the process.
	if os.Getenv("GATEWAY_INTERFACE") == "" {
		fmt.Println("not run by a web server")
		return
	}
	r, err := cgi.FromProcess()
	fmt.Println(r.Method, err)
	// Output: not run by a web server
}

func ExampleEnviron() {
	env := cgi.Environ([]string{"REQUEST_METHOD=GET", "QUERY_STRING=a=b=c"})
	fmt.Println(env["QUERY_STRING"])
	// Output: a=b=c
}

func ExampleReadForm() {
	body := "b=%E5%8D%B0&c=3"
	env := map[string]string{
		"SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "POST", "QUERY_STRING": "a=1",
		"CONTENT_TYPE": "application/x-www-form-urlencoded; charset=utf-8", "CONTENT_LENGTH": fmt.Sprint(len(body)),
	}
	r, _ := cgi.RequestFromMap(env, nil, strings.NewReader(body))
	form, err := cgi.ReadForm(r, cgi.Config{})
	if err != nil {
		fmt.Println(cgi.StatusOf(err), err)
		return
	}
	defer form.Close()
	fmt.Println(form.Kind, form.Charset, form.CharsetSource)
	for _, f := range form.Fields {
		fmt.Println(f.Origin, f.Name, f.Value)
	}
	// Output:
	// form utf-8 content-type
	// query a 1
	// body b 印
	// body c 3
}

func ExampleForm_Close() {
	body := "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\n\r\nhello\r\n--B--\r\n"
	env := map[string]string{
		"SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "POST",
		"CONTENT_TYPE": "multipart/form-data; boundary=B", "CONTENT_LENGTH": fmt.Sprint(len(body)),
	}
	dir, _ := os.MkdirTemp("", "example-")
	defer os.RemoveAll(dir)
	r, _ := cgi.RequestFromMap(env, nil, strings.NewReader(body))
	form, err := cgi.ReadForm(r, cgi.Config{TempDir: dir})
	if err != nil {
		fmt.Println(err)
		return
	}
	f := form.Files[0]
	fmt.Println(f.Name, f.Filename, f.Size, f.SHA256[:16])
	content, _ := io.ReadAll(f.Reader())
	names, _ := os.ReadDir(dir)
	fmt.Printf("%s, %d names in the folder\n", content, len(names))
	form.Close()
	_, err = io.ReadAll(f.Reader())
	fmt.Println(errors.Is(err, os.ErrClosed))
	// Output:
	// f a.txt 5 2cf24dba5fb0a30e
	// hello, 0 names in the folder
	// true
}

func ExampleServeEnv() {
	h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		cgi.Respond(w, cgi.StatusOK, cgi.Text, []byte("hello\n"))
	})
	env := map[string]string{"SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "GET"}
	var out bytes.Buffer
	cgi.ServeEnv(h, cgi.Limits{}, env, nil, strings.NewReader(""), &out)
	fmt.Print(strings.ReplaceAll(out.String(), "\r\n", "\n"))
	// Output:
	// Status: 200 OK
	// Content-Type: text/plain; charset=utf-8
	// X-Content-Type-Options: nosniff
	//
	// hello
}

func ExampleServe() {
	h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		cgi.Respond(w, cgi.StatusOK, cgi.Text, []byte("hello\n"))
	})
	if os.Getenv("GATEWAY_INTERFACE") != "" {
		if err := cgi.Serve(h, cgi.Limits{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0) // right after the answer: mod_cgid waits for stdout and stdin to close
	}
}

func ExampleRecover() {
	h := cgi.Recover(cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) { panic("bug") }))
	env := map[string]string{"REQUEST_METHOD": "GET", "HTTP_ACCEPT": "text/plain"}
	var out bytes.Buffer
	cgi.ServeEnv(h, cgi.Limits{}, env, nil, nil, &out) // the panic and its stack go to stderr
	fmt.Print(strings.ReplaceAll(out.String(), "\r\n", "\n"))
	// Output:
	// Status: 500 Internal Server Error
	// Content-Type: text/plain; charset=utf-8
	// Vary: Accept
	// X-Content-Type-Options: nosniff
	//
	// 500 Internal Server Error
	//
	// Internal Server Error
}

func ExampleSanitizeHeader() {
	h := cgi.Header{"Location": {"/cgi-bin/admin.cgi"}, "X-Next": {"a\r\nSet-Cookie: a=b"}}
	cgi.SanitizeHeader(h) // each refusal is named on stderr
	fmt.Println(h)
	// Output: map[Content-Type:[text/plain; charset=utf-8]]
}

func ExampleNegotiate() {
	fmt.Println(cgi.Negotiate("application/json;q=0.9, text/plain;q=0.5").ContentType())
	fmt.Println(cgi.Negotiate("").ContentType())
	// Output:
	// application/json; charset=utf-8
	// text/html; charset=utf-8
}

func ExampleNegotiateResponse() {
	h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		f := cgi.NegotiateResponse(w, r)
		cgi.Respond(w, cgi.StatusOK, f, []byte("hello\n"))
	})
	env := map[string]string{"REQUEST_METHOD": "GET", "HTTP_ACCEPT": "text/plain"}
	var out bytes.Buffer
	cgi.ServeEnv(h, cgi.Limits{}, env, nil, nil, &out)
	fmt.Print(strings.ReplaceAll(out.String(), "\r\n", "\n"))
	// Output:
	// Status: 200 OK
	// Content-Type: text/plain; charset=utf-8
	// Vary: Accept
	// X-Content-Type-Options: nosniff
	//
	// hello
}

func ExampleFormat_ContentType() {
	fmt.Println(cgi.Text.ContentType())
	// Output: text/plain; charset=utf-8
}

func ExampleSetHeader() {
	h := cgi.Header{}
	fmt.Println(cgi.SetHeader(h, "X-Next", "a\r\nSet-Cookie: a=b"))
	fmt.Println(cgi.SetHeader(h, "Location", "/cgi-bin/admin.cgi"))
	fmt.Println(cgi.SetHeader(h, "Cache-Control", "no-store"), h.Get("Cache-Control"))
	// Output:
	// cgi: header X-Next value "a\r\nSet-Cookie: a=b" holds a control byte
	// cgi: header Location is never sent by the gateway
	// <nil> no-store
}

func ExampleRespond() {
	h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		cgi.Respond(w, cgi.StatusOK, cgi.JSON, []byte("{\"a\":\"\xff\"}\n"))
	})
	var out bytes.Buffer
	cgi.ServeEnv(h, cgi.Limits{}, map[string]string{"REQUEST_METHOD": "GET"}, nil, nil, &out)
	fmt.Print(strings.ReplaceAll(out.String(), "\r\n", "\n"))
	// Output:
	// Status: 200 OK
	// Content-Type: application/json; charset=utf-8
	// X-Content-Type-Options: nosniff
	//
	// {"a":"�"}
}

func ExampleWriteError() {
	h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		cgi.WriteError(w, r, &cgi.Error{Status: cgi.StatusUnsupportedMediaType, Op: "Content-Type", Input: "application/xml", Msg: "not a form encoding"})
	})
	env := map[string]string{"REQUEST_METHOD": "POST", "HTTP_ACCEPT": "application/json"}
	var out bytes.Buffer
	cgi.ServeEnv(h, cgi.Limits{}, env, nil, nil, &out)
	fmt.Print(strings.ReplaceAll(out.String(), "\r\n", "\n"))
	// Output:
	// Status: 415 Unsupported Media Type
	// Content-Type: application/json; charset=utf-8
	// Vary: Accept
	// X-Content-Type-Options: nosniff
	//
	// {"error":"cgi: Content-Type \"application/xml\": not a form encoding","status":415}
}

func ExampleStatusOf() {
	_, err := cgi.RequestFromMap(map[string]string{"SERVER_PROTOCOL": "HTTP/1.1", "REQUEST_METHOD": "POST", "CONTENT_LENGTH": "1e3"}, nil, nil)
	fmt.Println(cgi.StatusOf(err))
	// Output: 400
}

func ExampleMessage() {
	fmt.Println(cgi.Message(errors.Join(cgi.ErrServer, errors.New("disk full at /var/x"))))
	// Output: Internal Server Error
}

func ExampleError() {
	err := fmt.Errorf("reading: %w", &cgi.Error{Status: 413, Op: "multipart", Msg: "more than 1000 parts"})
	var e *cgi.Error
	fmt.Println(errors.As(err, &e), e.Status, e)
	// Output: true 413 cgi: multipart: more than 1000 parts
}

func ExampleRespondStream() {
	h := cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
		err := cgi.RespondStream(w, cgi.StatusOK, cgi.Text, func(w io.Writer) error {
			// A character cut in two by the writes is kept; a bad byte is not.
			fmt.Fprint(w, "caf\xc3")
			fmt.Fprint(w, "\xa9 \xff\n")
			return nil
		})
		fmt.Println(err)
	})
	var out bytes.Buffer
	cgi.ServeEnv(h, cgi.Limits{}, map[string]string{"REQUEST_METHOD": "GET"}, nil, nil, &out)
	fmt.Print(strings.ReplaceAll(out.String(), "\r\n", "\n"))
	// Output:
	// <nil>
	// Status: 200 OK
	// Content-Type: text/plain; charset=utf-8
	// X-Content-Type-Options: nosniff
	//
	// café �
}

func ExampleStatusText() {
	fmt.Println(cgi.StatusText(cgi.StatusRequestEntityTooLarge))
	// Output: Request Entity Too Large
}

func ExampleCheckHeader() {
	fmt.Println(cgi.CheckHeader("Content-Length", "1"))
	fmt.Println(cgi.CheckHeader("Cache-Control", "no-store"))
	// Output:
	// cgi: header Content-Length is never sent by the gateway
	// <nil>
}

func ExampleHeader() {
	h := cgi.Header{}
	h.Add("accept-language", "ja")
	fmt.Println(h.Get("Accept-Language"), h)
	// Output: ja map[Accept-Language:[ja]]
}
