package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
	tstore "github.com/arbiter-games/arbiter/store/territories"
	"github.com/arbiter-games/arbiter/web"
	"github.com/spf13/cobra"
)

func serveCommand() *cobra.Command {
	var (
		addr, db, publicURL, createSecret, archive, tlsCert, tlsKey, logFormat, synchronous, uploads, maps string
		proxies                                                                                            []string
		allowPrivate                                                                                       bool
		keep, lease                                                                                        time.Duration
		limits                                                                                             server.Limits
	)
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--db FILE | postgres://...]",
		Short: "Host live matches of every game over HTTP",
		Long: `Host live matches of every game over HTTP: people and bots play a match
from anywhere, each with the secret of their seat; spectators watch; a
judge may run it. Every move is stored before it is acknowledged, and a
restart resumes every match where it was.

The web pages are at / (start a match, share its links), /m/ID (a
match: a seat's page, the judge's console, or a spectator's) and /replay;
the API is under /api/v1 (docs/api.md; /api/v1/openapi.json). Matches are
kept in an SQLite file (--db arbiter.db, the default) or in PostgreSQL
(--db postgres://user:password@host/db), where several servers can serve
the same matches.

A territories board carries its map's SVG; --maps DIR offers the .svg
files in DIR as maps that a new match's board may name by file ("map":
"west.svg"): read once when the match is created, from inside DIR only
(no absolute path, no .., no link out of it; at most 1 MiB), and kept in
the match. Without --maps the server reads no map file.

By default anyone on this machine may create matches (not a web page of
another site open in its browser); --create-secret FILE lets only the
holders of the secret in FILE create them, from anywhere.

On a loopback address (the default), it answers only requests that name
this machine (localhost, 127.0.0.1, [::1], its host name) or
--public-url's host, so that a web page whose name is made to lead here
(DNS rebinding) reaches nothing: behind a reverse proxy that sends its own
Host on, give that name as --public-url.

Each event stream holds a connection, one of the files the process may
have open (ulimit -n, which Go raises to its hard limit): --max-streams
is lowered to fit that limit, keeping a quarter of it (256 files or more)
for the database, bots and other requests, and says so at start; a
--max-streams above what the limit allows is refused.

It runs Go's garbage collector at GOGC 400 under a soft limit of half the
machine's memory (steadier answers for more memory), unless GOGC or
GOMEMLIMIT is set in its environment.`,
		Example: `  arbiter serve                  # this machine only: open http://127.0.0.1:8080/
  arbiter serve --addr 0.0.0.0:8080 --public-url http://192.168.1.20:8080
                                 # phones on your Wi-Fi too: without
                                 # --public-url, it prints the one to give`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg := server.Config{PublicURL: publicURL, AllowPrivateBots: allowPrivate, Keep: keep, ArchiveDir: archive, Limits: limits, LeaseFor: lease}
			if lease < 100*time.Millisecond || lease > time.Hour {
				return usagef("--lease %v: give 100ms to 1h", lease)
			}
			switch f := cmd.Flags(); {
			case isPostgres(db) && f.Changed("synchronous"):
				return usagef("--synchronous has no effect on a PostgreSQL database: it is SQLite's (PostgreSQL's own synchronous_commit says when a commit is on the disk)")
			case !isPostgres(db) && f.Changed("lease"):
				return usagef("--lease has no effect on an SQLite database: one server at a time holds its file and drives all its matches; the lease is for servers that share a PostgreSQL database")
			case keep == 0 && f.Changed("archive"):
				// The directory is only ever written by archiving.
				return usagef("--archive %s has no effect with --keep 0: every match stays in the database for good, and nothing is archived; give --keep DURATION to archive the matches over and untouched that long (30 days by default), or leave --archive out", archive)
			}
			if createSecret != "" {
				b, err := readInput(createSecret)
				if err != nil {
					return usagef("--create-secret %s: %v", createSecret, err)
				}
				secret := strings.TrimSpace(string(b))
				if len(secret) < 16 {
					return usagef("--create-secret %s: the secret is shorter than 16 characters; make a long random one (openssl rand -hex 16 > %s)", createSecret, createSecret)
				}
				cfg.CreateSecret = server.HashSecret(secret)
			}
			for _, p := range proxies {
				prefix, err := netip.ParsePrefix(p)
				if err != nil {
					a, aerr := netip.ParseAddr(p)
					if aerr != nil {
						return usagef("--trusted-proxy %q: give an address (10.0.0.2) or a network (10.0.0.0/8)", p)
					}
					prefix = netip.PrefixFrom(a, a.BitLen())
				}
				cfg.TrustedProxies = append(cfg.TrustedProxies, prefix)
			}
			if (tlsCert == "") != (tlsKey == "") {
				return usagef("give --tls-cert and --tls-key together")
			}
			if tlsCert != "" {
				// Read now, not once the server has said it serves and
				// resumed its matches.
				if _, err := tls.LoadX509KeyPair(tlsCert, tlsKey); err != nil {
					return usagef("--tls-cert %s, --tls-key %s: %v (give a PEM certificate and its private key)", tlsCert, tlsKey, err)
				}
			}
			if publicURL != "" && !isOrigin(publicURL) {
				shown := publicURL
				if u, err := url.Parse(publicURL); err == nil && u.User != nil {
					u.User = url.User("xxxxx") // not repeated: it may be a password
					shown = u.String()
				} else if at := strings.LastIndexByte(publicURL, '@'); err != nil && at >= 0 {
					shown = "xxxxx@" + publicURL[at+1:] // unparsed: whatever comes before an @ may be a password
				}
				return usagef("--public-url %q: give an origin such as https://arbiter.example or http://192.168.1.20:8080 (no path, query, fragment or user: the links add /m/ID to it, and the pages call /api/v1 at its root)", shown)
			}
			size, err := player.ParseSize(uploads)
			if err != nil || size < 1 {
				return usagef("--max-uploads %q: give a size above 0 such as 256MiB or 1GiB (256MiB by default)", uploads)
			}
			limits.UploadBytes, cfg.Limits.UploadBytes = size, size
			if err := checkLimits(limits, keep); err != nil {
				return err
			}
			files := server.FileLimit()
			if !cmd.Flags().Changed("max-streams") {
				cfg.Limits.Streams = server.DefaultStreams()
			} else if fit := server.StreamsFit(files); files > 0 && limits.Streams > fit {
				return usagef("--max-streams %d: this process may have %d files open at once (its open-file limit, ulimit -n), and keeps %d of them for its database, bots and other requests: give %d or fewer, or raise the limit (ulimit -n; systemd's LimitNOFILE=, docker run --ulimit nofile=)",
					limits.Streams, files, server.FilesKept(files), fit)
			}
			switch synchronous {
			case "FULL", "NORMAL":
			default:
				return usagef("--synchronous %q: give FULL or NORMAL", synchronous)
			}
			var handler slog.Handler
			switch logFormat {
			case "text", "errors":
				handler = slog.NewTextHandler(cmd.ErrOrStderr(), nil)
			case "json":
				handler = slog.NewJSONHandler(cmd.ErrOrStderr(), nil)
			default:
				return usagef("--log %q: give text, json, or errors (no access log)", logFormat)
			}
			cfg.NoAccessLog = logFormat == "errors"
			if maps != "" {
				root, err := os.OpenRoot(maps)
				if err != nil {
					return usagef("--maps %s: %v (give the directory of the maps that boards may name)", maps, err)
				}
				defer root.Close()
				cfg.Maps = root
			}
			cfg.Log = slog.New(handler)
			return serve(cmd.Context(), addr, db, synchronous, tlsCert, tlsKey, cfg, files, cmd)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:8080", "the address to listen on (0.0.0.0:8080 for every interface)")
	f.StringVar(&db, "db", "arbiter.db", "the database: an SQLite file, or a postgres:// URL")
	f.StringVar(&publicURL, "public-url", "", "the origin of the links handed out (default: the address each request came to); a server on this machine also answers to its host")
	f.StringVar(&createSecret, "create-secret", "", "a file holding the secret that creating a match takes (default: anyone on this machine)")
	f.StringArrayVar(&proxies, "trusted-proxy", nil, "a reverse proxy (address or network) whose X-Forwarded-For names the client; repeat it")
	f.BoolVar(&allowPrivate, "allow-private-bots", false, "let HTTP bots sit at private and loopback addresses")
	f.StringVar(&maps, "maps", "", "a directory of territories maps (.svg) that a new match's board may name by file, read when the match is created and kept in it (default: none; a board carries its map)")
	f.DurationVar(&keep, "keep", 30*24*time.Hour, "archive matches over and untouched for this long (0: keep them all, and archive none)")
	f.StringVar(&archive, "archive", "archive", "the directory of archived matches' records (not with --keep 0, which archives none)")
	f.StringVar(&tlsCert, "tls-cert", "", "serve HTTPS with this certificate (PEM)")
	f.StringVar(&tlsKey, "tls-key", "", "and this key (PEM)")
	f.DurationVar(&lease, "lease", 15*time.Second, "PostgreSQL: how long a server drives a match (its bots, its deadlines) without renewing its hold; another server takes over a match after its server has been gone this long")
	f.StringVar(&logFormat, "log", "text", "the log on standard error: text or json, with a line per request; errors: no access log")
	f.StringVar(&synchronous, "synchronous", "FULL", "SQLite: FULL (a move is on the disk before its answer) or NORMAL (it survives a crash of the server, not of the machine)")
	f.Int64Var(&limits.Body, "max-body", server.DefaultLimits.Body, "the largest request body, in bytes")
	f.Float64Var(&limits.Moves, "moves-per-second", server.DefaultLimits.Moves, "moves (and a judge's calls) each secret may send per second")
	f.Float64Var(&limits.Creates, "creates-per-minute", server.DefaultLimits.Creates, "matches each address may create per minute")
	f.StringVar(&uploads, "max-uploads", "256MiB", "the records sent to be viewed (POST /replay) read and held at once, in all: past it, one is answered 503 too-many-uploads")
	f.IntVar(&limits.Streams, "max-streams", server.DefaultLimits.Streams, "event streams open at once, each a connection: left out, fewer than the default when the open-file limit (ulimit -n) is lower, keeping a quarter of the files (256 or more) for the rest, which it says at start; above what the limit allows, refused")
	return cmd
}

// isPostgres reports whether --db names a PostgreSQL database, not an
// SQLite file (store.Open).
func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// isOrigin reports whether u is an origin, http:// or https:// and a
// host, with at most a / after it: what the links begin with.
func isOrigin(u string) bool {
	parsed, err := url.Parse(u)
	return err == nil && (parsed.Scheme == "http" || parsed.Scheme == "https") && parsed.Host != "" &&
		parsed.User == nil && (parsed.Path == "" || parsed.Path == "/") && !parsed.ForceQuery && parsed.RawQuery == "" &&
		!strings.Contains(u, "#")
}

// checkLimits refuses limits that no server can keep: a server took 0 or
// less (or NaN, which no comparison catches) for its default, silently,
// so that --max-body 0 or --moves-per-second -1 served 64 KiB and 50
// moves a second.
func checkLimits(l server.Limits, keep time.Duration) error {
	switch {
	case l.Body < 1:
		return usagef("--max-body %d: give the largest body in bytes, 1 or more (%d by default)", l.Body, server.DefaultLimits.Body)
	case !(l.Moves > 0):
		return usagef("--moves-per-second %v: give a number above 0 (%v by default)", l.Moves, server.DefaultLimits.Moves)
	case !(l.Creates > 0):
		return usagef("--creates-per-minute %v: give a number above 0 (%v by default)", l.Creates, server.DefaultLimits.Creates)
	case l.Streams < 1:
		return usagef("--max-streams %d: give 1 or more (%d by default)", l.Streams, server.DefaultLimits.Streams)
	case keep < 0:
		return usagef("--keep %v: give a duration, or 0 to keep every match", keep)
	}
	return nil
}

// serve runs the server until ctx ends (Ctrl-C): then moves under way
// finish, streams are told, and the database is closed.
func serve(ctx context.Context, addr, db, synchronous, tlsCert, tlsKey string, cfg server.Config, files uint64, cmd *cobra.Command) error {
	tuneCollector()
	// The address first: a server that cannot listen leaves no database
	// file behind, nor converts one.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usagef("--addr %s: %s", addr, listenTrouble(addr, err))
	}
	defer ln.Close() // once served, closed already
	// A territories game file of the layout before is converted.
	if _, err := tstore.Upgrade(ctx, db); err != nil {
		return usagef("--db: %v", err)
	}
	st, err := store.Open(ctx, db, store.Options{Synchronous: synchronous})
	if err != nil {
		return usagef("--db: %v", err)
	}
	defer st.Close()
	cfg.Store = st
	srv, err := server.New(cfg)
	if err != nil {
		return classify(err)
	}
	srv.Pages(web.Handler())
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		MaxHeaderBytes: 64 << 10}
	if err := srv.Start(ctx); err != nil {
		return classify(err)
	}
	scheme := "http"
	if tlsCert != "" {
		scheme = "https"
	}
	if !cmd.Flags().Changed("max-streams") && cfg.Limits.Streams < server.DefaultLimits.Streams {
		fmt.Fprintf(cmd.ErrOrStderr(), "arbiter serve: at most %d event streams at once (--max-streams), not %d: this process may have %d files open (ulimit -n) and keeps %d for its database, bots and other requests; raise the limit for more\n",
			cfg.Limits.Streams, server.DefaultLimits.Streams, files, server.FilesKept(files))
	}
	reached := reachable(scheme, ln.Addr())
	fmt.Fprintf(cmd.ErrOrStderr(), "arbiter serve: %s, matches in %s; Ctrl-C stops\n", strings.Join(reached, " or "), st.Target())
	if cfg.PublicURL != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "arbiter serve: the links it hands out begin %s (--public-url)\n", cfg.PublicURL)
	} else if note := networkLinksNote(reached); note != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), note)
	}
	errc := make(chan error, 1)
	go func() {
		if tlsCert != "" {
			errc <- hs.ServeTLS(ln, tlsCert, tlsKey)
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		srv.Shutdown(context.Background())
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return classify(err)
	case <-ctx.Done():
	}
	fmt.Fprintln(cmd.ErrOrStderr(), "arbiter serve: stopping: the moves under way finish, the streams are told")
	stop, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv.Shutdown(stop)
	if err := hs.Shutdown(stop); err != nil {
		hs.Close()
	}
	return nil
}

// listenTrouble says why the server cannot listen at addr, and, when
// another program holds the address, what to do: stop it or take the
// next port.
func listenTrouble(addr string, err error) string {
	if !errors.Is(err, syscall.EADDRINUSE) {
		return err.Error()
	}
	advice := "stop it, or give another port"
	if host, port, perr := net.SplitHostPort(addr); perr == nil {
		if n, nerr := strconv.Atoi(port); nerr == nil && n > 0 && n < 65535 {
			advice += ", such as --addr " + net.JoinHostPort(host, strconv.Itoa(n+1))
		}
	}
	return "another program (another arbiter serve, perhaps) already listens there; " + advice
}

// networkLinksNote tells the operator of a server on every interface,
// without --public-url, that the links of a match started from this
// machine (where matches are started) begin with this machine's own
// address, which the phones on the network cannot open, and which
// --public-url to give instead. reached is what reachable returned; the
// note is empty when no address of a network is among them.
func networkLinksNote(reached []string) string {
	if len(reached) < 2 {
		return ""
	}
	return fmt.Sprintf("arbiter serve: matches started from this machine hand out links that begin %s, which phones and other computers cannot open; for links that work on the network, start it with --public-url %s", reached[0], reached[1])
}

// reachable returns where the server listening at addr is reached: the
// address itself, or, when it listens on every interface (0.0.0.0, ::),
// this machine's own addresses on its networks (which phones on the same
// network open), its loopback first. Links to matches begin with the
// address they were created through, unless --public-url says otherwise.
func reachable(scheme string, addr net.Addr) []string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || !tcp.IP.IsUnspecified() {
		return []string{scheme + "://" + addr.String()}
	}
	port := strconv.Itoa(tcp.Port)
	out := []string{scheme + "://" + net.JoinHostPort("127.0.0.1", port)}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		n, ok := a.(*net.IPNet)
		if !ok || n.IP.IsLoopback() || n.IP.IsLinkLocalUnicast() || n.IP.To4() == nil && tcp.IP.To4() != nil {
			continue
		}
		out = append(out, scheme+"://"+net.JoinHostPort(n.IP.String(), port))
	}
	return out
}
