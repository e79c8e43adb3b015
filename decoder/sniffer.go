package decoder

import "github.com/cgigate/cgigate/decoder/sniff"

func (d *Decoder) sniffer() sniff.Sniffer {
	if d.opts.Sniffer != nil {
		return d.opts.Sniffer
	}
	return sniff.Detector{}
}
