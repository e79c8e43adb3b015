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
// A manifest, DIR/.cgigate-index, names the live segments: a main one and
// at most four small ones. Each segment is laid out to be read in place
// by a process that lives for one request (a CGI process): a query reads
// the manifest, then maps each segment and reads its header, the gram
// lists of its words (the terms holding each code point, or each pair of
// neighbouring ones: gram.go), the terms they name, then only the posting
// lists of the terms its words are in (for a phrase, with their
// positions) and the records of the documents it shows. What it touches follows
// what matches, not the number of documents nor the size of the
// dictionary, which grows with the text where a Japanese sentence is one
// term (TestQueryCostDoesNotGrowWithTheDocuments,
// TestQueryCostFollowsTheMatches). The grams are code points and pairs
// of them, not CJK runs cut into bigram terms: the terms, postings and
// scan stay as they were, the scan remains the independent check of the
// index, and a word is found inside any term of any script.
//
// A Japanese word found in many sentences would so read thousands of
// terms, each a sentence with a short posting list of its own. A word of
// two to eight CJK code points (Han, kana, Hangul, ー and 々) that is no
// phrase's is answered instead from CJK bigram postings (bigram.go): a
// section apart from the terms, with one posting list for each pair of
// neighbouring CJK code points of a term, each posting with the pair's
// numbers in the document's text and title, numbered so that the pairs of
// one run of CJK are consecutive and a break skips one. The lists of the
// word's bigrams are intersected by document and number (the i-th bigram
// at p+i), and its occurrences counted as the scan counts them
// (strings.Count: non-overlapping, from the left), so its score is the
// term path's; the bigrams' lists are cursors of the query's merge by
// document, as the terms' posting lists are. It reads one list for each
// distinct bigram of the word, whatever the number of sentences holding
// it (TestAJapaneseWordReadsOneListABigram), and each once, whatever the
// number of the query's words holding it
// (TestCJKWordsSharingBigramsReadEachListOnce), for an index about a tenth larger on a site whose text is a third
// Japanese. See index.go for the segment layout, manifest.go for the
// manifest.
//
// A phrase is decided from the index, never by reading the documents
// that hold its words: each posting carries the ordinal positions of its
// term in the document's text and title (after the term's posting list,
// where a query without a phrase never reads them). Every term a
// phrase's match touches holds one of its words (the first word ends its
// term or joins the next inside it, each later word starts a term or
// joins the one before, CJK characters being written without spaces), so
// the terms holding the phrase's words, put back at their positions, are
// every stretch of the text where it can be, and the scan's own phrase
// test (Query.phraseIn) runs on those stretches: a join inside one term
// (印刷サービス for "印刷 サービス") is decided as one across two.
//
// Every document has a key, its place in the walk order of the whole
// index, which breaks ties in rank. A query ranks the matching documents
// of every segment together, by score and key, and drops those a later
// segment replaces or removes: its answer (total, order, pages, snippets,
// highlights) is a full rebuild's.
//
// # Building and updating
//
// Build with no usable index, Rebuild, or Build after a change of
// settings (the index version, TextCharset, anything that changes how a
// document is read: Folder.settings) read every document into a new main
// segment. Its memory follows the number of documents only by two small
// tables, each document's path, size and time (the walk's stat table)
// and its 16-byte entry in the document table: records go to the file as
// documents are read, postings are written out in sorted runs of about
// runPostings (a document's are never split between runs), and the runs
// are merged term by term at the end. Documents are numbered in walk order, so merging runs
// is appending lists and no document table is sorted. Nor does it follow
// the number of terms: the dictionary and its tables go to temporary
// files as the merge gives the terms, and the grams are built in sorted
// runs as the postings are.
//
// Build with an index walks the folder and stats each document, and
// joins the walk with the stat table the last build left (path, size,
// modification time in ns, key): a document whose size and time are
// unchanged is not read again; added and changed documents are read into
// a small new segment that also lists the keys of the earlier segments'
// documents it replaces or removes. A changed document keeps its key, an
// added one takes a key between its neighbours'. The update's memory is
// the stat table and the changed documents. When the small segments would
// pass four, or 10 % of the main one's documents, or two neighbours' keys
// leave no room, Build reads every document into a new main segment (a
// merge by rebuilding: it costs what a full build costs, once in many
// updates).
//
// Every build writes its new files first, then a new manifest, synced and
// renamed over the old one, and only then removes the files the old one
// named: a search reads the old index or the new one, never a part; one
// that opened the old manifest and finds a segment gone reads the new
// manifest. A killed build leaves the previous index whole, and the next
// build removes what it left. Builds of one folder take turns (flock).
//
// The package knows nothing of CGI: cmd/cgigate reads the settings from
// the environment and renders the results; a Go program can do the same.
package search
