package main

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"
)

// checkTarget refuses a URL whose host is not a loopback address
// (127.0.0.0/8, ::1) or "localhost": cgiload only loads this machine.
func checkTarget(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("-url %q: %w", raw, err)
	}
	if u.Scheme != "http" {
		return fmt.Errorf("-url %q: want an http:// URL", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-url %q: %q is not a loopback address; cgiload loads only this machine", raw, host)
	}
	return nil
}

// loopbackOnly is a dialer Control that refuses any connection to an
// address that is not loopback, whatever a name resolved to.
func loopbackOnly(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("cgiload: refusing to connect to %s: not a loopback address", address)
	}
	return nil
}

// client is the HTTP client of a run: loopback only, no proxy from the
// environment, a bound on each exchange, c connections kept.
func client(c int) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second, Control: loopbackOnly}
	return &http.Client{
		Timeout: 90 * time.Second,
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         d.DialContext,
			MaxIdleConnsPerHost: c,
			DisableCompression:  true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
