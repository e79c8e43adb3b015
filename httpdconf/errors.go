package httpdconf

import "fmt"

// ConfigError reports a Config field whose value cannot be rendered into a
// working httpd.conf. Field names the Config field; Value is the offending
// input; Err says what is wrong with it.
type ConfigError struct {
	Field string
	Value string
	Err   error
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("httpdconf: invalid %s %q: %v", e.Field, e.Value, e.Err)
}

func (e *ConfigError) Unwrap() error { return e.Err }
