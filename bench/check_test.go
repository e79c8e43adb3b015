package bench

import "testing"

func TestCheckBodyHoldsPeersToTheFieldsAndReferencesToTheirText(t *testing.T) {
	// The pages are written out by hand, not taken from a peer.
	const (
		goodHTML = `<table class="fields"><tr><td>q</td><td>café &lt;b&gt; &amp; 印刷</td></tr><tr><td>lang</td><td>fr</td></tr></table>`
		goodJSON = `{"fields":[{"name":"q","value":"café \u003cb\u003e \u0026 印刷"},{"name":"lang","value":"fr"}]}`
		badJSON  = `{"fields":[{"name":"q","value":"café <b> &amp; 印刷"},{"name":"lang","value":"fr"}]}`
	)
	tests := []struct {
		name   string
		target string
		accept string
		body   string
		ok     bool
	}{
		{"a peer's page with the decoded fields passes", Gateway, "text/html", goodHTML, true},
		{"a peer's JSON with the decoded fields passes", GoCGI, "application/json", goodJSON, true},
		{"a peer that escaped a value twice fails", Gateway, "application/json", badJSON, false},
		{"a peer that answers the references' text fails", Floor, "text/html", ReferenceBody, false},
		{"a reference's fixed text passes", GoHello, "text/html", ReferenceBody, true},
		{"a reference's fixed text passes whatever the Accept", GoDeps, "application/json", ReferenceBody, true},
		{"a reference that answers a page fails", GoDeps, "text/html", goodHTML, false},
		{"a reference that answers nothing fails", GoHello, "text/html", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkBody(tt.target, tt.accept, []byte(tt.body))
			if (err == nil) != tt.ok {
				t.Errorf("checkBody(%s, %s) = %v, want ok=%v", tt.target, tt.accept, err, tt.ok)
			}
		})
	}
}
