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
// cells of each row of its <table class="fields">, or each <dt> and its
// <dd> in cgigate's <dl class="received">, as the HTML parser (WHATWG HTML
// section 13.2) reads them, so that entity spellings (&#39;, &#x27;) do not
// matter.
func HTMLFields(page []byte) ([]Field, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil, err
	}
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || !slices.Contains(strings.Fields(attr(n, "class")), classOf[n.DataAtom]) {
			continue
		}
		if n.DataAtom == atom.Dl {
			return dlFields(n), nil
		}
		return tableFields(n), nil
	}
	return nil, fmt.Errorf("bench: no <table class=\"fields\"> or <dl class=\"received\"> in %.200q", page)
}

// classOf is the class that marks the fields in each shape of page: the
// peers' table, and cgigate's list of what the visitor sent.
var classOf = map[atom.Atom]string{atom.Table: "fields", atom.Dl: "received"}

// tableFields reads a table's rows, the first two cells of each.
func tableFields(table *html.Node) []Field {
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
	return out
}

// dlFields reads a description list's name-value groups, each <dt>
// followed by its <dd>.
func dlFields(dl *html.Node) []Field {
	var out []Field
	var name *string
	for c := dl.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type != html.ElementNode:
		case c.DataAtom == atom.Dt:
			t := text(c)
			name = &t
		case c.DataAtom == atom.Dd && name != nil:
			out = append(out, Field{*name, text(c)})
			name = nil
		}
	}
	return out
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
