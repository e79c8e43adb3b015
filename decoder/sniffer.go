package decoder

import "unicode/utf8"

func (d *Decoder) sniffer() Sniffer {
	if d.opts.Sniffer != nil {
		return d.opts.Sniffer
	}
	return defaultSniffer
}

func validUTF8(s string) bool { return utf8.ValidString(s) }

// utf8Sniffer knows only UTF-8: bytes that are valid UTF-8 and not ASCII
// are UTF-8 beyond reasonable doubt (RFC 3629 § 1: other charsets seldom
// form valid sequences by chance).
type utf8Sniffer struct{}

func (utf8Sniffer) Sniff(samples [][]byte, ev SniffEvidence) (string, float64, bool) {
	for _, s := range samples {
		if !utf8.Valid(s) {
			return "", 0, false
		}
	}
	if ev.Candidates != nil {
		return "", 0, false
	}
	return "utf-8", 0.99, len(samples) > 0
}

var defaultSniffer Sniffer = utf8Sniffer{}
