// Package server hosts live matches of every game over HTTP, as live.md
// describes: a JSON API under /api/v1 to create matches, read the caller's
// view, send moves and follow a match's events (Server-Sent Events), with
// secrets that say who the caller is, every answer redacted through the
// match's views, and every move durable before it is acknowledged.
//
// It reaches games only through the catalog, and keeps matches in a store
// (SQLite or PostgreSQL). Matches whose seats are bots, or whose requests
// have deadlines, are driven by the server holding their lease.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/store"
)

// Config is how a server runs.
type Config struct {
	// Store keeps the matches.
	Store *store.Store
	// PublicURL is the origin of the links the server hands out
	// (https://arbiter.example); empty: the origin each request came to.
	// Its host is, besides this machine's own names, the one a request
	// that comes to a loopback address may name (its Host header): the
	// server answers others 421 (DNS rebinding; checkHost).
	PublicURL string
	// CreateSecret, when not empty, is the SHA-256 (hex) of the secret a
	// caller must send to create matches; empty lets anyone on a loopback
	// address create them.
	CreateSecret string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client; from anyone else, the header is ignored.
	TrustedProxies []netip.Prefix
	// AllowPrivateBots lets HTTP bots sit at private and loopback
	// addresses.
	AllowPrivateBots bool
	// Maps, when not nil, is the directory of maps a territories board
	// may name by file (arbiter serve --maps): at a match's creation the
	// map is read from it and put in the board (catalog.ReadBoardMap).
	// Nil: the server reads no map file, and a board carries its map.
	Maps *os.Root
	// Keep is how long a match over and untouched stays before it is
	// archived (its record written to ArchiveDir) and removed; 0 keeps
	// matches for ever.
	Keep       time.Duration
	ArchiveDir string
	// Limits bound what clients may do.
	Limits Limits
	// Log receives the access log and errors; nil discards them.
	Log *slog.Logger
	// NoAccessLog leaves the access log out (errors are still logged).
	NoAccessLog bool
	// ID names this server in leases; empty draws one.
	ID string
	// LeaseFor is how long a lease on a match lasts without renewal.
	LeaseFor time.Duration
	// Now is the server's clock; nil is time.Now.
	Now func() time.Time
}

// Limits bound what clients may do.
type Limits struct {
	// Body is the largest request body, in bytes.
	Body int64
	// BodyTime is how long a request's body may take to arrive, whole:
	// a client that sends it slower (or stops halfway) is answered 408
	// and its connection closed, so that slow bodies cannot hold the
	// server's connections.
	BodyTime time.Duration
	// Moves is the moves each secret (or each client address, without
	// one) may send per second, with bursts of MoveBurst; a judge's calls
	// that write (new links, the end of a turn, a correction) count too.
	Moves     float64
	MoveBurst int
	// Creates is the matches a client address may create per minute.
	Creates float64
	// Streams is the event streams open at once, in all; StreamsPerClient
	// per secret or client address. Each holds a connection, which is
	// one of the files the process may have open: left at 0, it is
	// DefaultStreams, which fits the process's open-file limit.
	Streams          int
	StreamsPerClient int
	// StreamWrite is how long a stream may take to take one event before
	// it is closed as too slow.
	StreamWrite time.Duration
	// Heartbeat is how often an idle stream gets a comment, so that
	// proxies keep it open and a gone client is noticed.
	Heartbeat time.Duration
	// Viewers is how many replay viewers (GET /matches/{id}/replay, POST
	// /replay), and resumed streams' missed events, are made again from
	// a log at once, in all; the calls beyond wait their turn. ViewerBytes bounds the views of one: a viewer whose views
	// come to more is refused (422 views-too-large).
	Viewers     int
	ViewerBytes int
	// ViewersPerClient is how many replay viewers one secret or client
	// address may have under way at once, the writing of their answers
	// included (which a client that does not read them holds up).
	ViewersPerClient int
	// UploadBytes bounds the bytes of the records sent to be viewed (POST
	// /replay, up to 64 MiB each) that are read and held at once, in
	// all: a record that would pass it is refused 503 too-many-uploads,
	// to be sent again after a wait. A record larger than it is refused
	// 413 too-large.
	UploadBytes int64
}

// DefaultLimits are a server's limits unless set.
var DefaultLimits = Limits{
	Body: 64 << 10, BodyTime: 30 * time.Second, Moves: 50, MoveBurst: 100, Creates: 60,
	Streams: 20000, StreamsPerClient: 16, StreamWrite: 10 * time.Second, Heartbeat: 15 * time.Second,
	Viewers: max(2, runtime.GOMAXPROCS(0)), ViewerBytes: 32 << 20, ViewersPerClient: 8, UploadBytes: 256 << 20,
}

// Server hosts live matches.
type Server struct {
	cfg   Config
	log   *slog.Logger
	ref   *store.Referee
	rules rules
	hub   *hub
	now   func() time.Time
	// refresh brings matches changed by other servers up to date
	// (PostgreSQL).
	refresh *refresher

	mux     *http.ServeMux
	limiter *limiter
	// sameSite tells a browser's request from a page of another site,
	// which may not use this machine's right to create matches.
	sameSite *http.CrossOriginProtection
	// publicHost is the host of PublicURL (hostOf), which a request that
	// came to a loopback address may name besides this machine's own
	// names (checkHost).
	publicHost string
	// machineName is this machine's host name (hostOf), which a request
	// that came to a loopback address may name too (checkHost).
	machineName string
	// viewing holds a token for each replay viewer being made
	// (Limits.Viewers); viewerHook, if set, is told as each call waits
	// its turn ("wait") and as it begins to make its viewer ("make").
	viewing    chan struct{}
	viewerHook func(string)
	// uploads counts the bytes of records sent to be viewed that are
	// held now (Limits.UploadBytes); uploadHook, if set, is told as a
	// call takes some ("take") and as it lets them go ("release").
	uploads    budget
	uploadHook func(string)
	secrets    sync.Map // secret hash → store.Secret, for the secrets seen
	// secretsGen counts the forgettings of secrets (a reissue), under
	// secretsMu; secretHook, if set, is told as a secret read from the
	// store is about to be kept.
	secretsMu  sync.Mutex
	secretsGen uint64
	secretHook func()
	configs    sync.Map // match id → *parsedConfig
	results    sync.Map // match id → *engine.Result, of a match over, as reports count it
	boards     sync.Map // match id → *drawnBoard, its board's last PNG
	drawings   sync.Map // match id → *drawingOf, the map its board is drawn on
	views      sync.Map // match id → *views
	// drawing holds a token for each board being drawn as a PNG: a map
	// may be up to mapdraw.MaxPixels each way, and each drawing holds its
	// image in memory.
	drawing chan struct{}

	mu       sync.Mutex
	drivers  map[string]*driver
	closing  chan struct{} // closed when the server shuts down
	stopped  bool
	bg       sync.WaitGroup
	streams  sync.WaitGroup
	bgCancel context.CancelFunc
}

// New returns a server over cfg.Store; Start resumes its matches.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: no store")
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.ID == "" {
		var b [6]byte
		rand.Read(b[:])
		host, _ := os.Hostname()
		cfg.ID = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
	}
	if cfg.LeaseFor <= 0 {
		cfg.LeaseFor = 15 * time.Second
	}
	cfg.Limits = cfg.Limits.withDefaults()
	ext := player.External{Client: botClient(cfg.AllowPrivateBots)}
	s := &Server{cfg: cfg, log: cfg.Log, rules: rules{external: ext}, now: cfg.Now,
		drivers: map[string]*driver{}, closing: make(chan struct{})}
	s.ref = store.NewReferee(cfg.Store, s.rules)
	if err := catalog.Project(context.Background(), s.ref); err != nil { // the games' own tables (territories')
		return nil, err
	}
	s.hub = newHub()
	s.ref.Committed = s.committed
	s.ref.Updated = s.updated
	s.limiter = newLimiter(cfg.Limits)
	s.sameSite = http.NewCrossOriginProtection()
	if u, err := url.Parse(cfg.PublicURL); cfg.PublicURL != "" && err == nil && u.Scheme != "" && u.Host != "" {
		// The pages as the links reach them, through a proxy whose Host
		// header may be its own.
		_ = s.sameSite.AddTrustedOrigin(u.Scheme + "://" + u.Host)
	}
	s.publicHost = publicHostOf(cfg.PublicURL)
	s.machineName = machineName()
	s.viewing = make(chan struct{}, cfg.Limits.Viewers)
	s.drawing = make(chan struct{}, cfg.Limits.Viewers)
	s.routes()
	return s, nil
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Body <= 0 {
		l.Body = d.Body
	}
	if l.BodyTime <= 0 {
		l.BodyTime = d.BodyTime
	}
	if l.Moves <= 0 {
		l.Moves = d.Moves
	}
	if l.MoveBurst <= 0 {
		l.MoveBurst = d.MoveBurst
	}
	if l.Creates <= 0 {
		l.Creates = d.Creates
	}
	if l.Streams <= 0 {
		l.Streams = DefaultStreams()
	}
	if l.StreamsPerClient <= 0 {
		l.StreamsPerClient = d.StreamsPerClient
	}
	if l.StreamWrite <= 0 {
		l.StreamWrite = d.StreamWrite
	}
	if l.Heartbeat <= 0 {
		l.Heartbeat = d.Heartbeat
	}
	if l.Viewers <= 0 {
		l.Viewers = d.Viewers
	}
	if l.ViewerBytes <= 0 {
		l.ViewerBytes = d.ViewerBytes
	}
	if l.ViewersPerClient <= 0 {
		l.ViewersPerClient = d.ViewersPerClient
	}
	if l.UploadBytes <= 0 {
		l.UploadBytes = d.UploadBytes
	}
	return l
}

// Handler returns the server's HTTP handler: the API (and the pages), for
// the requests that name this server (checkHost), and its access log.
func (s *Server) Handler() http.Handler {
	h := s.hostGuard(s.bodyDeadline(s.mux))
	if s.cfg.NoAccessLog {
		return h
	}
	return s.accessLog(h)
}

// bodyDeadline bounds the arrival of a request's body by BodyTime whether
// or not its call reads it. Go's HTTP server reads what a call left of a
// body (up to 256 KiB) before it answers, to keep the connection for the
// next request, and waited for it without end: a client that sent the
// headers of a GET, or of a call refused before its body is read, with a
// Content-Length and then nothing, got no answer, and held a connection
// and its goroutine for as long as it liked, for the price of one packet.
// The calls that read a body set their own deadline for it (readAll) and
// lift it once it is read; a request without a body (an event stream's)
// is left without one.
func (s *Server) bodyDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.cfg.Limits.BodyTime))
		}
		next.ServeHTTP(w, r)
	})
}

// Start resumes the matches under way (their bots and deadlines) and starts
// the server's background work: leases, archiving. It returns at once.
func (s *Server) Start(ctx context.Context) error {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.bgCancel = cancel
	s.listen(ctx)
	if err := s.resume(ctx); err != nil {
		cancel()
		return err
	}
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.maintain(ctx)
	}()
	return nil
}

// Shutdown stops the server's matches and tells every open stream that the
// server is going away. The HTTP server's own Shutdown lets the requests
// under way finish; call it after this.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	close(s.closing)
	drivers := s.drivers
	s.drivers = map[string]*driver{}
	s.mu.Unlock()
	if s.bgCancel != nil {
		s.bgCancel()
	}
	for _, d := range drivers {
		d.stop()
	}
	done := make(chan struct{})
	go func() {
		s.bg.Wait()
		s.streams.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
	for id := range drivers {
		_ = s.cfg.Store.Release(context.WithoutCancel(ctx), id, s.cfg.ID)
	}
	s.ref.Close()
	return nil
}
