package decoder

// Result is a decoded request.
type Result struct {
	Kind          Kind
	Keywords      []string // ISINDEX words; empty unless Kind is ISINDEX
	Fields        []Field  // in order, duplicates kept
	Charset       string   // WHATWG name, lower case, of the encoding used
	CharsetSource Source
	Confidence    float64 // of a sniffed charset; 1 when a source named it
	Warnings      []string
}

// Field is one decoded name=value pair.
type Field struct {
	Name, Value string
	Origin      string // "query", "body": as the caller named the input
}

// Values returns every value of the named field, in order.
func (r *Result) Values(name string) []string {
	var vs []string
	for _, f := range r.Fields {
		if f.Name == name {
			vs = append(vs, f.Value)
		}
	}
	return vs
}
