package natsutil

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
)

// ErrInvalidOption is wrapped by the errors of connection options given
// inconsistent values.
var ErrInvalidOption = errors.New("invalid nats option")

// connConfig collects the connection options.
type connConfig struct {
	name             string
	creds            string
	token            string
	tlsCA            string
	tlsCert, tlsKey  string
	retryConnect     bool
	connectTimeout   time.Duration
	maxRetryInterval time.Duration
	onEvent          func(string)
}

// ConnOption configures [Connect].
type ConnOption func(*connConfig) error

// WithName sets the connection name shown in server monitoring.
func WithName(name string) ConnOption {
	return func(c *connConfig) error { c.name = name; return nil }
}

// WithCreds authenticates with a credentials file (user JWT and nkey seed).
func WithCreds(file string) ConnOption {
	return func(c *connConfig) error { c.creds = file; return nil }
}

// WithToken authenticates with a token.
func WithToken(token string) ConnOption {
	return func(c *connConfig) error { c.token = token; return nil }
}

// WithTLS sets TLS files: ca (PEM roots to verify the server; empty: the
// system roots) and cert/key (a client certificate; both or neither).
func WithTLS(ca, cert, key string) ConnOption {
	return func(c *connConfig) error {
		if (cert == "") != (key == "") {
			return fmt.Errorf("%w: tls cert and key must be given together (cert %q, key %q)", ErrInvalidOption, cert, key)
		}
		c.tlsCA, c.tlsCert, c.tlsKey = ca, cert, key
		return nil
	}
}

// WithRetryConnect makes [Connect] retry while no server is reachable (it
// still fails at once on authentication or TLS errors), until its context
// is done. Off by default.
func WithRetryConnect(retry bool) ConnOption {
	return func(c *connConfig) error { c.retryConnect = retry; return nil }
}

// WithConnectTimeout bounds how long [WithRetryConnect] retries: after d
// without reaching a server, [Connect] fails with an error wrapping
// [ErrConnectTimeout]. 0 (the default) retries until the context is done.
func WithConnectTimeout(d time.Duration) ConnOption {
	return func(c *connConfig) error {
		if d < 0 {
			return fmt.Errorf("%w: connect timeout %v < 0", ErrInvalidOption, d)
		}
		c.connectTimeout = d
		return nil
	}
}

// ErrConnectTimeout is wrapped by [Connect]'s error when no server was
// reached within the [WithConnectTimeout] time.
var ErrConnectTimeout = errors.New("connect timeout")

// redactErr returns err with the credentials of the URLs in urls, should
// its text contain them, redacted; the result still wraps err.
func redactErr(err error, urls string) error {
	msg := err.Error()
	for _, u := range strings.Split(urls, ",") {
		if r := redactOne(u); r != u {
			msg = strings.ReplaceAll(msg, u, r)
		}
	}
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}

// redactedError is an error whose text had credentials removed.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// WithEventHandler receives one line of text for each disconnect,
// reconnect and asynchronous error of the connection (default: dropped).
func WithEventHandler(f func(string)) ConnOption {
	return func(c *connConfig) error { c.onEvent = f; return nil }
}

// Connect dials the NATS server(s) at url (comma-separated URLs allowed).
// The connection reconnects forever once established. Options:
// [WithName], [WithCreds], [WithToken], [WithTLS], [WithRetryConnect],
// [WithEventHandler].
func Connect(ctx context.Context, url string, opts ...ConnOption) (*nats.Conn, error) {
	cfg := connConfig{name: "schedfarm", maxRetryInterval: 5 * time.Second}
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.creds != "" && cfg.token != "" {
		return nil, fmt.Errorf("%w: give a creds file or a token, not both", ErrInvalidOption)
	}
	event := cfg.onEvent
	if event == nil {
		event = func(string) {}
	}
	nopts := []nats.Option{
		nats.Name(cfg.name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				event(fmt.Sprintf("nats disconnected: %v", err))
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			event("nats reconnected to " + nc.ConnectedUrlRedacted())
		}),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			event(fmt.Sprintf("nats error: %v", err))
		}),
	}
	if cfg.creds != "" {
		nopts = append(nopts, nats.UserCredentials(cfg.creds))
	}
	if cfg.token != "" {
		nopts = append(nopts, nats.Token(cfg.token))
	}
	if cfg.tlsCA != "" {
		nopts = append(nopts, nats.RootCAs(cfg.tlsCA))
	}
	if cfg.tlsCert != "" {
		nopts = append(nopts, nats.ClientCert(cfg.tlsCert, cfg.tlsKey))
	}
	wait := 100 * time.Millisecond
	shown := Redacted(url)
	began, attempts := time.Now(), 0
	for {
		nc, err := nats.Connect(url, nopts...)
		if err == nil {
			return nc, nil
		}
		if !cfg.retryConnect || !errors.Is(err, nats.ErrNoServers) {
			return nil, fmt.Errorf("connect to nats %s: %w", shown, redactErr(err, url))
		}
		attempts++
		waited := time.Since(began).Round(time.Second)
		if cfg.connectTimeout > 0 && waited+wait > cfg.connectTimeout {
			return nil, fmt.Errorf("connect to nats %s: %w: not reachable after %d attempts in %v (--connect-timeout %v): %w",
				shown, ErrConnectTimeout, attempts, waited, cfg.connectTimeout, redactErr(err, url))
		}
		event(fmt.Sprintf("nats %s not reachable (attempt %d, %v so far), retrying in %v", shown, attempts, waited, wait))
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connect to nats %s: %w (last error: %v)", shown, ctx.Err(), redactErr(err, url))
		case <-time.After(wait):
		}
		wait = min(2*wait, cfg.maxRetryInterval)
	}
}
