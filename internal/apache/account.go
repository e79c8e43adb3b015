package apache

import "strconv"

// Account returns the User and Group Apache's children should run as, for
// httpdconf.Config: as root, www-data (Apache refuses to run children as
// root); otherwise the current ids in Apache's "#id" form, since a non-root
// Apache cannot switch users. The ids are passed in (os.Geteuid,
// os.Getegid) so that both cases can be tested.
func Account(euid, egid int) (user, group string) {
	if euid == 0 {
		return "www-data", "www-data"
	}
	return "#" + strconv.Itoa(euid), "#" + strconv.Itoa(egid)
}
