package pages

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/cgigate/cgigate/internal/forms"
)

// PromptData is prompt.html's data.
type PromptData struct {
	Page
	Script template.JS // the script that sends the words as an ISINDEX query
}

// ResultData is the data of results.html and submitted.html: Result has
// the fields of the JSON rendering, by their Go names (.Result.Kind,
// .Result.Fields with .Name .Value .Source, .Result.Files, .Result.Results
// with .Title .URL .Snippet .Score .Highlights, .Result.Total .Page .Pages,
// .Result.Warnings, .Result.Charset, .Result.CharsetSource,
// .Result.Keywords).
type ResultData struct {
	Page
	Result any
}

// FormData is form.html's data: a declared form, empty, or again with the
// submission's values and problems (Status 422).
type FormData struct {
	Page
	Form      *forms.Form // the declaration
	Name      string      // the form's name
	Action    string      // the form's address, where it is sent
	Method    string      // "post" or "get"
	Charset   string      // the form's charset: the page is in it, and so is what it sends
	Lang      string      // the form's language (its lang key): "en" or "ja"
	Words     Words       // the built-in page's own words, in Lang
	Multipart bool        // a field is a file
	Fields    []FieldView
	Problems  []ProblemView
	Honeypot  string // the honeypot field's name, "" for none
	Status    int    // 200, or 422 with Problems
}

// FieldView is one field of a form, ready for its input.
type FieldView struct {
	Name, Label string
	Kind        string // the declared kind
	Type        string // the input's type attribute
	Required    bool
	Multiline   bool
	Value       string // the value sent, kept after a problem
	Checked     bool   // a single checkbox that was ticked
	Choices     []ChoiceView
	MaxLength   int    // characters, for text and email
	Min, Max    string // a number's bounds, "" when not declared
	Accept      string // a file's types, for the accept attribute
	Problem     string // what is wrong, "" when nothing is
}

// ChoiceView is one choice of a choice or checkbox field.
type ChoiceView struct {
	Name, Value string
	Selected    bool
}

// ProblemView is a problem with the field's label, for the summary.
type ProblemView struct {
	Name, Label, Problem string
}

// NewFormData prepares form.html's data: the declaration, with the values
// sent and the problems found when there are any.
func NewFormData(site string, f *forms.Form, action string, values []forms.Value, problems []forms.Problem) FormData {
	d := FormData{
		Page: Page{Site: site, Title: f.Title}, Form: f, Name: f.Name, Action: action,
		Method: "post", Charset: f.Charset, Lang: f.Lang, Words: WordsFor(f.Lang), Multipart: f.HasFiles(), Honeypot: f.Honeypot, Status: 200,
	}
	if !f.Accepts("POST") {
		d.Method = "get"
	}
	sent := map[string][]string{}
	for _, v := range values {
		sent[v.Name] = append(sent[v.Name], v.Value)
	}
	problem := map[string]string{}
	for _, p := range problems {
		problem[p.Name] = p.Problem
		label := p.Name
		if fd := f.Field(p.Name); fd != nil {
			label = fd.Label
		}
		d.Problems = append(d.Problems, ProblemView{p.Name, label, p.Problem})
	}
	if len(problems) > 0 {
		d.Status = 422
	}
	for _, fd := range f.Fields {
		v := FieldView{Name: fd.Name, Label: fd.Label, Kind: string(fd.Kind), Type: inputType(fd.Kind), Required: fd.Required,
			Multiline: fd.Multiline, Problem: problem[fd.Name], Accept: strings.Join(fd.Types, ",")}
		if vs := sent[fd.Name]; len(vs) > 0 && fd.Kind != forms.File {
			v.Value = vs[0]
			v.Checked = fd.Kind == forms.Checkbox
		}
		for _, c := range fd.Choices {
			sel := false
			for _, s := range sent[fd.Name] {
				sel = sel || s == c
			}
			v.Choices = append(v.Choices, ChoiceView{fd.Name, c, sel})
		}
		switch {
		case fd.Kind == forms.Number:
			if fd.Min != nil {
				v.Min = strconv.FormatFloat(*fd.Min, 'f', -1, 64)
			}
			if fd.Max != nil {
				v.Max = strconv.FormatFloat(*fd.Max, 'f', -1, 64)
			}
		case fd.Max != nil && (fd.Kind == forms.Text || fd.Kind == forms.Email):
			v.MaxLength = int(*fd.Max)
		}
		d.Fields = append(d.Fields, v)
	}
	return d
}

func inputType(k forms.Kind) string {
	switch k {
	case forms.Email, forms.Number, forms.Date, forms.File, forms.Checkbox:
		return string(k)
	}
	return "text"
}

// ThanksData is thanks.html's data: a declared form's submission that
// passed, shown back to the visitor when the form declares no redirect
// (and the short page beside a 303 when it does).
type ThanksData struct {
	Page
	Form     *forms.Form
	Redirect string // the declared redirect, "" for none
	Lang     string // the form's language (its lang key)
	Words    Words  // the built-in page's own words, in Lang
	Received []Item // the declared fields that were filled, in declared order
	Result   any    // the JSON rendering's fields, as ResultData's
}

// Item is one thing received: a field's label and value, or a file's
// label and its name and size.
type Item struct{ Label, Value string }

// Received lists what a visitor filled in, by the declaration's labels:
// never _charset_ or the honeypot.
func Received(f *forms.Form, values []forms.Value, files []forms.Upload) []Item {
	var out []Item
	for _, fd := range f.Fields {
		var got []string
		for _, v := range values {
			if v.Name == fd.Name && strings.TrimSpace(v.Value) != "" && fd.Kind != forms.File {
				got = append(got, v.Value)
			}
		}
		for _, u := range files {
			if u.Name == fd.Name && (u.Filename != "" || u.Size > 0) {
				got = append(got, fmt.Sprintf("%s (%s)", u.Filename, size(u.Size)))
			}
		}
		if len(got) > 0 {
			out = append(out, Item{fd.Label, strings.Join(got, ", ")})
		}
	}
	return out
}

func size(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// ErrorData is error.html's data.
type ErrorData struct {
	Page
	Status     int
	StatusText string
	Message    string // what happened, for a visitor
	Advice     string // what to do about it
	Detail     string // the technical message (also in the error log and the JSON)
}

// NewErrorData says in plain words what a status means to a visitor.
func NewErrorData(site string, status int, statusText, detail string) ErrorData {
	title, msg, advice := visitorWords(status)
	return ErrorData{Page: Page{Site: site, Title: title}, Status: status, StatusText: statusText, Message: msg, Advice: advice, Detail: detail}
}

func visitorWords(status int) (title, msg, advice string) {
	const notSaved = " Nothing you sent was saved."
	switch status {
	case 400:
		return "Your request could not be read", "What your browser sent could not be read." + notSaved, "Go back, check what you entered, and send it again."
	case 403:
		return "Sent from another site", "This form only accepts what is sent from its own pages." + notSaved, "Open the form on this site and send it from there."
	case 404:
		return "Page not found", "There is nothing at this address.", "Check the address, or start again from the home page."
	case 405:
		return "Not available this way", "This address cannot be used like that." + notSaved, "Open the page with a link or your browser's address bar."
	case 408:
		return "Sending took too long", "Your browser took too long to send the form, so it was stopped." + notSaved, "Check your connection and send it again."
	case 413:
		return "Too much to send", "What you sent is larger than this site accepts: too much text, too many fields or too large a file." + notSaved, "Send less, or a smaller file."
	case 415:
		return "The form could not be read", "The form was sent in a way this site does not read." + notSaved, "If you copied the form onto your own page, check its enctype."
	case 503:
		return "Your submission was not saved", "We could not save what you sent, and nothing of it was kept.", "Please send it again in a few minutes."
	}
	if status >= 500 {
		return "Something went wrong", "Something went wrong on our side." + notSaved, "Please try again later."
	}
	return "Your request was refused", "This request could not be answered." + notSaved, "Go back and try again."
}
