// Package deploy holds the Docker compose example; its test keeps the
// example consistent with the image and the tests.
package deploy

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestCompose checks that the compose file runs the nats-server version
// the tests use, mounts volumes only under /data, the one directory of
// the image the non-root user owns, and passes the commit (REVISION) to
// every image build.
func TestCompose(t *testing.T) {
	compose, err := os.ReadFile("compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`github.com/nats-io/nats-server/v2 v(\S+)`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod has no nats-server requirement")
	}
	if want := "image: nats:" + string(m[1]) + "-alpine"; !strings.Contains(string(compose), want) {
		t.Errorf("compose.yaml does not say %q (the tests' nats-server)", want)
	}
	for _, v := range regexp.MustCompile(`(?m)^\s+- ([a-z-]+):(/\S*)$`).FindAllStringSubmatch(string(compose), -1) {
		if v[2] != "/data" && !strings.HasPrefix(v[2], "/data/") {
			t.Errorf("volume %s mounted at %s: the non-root user can write only under /data", v[1], v[2])
		}
	}
	builds := strings.Count(string(compose), "build:")
	if args := strings.Count(string(compose), "REVISION: ${REVISION:-}"); builds == 0 || args != builds {
		t.Errorf("compose.yaml has %d image builds but passes REVISION to %d: the version would not name the commit", builds, args)
	}
	dockerfile, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(dockerfile), "ENV SCHEDFARM_CACHE=/data/cache") {
		t.Error("the Dockerfile no longer puts the trace cache under /data")
	}
}
