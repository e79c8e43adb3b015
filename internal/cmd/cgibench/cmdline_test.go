package main

import (
	"testing"

	"github.com/cgigate/cgigate/internal/apachetest"
	"github.com/cgigate/cgigate/internal/cli/clitest"
)

func TestCommandLine(t *testing.T) {
	clitest.CheckCommandLine(t, "", apachetest.BuildGo(t, "."), "cgibench", "usage: cgibench [", "-gateway", "-mpm")
}
