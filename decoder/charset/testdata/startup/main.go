// Command startup looks a label up and prints its name: the program
// TestLinkingTheCharsetPackageCostsAProcessNothingAtStartUp runs with
// GODEBUG=inittrace=1. A program of its own, since the test binary would
// count the _test.go files' variables as the package's.
package main

import "github.com/cgigate/cgigate/decoder/charset"

func main() { println(charset.MustLookup("euc-jp").Name()) }
