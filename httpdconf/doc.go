// Package httpdconf renders standalone Apache httpd 2.4 configurations that
// serve cgigate from a cgi-bin folder (mod_cgid under the event MPM; mod_cgi,
// or mod_cgid when Config.CGIModule says so, under prefork) or through
// mod_proxy_fcgi.
//
// A rendered file needs nothing else on disk besides the module files: every
// LoadModule line is guarded by <IfModule !name> so that the same text works
// for Debian's apache2 (several modules compiled in, the rest in
// /usr/lib/apache2/modules) and for the official httpd:2.4 image (every module
// shared, in ServerRoot/modules). The CGI interface itself is RFC 3875;
// Apache's handling of ISINDEX-style queries (argv words, RFC 3875 section
// 4.4) is what the cgigate gateway relies on, and internal/apachetest checks
// it against the real server.
//
// Two static drop-ins live beside this package for deployments that keep
// their distribution's main httpd.conf: debian/cgigate.conf for
// /etc/apache2/conf-available and httpd-image/cgigate.conf for
// /usr/local/apache2/conf/extra in the official image. The image's drop-in
// loads mod_cgid under every MPM unless mod_cgi is already loaded.
package httpdconf
