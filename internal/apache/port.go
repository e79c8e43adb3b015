package apache

import "net"

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
// Another process may take it before Apache binds it, which is why Start
// retries on "Address already in use" when it chose the port itself.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
