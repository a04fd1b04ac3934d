// Package natsutil holds what the coordinator and the workers share about
// NATS: the embedded server of `schedfarm run`, connection options for an
// external server, and the wire protocol (stream, bucket, subject and header
// names, and the stream configurations both sides create).
//
// Nothing here knows about sweeps or the simulator; a message body is opaque
// bytes to this package.
package natsutil

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// DefaultEmbeddedMaxPayload is the max message size of the embedded server
// (8 MiB; the nats-server default is 1 MiB). Results larger than a
// connection's max payload go through the results object store instead.
const DefaultEmbeddedMaxPayload = 8 << 20

// ErrServerNotReady is returned when the embedded server does not accept
// connections within its start timeout.
var ErrServerNotReady = errors.New("embedded nats server not ready")

// ServerOption configures [StartServer].
type ServerOption func(*server.Options) error

// WithListen makes the embedded server also listen on host:port (port -1:
// a random free port), so processes outside this one can connect. By
// default it listens on no port and is reachable only through
// [ConnectInProcess].
func WithListen(host string, port int) ServerOption {
	return func(o *server.Options) error {
		if port < -1 || port > 65535 {
			return fmt.Errorf("listen port %d out of range", port)
		}
		o.DontListen = false
		o.Host = host
		o.Port = port
		return nil
	}
}

// WithMaxPayload sets the server's max message size in bytes (default
// [DefaultEmbeddedMaxPayload]).
func WithMaxPayload(n int32) ServerOption {
	return func(o *server.Options) error {
		if n <= 0 {
			return fmt.Errorf("max payload %d: must be positive", n)
		}
		o.MaxPayload = n
		return nil
	}
}

// StartServer starts an in-process nats-server with JetStream, storing its
// streams under storeDir (created if missing), and waits until it accepts
// connections or ctx is done. By default it opens no port (see
// [WithListen]); connect with [ConnectInProcess]. The caller shuts it down
// with Shutdown and WaitForShutdown.
func StartServer(ctx context.Context, storeDir string, opts ...ServerOption) (*server.Server, error) {
	if err := os.MkdirAll(storeDir, 0o755); err != nil {
		return nil, fmt.Errorf("create nats store dir: %w", err)
	}
	o := &server.Options{
		ServerName: "schedfarm-embedded",
		JetStream:  true,
		StoreDir:   storeDir,
		DontListen: true,
		NoSigs:     true,
		NoLog:      true,
		MaxPayload: DefaultEmbeddedMaxPayload,
		// JetStream's default sync interval is kept: a kill -9 of this
		// process loses nothing (writes are in the page cache), only a
		// machine crash can lose the last seconds.
	}
	for _, opt := range opts {
		if err := opt(o); err != nil {
			return nil, fmt.Errorf("embedded nats server: %w", err)
		}
	}
	ns, err := server.NewServer(o)
	if err != nil {
		return nil, fmt.Errorf("create embedded nats server: %w", err)
	}
	go ns.Start()
	deadline := time.Now().Add(30 * time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	for !ns.ReadyForConnections(100 * time.Millisecond) {
		if ctx.Err() != nil || time.Now().After(deadline) {
			ns.Shutdown()
			ns.WaitForShutdown()
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("start embedded nats server: %w", err)
			}
			return nil, ErrServerNotReady
		}
	}
	return ns, nil
}

// ConnectInProcess connects to an embedded server without a socket. name
// is the connection name shown in server monitoring.
func ConnectInProcess(ns *server.Server, name string) (*nats.Conn, error) {
	nc, err := nats.Connect("", nats.InProcessServer(ns), nats.Name(name),
		nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("connect to embedded nats server: %w", err)
	}
	return nc, nil
}
