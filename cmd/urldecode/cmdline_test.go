package main

import (
	"testing"

	"github.com/cgigate/cgigate/internal/cli/clitest"
)

func TestCommandLine(t *testing.T) {
	clitest.CheckCommandLine(t, "", bin, "urldecode", "usage: urldecode", "-charset", "Examples:")
}
