package search_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cgigate/cgigate/search"
)

func Example() {
	dir, _ := os.MkdirTemp("", "docs")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "print.html"), []byte("<title>Printing</title><p>We print on a STRASSE press.</p>"), 0o644)
	os.WriteFile(filepath.Join(dir, "other.txt"), []byte("Nothing about it."), 0o644)

	f := &search.Folder{Dir: dir}
	if _, err := f.Build(); err != nil { // optional: without it, every document is read
		fmt.Println(err)
		return
	}
	q, err := search.ParseQuery([]string{"straße"}, 100)
	if err != nil {
		fmt.Println(err)
		return
	}
	page, err := f.Search(q, 1, 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range page.Results {
		fmt.Printf("%s <%s> %s\n", r.Title, r.URL, r.Snippet)
	}
	// Output:
	// Printing <print.html> We print on a STRASSE press.
}
