#!/usr/bin/perl
# cgipm.pl: the Perl CGI.pm peer of the cgigate benchmarks (Debian package
# libcgi-pm-perl). Same job as floor.c: decode the form fields "q" and "lang"
# of a GET and print them escaped, as HTML, or as JSON (core JSON::PP) when
# HTTP_ACCEPT names application/json.
use strict;
use warnings;
use CGI;

my $cgi = CGI->new;
# Without a UTF-8 charset, escapeHTML also escapes the octets 0x8B and 0x9B
# (a Latin-1 quirk), which would corrupt UTF-8 values.
$cgi->charset('utf-8');
my @fields;
for my $name (qw(q lang)) {
    my $v = $cgi->param($name);
    push @fields, [ $name, $v ] if defined $v;
}
if (($ENV{HTTP_ACCEPT} || '') =~ m{application/json}) {
    require JSON::PP;
    print $cgi->header(-type => 'application/json');
    # Values are octets; without ->utf8 JSON::PP leaves them as they are.
    print JSON::PP->new->canonical->encode(
        { kind => 'form', fields => [ map { { name => $_->[0], value => $_->[1] } } @fields ] }), "\n";
    exit 0;
}
print $cgi->header(-type => 'text/html');
print qq{<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>form</title></head>\n},
    qq{<body>\n<h1>form</h1>\n<table class="fields"><tr><th>name</th><th>value</th></tr>\n};
for my $f (@fields) {
    print '<tr><td>', $f->[0], '</td><td>', $cgi->escapeHTML($f->[1]), "</td></tr>\n";
}
print "</table>\n</body></html>\n";
