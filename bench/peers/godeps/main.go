// Command godeps is a reference line of the cold-start table, not a peer:
// gohello with the packages cgigate is built on linked in, and nothing of
// them used. It pays their package initialisation and nothing else, so
// it bounds from below what any program using them costs at start-up;
// TestReferences (bench) keeps the list honest: go-deps links nothing the
// cgi-bin gateway does not.
package main

import (
	_ "encoding/json"
	_ "html/template"
	_ "mime/multipart"
	"os"

	_ "github.com/gorilla/schema"
	_ "golang.org/x/net/idna"
	_ "golang.org/x/text/cases"
	_ "golang.org/x/text/encoding/charmap"
	_ "golang.org/x/text/encoding/japanese"
	_ "golang.org/x/text/encoding/korean"
	_ "golang.org/x/text/encoding/simplifiedchinese"
	_ "golang.org/x/text/encoding/traditionalchinese"
	_ "golang.org/x/text/encoding/unicode"
	_ "golang.org/x/text/language"
	_ "golang.org/x/text/unicode/norm"
)

func main() {
	os.Stdout.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\nhello\n")
}
