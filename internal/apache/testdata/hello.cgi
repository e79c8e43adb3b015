#!/bin/sh
# A CGI program for the tests of package apache: it prints the SetEnv
# variable CGIGATE_GREETING and the query, so a test sees that Apache ran
# it with the configuration Start rendered.
printf 'Content-Type: text/plain\r\n\r\n'
printf '%s %s\n' "$CGIGATE_GREETING" "$QUERY_STRING"
