package pages

// Words are what the built-in form and thank-you pages say around a
// declared form, in the form's language (its lang key).
type Words struct {
	Required    string // beside a required field's label
	CheckOne    string // heads the summary of one problem
	CheckMany   string // heads the summary of several; %d is how many
	Choose      string // a choice's empty option
	Send        string // the submit button
	Received    string // the thank-you page's message
	Continue    string // the link to the declared redirect
	WhatYouSent string // heads what was received
	LeaveEmpty  string // the honeypot's label, for a screen reader that finds it anyway
}

// WordsFor returns the words of lang, English for any lang but "ja".
func WordsFor(lang string) Words {
	if lang == "ja" {
		return Words{
			Required: "（必須）", CheckOne: "次の項目をご確認ください。", CheckMany: "次の %d 項目をご確認ください。",
			Choose: "選択してください", Send: "送信", Received: "送信を受け付けました。ありがとうございました。",
			Continue: "次へ", WhatYouSent: "送信内容", LeaveEmpty: "この欄は空のままにしてください",
		}
	}
	return Words{
		Required: "(required)", CheckOne: "Please check this field:", CheckMany: "Please check these %d fields:",
		Choose: "Choose…", Send: "Send", Received: "Thank you: your submission was received.",
		Continue: "Continue", WhatYouSent: "What you sent", LeaveEmpty: "Leave this empty",
	}
}
