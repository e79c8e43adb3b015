package idn

import "strings"

// EncodeLegacyHost applies [EncodeLegacy] to each dot-separated label of
// host, and of the user part too when host is an e-mail-like "user@host"
// (the last "@" splits them). The "@" and the dots stay ASCII, as in the
// mail address example of draft-jseng-utf5-01 §4.b:
// "αβ@日本語.jp" is "J---B1JB2@M---5E5M72COA9E.jp".
func EncodeLegacyHost(host string) string {
	s, _ := mapLegacyHost(host, func(l string) (string, error) { return EncodeLegacy(l), nil })
	return s
}

// DecodeLegacyHost applies [DecodeLegacy] to each label of host, and of the
// user part of "user@host". On error it returns host unchanged and an *Error
// whose Err is the first label's *LegacyError.
func DecodeLegacyHost(host string) (string, error) {
	s, err := decodeLegacyHost(host)
	if err != nil {
		return host, &Error{Op: "DecodeLegacyHost", Host: host, Err: err}
	}
	return s, nil
}

func decodeLegacyHost(host string) (string, error) {
	return mapLegacyHost(host, DecodeLegacy)
}

// mapLegacyHost applies f to every label of host and of its user part.
func mapLegacyHost(host string, f func(string) (string, error)) (string, error) {
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		user, err := mapLabels(host[:at], f)
		if err != nil {
			return "", err
		}
		dom, err := mapLabels(host[at+1:], f)
		if err != nil {
			return "", err
		}
		return user + "@" + dom, nil
	}
	return mapLabels(host, f)
}

func mapLabels(s string, f func(string) (string, error)) (string, error) {
	labels := strings.Split(s, ".")
	for i, l := range labels {
		m, err := f(l)
		if err != nil {
			return "", err
		}
		labels[i] = m
	}
	return strings.Join(labels, "."), nil
}
