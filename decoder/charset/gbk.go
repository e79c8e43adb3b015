package charset

import (
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/simplifiedchinese"
)

// The Encoding Standard decodes GBK with the gb18030 decoder (§ 10.1.1:
// "gbk's decoder is gb18030's decoder"), so text a browser sent as GBK may
// hold four-byte sequences; x/text's GBK decoder turns them into U+FFFD and
// digits. The wrapper decodes GBK labels as gb18030 (with the gb18030 fixes)
// and keeps x/text's GBK encoder, which is the standard's gb18030 encoder
// with its GBK flag set (U+20AC as 0x80, no four-byte sequences), plus the
// two-byte sequences the gb18030 wrapper decodes itself.

func fixGBK(enc encoding.Encoding) encoding.Encoding {
	return &patchedEncoding{
		Encoding: enc,
		decoder:  decoderOf(simplifiedchinese.GB18030),
		scan:     scanGB18030,
		trust:    gbTrust,
		encoder:  encoderWithExtras(enc, &gbExtras),
	}
}
