package bench

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cgigate/cgigate/internal/gobuild"
)

// The fixtures: the same job in each peer's idiom (see peers/).
var (
	//go:embed peers/floor.c
	floorC []byte
	//go:embed peers/cgipm.pl
	cgipmPL []byte
	//go:embed peers/fieldstorage.py
	fieldstoragePY []byte
)

// Peer names, as they appear in cgi-bin and in the table.
const (
	Floor    = "c-floor"
	CGIPM    = "perl-cgipm"
	Python   = "python-cgi"
	GoCGI    = "go-nethttpcgi"
	Gateway  = "cgigate"
	GatewayF = "cgigate-fcgi" // cgigate -fcgi behind mod_proxy_fcgi; not a cgi-bin program
	// GatewayFUnix is a second cgigate -fcgi, proxied on a Unix socket.
	GatewayFUnix = "cgigate-fcgi-unix"
)

// DeployedEnv is what the Apache configurations httpdconf renders and
// ships add to cgigate's environment for a request whose body is at most
// 1 MiB, as every request the benchmarks time directly is: the runtime
// then starts on one P. Timing cgigate without a server, the benchmarks
// add it, so that a process is timed as Apache runs it.
var DeployedEnv = []string{"GOMAXPROCS=1"}

// References for the tables, not peers (they do not do the job): what the
// Go runtime alone costs, and what linking cgigate's dependencies adds
// before a line of cgigate runs. Under load they bound the req/s any Go CGI
// program can reach against the C floor.
const (
	GoHello = "go-hello"
	GoDeps  = "go-deps"
)

// PeerNames lists the cgi-bin peers in table order: the floor first,
// cgigate last.
var PeerNames = []string{Floor, GoCGI, CGIPM, Python, Gateway}

// References lists the references in table order.
var References = []string{GoHello, GoDeps}

// tableOrder is the order of the tables' rows: the floor, the references
// beside it, the other peers, cgigate and its FastCGI mode, PHP-FPM, the
// same two on Unix sockets and the static-file ceiling.
func tableOrder() []string {
	return slices.Concat(PeerNames[:1], References, PeerNames[1:], []string{GatewayF, PHPFPM, GatewayFUnix, PHPFPMUnix, Static})
}

// Interpreters the script peers need, with the Debian package that
// provides each: Apache's www-data children must reach them, so they are
// the system's, not a user's pyenv or perlbrew.
var Interpreters = []Requirement{
	{Peer: CGIPM, Check: []string{"/usr/bin/perl", "-MCGI", "-e", "1"}, Package: "libcgi-pm-perl"},
	{Peer: Python, Check: []string{"/usr/bin/python3", "-W", "ignore", "-c", "import cgi"}, Package: "python3-minimal (Debian's python3 3.11, which still has the cgi module)"},
	{Peer: Floor, Check: []string{"gcc", "--version"}, Package: "gcc"},
}

// Requirement is a program a peer needs and how to get it.
type Requirement struct {
	Peer    string
	Check   []string
	Package string
}

// Missing runs every check and returns a message per failing one.
func Missing(reqs []Requirement) []string {
	var out []string
	for _, r := range reqs {
		if err := exec.Command(r.Check[0], r.Check[1:]...).Run(); err != nil {
			out = append(out, fmt.Sprintf("%s needs %s (apt-get install %s): %v",
				r.Peer, strings.Join(r.Check, " "), strings.Fields(r.Package)[0], err))
		}
	}
	return out
}

// BuildPeers writes every peer into dir and returns name -> executable
// path: the C floor compiled with gcc -O2, the scripts copied, the Go
// programs built static (CGO_ENABLED=0, as the README asks of cgigate) from
// the module whose root is moduleRoot. gateway, when not empty, is a
// prebuilt cgigate to use in cgi-bin instead of building ./cmd/cgigate
// with -tags cgionly. GatewayF is always the default build, for -fcgi.
// GoHello and GoDeps, the cold-start references, are built too. When ctx
// ends, the build under way is killed and ctx's error returned.
func BuildPeers(ctx context.Context, dir, moduleRoot, gateway string) (map[string]string, error) {
	out := map[string]string{}
	write := func(name string, data []byte) error {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o755); err != nil {
			return err
		}
		out[name] = p
		return os.Chmod(p, 0o755)
	}
	src := filepath.Join(dir, "floor.c")
	if err := os.WriteFile(src, floorC, 0o644); err != nil {
		return nil, err
	}
	if b, err := command(ctx, "gcc", "-O2", "-o", filepath.Join(dir, Floor), src).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("bench: gcc floor.c: %v\n%s", err, b)
	}
	out[Floor] = filepath.Join(dir, Floor)
	if err := write(CGIPM, cgipmPL); err != nil {
		return nil, err
	}
	if err := write(Python, fieldstoragePY); err != nil {
		return nil, err
	}
	// cgigate in cgi-bin is built as README deploys it, with -tags cgionly
	// (no net/http); its FastCGI mode needs the default build.
	type build struct{ name, pkg, tags string }
	builds := []build{
		{GoCGI, "./bench/peers/gocgi", ""},
		{GoHello, "./bench/peers/gohello", ""},
		{GoDeps, "./bench/peers/godeps", ""},
		{GatewayF, "./cmd/cgigate", ""},
	}
	if gateway == "" {
		builds = append(builds, build{Gateway, "./cmd/cgigate", gobuild.CGIBin})
	} else {
		out[Gateway] = gateway
	}
	for _, b := range builds {
		p, err := GoBuild(ctx, moduleRoot, b.pkg, filepath.Join(dir, b.name), b.tags)
		if err != nil {
			return nil, err
		}
		out[b.name] = p
	}
	return out, nil
}

// GoBuild builds the main package pkg of the module at moduleRoot as a
// static binary (CGO_ENABLED=0, no VCS stamping so that a clone owned by
// another user builds) at dst, with the build tags in tags
// (comma-separated; "" for none). When ctx ends, the go command and the
// compilers it runs are killed; its work folder is in dst's folder
// (GOTMPDIR), so that whoever removes that folder removes what a killed
// build left behind.
func GoBuild(ctx context.Context, moduleRoot, pkg, dst, tags string) (string, error) {
	cmd := gobuild.Command(ctx, moduleRoot, pkg, dst, tags)
	cmd.Env = append(cmd.Env, "GOTMPDIR="+filepath.Dir(dst))
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("bench: go build %s: %v\n%s", pkg, err, b)
	}
	if err := os.Chmod(dst, 0o755); err != nil {
		return "", err
	}
	return dst, nil
}

// ModuleRoot returns the folder holding go.mod at or above dir, the
// moduleRoot BuildPeers and GoBuild take.
func ModuleRoot(dir string) (string, error) {
	root, err := gobuild.ModuleRoot(dir)
	if err != nil {
		return "", fmt.Errorf("bench: %w", err)
	}
	return root, nil
}
