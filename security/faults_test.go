package security

// fsizeBlocks is the file size limit (ulimit -f, 512-byte blocks) of the
// cgigate-fsize wrapper: a record file already holding earlierFill bytes
// can take a little more, then the disk is "full".
const fsizeBlocks = 3

// earlierRecord is a record line from before the fault.
const earlierRecord = `{"time":"2026-01-01T00:00:00Z","remote_addr":"192.0.2.1","charset":"utf-8","fields":[{"name":"earlier","value":"kept","source":"body"}],"files":[]}` + "\n"

// indexDocs is the search index of the cgigate-index wrapper.
var indexDocs = map[string]string{
	"javascript:alert(1).txt": "findme in a file whose name is a javascript: URL",
	"plain.txt":               "findme plainly",
	"latin1.txt":              "findme caf\xe9 in ISO-8859-1, not UTF-8",
	"markup.html":             "<html><head><title>T &lt;b&gt;</title></head><body>findme <script>alert(1)</script></body></html>",
}
