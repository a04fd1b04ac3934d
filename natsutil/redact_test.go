package natsutil

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRedacted(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"nats://127.0.0.1:4222", "nats://127.0.0.1:4222"},
		{"nats://u:SECRET@127.0.0.1:1", "nats://u:xxxxx@127.0.0.1:1"},
		{"nats://TOKEN@head:4222", "nats://xxxxx@head:4222"},
		{"tls://u:p@a:1,nats://b:2,nats://v:q@c:3", "tls://u:xxxxx@a:1,nats://b:2,nats://v:xxxxx@c:3"},
		{"u:p@w@host:1", "u:xxxxx@host:1"},
		{"nats://host:1/path@x", "nats://host:1/path@x"},
		{"", ""},
	} {
		if got := Redacted(tt.in); got != tt.want {
			t.Errorf("Redacted(%q)=%q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestConnect_ConnectTimeout connects to a port where nothing listens,
// with a password in the URL: the retries and the final error name the
// URL without the password, and Connect gives up after the timeout.
func TestConnect_ConnectTimeout(t *testing.T) {
	var events []string
	start := time.Now()
	_, err := Connect(context.Background(), "nats://u:SECRET@127.0.0.1:1",
		WithRetryConnect(true), WithConnectTimeout(time.Second),
		WithEventHandler(func(s string) { events = append(events, s) }))
	if !errors.Is(err, ErrConnectTimeout) {
		t.Fatalf("Connect()=%v, want ErrConnectTimeout", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Connect gave up after %v, want about 1s", d)
	}
	if len(events) == 0 {
		t.Fatal("no retry was reported")
	}
	for _, s := range append(events, err.Error()) {
		if strings.Contains(s, "SECRET") {
			t.Errorf("password printed: %q", s)
		}
		if !strings.Contains(s, "nats://u:xxxxx@127.0.0.1:1") {
			t.Errorf("URL not named (redacted): %q", s)
		}
	}
	if !strings.Contains(events[0], "attempt 1") {
		t.Errorf("retry message %q does not say the attempt", events[0])
	}
	// Without retrying, the error is redacted too.
	if _, err := Connect(context.Background(), "nats://u:SECRET@127.0.0.1:1"); err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("Connect without retry: %v", err)
	}
}
