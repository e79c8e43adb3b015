package main

import "fmt"

// percentDecode turns "%XY" escapes into bytes as the URL Standard's
// "percent-decode" does (§ 1.3): a '%' not followed by two hex digits is
// kept as it is. The result is a byte string in no charset yet. Each kept
// '%' is reported by its offset, for a warning.
//
// net/url's unescapers refuse such input instead, and decoder keeps its own
// unexported, so this is the one place the command decodes escapes.
func percentDecode(s string) (b string, malformed []int) {
	i := 0
	for i < len(s) && s[i] != '%' {
		i++
	}
	if i == len(s) {
		return s, nil
	}
	out := make([]byte, 0, len(s))
	out = append(out, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]) {
				out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
				i += 2
				continue
			}
			malformed = append(malformed, i)
		}
		out = append(out, c)
	}
	return string(out), malformed
}

func ishex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// malformedWarnings describes the kept '%' signs of one piece of input.
func malformedWarnings(where, s string, at []int) []string {
	var out []string
	for _, i := range at {
		end := min(i+3, len(s))
		out = append(out, fmt.Sprintf("%s: malformed escape %q at offset %d kept as it is", where, s[i:end], i))
	}
	return out
}
