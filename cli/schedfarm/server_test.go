package schedfarm

import (
	"strings"
	"testing"
)

// TestServer_BadFlags: each bad combination of the server's flags fails
// before anything listens, naming the flag.
func TestServer_BadFlags(t *testing.T) {
	t.Setenv("SCHEDFARM_NATS_TOKEN", "")
	store := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "0.0.0.0:4222"}, "no credentials are set"},
		{[]string{"--listen", "node7:4222"}, "no credentials are set"},
		{[]string{"--listen", "4222"}, "want HOST:PORT"},
		{[]string{"--listen", ":4222"}, "give the host"},
		{[]string{"--listen", "127.0.0.1:70000"}, "from 0 to 65535"},
		{[]string{"--tls-cert", "c.pem"}, "go together"},
		{[]string{"--tls-ca", "ca.pem"}, "give --tls-cert and --tls-key too"},
		{[]string{"--max-payload", "10"}, "--max-payload 10"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"--listen", "0.0.0.0:0", "--insecure", "--tls-cert", "missing.pem", "--tls-key", "missing.pem"}, "tls"},
	} {
		_, err := runApp(t, append([]string{"server", "--store", store}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("server %q: error %v, want one saying %q", tc.args, err, tc.want)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "127.1.2.3": true, "::1": true, "localhost": true, "LOCALHOST": true,
		"0.0.0.0": false, "::": false, "10.0.0.1": false, "node7": false, "": false,
	} {
		if got := isLoopback(host); got != want {
			t.Errorf("isLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}
