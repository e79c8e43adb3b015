package decoder

import (
	"unicode/utf8"

	"github.com/cgigate/cgigate/decoder/sniff"
)

func (d *Decoder) sniffer() sniff.Sniffer {
	if d.opts.Sniffer != nil {
		return d.opts.Sniffer
	}
	return sniff.Detector{}
}

func validUTF8(s string) bool { return utf8.ValidString(s) }
