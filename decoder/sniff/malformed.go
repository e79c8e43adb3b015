package sniff

// A short value in a single-byte encoding seldom has the structure of a
// multibyte one: "café" in windows-1252 ends in E9, a lead byte with no
// trail byte in every CJK encoding. Making, resetting and running a decoder
// for such a value costs a CJK candidate about 250 ns, mostly fixed cost,
// only to find a U+FFFD; reading the bytes' structure finds the error
// first, and only values that pass it are decoded.
//
// Each check follows its decoder in the Encoding Standard
// (https://encoding.spec.whatwg.org/) up to the first byte that decoder
// turns into an error whatever the tables say: a byte that is neither
// single nor a lead, a lead without a trail in range, a lead at the end of
// the sample (every sample is decoded to its end, at EOF). Before that
// byte the sequences are well-formed, so the decoder stands at the same
// place. A well-formed pair that the index leaves unmapped, and anything
// else the check is unsure of (Shift_JIS's 80), is left to the decoder:
// a check only ever says "malformed" where decoder/charset writes a
// U+FFFD (TestMalformedOnlyWhereTheDecoderErrs).

// malformedCheck is the structural check of the multibyte encoding named,
// nil for the others (which are decoded as before).
func malformedCheck(name string) func([]byte) bool {
	switch name {
	case "shift_jis":
		return malformedShiftJIS
	case "euc-jp":
		return malformedEUCJP
	case "euc-kr":
		return malformedEUCKR
	case "gbk", "gb18030":
		// The Encoding Standard decodes gbk with gb18030's decoder
		// (§ 10.1.1), and so does decoder/charset.
		return malformedGB18030
	case "big5":
		return malformedBig5
	}
	return nil
}

// in reports whether lo <= b <= hi.
func in(b, lo, hi byte) bool { return b >= lo && b <= hi }

// malformedShiftJIS follows § 13.3.1: 00-80 and A1-DF are single bytes;
// 81-9F and E0-FC lead a pair whose trail is 40-7E or 80-FC; A0 and FD-FF
// are errors.
func malformedShiftJIS(s []byte) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b <= 0x80 || in(b, 0xA1, 0xDF):
		case in(b, 0x81, 0x9F) || in(b, 0xE0, 0xFC):
			i++
			if i == len(s) {
				return true
			}
			if t := s[i]; !(in(t, 0x40, 0x7E) || in(t, 0x80, 0xFC)) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// malformedEUCJP follows § 13.1.1: 8E leads a half-width katakana A1-DF,
// 8F a JIS X 0212 pair, A1-FE a JIS X 0208 pair, each byte of a pair
// A1-FE; any other byte 80 and up is an error.
func malformedEUCJP(s []byte) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x80 {
			continue
		}
		switch {
		case b == 0x8E:
			i++
			if i == len(s) || !in(s[i], 0xA1, 0xDF) {
				return true
			}
		case b == 0x8F:
			if i+2 >= len(s) || !in(s[i+1], 0xA1, 0xFE) || !in(s[i+2], 0xA1, 0xFE) {
				return true
			}
			i += 2
		case in(b, 0xA1, 0xFE):
			i++
			if i == len(s) || !in(s[i], 0xA1, 0xFE) {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// malformedEUCKR follows § 14.1.1: 81-FE lead a pair; 80 and FF are
// errors. Its index (KS X 1001 in A1-FE A1-FE, the Unified Hangul Code
// around it) maps trails 41-5A, 61-7A and 81-FE after leads up to C6, and
// only trails A1-FE after the later ones: "Müller" in windows-1252 (FC 6C)
// is no pair of it.
func malformedEUCKR(s []byte) bool {
	return malformedPairs(s, func(lead, trail byte) bool {
		return in(trail, 0xA1, 0xFE) || lead <= 0xC6 && (in(trail, 0x41, 0x5A) || in(trail, 0x61, 0x7A) || in(trail, 0x81, 0xA0))
	})
}

// malformedBig5 follows § 12.1.1: 81-FE lead a pair whose trail is 40-7E
// or A1-FE; 80 and FF are errors. Its index maps no pair after 81-86
// (HKSCS begins at 87 40).
func malformedBig5(s []byte) bool {
	return malformedPairs(s, func(lead, trail byte) bool {
		return lead >= 0x87 && (in(trail, 0x40, 0x7E) || in(trail, 0xA1, 0xFE))
	})
}

// malformedPairs is the check of an encoding of ASCII and pairs: 81-FE
// lead a pair that may be valid when ok says so; 80 and FF are errors.
func malformedPairs(s []byte, ok func(lead, trail byte) bool) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x80 {
			continue
		}
		if !in(b, 0x81, 0xFE) || i+1 == len(s) || !ok(b, s[i+1]) {
			return true
		}
		i++
	}
	return false
}

// malformedGB18030 follows § 10.2.1: 00-80 are single bytes (80 is the
// euro sign); 81-FE lead a pair whose trail is 40-7E or 80-FE, or a
// four-byte sequence 81-FE 30-39 81-FE 30-39; FF is an error.
func malformedGB18030(s []byte) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b <= 0x80 {
			continue
		}
		if b == 0xFF || i+1 == len(s) {
			return true
		}
		switch t := s[i+1]; {
		case in(t, 0x30, 0x39):
			if i+3 >= len(s) || !in(s[i+2], 0x81, 0xFE) || !in(s[i+3], 0x30, 0x39) {
				return true
			}
			i += 3
		case in(t, 0x40, 0x7E) || in(t, 0x80, 0xFE):
			i++
		default:
			return true
		}
	}
	return false
}
