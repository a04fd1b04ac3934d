package schedfarm

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/urfave/cli/v2"

	"github.com/schedfarm/schedfarm/natsutil"
)

// defaultServerListen is the default of the server's --listen: loopback
// only, the standard NATS port.
const defaultServerListen = "127.0.0.1:4222"

func serverCommand() *cli.Command {
	return &cli.Command{
		Name:      "server",
		Usage:     "run a standalone NATS server with JetStream for coordinators and workers",
		ArgsUsage: " ",
		Description: "Runs the NATS server that `schedfarm run` embeds as a process of its own, so a cluster\n" +
			"needs nothing but the schedfarm binary: start it on one node, then `schedfarm coordinator\n" +
			"--nats URL` and `schedfarm worker --nats URL` anywhere that reaches it. JetStream (tasks,\n" +
			"results, the trace and large-result object stores) is kept under --store, so a restarted\n" +
			"server goes on where it stopped. It listens only where --listen says (port 0: a free\n" +
			"port); the line \"listening on nats://HOST:PORT\" on stdout says where, once it accepts\n" +
			"connections. On an address other than loopback it refuses to start without credentials:\n" +
			"a token (--token, better SCHEDFARM_NATS_TOKEN, which the coordinator and workers read too)\n" +
			"or client certificates verified against --tls-ca; --insecure accepts anyone who reaches the\n" +
			"port. --tls-cert and --tls-key give the server's certificate, so clients connect with\n" +
			"tls:// URLs. It stops on SIGINT or SIGTERM.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Value: defaultServerListen, Usage: "`HOST:PORT` to listen on (0.0.0.0 or a host name: every client that reaches it; port 0: a free port)"},
			&cli.StringFlag{Name: "store", Value: ".schedfarm-server", Usage: "JetStream store `DIR` (node-local disk; created if missing)"},
			&cli.StringFlag{Name: "token", EnvVars: []string{"SCHEDFARM_NATS_TOKEN"}, Usage: "clients must give this auth `TOKEN` (prefer the environment variable)"},
			&cli.StringFlag{Name: "tls-ca", Usage: "PEM `FILE` of CAs that client certificates must chain to (clients then need one)"},
			&cli.StringFlag{Name: "tls-cert", Usage: "server certificate PEM `FILE` (with --tls-key): clients connect with TLS"},
			&cli.StringFlag{Name: "tls-key", Usage: "server key PEM `FILE` (with --tls-cert)"},
			&cli.BoolFlag{Name: "insecure", Usage: "allow a non-loopback --listen without a token or client certificates"},
			&cli.IntFlag{Name: "max-payload", Value: natsutil.DefaultEmbeddedMaxPayload, Usage: "largest message in `BYTES` (larger results go through an object store)"},
		},
		Action: runServer,
	}
}

// serverConfig is the server's validated flags.
type serverConfig struct {
	host       string
	port       int // -1: a free port
	store      string
	token      string
	tlsCA      string
	tlsCert    string
	tlsKey     string
	maxPayload int32
}

// parseServerFlags validates the server's flags, including the rule that
// a non-loopback address needs credentials unless --insecure is given.
func parseServerFlags(c *cli.Context) (serverConfig, error) {
	var cfg serverConfig
	if c.NArg() > 0 {
		return cfg, cliUsageError(c, "unexpected argument %q", c.Args().First())
	}
	host, portText, err := net.SplitHostPort(c.String("listen"))
	if err != nil {
		return cfg, cliUsageError(c, "--listen %q: want HOST:PORT: %v", c.String("listen"), err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return cfg, cliUsageError(c, "--listen %q: port %q must be a number from 0 to 65535", c.String("listen"), portText)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if host == "" {
		return cfg, cliUsageError(c, "--listen %q: give the host to listen on (0.0.0.0 for every interface)", c.String("listen"))
	}
	mp := c.Int("max-payload")
	if mp < 1024 || mp > 64<<20 {
		return cfg, cliUsageError(c, "--max-payload %d: must be from 1024 to %d", mp, 64<<20)
	}
	cfg = serverConfig{host: host, port: port, store: c.String("store"), token: c.String("token"),
		tlsCA: c.String("tls-ca"), tlsCert: c.String("tls-cert"), tlsKey: c.String("tls-key"), maxPayload: int32(mp)}
	if cfg.store == "" {
		return cfg, cliUsageError(c, "--store: give a directory")
	}
	if (cfg.tlsCert == "") != (cfg.tlsKey == "") {
		return cfg, cliUsageError(c, "--tls-cert and --tls-key go together (cert %q, key %q)", cfg.tlsCert, cfg.tlsKey)
	}
	if cfg.tlsCA != "" && cfg.tlsCert == "" {
		return cfg, cliUsageError(c, "--tls-ca verifies client certificates over TLS: give --tls-cert and --tls-key too")
	}
	if !isLoopback(host) && cfg.token == "" && cfg.tlsCA == "" && !c.Bool("insecure") {
		return cfg, cliUsageError(c, "--listen %s is reachable from other machines and no credentials are set: give --token (or SCHEDFARM_NATS_TOKEN) or --tls-ca with --tls-cert and --tls-key, or --insecure to let anyone who reaches the port in", c.String("listen"))
	}
	return cfg, nil
}

// isLoopback reports whether host names only this machine: localhost or
// a loopback IP address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// options returns the natsutil server options of cfg.
func (cfg serverConfig) options() []natsutil.ServerOption {
	opts := []natsutil.ServerOption{
		natsutil.WithListen(cfg.host, cfg.port),
		natsutil.WithMaxPayload(cfg.maxPayload),
		func(o *server.Options) error {
			o.ServerName = "schedfarm-server"
			if cfg.token != "" {
				o.Authorization = cfg.token
			}
			return nil
		},
	}
	if cfg.tlsCert != "" {
		opts = append(opts, func(o *server.Options) error {
			tc, err := server.GenTLSConfig(&server.TLSConfigOpts{
				CertFile: cfg.tlsCert, KeyFile: cfg.tlsKey, CaFile: cfg.tlsCA,
				Verify: cfg.tlsCA != "", Timeout: 2,
			})
			if err != nil {
				return fmt.Errorf("tls: %w", err)
			}
			tc.MinVersion = tls.VersionTLS12
			o.TLS, o.TLSConfig, o.TLSTimeout = true, tc, 2
			o.TLSVerify = cfg.tlsCA != ""
			return nil
		})
	}
	return opts
}

func runServer(c *cli.Context) error {
	cfg, err := parseServerFlags(c)
	if err != nil {
		return err
	}
	if cfg.port != server.RANDOM_PORT {
		// The embedded server would only log a busy port, and say
		// nothing with logging off: try it first for a clear error.
		l, err := net.Listen("tcp", net.JoinHostPort(cfg.host, strconv.Itoa(cfg.port)))
		if err != nil {
			return fmt.Errorf("nats server: --listen %s: %w", c.String("listen"), err)
		}
		l.Close()
	}
	ns, err := natsutil.StartServer(c.Context, cfg.store, cfg.options()...)
	if err != nil {
		return err
	}
	defer func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	}()
	addr, ok := ns.Addr().(*net.TCPAddr)
	if !ok {
		return errors.New("nats server: no listening address")
	}
	scheme := "nats"
	if cfg.tlsCert != "" {
		scheme = "tls"
	}
	host := cfg.host
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host, _ = os.Hostname()
	}
	url := fmt.Sprintf("%s://%s", scheme, net.JoinHostPort(host, strconv.Itoa(addr.Port)))
	fmt.Fprintf(c.App.Writer, "schedfarm server %s: listening on %s (JetStream store %s, auth: %s)\n",
		toolVersion(), url, cfg.store, cfg.auth())
	<-c.Context.Done()
	fmt.Fprintln(c.App.Writer, "schedfarm server: stopping")
	return nil
}

// auth describes how clients authenticate.
func (cfg serverConfig) auth() string {
	var a []string
	if cfg.token != "" {
		a = append(a, "token")
	}
	if cfg.tlsCA != "" {
		a = append(a, "client certificates")
	}
	if len(a) == 0 {
		return "none"
	}
	return strings.Join(a, " and ")
}
