// Package apachetest runs a real Apache httpd for tests: a throwaway
// ServerRoot under os.TempDir, a config rendered by httpdconf, the CGI
// programs a test names copied into its cgi-bin, and the server stopped by
// its pid when the test ends.
//
// Tests that use it skip when no Apache binary is installed, except under
// CI=true, where a missing Apache is a failure: CI must install it
// (.ci/run does).
package apachetest
