package main

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"strings"
)

// field and file are as in the gateway's JSON rendering and its record
// lines (the README's contract).
type field struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

type file struct {
	Name        string `json:"name"`
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	SHA256      string `json:"sha256"`
}

// job is one request and what must come back.
type job struct {
	kind     string // isindex, urlencoded, multipart, get-form, bad-*
	id       string // unique in the run and across runs: "<token>-<i>"
	method   string
	query    string // raw, after '?'
	ct       string
	body     []byte
	status   int // the status it must get
	keywords []string
	fields   []field
	files    []file
	recorded bool // a form submission the gateway appends to its record
}

func (j job) bad() bool { return strings.HasPrefix(j.kind, "bad-") }

// texts are the values forms carry: markup, separators, non-ASCII text.
var texts = []string{
	"hello world", "日本語のテキスト", "Straße", "a+b=c&d;e", `"><script>alert(1)</script>`,
	"emoji 😀 ok", "tab\tand\nnewline", "%41 stays %41", "ｲﾝｻﾂ", "mixed ascii and ünïcödé",
}

// plan makes n jobs, the mix decided by seed: per ten requests two
// ISINDEX searches, three urlencoded POSTs, two multipart POSTs with a
// file, one GET form and two bad requests of six sorts in turn. The ids
// carry a random token, so that runs against one record file never
// collide.
func plan(n int, seed int64) []job {
	tok := make([]byte, 6)
	rand.Read(tok)
	token := "L" + hex.EncodeToString(tok)
	rnd := mrand.New(mrand.NewPCG(uint64(seed), 0x63676c6f6164))
	jobs := make([]job, 0, n)
	badN := 0
	for i := range n {
		id := fmt.Sprintf("%s-%d", token, i)
		text := texts[rnd.IntN(len(texts))]
		var j job
		switch i % 10 {
		case 0, 1:
			words := []string{"load", fmt.Sprintf("w%d", rnd.IntN(1000)), id}
			var esc []string
			for _, w := range words {
				esc = append(esc, url.QueryEscape(w))
			}
			j = job{kind: "isindex", method: "GET", query: strings.Join(esc, "+"), status: 200, keywords: words}
		case 2, 3, 4:
			body := "id=" + url.QueryEscape(id) + "&text=" + url.QueryEscape(text) + "&n=" + fmt.Sprint(i)
			j = job{kind: "urlencoded", method: "POST", ct: "application/x-www-form-urlencoded", body: []byte(body),
				status: 200, recorded: true, fields: []field{{"id", id, "body"}, {"text", text, "body"}, {"n", fmt.Sprint(i), "body"}}}
		case 5, 6:
			content := make([]byte, rnd.IntN(4096))
			for k := range content {
				content[k] = byte(rnd.Uint32())
			}
			j = multipartJob(id, text, fmt.Sprintf("upload-%d.bin", i), content)
		case 7:
			j = job{kind: "get-form", method: "GET", query: "id=" + url.QueryEscape(id) + "&q=" + url.QueryEscape(text),
				status: 200, recorded: true, fields: []field{{"id", id, "query"}, {"q", text, "query"}}}
		default:
			j = badJob(badN, id)
			badN++
		}
		j.id = id
		jobs = append(jobs, j)
	}
	return jobs
}

func multipartJob(id, text, filename string, content []byte) job {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.WriteField("id", id)
	mw.WriteField("text", text)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename="%s"`, filename))
	h.Set("Content-Type", "application/octet-stream")
	pw, _ := mw.CreatePart(h)
	pw.Write(content)
	mw.Close()
	sum := sha256.Sum256(content)
	return job{kind: "multipart", method: "POST", ct: mw.FormDataContentType(), body: b.Bytes(), status: 200, recorded: true,
		fields: []field{{"id", id, "body"}, {"text", text, "body"}},
		files:  []file{{"file", filename, "application/octet-stream", int64(len(content)), hex.EncodeToString(sum[:])}}}
}

// badJob is the k-th bad request: each sort in turn, each carrying the id
// so that the record check can tell it was never recorded.
func badJob(k int, id string) job {
	switch k % 6 {
	case 0:
		return job{kind: "bad-charset", method: "GET", query: "[x-klingon]:id=" + id + "&a=1", status: 400}
	case 1:
		return job{kind: "bad-type", method: "POST", ct: "application/xml", body: []byte("<id>" + id + "</id>"), status: 415}
	case 2:
		body := "--B\r\nContent-Disposition: form-data; name=\"id\"\r\n\r\n" + id + "\r\n--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\ncut"
		return job{kind: "bad-truncated", method: "POST", ct: "multipart/form-data; boundary=B", body: []byte(body), status: 400}
	case 3:
		body := "id=" + id + strings.Repeat("&k=v", 1000)
		return job{kind: "bad-flood", method: "POST", ct: "application/x-www-form-urlencoded", body: []byte(body), status: 413}
	case 4:
		bd := strings.Repeat("b", 71)
		body := "--" + bd + "\r\nContent-Disposition: form-data; name=\"id\"\r\n\r\n" + id + "\r\n--" + bd + "--\r\n"
		return job{kind: "bad-boundary", method: "POST", ct: "multipart/form-data; boundary=" + bd, body: []byte(body), status: 400}
	}
	return job{kind: "bad-utf7", method: "POST", ct: "application/x-www-form-urlencoded", body: []byte("id=" + id + "&_charset_=utf-7"), status: 400}
}
