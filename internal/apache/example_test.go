package apache_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/cgigate/cgigate/httpdconf"
	"github.com/cgigate/cgigate/internal/apache"
)

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// Start needs an installed Apache, so this example is compiled, not run.
func ExampleStart() {
	bin, err := apache.FindBinary(os.Getenv, exec.LookPath, fileExists)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := apache.Start(bin, apache.Options{
		Config: httpdconf.Config{MPM: httpdconf.MPMPrefork, Env: map[string]string{"CGIGATE_CHARSET": "Shift_JIS"}},
		CGI:    map[string]string{"cgigate": "/usr/local/bin/cgigate"},
	})
	if err != nil {
		fmt.Println(err) // a *StartError shows what Apache said
		return
	}
	defer s.Stop()
	fmt.Println("open", s.URL+s.CGIPath("cgigate"))
}

// StartProcess runs a configuration laid out by hand; compiled, not run.
func ExampleStartProcess() {
	s, err := apache.StartProcess("/usr/sbin/apache2", apache.Process{
		Args:     []string{"-d", "/tmp/etc-apache2", "-f", "/tmp/etc-apache2/apache2.conf"},
		Env:      []string{"APACHE_RUN_DIR=/tmp/run", "APACHE_LOG_DIR=/tmp/run"},
		Port:     8080,
		ErrorLog: "/tmp/run/error.log",
		Dir:      "/tmp/run",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Stop()
	fmt.Println(s.URL)
}

func ExampleFindBinary() {
	env := map[string]string{"APACHE_BIN": "/usr/local/apache2/bin/httpd"}
	bin, err := apache.FindBinary(
		func(k string) string { return env[k] },
		func(string) (string, error) { return "", fmt.Errorf("no PATH here") },
		func(p string) bool { return strings.HasPrefix(p, "/usr/local/apache2/") })
	fmt.Println(bin, err)
	// Output: /usr/local/apache2/bin/httpd <nil>
}

func ExampleModuleDir() {
	none := func(string) bool { return false }
	fmt.Println(apache.ModuleDir("/usr/local/apache2/bin/httpd", none))
	// Output: /usr/local/apache2/modules
}

func ExampleAccount() {
	fmt.Println(apache.Account(0, 0))
	fmt.Println(apache.Account(1000, 1000))
	// Output:
	// www-data www-data
	// #1000 #1000
}

func ExampleTempDir() {
	dir, err := apache.TempDir("example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	fi, _ := os.Stat(dir)
	fmt.Println(fi.Mode().Perm())
	// Output: -rwxr-xr-x
}

func ExampleMkdir() {
	dir, _ := apache.TempDir("example-")
	defer os.RemoveAll(dir)
	records := dir + "/records"
	fmt.Println(apache.Mkdir(records, 0o777)) // www-data children append here
	fi, _ := os.Stat(records)
	fmt.Println(fi.Mode().Perm())
	// Output:
	// <nil>
	// -rwxrwxrwx
}

func ExampleCopyExecutable() {
	dir, _ := apache.TempDir("example-")
	defer os.RemoveAll(dir)
	fmt.Println(apache.CopyExecutable("testdata/hello.cgi", dir+"/hello"))
	fi, _ := os.Stat(dir + "/hello")
	fmt.Println(fi.Mode().Perm())
	// Output:
	// <nil>
	// -rwxr-xr-x
}

func ExampleFreePort() {
	port, err := apache.FreePort()
	fmt.Println(port > 0, err)
	// Output: true <nil>
}

func ExampleStartChild() {
	c, err := apache.StartChild("sleep", exec.Command("sleep", "60"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Name(), c.Stop())
	// Output: sleep <nil>
}
