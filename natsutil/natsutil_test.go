package natsutil_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/schedfarm/schedfarm/natsutil"
)

func TestStartServer(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		ns, err := natsutil.StartServer(context.Background(), filepath.Join(t.TempDir(), "nats"))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
		if ns.ClientURL() != "" && ns.Addr() != nil {
			t.Errorf("embedded server listens on %v, want no port", ns.Addr())
		}
		nc, err := natsutil.ConnectInProcess(ns, "test")
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		if got := nc.MaxPayload(); got != natsutil.DefaultEmbeddedMaxPayload {
			t.Errorf("MaxPayload()=%d, want %d", got, natsutil.DefaultEmbeddedMaxPayload)
		}
		js, err := jetstream.New(nc)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		for range 2 { // Setup is idempotent
			if err := natsutil.Setup(ctx, js); err != nil {
				t.Fatalf("Setup()=%v", err)
			}
		}
		for _, name := range []string{natsutil.TaskStream, natsutil.ResultStream} {
			s, err := js.Stream(ctx, name)
			if err != nil {
				t.Fatalf("stream %s: %v", name, err)
			}
			if cfg := s.CachedInfo().Config; cfg.Retention != jetstream.WorkQueuePolicy || cfg.Duplicates != natsutil.DefaultDuplicateWindow {
				t.Errorf("stream %s retention %v duplicates %v", name, cfg.Retention, cfg.Duplicates)
			}
		}
		for _, b := range []string{natsutil.TraceBucket, natsutil.ResultBucket} {
			if _, err := js.ObjectStore(ctx, b); err != nil {
				t.Errorf("object store %s: %v", b, err)
			}
		}
	})

	t.Run("Listen", func(t *testing.T) {
		ns, err := natsutil.StartServer(context.Background(), t.TempDir(), natsutil.WithListen("127.0.0.1", -1))
		if err != nil {
			t.Fatal(err)
		}
		defer func() { ns.Shutdown(); ns.WaitForShutdown() }()
		nc, err := natsutil.Connect(context.Background(), ns.ClientURL())
		if err != nil {
			t.Fatal(err)
		}
		nc.Close()
	})

	t.Run("ErrBadOption", func(t *testing.T) {
		if _, err := natsutil.StartServer(context.Background(), t.TempDir(), natsutil.WithMaxPayload(0)); err == nil {
			t.Fatal("StartServer(WithMaxPayload(0)) succeeded")
		}
	})
}

func TestConnect(t *testing.T) {
	t.Run("ErrInvalidOption", func(t *testing.T) {
		for name, opts := range map[string][]natsutil.ConnOption{
			"cert without key": {natsutil.WithTLS("", "cert.pem", "")},
			"creds and token":  {natsutil.WithCreds("x.creds"), natsutil.WithToken("t")},
		} {
			if _, err := natsutil.Connect(context.Background(), "nats://127.0.0.1:1", opts...); !errors.Is(err, natsutil.ErrInvalidOption) {
				t.Errorf("%s: Connect()=%v, want ErrInvalidOption", name, err)
			}
		}
	})

	t.Run("RetryUntilContextEnds", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		var events int
		_, err := natsutil.Connect(ctx, "nats://127.0.0.1:1", natsutil.WithRetryConnect(true),
			natsutil.WithEventHandler(func(string) { events++ }))
		if !errors.Is(err, context.DeadlineExceeded) || events == 0 {
			t.Fatalf("Connect()=%v after %d retries, want the context's error after retries", err, events)
		}
	})

	t.Run("NoRetry", func(t *testing.T) {
		start := time.Now()
		if _, err := natsutil.Connect(context.Background(), "nats://127.0.0.1:1"); err == nil || time.Since(start) > 5*time.Second {
			t.Fatalf("Connect()=%v, want a quick error", err)
		}
	})
}

func TestMsgID(t *testing.T) {
	if got, want := natsutil.MsgID("r1", "abc"), "r1.abc"; got != want {
		t.Errorf("MsgID()=%q, want %q", got, want)
	}
	if got, want := natsutil.TaskSubject("r1"), "schedfarm.tasks.r1"; got != want {
		t.Errorf("TaskSubject()=%q, want %q", got, want)
	}
}
