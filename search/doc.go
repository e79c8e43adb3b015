// Package search is the site search of cgigate: it finds, in a folder of
// .txt and .html documents, those that match a query, width and case
// folded (NFKC and Unicode full case folding), ranks them, and gives them
// a page at a time with a snippet and the places of the query's words in
// it.
//
// A Folder names the documents and how to read them (the charset of plain
// text, where they are served, where to log). ParseQuery reads a query as
// a site's visitors write it (words, "phrases", -word, OR);
// Folder.Search answers it by reading the folder's index file when
// Folder.Build has written one, and by reading every document otherwise;
// both give the same answer. A document is read in its charset: a byte
// order mark, a <meta> or XML declaration, the Folder's TextCharset for
// plain text, or the sniffer of decoder/sniff.
//
// # The index
//
// One file, DIR/.cgigate-index, laid out to be read in place by a process
// that lives for one request (a CGI process): a query reads the header,
// the dictionary of folded terms and the terms table, then only the
// posting lists of the terms its words are in and the records of the
// documents it shows (or, for a phrase, must look inside). What it reads
// does not grow with the number of documents
// (TestQueryCostDoesNotGrowWithTheDocuments). See index.go for the layout.
//
// Build writes a new file beside the old one and renames it over it:
// a search reads the old index or the new one, never a part. Its memory
// is bounded whatever the number of documents: records go to the file as
// documents are read, postings are written out in sorted runs of at most
// runPostings, and the runs are merged term by term at the end. Documents
// are numbered in walk order, which is also the ranking's tie-break, so
// merging runs is appending lists and no document table is sorted.
//
// # Updates
//
// There is no incremental update yet: after documents change, Build
// rewrites the whole file (about 6 minutes for 1,000,000 generated
// documents on a 2-core machine, BENCHMARKS.md), and searches meanwhile
// answer from the old one. The design for it keeps the present layout as
// the main segment and adds small ones: Build with an existing index
// would stat every document, write only the new and changed ones as a
// second segment with a list of the main segment's documents it replaces
// or removes, and a query would read both and drop the replaced; when the
// small segments grow past a fraction of the main one, they are merged
// with it by the run merge above. Not built: the work went to reading
// every document in its charset and to the query language first.
//
// The package knows nothing of CGI: cmd/cgigate reads the settings from
// the environment and renders the results; a Go program can do the same.
package search
