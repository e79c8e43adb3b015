package main

import (
	"os"
	"os/exec"
)

func execLookPath(name string) (string, error) { return exec.LookPath(name) }

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func execOutput(name string, args ...string) (string, error) {
	b, err := exec.Command(name, args...).Output()
	return string(b), err
}

func execCombined(name string, args ...string) (string, error) {
	b, err := exec.Command(name, args...).CombinedOutput()
	return string(b), err
}
