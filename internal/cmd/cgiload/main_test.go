package main

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
)

func TestCheckTargetRefusesWhatIsNotLoopback(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8080/cgi-bin/cgigate", true},
		{"http://127.1.2.3/", true},
		{"http://[::1]:80/", true},
		{"http://localhost:8080/", true},
		{"http://192.0.2.1/", false},
		{"http://0.0.0.0/", false},
		{"http://example.org/", false},
		{"http://localhost.example.org/", false},
		{"https://127.0.0.1/", false},
		{"http://[2001:db8::1]/", false},
	} {
		if err := checkTarget(tc.url); (err == nil) != tc.ok {
			t.Errorf("checkTarget(%q) = %v; want ok=%v", tc.url, err, tc.ok)
		}
	}
}

func TestLoopbackOnlyRefusesAResolvedAddressOffThisMachine(t *testing.T) {
	if err := loopbackOnly("tcp", "127.0.0.1:80", nil); err != nil {
		t.Error(err)
	}
	if err := loopbackOnly("tcp", "93.184.216.34:80", nil); err == nil {
		t.Error("a public address was allowed")
	}
}

func TestParseBoundsTheRun(t *testing.T) {
	for _, args := range [][]string{
		{"-url", "http://127.0.0.1/", "-n", "0"},
		{"-url", "http://127.0.0.1/", "-n", "100001"},
		{"-url", "http://127.0.0.1/", "-c", "257"},
		{"-url", "http://127.0.0.1/", "-timeout", "31m"},
		{"-apache", "-url", "http://127.0.0.1/"},
		{},
		{"-apache", "-record", "x"},
		{"-url", "http://127.0.0.1/", "extra"},
		{"-apache", "-mpm", "worker"},
		{"-apache", "-cgi-module", "cgi"}, // mod_cgi under event
		{"-apache", "-mpm", "prefork", "-cgi-module", "fastcgi"},
		{"-url", "http://127.0.0.1/", "-mpm", "prefork"},
		{"-url", "http://127.0.0.1/", "-cgi-module", "cgid"},
	} {
		if _, err := parse(args, io.Discard, io.Discard); err == nil {
			t.Errorf("parse(%q) accepted", args)
		}
	}
	for _, args := range [][]string{
		{"-url", "http://127.0.0.1:1/", "-n", "5"},
		{"-apache"},
		{"-apache", "-mpm", "prefork"},
		{"-apache", "-mpm", "prefork", "-cgi-module", "cgid"},
		{"-apache", "-mpm", "prefork", "-cgi-module", "cgi"},
	} {
		if _, err := parse(args, io.Discard, io.Discard); err != nil {
			t.Errorf("parse(%q): %v", args, err)
		}
	}
}

func TestPlanMixesEveryKindWithUniqueIDs(t *testing.T) {
	jobs := plan(100, 7)
	kinds := map[string]int{}
	ids := map[string]bool{}
	for _, j := range jobs {
		kinds[j.kind]++
		if ids[j.id] {
			t.Fatalf("id %s twice", j.id)
		}
		ids[j.id] = true
		if j.bad() == (j.status < 400) {
			t.Errorf("%s wants status %d", j.kind, j.status)
		}
	}
	for _, k := range []string{"isindex", "urlencoded", "multipart", "get-form", "bad-charset", "bad-type", "bad-truncated", "bad-flood", "bad-boundary", "bad-utf7"} {
		if kinds[k] == 0 {
			t.Errorf("no %s job in %v", k, kinds)
		}
	}
	if kinds["isindex"] != 20 || kinds["urlencoded"] != 30 || kinds["multipart"] != 20 || kinds["get-form"] != 10 {
		t.Errorf("mix %v", kinds)
	}
}

// recordOf is the record line the gateway would write for j.
func recordOf(t *testing.T, j job) string {
	t.Helper()
	files := j.files
	if files == nil {
		files = []file{}
	}
	b, err := json.Marshal(map[string]any{"time": "2026-01-01T00:00:00Z", "remote_addr": "127.0.0.1", "charset": "utf-8", "fields": j.fields, "files": files})
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func TestCheckRecordDataFindsEveryFault(t *testing.T) {
	jobs := plan(20, 1)
	var good, bad []job
	for _, j := range jobs {
		if j.recorded {
			good = append(good, j)
		}
		if j.bad() {
			bad = append(bad, j)
		}
	}
	all := func(skip int) string {
		var b strings.Builder
		b.WriteString(`{"fields":[{"name":"id","value":"someone-else"}],"files":[]}` + "\n")
		for i, j := range good {
			if i != skip {
				b.WriteString(recordOf(t, j))
			}
		}
		return b.String()
	}
	altered := good[0]
	altered.fields = append([]field{}, altered.fields...)
	altered.fields[1].Value += "!"
	for _, tc := range []struct {
		name, data, want string
	}{
		{"every submission once", all(-1), ""},
		{"one missing", all(0), "not in the record"},
		{"one twice", all(-1) + recordOf(t, good[1]), "2 times"},
		{"one altered", all(0) + recordOf(t, altered), "fields"},
		{"a bad request recorded", all(-1) + recordOf(t, job{fields: []field{{"id", bad[0].id, "body"}}}), "bad request"},
		{"a partial last line", strings.TrimSuffix(all(-1), "\n"), "partial last line"},
		{"a line that is not JSON", all(-1) + "{\"fields\":\n", "not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &report{jobs: jobs}
			r.checkRecordData([]byte(tc.data))
			got := strings.Join(r.failures, "\n")
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("failures %q; want %q", got, tc.want)
			}
		})
	}
}

func TestAFlagErrorIsPrintedOnce(t *testing.T) {
	var out, errOut strings.Builder
	if code := run([]string{"-fast"}, &out, &errOut); code != 2 {
		t.Fatalf("run(-fast) = %d, want 2", code)
	}
	if n := strings.Count(errOut.String(), "flag provided but not defined: -fast"); n != 1 {
		t.Errorf("the flag error is printed %d times:\n%s", n, errOut.String())
	}
}
