package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Field is one decoded name=value pair a peer printed.
type Field struct {
	Name, Value string
}

// HTMLFields returns the fields a peer's HTML page shows: the first two
// cells of each row of its <table class="fields">, as the HTML parser
// (WHATWG HTML section 13.2) reads them, so that entity spellings (&#39;,
// &#x27;) do not matter. cgigate's result page has the same table, with a
// third cell (the field's source) that is ignored.
func HTMLFields(page []byte) ([]Field, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	var table *html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.DataAtom == atom.Table && slices.Contains(strings.Fields(attr(n, "class")), "fields") {
			table = n
			break
		}
	}
	if table == nil {
		return nil, fmt.Errorf("bench: no <table class=\"fields\"> in %.200q", page)
	}
	var out []Field
	for tr := range table.Descendants() {
		if tr.Type != html.ElementNode || tr.DataAtom != atom.Tr {
			continue
		}
		var cells []string
		for td := tr.FirstChild; td != nil; td = td.NextSibling {
			if td.Type == html.ElementNode && td.DataAtom == atom.Td {
				cells = append(cells, text(td))
			}
		}
		if len(cells) >= 2 {
			out = append(out, Field{cells[0], cells[1]})
		}
	}
	return out, nil
}

// JSONFields returns the "fields" array of a peer's JSON answer
// ({"fields":[{"name":...,"value":...}]}, the shape of cgigate's).
func JSONFields(body []byte) ([]Field, error) {
	var v struct {
		Fields []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"fields"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("bench: JSON answer %.200q: %w", body, err)
	}
	out := []Field{}
	for _, f := range v.Fields {
		out = append(out, Field{f.Name, f.Value})
	}
	return out, nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}
