package main

import (
	"strconv"
	"testing"

	"github.com/cgigate/cgigate/search"
)

func TestDefaultPageSizeIsTheSearchPackages(t *testing.T) {
	if want := strconv.Itoa(search.DefaultPageSize); defaultPageSize != want {
		t.Errorf("-help shows CGIGATE_PAGE_SIZE's default as %s; the search uses %s", defaultPageSize, want)
	}
}
