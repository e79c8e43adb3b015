module github.com/cgigate/cgigate

go 1.26.0

require (
	github.com/gorilla/schema v1.4.1 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)
