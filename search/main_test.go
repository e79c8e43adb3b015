package search

import (
	"os"
	"testing"
)

// testTemp is a folder the tests of the package share, removed at exit.
var testTemp string

func TestMain(m *testing.M) {
	var err error
	if testTemp, err = os.MkdirTemp("", "search-test-"); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(testTemp)
	os.Exit(code)
}
