package security

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/internal/badinput"
)

// corpusCase returns bad-input case id (internal/badinput) and fails t
// unless its input still holds fragment and t is the test the case names:
// the test sends what the case says, and a changed case fails loudly
// instead of being tested by stale bytes.
func corpusCase(t *testing.T, id int, fragment string) badinput.Case {
	t.Helper()
	c, ok := badinput.ByID(id)
	if !ok {
		t.Fatalf("the bad-input table has no case %d", id)
	}
	if !strings.Contains(c.Input, fragment) && !strings.Contains(c.Built, fragment) && !slices.Contains(c.Also, fragment) && c.Charset != fragment {
		t.Fatalf("case %d's input %q no longer holds %q: update %s", id, c.Input+c.Built, fragment, c.Test)
	}
	if name := c.Test; name != t.Name() && !strings.HasPrefix(t.Name(), name+"/") {
		t.Fatalf("case %d is pinned by %s, not %s", id, name, t.Name())
	}
	return c
}

// TestCorpusCoverage checks that every bad-input case is pinned by the
// test it names, in the file of its theme, and that the test loads it.
func TestCorpusCoverage(t *testing.T) {
	if len(badinput.Cases) != 71 {
		t.Errorf("the bad-input table has %d cases; this package was written for 71: pin the new ones", len(badinput.Cases))
	}
	defined := testFuncs(t)
	for _, c := range badinput.Cases {
		fn, ok := defined[c.Test]
		if !ok {
			t.Errorf("case %d: no func %s in the package", c.ID, c.Test)
			continue
		}
		if want := c.Theme + "_test.go"; fn.file != want {
			t.Errorf("case %d: %s is in %s, not in %s, the file of its theme", c.ID, c.Test, fn.file, want)
		}
		if !fn.ids[c.ID] {
			t.Errorf("case %d: %s never loads it (corpusCase or charsetCase with id %d)", c.ID, c.Test, c.ID)
		}
		if !carriesCVE(c.Test, c.From) {
			t.Errorf("case %d cites %s, but its test %s carries none of its CVEs", c.ID, c.From, c.Test)
		}
	}
	for name, fn := range defined {
		for id := range fn.ids {
			if c, ok := badinput.ByID(id); !ok || c.Test != name {
				t.Errorf("%s loads case %d, which names another test or does not exist", name, id)
			}
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

// testFunc is a Test function of the package: its file and the case ids
// it loads.
type testFunc struct {
	file string
	ids  map[int]bool
}

// testFuncs parses the package's test files for its Test functions and,
// for each, the case ids it loads: the literal id in its calls of
// corpusCase(t, id, ...) and charsetCase(t, id, ...).
func testFuncs(t *testing.T) map[string]testFunc {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	out := map[string]testFunc{}
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
			out[fd.Name.Name] = testFunc{file: f, ids: ids}
		}
	}
	return out
}
