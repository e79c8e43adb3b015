package badinput

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/vectors"
)

func TestCasesAreNumberedFromOneWithoutAGap(t *testing.T) {
	for i, c := range Cases {
		if c.ID != i+1 {
			t.Fatalf("Cases[%d] has ID %d, want %d: IDs run from 1 in order", i, c.ID, i+1)
		}
		if got, ok := ByID(c.ID); !ok || got.ID != c.ID {
			t.Errorf("ByID(%d) = %d, %v", c.ID, got.ID, ok)
		}
	}
	if _, ok := ByID(len(Cases) + 1); ok {
		t.Errorf("ByID(%d) found a case past the end", len(Cases)+1)
	}
}

func TestEveryCaseSaysWhereItComesFromAndWhatTheGatewayDoes(t *testing.T) {
	test := regexp.MustCompile(`^Test[A-Z0-9][A-Za-z0-9_]*$`)
	for _, c := range Cases {
		if c.Theme == "" || c.Where == "" || c.Want == "" || c.From == "" {
			t.Errorf("case %d lacks a theme, a where, a want or a source: %+v", c.ID, c)
		}
		if !test.MatchString(c.Test) {
			t.Errorf("case %d: Test %q is no test function name", c.ID, c.Test)
		}
		if (c.Input == "") == (c.Built == "") && !(c.Input == "" && slices.Contains(c.Also, "")) {
			t.Errorf("case %d has Input %q and Built %q: it needs exactly one", c.ID, c.Input, c.Built)
		}
		if c.Built != "" && len(c.Also) > 0 {
			t.Errorf("case %d is built and has Also inputs too", c.ID)
		}
	}
}

var cve = regexp.MustCompile(`CVE-[0-9]{4}-[0-9]+`)

// sharedCorpus is the corpus this table was first written from, in the
// folder beside the project; absent from a user's clone.
type sharedCorpus struct {
	Cases []struct {
		ID          int    `json:"id"`
		Input       string `json:"input"`
		BytesHex    string `json:"bytes_hex"`
		CharsetHint string `json:"charset_hint"`
		Ref         string `json:"ref"`
	}
}

// describedThere are the cases whose input the shared corpus gives in words
// where this table writes out the bytes.
var describedThere = map[int]bool{
	53: true, // "Content-Transfer-Encoding: quoted-printable + body '=3Cscript=3E'"
	65: true, // "Transfer-Encoding / Status built from input"
}

// TestCasesAgreeWithTheCorpusTheyWereWrittenFrom checks, where
// the shared bad-input-corpus.json exists (see vectors.SharedFile), that no case was lost or
// changed in the rewrite: the same numbers, every CVE cited there cited
// here, the same charset labels, and every input written out here found
// there (the corpus spells CR, LF and NUL as \r, \n and \x00). Without the
// file there is nothing to compare: this table is the project's own.
func TestCasesAgreeWithTheCorpusTheyWereWrittenFrom(t *testing.T) {
	p, ok := vectors.SharedFile(t, "bad-input-corpus.json")
	if !ok {
		t.Logf("no %s to compare with", p)
		return
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var shared sharedCorpus
	if err := json.Unmarshal(b, &shared); err != nil {
		t.Fatal(err)
	}
	if len(shared.Cases) != len(Cases) {
		t.Errorf("the shared corpus has %d cases, this table %d", len(shared.Cases), len(Cases))
	}
	spelt := strings.NewReplacer("\r", `\r`, "\n", `\n`, "\x00", `\x00`)
	for _, s := range shared.Cases {
		c, ok := ByID(s.ID)
		if !ok {
			t.Errorf("shared case %d is missing", s.ID)
			continue
		}
		for _, id := range cve.FindAllString(s.Ref, -1) {
			if !strings.Contains(c.From, id) {
				t.Errorf("case %d: the shared corpus cites %s, this table does not (%q)", s.ID, id, c.From)
			}
		}
		if s.CharsetHint != c.Charset {
			t.Errorf("case %d: charset %q, the shared corpus %q", s.ID, c.Charset, s.CharsetHint)
		}
		if c.Input == "" || describedThere[s.ID] {
			continue
		}
		raw, _ := hex.DecodeString(s.BytesHex)
		if !strings.Contains(s.Input, spelt.Replace(c.Input)) && (len(raw) == 0 || !strings.Contains(string(raw), c.Input)) {
			t.Errorf("case %d: input %q is not the shared corpus's %q", s.ID, c.Input, s.Input)
		}
	}
}
