// Command urldecode decodes percent-encoded URLs and queries whose charset
// nobody wrote down, shows their parts, and encodes text the way a browser
// of 1998 or of today would.
//
//	$ urldecode 'http:[EUC-JP]//www.jacme.co.jp/%B0%F5%BA%FE.html'
//	http://www.jacme.co.jp/印刷.html
//	  scheme:   http
//	  host:     www.jacme.co.jp (IDNA www.jacme.co.jp)
//	  port:     80 (default for http)
//	  segment:  "印刷.html"
//	  charset:  euc-jp (hint [EUC-JP])
//
// Every non-ASCII byte of one URL (user information, path, query and
// fragment) is read in one charset, as a 1990s browser sent them all in
// its page's charset. The charset is chosen in this order: the -charset
// flag, which forces it; a hint after the scheme ("http:[EUC]//..." or
// "http:[EUC]://...", the syntax of the 1990s internationalised-URL
// proposals) or at the head of the query ("?[EUC-JP]:..."); a "_charset_"
// field (HTML § 4.10.21.4); then sniffing (decoder/sniff) with the host's country-code TLD as
// evidence; a bare family hint such as "[EUC]" is narrowed by sniffing
// among its members. ASCII alone is UTF-8 (Encoding Standard § 4.1).
// Hosts are read as the URL Standard's host parser reads them (WHATWG URL
// § 3.5): percent-decoded, as UTF-8, through UTS #46 "domain to ASCII"
// (decoder/idn); the query is split and decoded by package decoder.
//
// With -encode the command goes the other way (HTML 2.0 § 8.2.1's form
// encoding, or with -whatwg the URL Standard's, in any charset); with -idn it converts host names and
// addresses; with -log it reads Apache access logs in one streaming pass.
// Run "urldecode -h" for the flags, "urldecode -version" for the build. The exit status is 0 when every input
// decoded, 1 when some could not be (each is named on stderr with its line
// or argument number), and 2 for a usage error.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/cgigate/cgigate/decoder/charset"
	"github.com/cgigate/cgigate/internal/cli"
)

// Exit statuses.
const (
	exitOK      = 0
	exitPartial = 1 // some input could not be decoded or encoded
	exitUsage   = 2
)

// config is what the flags say. The zero value decodes URLs, sniffing.
type config struct {
	Charset   string // -charset: forced label ("" lets hints and sniffing decide)
	LegacyIDN bool   // -legacy-idn: read and write the 2000-era label encodings
	Encode    bool   // -encode: text to percent-encoding instead
	IDN       bool   // -idn: inputs are host names or user@host addresses
	JSON      bool   // -json: one JSON object a line
	Log       string // -log FILE or "-": Apache access log lines
	Host      string // -host: evidence for inputs that carry no host
	NCR       bool   // -ncr: numeric character references both ways
	WHATWG    bool   // -whatwg: encode forms as today's URL Standard serializer

	cs *charset.Charset // Charset, looked up
}

const usageText = `usage: urldecode [flags] URL|QUERY ...
       urldecode [flags] < lines
       urldecode [flags] -log FILE|-

Decodes percent-encoded URLs and query strings whose charset nobody wrote
down, and prints the decoded URL and then its parts: scheme, user
information, host (in Unicode, with its IDNA ASCII form), port (with the
scheme's default), path segments, ISINDEX keywords or FORM fields, fragment,
and the charset with where it came from. With no argument, every line of
standard input is one input.

All non-ASCII bytes of a URL share one charset: -charset when given, else
a hint after the scheme ("http:[EUC]//host/...", "http:[EUC]://host/...",
"[JIS0208:EUC]") or at the head of the query ("?[Shift_JIS]:..."), a
_charset_ field, then sniffing with the host's country-code TLD as evidence.

Exit status: 0 all decoded, 1 some input could not be decoded (said on
stderr with its line or argument number), 2 usage.

Flags:
`

func usage(fs *flag.FlagSet) func() {
	return func() {
		w := fs.Output()
		fmt.Fprint(w, usageText)
		fs.PrintDefaults()
		io.WriteString(w, `
Examples:
  urldecode 'http:[EUC]//www.jacme.co.jp/%B0%F5%BA%FE.html'
  urldecode -charset shift_jis '/cgi-bin/search?q=%88%F3%8D%FC'
  urldecode -json 'http://xn--mnchen-3ya.de/?q=caf%C3%A9'
  urldecode -encode -charset euc-jp '印刷 技術'
  urldecode -encode -whatwg -ncr 'to=info@example.jp&q=印刷'
  urldecode -encode 'http://münchen.de/Straße?q=über'
  urldecode -idn -legacy-idn -encode 'αβ@日本語.jp'
  urldecode -log /var/log/apache2/access.log > decoded.txt
`)
	}
}

// parseFlags reads the command line. An error the flag package found, or
// -help or -version, is a *cli.ExitError, printed already; another usage
// error is returned with the message to print.
func parseFlags(args []string, stdout, stderr io.Writer) (*config, []string, error) {
	c := &config{}
	fs := flag.NewFlagSet("urldecode", flag.ContinueOnError)
	fs.Usage = usage(fs)
	fs.StringVar(&c.Charset, "charset", "",
		"read (or, with -encode, write) non-ASCII bytes in charset `NAME`, a WHATWG or IANA label;\n"+
			"it comes before any hint in the URL (example: -charset shift_jis)")
	fs.BoolVar(&c.LegacyIDN, "legacy-idn", false,
		"also read host labels and user parts in the 2000-era IDN encodings, triple-hyphened UTF-5\n"+
			"and double-hyphened UTF-8, and write them with -encode (example: -legacy-idn 'http://M---5E5M72COA9E.jp/')")
	fs.BoolVar(&c.Encode, "encode", false,
		"encode text instead: a URL (host to punycode, path and query percent-encoded), name=value pairs\n"+
			"separated by '&', or ISINDEX words, the classic form way (example: -encode -charset euc-jp '印刷')")
	fs.BoolVar(&c.IDN, "idn", false,
		"inputs are host names or user@host addresses: show them in Unicode, or with -encode in\n"+
			"ASCII, punycode or with -legacy-idn the 2000-era forms (example: -idn xn--mnchen-3ya.de)")
	fs.BoolVar(&c.JSON, "json", false,
		"print one JSON object a line, with the gateway's field names (example: -json 'q=%E5%8D%B0')")
	fs.StringVar(&c.Log, "log", "",
		"read Apache common or combined log lines from `FILE` (- for stdin) and print each request's\n"+
			"decoded target and charset, then a summary on stderr (example: -log access.log)")
	fs.StringVar(&c.Host, "host", "",
		"the host `NAME` to take as evidence for inputs without one, queries, paths and log lines\n"+
			"(example: -host www.jacme.co.jp)")
	fs.BoolVar(&c.NCR, "ncr", false,
		"turn &#NNNN; references back into characters when decoding, and write characters the\n"+
			"charset lacks as &#NNNN; when encoding, as browsers do (example: -encode -ncr -charset latin1 '印')")
	fs.BoolVar(&c.WHATWG, "whatwg", false,
		"with -encode, write forms and ISINDEX words as a browser of today does (URL Standard § 5.2):\n"+
			"as the classic way but '@' is %40; with the default UTF-8 and -ncr that is a 2026 browser (example: -encode -whatwg 'to=a@b')")
	if err := cli.Parse(fs, args, stdout, stderr); err != nil {
		return nil, nil, err
	}
	rest := fs.Args()
	switch {
	case c.Log != "" && len(rest) > 0:
		return nil, nil, errors.New("-log takes no other argument")
	case c.Log != "" && (c.Encode || c.IDN):
		return nil, nil, errors.New("-log cannot be combined with -encode or -idn")
	}
	if c.Charset != "" {
		cs, err := charset.Lookup(c.Charset)
		if err != nil {
			return nil, nil, fmt.Errorf("-charset: %w", err)
		}
		c.cs = cs
	}
	return c, rest, nil
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the command with its process state handed in, so that nothing
// below it reads os.Args or the standard files.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, rest, err := parseFlags(args, stdout, stderr)
	if err != nil {
		return cli.Exit(stderr, "urldecode", err) // exitUsage, or 0 after -help
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	if c.Log != "" {
		return runLog(c, stdin, out, stderr)
	}
	var handle func(in input, w *bufio.Writer) error
	switch {
	case c.IDN:
		handle = c.handleIDN
	case c.Encode:
		handle = c.handleEncode
	default:
		d := newURLDecoder(c)
		handle = func(in input, w *bufio.Writer) error { return d.handle(in, w) }
	}
	status := exitOK
	each := func(in input) {
		if err := handle(in, out); err != nil {
			out.Flush() // keep stdout and stderr in order on a terminal
			fmt.Fprintf(stderr, "urldecode: %s: %v\n", in.where, err)
			status = exitPartial
		}
	}
	if len(rest) > 0 {
		for i, a := range rest {
			each(input{where: fmt.Sprintf("argument %d", i+1), text: a, line: i + 1})
		}
		return status
	}
	lines := newLineReader(stdin, maxLine)
	for n := 1; ; n++ {
		line, err := lines.next()
		var tooLong *lineTooLongError
		switch {
		case errors.As(err, &tooLong):
			out.Flush()
			fmt.Fprintf(stderr, "urldecode: line %d: %v\n", n, err)
			status = exitPartial
			continue
		case err == io.EOF:
			return status
		case err != nil:
			out.Flush()
			fmt.Fprintf(stderr, "urldecode: standard input: %v\n", err)
			return exitPartial
		}
		if text := string(bytes.TrimSpace(line)); text != "" {
			each(input{where: fmt.Sprintf("line %d", n), text: text, line: n})
		}
	}
}

// maxLine bounds one input line, so that memory stays bounded whatever
// the input.
const maxLine = 1 << 20

// input is one URL, query or text, with where it came from for messages.
type input struct {
	where string // "argument 2", "line 17", "access.log:17"
	text  string
	line  int
}
