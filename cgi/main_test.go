package cgi_test

import (
	"os"
	"testing"

	"github.com/cgigate/cgigate/cgi"
)

// uploadChildEnv, set in the environment of this test binary, makes it a
// CGI child that reads one form (TestAKilledUploadLeavesNoFile).
const uploadChildEnv = "CGIGATE_TEST_UPLOAD_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(uploadChildEnv) != "" {
		err := cgi.Serve(cgi.HandlerFunc(func(w cgi.ResponseWriter, r *cgi.Request) {
			form, err := cgi.ReadForm(r, cgi.Config{})
			if err != nil {
				cgi.WriteError(w, r, err)
				return
			}
			defer form.Close()
			cgi.Respond(w, cgi.StatusOK, cgi.Text, []byte("stored\n"))
		}), cgi.Limits{})
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
