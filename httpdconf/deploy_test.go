package httpdconf_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// No Docker engine runs where the tests run, so the container files are
// checked for what a build would trip over first: every file they name must
// be in the repository, and the names they share must agree.

// projectRoot is where docker-compose.yml and the Dockerfile live.
const projectRoot = ".."

type compose struct {
	Services map[string]struct {
		Build struct {
			Context    string `yaml:"context"`
			Dockerfile string `yaml:"dockerfile"`
		} `yaml:"build"`
		Image   string   `yaml:"image"`
		Command []string `yaml:"command"`
		Ports   []string `yaml:"ports"`
		Volumes []struct {
			Type     string `yaml:"type"`
			Source   string `yaml:"source"`
			Target   string `yaml:"target"`
			ReadOnly bool   `yaml:"read_only"`
		} `yaml:"volumes"`
	} `yaml:"services"`
	Volumes map[string]any `yaml:"volumes"`
}

func readCompose(t *testing.T) compose {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(projectRoot, "docker-compose.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var c compose
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	if len(c.Services) == 0 {
		t.Fatal("docker-compose.yml has no services")
	}
	return c
}

// dockerfile is what the checks need from a Dockerfile.
type dockerfile struct {
	from     []string // FROM images, in order
	copies   []copyLine
	runs     []string // RUN commands, continuation lines joined
	goBuilds []string // package paths given to go build
}

type copyLine struct {
	fromStage bool
	srcs      []string
	dst       string
}

var goBuildPkg = regexp.MustCompile(`go build\b.*\s(\./\S+)`)

func readDockerfile(t *testing.T, path string) dockerfile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d dockerfile
	var logical strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#") || (line == "" && logical.Len() == 0) {
			continue
		}
		if strings.HasSuffix(line, `\`) {
			logical.WriteString(strings.TrimSuffix(line, `\`) + " ")
			continue
		}
		logical.WriteString(line)
		instr := strings.Fields(logical.String())
		logical.Reset()
		if len(instr) < 2 {
			continue
		}
		args := instr[1:]
		switch strings.ToUpper(instr[0]) {
		case "FROM":
			d.from = append(d.from, args[0])
		case "COPY", "ADD":
			var c copyLine
			for len(args) > 0 && strings.HasPrefix(args[0], "--") {
				c.fromStage = c.fromStage || strings.HasPrefix(args[0], "--from=")
				args = args[1:]
			}
			if len(args) < 2 {
				t.Fatalf("%s: COPY without source and destination: %q", path, instr)
			}
			c.srcs, c.dst = args[:len(args)-1], args[len(args)-1]
			d.copies = append(d.copies, c)
		case "RUN":
			run := strings.Join(args, " ")
			d.runs = append(d.runs, run)
			if m := goBuildPkg.FindStringSubmatch(run); m != nil {
				d.goBuilds = append(d.goBuilds, m[1])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return d
}

func exists(t *testing.T, what, p string, dir bool) {
	t.Helper()
	fi, err := os.Stat(p)
	switch {
	case err != nil:
		t.Errorf("%s %s: %v", what, p, err)
	case fi.IsDir() != dir:
		t.Errorf("%s %s: is a folder: %v, want %v", what, p, fi.IsDir(), dir)
	}
}

func TestComposeNamesOnlyFilesThatExist(t *testing.T) {
	c := readCompose(t)
	for name, svc := range c.Services {
		t.Run("service "+name, func(t *testing.T) {
			if svc.Build.Context == "" {
				t.Fatal("no build context: the gateway would not be in the image")
			}
			ctx := filepath.Join(projectRoot, svc.Build.Context)
			exists(t, "build context", ctx, true)
			df := svc.Build.Dockerfile
			if df == "" {
				df = "Dockerfile"
			}
			exists(t, "Dockerfile", filepath.Join(ctx, df), false)
			for _, v := range svc.Volumes {
				switch v.Type {
				case "bind":
					exists(t, "bind mount source", filepath.Join(projectRoot, v.Source), false)
				case "volume":
					if _, ok := c.Volumes[v.Source]; !ok {
						t.Errorf("named volume %q is used but not declared under volumes:", v.Source)
					}
				default:
					t.Errorf("volume %+v: want the long form with type bind or volume", v)
				}
			}
			for _, p := range svc.Ports {
				if !strings.HasPrefix(p, "127.0.0.1:") {
					t.Errorf("port %q is published beyond loopback", p)
				}
			}
		})
	}
}

func TestDockerfileCopiesOnlyFilesThatExist(t *testing.T) {
	d := readDockerfile(t, filepath.Join(projectRoot, "Dockerfile"))
	for _, c := range d.copies {
		if c.fromStage {
			continue
		}
		for _, src := range c.srcs {
			p := filepath.Join(projectRoot, src)
			if fi, err := os.Stat(p); err != nil {
				t.Errorf("COPY %s: %v", src, err)
			} else if src == "." && !fi.IsDir() {
				t.Errorf("COPY . : the context is not a folder")
			}
		}
	}
	if len(d.goBuilds) == 0 {
		t.Fatal("the Dockerfile builds no Go package")
	}
	for _, pkg := range d.goBuilds {
		dir := filepath.Join(projectRoot, pkg)
		mains, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if len(mains) == 0 {
			t.Errorf("go build %s: no Go files in %s", pkg, dir)
		}
	}
}

func TestDockerfileBuildsWithTheGoVersionOfGoMod(t *testing.T) {
	d := readDockerfile(t, filepath.Join(projectRoot, "Dockerfile"))
	mod, err := os.ReadFile(filepath.Join(projectRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go directive")
	}
	want := "golang:" + string(m[1])
	if len(d.from) < 2 || !strings.HasPrefix(d.from[0], want) || !strings.HasPrefix(d.from[len(d.from)-1], "httpd:2.4") {
		t.Errorf("FROM lines %q: want a %s builder and an httpd:2.4 final stage", d.from, want)
	}
}

// The compose file, the Dockerfile and httpd-image/cgigate.conf must agree
// on where the snippet goes and where recordings are kept.
func TestComposeDockerfileAndSnippetAgree(t *testing.T) {
	c := readCompose(t)
	d := readDockerfile(t, filepath.Join(projectRoot, "Dockerfile"))
	snip, err := os.ReadFile(filepath.Join("httpd-image", "cgigate.conf"))
	if err != nil {
		t.Fatal(err)
	}
	svc, ok := c.Services["httpd"]
	if !ok {
		t.Fatal(`no service "httpd"`)
	}
	confTarget, recordTarget := "", ""
	for _, v := range svc.Volumes {
		if v.Type == "bind" && filepath.Clean(v.Source) == filepath.Join("httpdconf", "httpd-image", "cgigate.conf") {
			confTarget = v.Target
		}
		if v.Type == "volume" {
			recordTarget = v.Target
		}
	}
	t.Run("the snippet is mounted where the Dockerfile copies it", func(t *testing.T) {
		copied := false
		for _, cp := range d.copies {
			if len(cp.srcs) == 1 && cp.srcs[0] == "httpdconf/httpd-image/cgigate.conf" && cp.dst == confTarget {
				copied = true
			}
		}
		if confTarget == "" || !copied {
			t.Errorf("compose mounts the snippet at %q; the Dockerfile copies it to %+v", confTarget, d.copies)
		}
		include := "Include conf/extra/" + filepath.Base(confTarget)
		if !strings.Contains(strings.Join(d.runs, "\n"), include) {
			t.Errorf("the Dockerfile never adds %q to httpd.conf", include)
		}
	})
	t.Run("recordings go to the named volume", func(t *testing.T) {
		if recordTarget == "" {
			t.Fatal("no named volume")
		}
		if !strings.Contains(string(snip), "SetEnv CGIGATE_RECORD "+recordTarget+"/") {
			t.Errorf("cgigate.conf does not set CGIGATE_RECORD to a file in the volume %s", recordTarget)
		}
		if !strings.Contains(strings.Join(d.runs, "\n"), "chown www-data:www-data "+recordTarget) {
			t.Errorf("the Dockerfile does not give %s to www-data", recordTarget)
		}
		on := false
		for _, a := range svc.Command {
			on = on || a == "-DCGIGATE_RECORD"
		}
		if !on || !strings.Contains(string(snip), "<IfDefine CGIGATE_RECORD>") {
			t.Errorf("command %q and the snippet's <IfDefine CGIGATE_RECORD> must go together", svc.Command)
		}
	})
}
