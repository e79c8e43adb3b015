package record

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cgigate/cgigate/internal/missing"
)

// randomBodies are bodies of every byte value, in runs that favour what
// EscapeBody treats specially: '%', control bytes, high bytes, quotes.
func randomBodies(n int) []string {
	rnd := rand.New(rand.NewPCG(16, 1))
	special := []byte{'%', 0, '\n', '\r', 0x1F, 0x20, 0x7F, 0x80, 0xFF, '"', '\\', '+', '=', '&'}
	bodies := []string{"", "%", "%25", "a=%B0%F5&b=+", string([]byte{0xB0, 0xF5, 0xBA, 0xFE})}
	for i := range n {
		b := make([]byte, rnd.IntN(64<<(i%8)))
		for j := range b {
			if rnd.IntN(3) == 0 {
				b[j] = special[rnd.IntN(len(special))]
			} else {
				b[j] = byte(rnd.IntN(256))
			}
		}
		bodies = append(bodies, string(b))
	}
	return bodies
}

func TestEscapeBody(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"printable ASCII stays as it is", "a=b&c=d+e", "a=b&c=d+e"},
		{"a percent sign is escaped so that it is not read as an escape", "a=%41", "a=%2541"},
		{"high bytes are escaped in upper-case hex", "q=\xB0\xF5", "q=%B0%F5"},
		{"control bytes are escaped, DEL is not", "a\x00\n\x1f\x7f", "a%00%0A%1F\x7f"},
		{"UTF-8 text is escaped byte by byte", "é", "%C3%A9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := EscapeBody(tc.in); got != tc.want {
				t.Errorf("EscapeBody(%q) = %q; want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestEscapedBodiesDecodeBackByteForByte(t *testing.T) {
	bodies := randomBodies(200)
	t.Run("with UnescapeBody, within three times the body, valid UTF-8", func(t *testing.T) {
		for i, b := range bodies {
			e := EscapeBody(b)
			if len(e) > 3*len(b) || !utf8.ValidString(e) {
				t.Fatalf("body %d: escaped to %d bytes from %d, valid UTF-8: %v", i, len(e), len(b), utf8.ValidString(e))
			}
			got, err := UnescapeBody(e)
			if err != nil || got != b {
				t.Fatalf("body %d: unescaped to %q (%v); want %q", i, got, err, b)
			}
		}
	})
	t.Run("with Python's urllib.parse.unquote_to_bytes and base64, through JSON", func(t *testing.T) {
		python, err := exec.LookPath("python3")
		if err != nil {
			missing.SkipOrFail(t, "python3 is not installed: the raw object is not decoded independently")
		}
		// One JSON line per body, as the record file holds raw: the body
		// escaped, and the same bytes as a multipart part in base64.
		var in bytes.Buffer
		for _, b := range bodies {
			line, err := json.Marshal(NewRaw("", "text/plain", b, []Part{NewPart("n\xff", b)}))
			if err != nil {
				t.Fatal(err)
			}
			in.Write(line)
			in.WriteByte('\n')
		}
		cmd := exec.Command(python, "-c", `import base64, json, sys, urllib.parse
out = sys.stdout.buffer
for line in sys.stdin:
    raw = json.loads(line)
    body = urllib.parse.unquote_to_bytes(raw["body"])
    part = base64.b64decode(raw["parts"][0]["base64"], validate=True)
    name = urllib.parse.unquote_to_bytes(raw["parts"][0]["name"])
    assert part == body, (part, body)
    assert name == b"n\xff", name
    out.write(base64.b64encode(body) + b"\n")
`)
		cmd.Stdin = &in
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("python3: %v\n%s", err, stderr.String())
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != len(bodies) {
			t.Fatalf("Python decoded %d bodies; want %d", len(lines), len(bodies))
		}
		for i, l := range lines {
			got, err := base64.StdEncoding.DecodeString(l)
			if err != nil || string(got) != bodies[i] {
				t.Fatalf("body %d: Python read back %q (%v); want %q", i, got, err, bodies[i])
			}
		}
	})
}

func TestRawQueryKeepsItsEscapes(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"a browser's query is kept as it is", "q=%B0%F5%BA%FE&_charset_=", "q=%B0%F5%BA%FE&_charset_="},
		{"bare high and control bytes, which JSON cannot carry, are escaped", "q=\xB0\xF5\t", "q=%B0%F5%09"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := NewRaw(tc.in, "", "", nil).Query; got != tc.want {
				t.Errorf("query %q; want %q", got, tc.want)
			}
		})
	}
}
