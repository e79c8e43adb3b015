// Package search is the site search of cgigate: it finds, in a folder of
// .txt and .html documents, those that hold every word of a query, width
// and case folded (NFKC and Unicode full case folding), and ranks them.
//
// A Folder names the documents. Folder.Search answers a Query (made by
// ParseQuery from the words as received) by reading the folder's index
// file when Folder.Build has written one, and by reading every document
// otherwise; both give the same answer. The index is one file, laid out to
// be read in place by a process that lives for one request (a CGI
// process): see index.go for its layout.
//
// The package knows nothing of CGI: cmd/cgigate reads the settings from
// the environment and renders the results; a Go program can do the same.
package search
