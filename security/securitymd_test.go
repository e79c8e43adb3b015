package security

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cgigate/cgigate/cgi"
	"github.com/cgigate/cgigate/decoder"
)

// TestSecurityMDStatesTheDefaults keeps SECURITY.md's limits in step with
// the code: every default constant of cgi and decoder, and every setting
// cgigate -help lists with its default, appears in the table.
func TestSecurityMDStatesTheDefaults(t *testing.T) {
	doc, err := os.ReadFile("../SECURITY.md")
	if err != nil {
		t.Fatal(err)
	}
	md := string(doc)
	row := func(what string, value string) {
		t.Helper()
		for _, l := range strings.Split(md, "\n") {
			if strings.HasPrefix(l, "| "+what) && strings.Contains(l, value) {
				return
			}
		}
		t.Errorf("SECURITY.md has no row %q giving %s", what, value)
	}
	row("request body", strconv.Itoa(cgi.DefaultMaxBody))
	row("reading the body", cgi.DefaultReadTimeout.String())
	row("multipart parts", strconv.Itoa(cgi.DefaultMaxParts))
	row("header lines in one multipart part", strconv.Itoa(cgi.DefaultMaxPartHeaders))
	row("name=value fields", strconv.Itoa(decoder.DefaultMaxFields))
	row("ISINDEX keywords", strconv.Itoa(decoder.DefaultMaxKeywords))
	row("bytes in one decoded name", strconv.Itoa(decoder.DefaultMaxNameBytes))
	row("bytes in one decoded value", strconv.Itoa(decoder.DefaultMaxValueBytes))
	row("raw input in all", strconv.Itoa(decoder.DefaultMaxTotalBytes))
	row("warnings in one answer", strconv.Itoa(decoder.DefaultMaxWarnings))

	needGateway(t)
	var stdout bytes.Buffer
	cmd := exec.Command(gateway, "-help")
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.Stdout = &stdout // -help is asked for: the usage goes to stdout
	cmd.Run()
	settings := regexp.MustCompile(`(CGIGATE_[A-Z_]+) \(default ([^)]*)\)`).FindAllStringSubmatch(stdout.String(), -1)
	if len(settings) < 9 {
		t.Fatalf("cgigate -help lists %d settings:\n%s", len(settings), stdout.String())
	}
	for _, s := range settings {
		name, def := s[1], strings.Trim(s[2], `"`)
		if !strings.Contains(md, "`"+name+"`") {
			t.Errorf("SECURITY.md does not name %s", name)
			continue
		}
		want := []string{"`" + name + "` (`" + def + "`)"}
		if def == "" {
			want = []string{"`" + name + "` (none)"}
		}
		if !strings.Contains(md, want[0]) && !rowHas(md, name, def) {
			t.Errorf("SECURITY.md does not give %s's default %s", name, def)
		}
	}
}

// rowHas reports whether a table row names the setting and its default.
func rowHas(md, name, def string) bool {
	if def == "" {
		return false
	}
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "|") && strings.Contains(l, name) && strings.Contains(l, def) {
			return true
		}
	}
	return false
}
