package main

import (
	"fmt"
	"io"
	"log"

	"github.com/cgigate/cgigate/search"
)

// searchConfig is the settings of the search besides CGIGATE_INDEX_DIR.
type searchConfig struct {
	textCharset string // CGIGATE_INDEX_CHARSET
}

// folder is the documents in dir as the settings say to read them; what
// the site's owner must know goes to the log (Apache's error log).
func (c searchConfig) folder(dir string) *search.Folder {
	return &search.Folder{Dir: dir, TextCharset: c.textCharset, Log: log.Printf}
}

// runIndex is "cgigate -index DIR": it builds the index with the
// settings of env, as the CGI reads them, and says what it wrote on
// stdout, the documents it skipped on stderr.
func runIndex(env map[string]string, dir string, stdout, stderr io.Writer) int {
	cfg, err := loadConfig(env)
	if err != nil {
		fmt.Fprintf(stderr, "cgigate: %v\n", err)
		return 1
	}
	st, err := cfg.search.folder(dir).Build()
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
