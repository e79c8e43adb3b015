package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apache"
	"github.com/cgigate/cgigate/internal/gobuild"
)

// apacheServer is an Apache httpd cgiload started for its run.
type apacheServer struct {
	url, record, root string
	srv               *apache.Server
}

// startApache lays out a throwaway ServerRoot under os.TempDir (mode 0755,
// so that Apache's www-data children can run the gateway, with a records
// folder of mode 0777 they can append to), and starts Apache there through
// internal/apache with CGIGATE_RECORD set, on a free loopback port.
func startApache(ctx context.Context, gateway string, mpm httpdconf.MPM, module httpdconf.CGIModule, stderr io.Writer) (*apacheServer, error) {
	bin, err := apache.FindBinary(os.Getenv, exec.LookPath, fileExists)
	if err != nil {
		return nil, err
	}
	root, err := apache.TempDir("cgiload-")
	if err != nil {
		return nil, err
	}
	s := &apacheServer{root: root}
	ok := false
	defer func() {
		if !ok {
			s.stop()
		}
	}()
	recDir := filepath.Join(root, "records")
	if err := apache.Mkdir(recDir, 0o777); err != nil {
		return nil, err
	}
	if gateway == "" {
		gateway = filepath.Join(root, "cgigate")
		cmd := gobuild.Command(ctx, "", "./cmd/cgigate", gateway, gobuild.CGIBin)
		// A build killed by a signal leaves its work folder in root,
		// which stop removes.
		cmd.Env = append(cmd.Env, "GOTMPDIR="+root)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build -tags %s ./cmd/cgigate (run cgiload from the project's root, or give -gateway): %v\n%s", gobuild.CGIBin, err, out)
		}
	}
	s.record = filepath.Join(recDir, "load.jsonl")
	if err := os.WriteFile(s.record, nil, 0o666); err != nil {
		return nil, err
	}
	if err := os.Chmod(s.record, 0o666); err != nil {
		return nil, err
	}
	s.srv, err = apache.Start(bin, apache.Options{
		Config: httpdconf.Config{ServerRoot: root, MPM: mpm, CGIModule: module, Env: map[string]string{"CGIGATE_RECORD": s.record}},
		CGI:    map[string]string{"cgigate": gateway},
	})
	if err != nil {
		return nil, err
	}
	s.url = s.srv.URL + s.srv.CGIPath("cgigate")
	fmt.Fprintf(stderr, "cgiload: Apache %s (%s, mod_%s) on %s, record %s\n", bin, mpm, s.srv.Config.CGIModule, s.srv.URL, s.record)
	ok = true
	return s, nil
}

// stop ends Apache by its pid (SIGTERM, then SIGKILL to its process group
// after apache.StopBound) and removes the ServerRoot.
func (s *apacheServer) stop() {
	if s.srv != nil {
		s.srv.Stop()
	}
	os.RemoveAll(s.root)
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
