package decoder

import "github.com/cgigate/cgigate/decoder/sniff"

// Options configures a Decoder. The zero value is the safe default: WHATWG
// lenient decoding, '&' as the only separator, sniffing on, the Limits'
// defaults, no numeric character references turned into characters.
type Options struct {
	// Strict turns a malformed percent escape or a byte invalid in the
	// chosen charset into an error naming the offset, instead of a warning.
	Strict bool
	// Semicolon accepts ';' as a pair separator as well as '&', for pages
	// written to HTML 4.01 § B.2.2. Off by default: splitting on ';' lets a
	// cache and the application see different parameters (CVE-2021-23336).
	Semicolon bool
	// NCR turns decimal and hexadecimal character references ("&#21360;",
	// "&#x5370;") back into characters, as a browser sends a character its
	// form's charset cannot encode. Off by default, since a user may have
	// typed that text.
	NCR bool
	// FormCharset is the charset label a site declared for the form the
	// request was sent to ("form" source): it decides after _charset_ and
	// the Content-Type charset, before Charset and sniffing.
	FormCharset string
	// Charset is the deployment's charset label, used when the request names
	// none ("config" source).
	Charset string
	// NoSniff turns off charset detection: unnamed non-UTF-8 input is
	// decoded as UTF-8, its invalid bytes replaced and reported.
	NoSniff bool
	// Sniffer detects the charset of unnamed input; nil means the package's
	// own detector.
	Sniffer sniff.Sniffer
	// Limits bounds what a request may hold.
	Limits Limits
}

// Limits bounds a request. A zero field means its default; a negative one
// means no limit.
type Limits struct {
	Fields     int // name=value pairs in all (default 1000)
	Keywords   int // ISINDEX words (default 100)
	NameBytes  int // bytes in one decoded name (default 1 KiB)
	ValueBytes int // bytes in one decoded value (default 1 MiB)
	TotalBytes int // bytes of raw input in all (default 10 MiB)
	// Warnings bounds the warnings of one request (default 20). Each
	// name, value or keyword has one warning per kind of problem, with a
	// count and the first offsets; past this many, one last line says
	// how many more there were. Unlike the others, this bound refuses
	// nothing.
	Warnings int
}

// Default limits; see Limits.
const (
	DefaultMaxFields     = 1000
	DefaultMaxKeywords   = 100
	DefaultMaxNameBytes  = 1 << 10
	DefaultMaxValueBytes = 1 << 20
	DefaultMaxTotalBytes = 10 << 20
	DefaultMaxWarnings   = 20
)

func limit(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return int(^uint(0) >> 1)
	}
	return v
}

// Effective returns l with every zero field replaced by its default and
// every negative one by the largest int: the bounds Decoder applies.
func (l Limits) Effective() Limits {
	return Limits{Fields: l.fields(), Keywords: l.keywords(), NameBytes: l.nameBytes(),
		ValueBytes: l.valueBytes(), TotalBytes: l.totalBytes(), Warnings: l.warnings()}
}

func (l Limits) fields() int     { return limit(l.Fields, DefaultMaxFields) }
func (l Limits) keywords() int   { return limit(l.Keywords, DefaultMaxKeywords) }
func (l Limits) nameBytes() int  { return limit(l.NameBytes, DefaultMaxNameBytes) }
func (l Limits) valueBytes() int { return limit(l.ValueBytes, DefaultMaxValueBytes) }
func (l Limits) totalBytes() int { return limit(l.TotalBytes, DefaultMaxTotalBytes) }
func (l Limits) warnings() int   { return limit(l.Warnings, DefaultMaxWarnings) }

// Decoder decodes requests with fixed Options. It is safe for concurrent use.
type Decoder struct {
	opts Options
}

// New returns a Decoder with the given options.
func New(opts Options) *Decoder { return &Decoder{opts: opts} }

// Options returns the options d was made with.
func (d *Decoder) Options() Options { return d.opts }
