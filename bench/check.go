package bench

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"
)

// Check asks every target of s for Query, as HTML and as JSON, and returns
// an error for each answer that is not a 200 whose fields are Want: the
// benchmark compares programs doing the same job, so it checks they do.
// The references, which do not do the job, must answer 200 with their
// fixed text (ReferenceBody), so that a failing one is not timed.
func Check(s *Server) []error {
	var errs []error
	client := &http.Client{Timeout: 30 * time.Second}
	for _, target := range s.Targets() {
		accepts := []string{"text/html", "application/json"}
		if target == Static {
			accepts = accepts[:1] // a file has one type
		}
		for _, accept := range accepts {
			body, err := fetch(client, s.URL(target), accept)
			if err == nil {
				err = checkBody(target, accept, body)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("bench: %s %s (Accept: %s): %w", s.Setup, target, accept, err))
			}
		}
	}
	return errs
}

// ReferenceBody is what the references answer to every request.
const ReferenceBody = "hello\n"

func checkBody(target, accept string, body []byte) error {
	if slices.Contains(References, target) {
		if string(body) != ReferenceBody {
			return fmt.Errorf("body %.300q, want %q", body, ReferenceBody)
		}
		return nil
	}
	var got []Field
	var err error
	if accept == "application/json" {
		got, err = JSONFields(body)
	} else {
		got, err = HTMLFields(body)
	}
	if err == nil && !slices.Equal(got, Want) {
		err = fmt.Errorf("fields %q, want %q", got, Want)
	}
	return err
}

// fetch returns the body of a 200 answer to a GET of url.
func fetch(client *http.Client, url, accept string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", accept)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d: %.300q", resp.StatusCode, body)
	}
	return body, nil
}
