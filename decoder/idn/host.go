package idn

import (
	"strings"

	"golang.org/x/net/idna"
)

// Kind says what a host turned out to be
// (https://url.spec.whatwg.org/#concept-host).
type Kind uint8

const (
	Domain Kind = iota // a domain name, e.g. "example.com"
	IPv4               // an IPv4 address, e.g. "127.0.0.1"
	IPv6               // an IPv6 address, e.g. "[::1]"
)

func (k Kind) String() string {
	switch k {
	case IPv4:
		return "IPv4"
	case IPv6:
		return "IPv6"
	}
	return "domain"
}

// Steps records which transformations [ParseHost] applied, so that a tool
// can explain how the host it shows differs from the one it was given.
type Steps uint8

const (
	// PercentDecoded: the raw host held %XX escapes
	// ("www.%79%61%68%6f%6f.com" is "www.yahoo.com").
	PercentDecoded Steps = 1 << iota
	// Legacy: some label was written in a 2000-era IDN encoding (UTF-5 or
	// double-hyphened UTF-8) and was decoded; only with [WithLegacy].
	Legacy
	// Mapped: UTS #46 mapping or IPv4 normalization changed the text beyond
	// punycode, e.g. case folding ("EXAMPLE.com"), full-width characters,
	// ideographic full stops, or "0x7f.1" written as "127.0.0.1".
	Mapped
	// Punycode: the ASCII form holds at least one valid A-label
	// ("xn--..."), so the ASCII and Unicode forms differ.
	Punycode
)

var stepNames = [...]string{"percent-decoded", "legacy", "mapped", "punycode"}

// String lists the steps joined by "+", or "none".
func (s Steps) String() string {
	var names []string
	for i, n := range stepNames {
		if s&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "+")
}

// Host is a parsed URL host.
type Host struct {
	Raw     string // the input as given to ParseHost
	Kind    Kind
	ASCII   string // serialized host for the wire: A-labels, dotted IPv4, bracketed IPv6
	Unicode string // the same host for display: U-labels when every A-label of the ASCII form is valid, else the ASCII form
	Steps   Steps
}

// String returns the ASCII form, the one a URL serializer writes
// (https://url.spec.whatwg.org/#host-serializing).
func (h Host) String() string { return h.ASCII }

// Options configure [ParseHost]. The zero value follows the URL Standard
// exactly.
type Options struct {
	// Legacy also decodes labels written in the 2000-era IDN encodings
	// (see [DecodeLegacy]) before domain to ASCII. Off by default: the
	// standard knows nothing of them, and an ASCII label may merely look
	// like one.
	Legacy bool
}

// An Option sets a field of [Options].
type Option func(*Options)

// WithLegacy makes [ParseHost] decode UTF-5 and double-hyphened UTF-8 labels
// ("M---5E5M72COA9E.jp" is "日本語.jp").
func WithLegacy() Option { return func(o *Options) { o.Legacy = true } }

// ParseHost parses the host of a special URL (http, https, ws, wss, ftp) as
// the URL Standard's host parser does (https://url.spec.whatwg.org/#host-parsing):
// a bracketed host is an IPv6 address; otherwise the host is percent-decoded,
// UTF-8 decoded, run through domain to ASCII (see [ToASCII]), checked for
// forbidden domain code points, and, when it ends in a number, parsed as an
// IPv4 address. raw is the host alone, without userinfo or port.
//
// Errors are *Error values naming the input. Their Err is a
// *ForbiddenCodePointError, a *LegacyError (only with [WithLegacy]: a label
// that looks legacy-encoded but is not), the idna package's error for an
// invalid non-ASCII domain, or a plain error for an empty domain or a bad
// IPv4 or IPv6 address.
func ParseHost(raw string, opts ...Option) (Host, error) {
	var o Options
	for _, f := range opts {
		f(&o)
	}
	return o.ParseHost(raw)
}

// ParseHost is [ParseHost] with the options in o.
func (o Options) ParseHost(raw string) (Host, error) {
	h, err := o.parse(raw)
	if err != nil {
		return Host{}, &Error{Op: "ParseHost", Host: raw, Err: err}
	}
	return h, nil
}

func (o Options) parse(raw string) (Host, error) {
	h := Host{Raw: raw}
	if strings.HasPrefix(raw, "[") {
		a, err := parseIPv6(raw)
		if err != nil {
			return h, err
		}
		h.Kind, h.ASCII = IPv6, serializeIPv6(a)
		h.Unicode = h.ASCII
		if h.ASCII != strings.ToLower(raw) {
			h.Steps |= Mapped
		}
		return h, nil
	}
	domain, decoded, err := decodeHostText(raw)
	if err != nil {
		return h, err
	}
	if decoded {
		h.Steps |= PercentDecoded
	}
	if o.Legacy {
		d, err := decodeLegacyHost(domain)
		if err != nil {
			return h, err
		}
		if d != domain {
			h.Steps |= Legacy
			domain = d
		}
	}
	ascii, err := domainToASCII(domain)
	if err != nil {
		return h, err
	}
	if endsInANumber(ascii) {
		ip, err := parseIPv4(ascii)
		if err != nil {
			return h, err
		}
		h.Kind, h.ASCII = IPv4, serializeIPv4(ip)
		h.Unicode = h.ASCII
		if h.ASCII != domain {
			h.Steps |= Mapped
		}
		return h, nil
	}
	h.Kind, h.ASCII = Domain, ascii
	// An ASCII domain may hold A-labels that are not valid IDNA (see
	// ToASCII). Such a domain is displayed in its ASCII form whole: with
	// its valid A-labels decoded it would be a non-ASCII domain, which
	// domain to ASCII validates and refuses ("xn--.xn--00c" would show as
	// "xn--.ය", which does not parse), and a display form must parse back.
	h.Unicode = ascii
	if u, err := domainToUnicode(ascii); err == nil {
		h.Unicode = u
	}
	if h.Unicode != h.ASCII {
		h.Steps |= Punycode
	}
	// Mapped compares input and output with only their A-labels decoded,
	// so that punycode alone does not count as a mapping. The Punycode
	// profile validates nothing, and its partial result on error is the
	// text wanted here.
	if domain != ascii {
		in, _ := idna.Punycode.ToUnicode(domain)
		out, _ := idna.Punycode.ToUnicode(ascii)
		if in != out {
			h.Steps |= Mapped
		}
	}
	return h, nil
}
