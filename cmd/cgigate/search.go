package main

import (
	"fmt"
	"io"

	"github.com/cgigate/cgigate/search"
)

// runIndex is "cgigate -index DIR": it builds the index and says what it
// wrote on stdout, the documents it skipped on stderr.
func runIndex(dir string, stdout, stderr io.Writer) int {
	st, err := (&search.Folder{Dir: dir}).Build()
	for _, w := range st.Warnings {
		fmt.Fprintf(stderr, "cgigate: %s\n", w)
	}
	if err != nil {
		fmt.Fprintf(stderr, "cgigate: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "cgigate: indexed %d documents, %d terms, %d bytes in %s\n", st.Docs, st.Terms, st.Bytes, st.Path)
	return 0
}

// searchResult is a search result as the renderings show it.
type searchResult = search.Result
