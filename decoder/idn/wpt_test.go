package idn

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/vectors"
)

// wptCase is one object of web-platform-tests' url/resources/urltestdata.json.
type wptCase struct {
	Input    string  `json:"input"`
	Base     *string `json:"base"`
	Hostname string  `json:"hostname"`
	Failure  bool    `json:"failure"`
}

// wptExpectedDifferences lists, by input, the WPT host cases where ParseHost
// is known to disagree with the URL Standard, and why. The test fails if one
// of them starts to agree, so that the list stays true.
var wptExpectedDifferences = map[string]string{}

// wptHost extracts from a WPT input the raw host that the URL Standard's
// parser hands to the host parser, for the special schemes other than file
// (whose hosts have rules of their own: "localhost", drive letters).
// It follows the parser's states just far enough: strip leading and trailing
// C0 controls and spaces, drop tabs and newlines, read the scheme, skip the
// slashes of the special authority states, cut the authority at the first
// "/", "\", "?" or "#", drop userinfo up to the last "@", and split off the
// port at a ":" outside brackets. ok is false when the input is not such a
// URL or has no authority (a relative reference against its base).
// portOK is false when the port is invalid, which makes the URL fail for
// a reason other than its host.
//
// net/url cannot do this split: it rejects the control characters and
// spaces that many of the host cases are about.
func wptHost(c wptCase) (host string, portOK, ok bool) {
	s := strings.TrimFunc(c.Input, func(r rune) bool { return r <= 0x20 })
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return "", false, false
	}
	scheme := strings.ToLower(s[:colon])
	switch scheme {
	case "http", "https", "ws", "wss", "ftp":
	default:
		return "", false, false
	}
	rest := s[colon+1:]
	isSlash := func(b byte) bool { return b == '/' || b == '\\' }
	if c.Base != nil && strings.HasPrefix(strings.ToLower(*c.Base), scheme+":") {
		// Same scheme as the base: an authority only after two slashes.
		if len(rest) < 2 || !isSlash(rest[0]) || !isSlash(rest[1]) {
			return "", false, false
		}
	}
	rest = strings.TrimLeft(rest, `/\`)
	if i := strings.IndexAny(rest, `/\?#`); i >= 0 {
		rest = rest[:i]
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	inBrackets := false
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '[':
			inBrackets = true
		case ']':
			inBrackets = false
		case ':':
			if !inBrackets {
				return rest[:i], validPort(rest[i+1:]), true
			}
		}
	}
	return rest, true, true
}

// validPort is the URL Standard's port state: ASCII digits, at most 65535.
func validPort(p string) bool {
	if p == "" {
		return true
	}
	if strings.Trim(p, "0123456789") != "" {
		return false
	}
	n, err := strconv.ParseUint(p, 10, 64)
	return err == nil && n <= 65535
}

func TestWPTHosts(t *testing.T) {
	var raw []json.RawMessage
	if err := json.Unmarshal(vectors.Read(t, "wpt/urltestdata.json"), &raw); err != nil {
		t.Fatal(err)
	}
	var pass, passFailures, fail, known, portSkip, other int
	for _, m := range raw {
		var c wptCase
		if json.Unmarshal(m, &c) != nil { // the file interleaves comment strings
			continue
		}
		host, portOK, ok := wptHost(c)
		if !ok {
			other++
			continue
		}
		h, err := ParseHost(host)
		if c.Failure && err == nil && !portOK {
			portSkip++ // fails for its port, not its host
			continue
		}
		agree := (c.Failure && err != nil) || (!c.Failure && err == nil && h.ASCII == c.Hostname)
		reason, listed := wptExpectedDifferences[c.Input]
		switch {
		case agree && listed:
			t.Errorf("%q is listed as an expected difference (%s) but now agrees with WPT", c.Input, reason)
		case agree:
			pass++
			if c.Failure {
				passFailures++
			}
		case listed:
			known++
		default:
			fail++
			if c.Failure {
				t.Errorf("host %q of %q should fail, got %q", host, c.Input, h.ASCII)
			} else {
				t.Errorf("host %q of %q should be %q, got %q (err %v)", host, c.Input, c.Hostname, h.ASCII, err)
			}
		}
	}
	t.Logf("WPT host cases: %d passed (%d of them expected failures), %d failed, %d expected differences; not host cases: %d failing only for their port, %d without a special non-file authority",
		pass, passFailures, fail, known, portSkip, other)
	if pass == 0 {
		t.Fatal("no WPT host case was checked")
	}
}
