package idn

// Forbidden code points, https://url.spec.whatwg.org/#forbidden-host-code-point.
//
// A forbidden host code point is U+0000 NULL, U+0009 TAB, U+000A LF,
// U+000D CR, U+0020 SPACE, U+0023 (#), U+002F (/), U+003A (:), U+003C (<),
// U+003E (>), U+003F (?), U+0040 (@), U+005B ([), U+005C (\), U+005D (]),
// U+005E (^) or U+007C (|). A forbidden domain code point is a forbidden host
// code point, a C0 control, U+0025 (%) or U+007F DELETE. All of them are
// ASCII, so domain to ASCII can never produce them from other code points:
// they can only come from the input itself (or its percent-encoding).

// IsForbiddenHostCodePoint reports whether the URL Standard forbids r in any
// host, opaque hosts of non-special URLs included.
func IsForbiddenHostCodePoint(r rune) bool {
	switch r {
	case 0x00, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

// IsForbiddenDomainCodePoint reports whether the URL Standard forbids r in the
// domain of a special URL (http, https, ws, wss, ftp, file).
func IsForbiddenDomainCodePoint(r rune) bool {
	return IsForbiddenHostCodePoint(r) || r <= 0x1F || r == '%' || r == 0x7F
}

// checkDomainCodePoints returns a *ForbiddenCodePointError for the first
// forbidden domain code point in s, or nil.
func checkDomainCodePoints(s string) error {
	for i, r := range s {
		if IsForbiddenDomainCodePoint(r) {
			return &ForbiddenCodePointError{Host: s, Char: r, Offset: i}
		}
	}
	return nil
}
