package security

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cgigate/cgigate/internal/vectors"
)

// corpusEntry is one case of ../shared/vectors/bad-input-corpus.json.
type corpusEntry struct {
	ID          int    `json:"id"`
	Layer       string `json:"layer"`
	Where       string `json:"where"`
	Input       string `json:"input"`
	BytesHex    string `json:"bytes_hex"`
	Expect      string `json:"expect"`
	Ref         string `json:"ref"`
	CharsetHint string `json:"charset_hint"`
}

// corpusTests is which test pins which corpus case. A case added to the
// corpus fails TestCorpusCoverage until a test is named here.
var corpusTests = map[int]string{
	1:  "TestCVE_2021_23336_SemicolonIsNotASeparator",
	2:  "TestRack1732_SemicolonCannotSmuggleAParameter",
	3:  "TestMalformedEscapeIsKeptLiterally",
	4:  "TestMalformedEscapesFollowWHATWG",
	5:  "TestEncodedEqualsIsDataNotStructure",
	6:  "TestPairSplitsAtTheFirstEquals",
	7:  "TestPlusIsSpaceAndEncodedPlusIsPlus",
	8:  "TestCVE_2025_61726_TooManyQueryParametersIs413",
	9:  "TestBodyOverTheCapIs413",
	10: "TestRawQuoteAndBracketsAreEscapedText",
	11: "TestCVE_2000_0884_OverlongSlashIsNeverASlash",
	12: "TestCVE_2009_4142_OverlongLessThanIsNeverLessThan",
	13: "TestOverlongSurrogateAndOutOfRangeAreReplaced",
	14: "TestCVE_2001_0333_DecodedExactlyOnce",
	15: "TestPathInfoIsNotDecodedAgain",
	16: "TestCVE_2006_7243_NULInAValueIsReplaced",
	17: "TestTruncatedUTF8IsOneReplacement",
	18: "TestBOMInsideDataIsKept",
	19: "TestBidiOverrideIsDataRenderedEscaped",
	20: "TestCVE_2012_1823_ISINDEXWordsAreNeverOptions",
	21: "TestCVE_2024_4577_SoftHyphenIsNeverADash",
	22: "TestNULInAnISINDEXWordComesFromQueryString",
	23: "TestEncodedEqualsKeepsISINDEX",
	24: "TestAmpersandWithoutEqualsIsISINDEX",
	25: "TestEncodedPlusStaysInsideAWord",
	26: "TestISINDEXOnPOSTGivesNoKeywords",
	27: "TestEmptyQueryAndLoneEquals",
	28: "TestNegativeSliceIndexIsRefusedNotAPanic",
	29: "TestCVE_2024_37298_SparseIndexesCannotAllocate",
	30: "TestHugeSliceIndexIsAnError",
	31: "TestDuplicateScalarKeyIsRefused",
	32: "TestQueryAndBodyKeepTheirSources",
	33: "TestKeysFoldingToOneFieldAreRefused",
	34: "TestKelvinSignKeyIsRefused",
	35: "TestSchema33_PathThroughAScalarIsAnError",
	36: "TestUTF7IsNeverUsed",
	37: "TestReplacementEncodingLabelsAre400",
	38: "TestUTF16LabelDecodesAsUTF8",
	39: "TestNonASCIIWhitespaceAroundALabelIs400",
	40: "TestShiftJISLeadByteCannotEatAQuote",
	41: "TestShiftJISLeadByteCannotEatABackslash",
	42: "TestBig5LeadByteCannotEatABackslash",
	43: "TestShiftJISTrailBackslashIsPartOfTheCharacter",
	44: "TestGBKTrailBackslashIsPartOfTheCharacter",
	45: "TestISO2022JPEscapeCannotSwallowMarkup",
	46: "TestISO2022JPEmptyEscapeCannotForgeMarkup",
	47: "TestISO2022JPRomanIsYenAndOverline",
	48: "TestMultipartWithoutABoundaryIs400",
	49: "TestMultipartBoundaryOver70Is400",
	50: "TestMultipartDuplicateBoundaryIs400",
	51: "TestCVE_2004_0959_FileNameIsNeverAPath",
	52: "TestFilenameStarWinsAndIsWarned",
	53: "TestQuotedPrintablePartIs400",
	54: "TestMultipartWithoutClosingBoundaryIs400",
	55: "TestCVE_2023_24536_MultipartFloodsAre413",
	56: "TestMalformedPartHeaderIs400",
	57: "TestTextPlainSplitsAtTheFirstEquals",
	58: "TestCVE_2016_5385_HTTPProxyIsNeverUsed",
	59: "TestCVE_2014_6271_ShellshockHeaderStaysText",
	60: "TestUnderscoreForwardedForIsDropped",
	61: "TestContentLengthFormsAreRefused",
	62: "TestCVE_2014_0231_ShortOrStalledBody",
	63: "TestCVE_2012_5526_CRLFNeverReachesAHeader",
	64: "TestCVE_2024_38476_NoLocationFromInput",
	65: "TestCVE_2024_24795_NoTransferEncodingOrStatusFromInput",
	66: "TestMarkupInAValueIsEscaped",
	67: "TestJavascriptURLIsNeverAnHref",
	68: "TestInvalidBytesAreNeverRendered",
	69: "TestNonCanonicalSliceIndexIsRefused",
	70: "TestNonFiniteNumbersAreRefused",
	71: "TestGB18030FourByteCannotSwallowLessThan",
}

var (
	corpusOnce sync.Once
	corpusMap  map[int]corpusEntry
	corpusErr  error
)

func loadCorpus(t testing.TB) map[int]corpusEntry {
	t.Helper()
	data := vectors.Read(t, "bad-input-corpus.json")
	corpusOnce.Do(func() {
		var c struct{ Cases []corpusEntry }
		if corpusErr = json.Unmarshal(data, &c); corpusErr != nil {
			return
		}
		corpusMap = map[int]corpusEntry{}
		for _, e := range c.Cases {
			corpusMap[e.ID] = e
		}
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusMap
}

// corpusCase returns case id and fails t unless its input still holds
// fragment: the test sends what the corpus says, and a changed case fails
// loudly instead of being tested by stale bytes.
func corpusCase(t *testing.T, id int, fragment string) corpusEntry {
	t.Helper()
	c, ok := loadCorpus(t)[id]
	if !ok {
		t.Fatalf("the corpus has no case %d", id)
	}
	if !strings.Contains(c.Input, fragment) && !strings.Contains(c.BytesHex, fragment) && c.CharsetHint != fragment {
		t.Fatalf("case %d's input %q no longer holds %q: update %s", id, c.Input, fragment, corpusTests[id])
	}
	if name := corpusTests[id]; name != t.Name() && !strings.HasPrefix(t.Name(), name+"/") {
		t.Fatalf("case %d is pinned by %s, not %s", id, name, t.Name())
	}
	return c
}

// TestCorpusCoverage checks that every case of the corpus is pinned by a
// test of this package and that every test named exists.
func TestCorpusCoverage(t *testing.T) {
	corpus := loadCorpus(t)
	if len(corpus) != 71 {
		t.Errorf("the corpus has %d cases; this package was written for 71: pin the new ones", len(corpus))
	}
	var ids []int
	for id := range corpus {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for i, id := range ids {
		if id != i+1 {
			t.Errorf("case ids are not 1..%d: %v", len(ids), ids)
			break
		}
	}
	for _, id := range ids {
		if _, ok := corpusTests[id]; !ok {
			t.Errorf("corpus case %d (%s, %s) has no test in corpusTests", id, corpus[id].Layer, corpus[id].Input)
		}
	}
	for id := range corpusTests {
		if _, ok := corpus[id]; !ok {
			t.Errorf("corpusTests names case %d, which the corpus does not have", id)
		}
	}
	defined := testFuncs(t)
	for id, name := range corpusTests {
		ids, ok := defined[name]
		if !ok {
			t.Errorf("case %d: no func %s in the package", id, name)
		} else if !ids[id] {
			t.Errorf("case %d: %s never loads it (corpusCase or charsetCase with id %d)", id, name, id)
		}
		if c, ok := corpus[id]; ok && !carriesCVE(name, c.Ref) {
			t.Errorf("case %d cites %s, but its test %s carries none of its CVEs", id, c.Ref, name)
		}
	}
}

var cveRef = regexp.MustCompile(`CVE-[0-9]{4}-[0-9]+`)

// carriesCVE reports whether a test name carries one of the CVEs ref
// cites, as CVE_YYYY_NNNN (or ref cites none).
func carriesCVE(name, ref string) bool {
	cves := cveRef.FindAllString(ref, -1)
	for _, c := range cves {
		if strings.Contains(name, strings.ReplaceAll(c, "-", "_")) {
			return true
		}
	}
	return len(cves) == 0
}

// testFuncs parses the package's test files for its Test functions and,
// for each, the corpus ids it loads: the literal id in its calls of
// corpusCase(t, id, ...) and charsetCase(t, id, ...).
func testFuncs(t *testing.T) map[string]map[int]bool {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]map[int]bool{}
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") {
				continue
			}
			ids := map[int]bool{}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) < 2 {
					return true
				}
				if fn, ok := call.Fun.(*ast.Ident); ok && (fn.Name == "corpusCase" || fn.Name == "charsetCase") {
					if lit, ok := call.Args[1].(*ast.BasicLit); ok && lit.Kind == token.INT {
						if id, err := strconv.Atoi(lit.Value); err == nil {
							ids[id] = true
						}
					}
				}
				return true
			})
			out[fd.Name.Name] = ids
		}
	}
	return out
}
