package bench

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"
)

// Check asks every peer of s for Query, as HTML and as JSON, and returns
// an error for each answer that is not a 200 whose fields are Want: the
// benchmark compares programs doing the same job, so it checks they do.
func Check(s *Server) []error {
	var errs []error
	client := &http.Client{Timeout: 30 * time.Second}
	for _, peer := range s.Peers() {
		for _, accept := range []string{"text/html", "application/json"} {
			got, err := fetchFields(client, s.URL(peer), accept)
			if err == nil && !slices.Equal(got, Want) {
				err = fmt.Errorf("fields %q, want %q", got, Want)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("bench: %s %s (Accept: %s): %w", s.Setup, peer, accept, err))
			}
		}
	}
	return errs
}

func fetchFields(client *http.Client, url, accept string) ([]Field, error) {
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
	if accept == "application/json" {
		return JSONFields(body)
	}
	return HTMLFields(body)
}
