// Command startup links the search package and prints its index name: the
// program TestLinkingSearchAllocatesNothingAtStartUp runs with
// GODEBUG=inittrace=1. A program of its own, since the test binary would
// count the _test.go files' variables as the package's.
package main

import "github.com/cgigate/cgigate/search"

func main() { println(search.IndexName) }
