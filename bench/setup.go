package bench

import (
	"fmt"
	"strings"

	"github.com/cgigate/cgigate/httpdconf"
)

// Setup is one way to run CGI programs under Apache: an MPM, and the module
// that forks them when it is not the MPM's own (mod_cgid under prefork).
type Setup struct {
	MPM httpdconf.MPM
	// CGIModule is empty for the MPM's own module.
	CGIModule httpdconf.CGIModule
}

// ParseSetup reads the form String writes: an MPM name, then "+" and a CGI
// module's name when it is not the MPM's own ("prefork+cgid").
func ParseSetup(s string) (Setup, error) {
	mpm, module, _ := strings.Cut(s, "+")
	setup := Setup{MPM: httpdconf.MPM(mpm), CGIModule: httpdconf.CGIModule(module)}
	if err := (httpdconf.Config{MPM: setup.MPM, CGIModule: setup.CGIModule}).Validate(); err != nil {
		return Setup{}, fmt.Errorf("bench: setup %q: %w", s, err)
	}
	return setup, nil
}

// String names the setup in the tables: "event", "prefork", "prefork+cgid".
func (s Setup) String() string {
	own := httpdconf.Config{MPM: s.MPM}.WithDefaults().CGIModule
	if s.CGIModule == "" || s.CGIModule == own {
		return string(s.MPM)
	}
	return string(s.MPM) + "+" + string(s.CGIModule)
}
