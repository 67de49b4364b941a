package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arbiter-games/arbiter/player"
	"golang.org/x/time/rate"
)

// limiter keeps the rate limits and stream counts of clients.
type limiter struct {
	l       Limits
	mu      sync.Mutex
	moves   map[string]*bucket
	creates map[string]*bucket
	streams map[string]int
	total   int
	// viewing counts each client's replay viewers under way, their
	// answers' writing included.
	viewing map[string]int
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(l Limits) *limiter {
	return &limiter{l: l, moves: map[string]*bucket{}, creates: map[string]*bucket{}, streams: map[string]int{}, viewing: map[string]int{}}
}

// move reports how long key must wait before it may send one more move:
// 0 when it may now (the move is then counted).
func (l *limiter) move(key string) time.Duration {
	return l.take(l.moves, key, rate.Limit(l.l.Moves), l.l.MoveBurst)
}

// create reports how long key must wait before it may create one more
// match: 0 when it may now. The creation is counted only by made, once the
// match is made: a creation refused for its body does not use one up.
func (l *limiter) create(key string) (wait time.Duration, made func()) {
	r := rate.Limit(l.l.Creates / 60)
	b := l.bucket(l.creates, key, r, l.l.createBurst())
	now := time.Now()
	if have := b.lim.TokensAt(now); have < 1 {
		if r <= 0 {
			return time.Second, nil // a limit that allows nothing: ask again later
		}
		return time.Duration((1 - have) / float64(r) * float64(time.Second)), nil
	}
	// Creations checked at the same moment may all be made: the bucket
	// then owes the extra ones, and the next creations wait for them.
	return 0, func() { b.lim.ReserveN(time.Now(), 1) }
}

// createBurst is how many matches one address may create at once: a
// tenth of a minute's.
func (l Limits) createBurst() int { return max(1, int(l.Creates/6)) }

// bucket returns key's bucket in m, made with rate r and burst when new.
func (l *limiter) bucket(m map[string]*bucket, key string, r rate.Limit, burst int) *bucket {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := m[key]
	if b == nil {
		b = &bucket{lim: rate.NewLimiter(r, burst)}
		m[key] = b
	}
	b.seen = now
	return b
}

func (l *limiter) take(m map[string]*bucket, key string, r rate.Limit, burst int) time.Duration {
	b := l.bucket(m, key, r, burst)
	now := time.Now()
	res := b.lim.ReserveN(now, 1)
	if !res.OK() {
		return time.Second // a limit that allows nothing: ask again later
	}
	wait := res.DelayFrom(now)
	if wait > 0 {
		res.CancelAt(now) // refused: the call is not counted
	}
	return wait
}

// FilesKept is how many of files (FileLimit) a server keeps for what is
// not an event stream: its database's connections and files, its bots'
// connections, the requests that are not streams (each connection a
// file, idle ones kept for two minutes), its log, its archive. A quarter
// of them, at least 256, and at most half.
func FilesKept(files uint64) uint64 {
	return min(max(256, files/4), files/2)
}

// StreamsFit is the most event streams (each a connection) a process
// that may have files open at once (FileLimit) can hold, beside what it
// keeps for the rest (FilesKept); 0 files is no bound known: the
// default, DefaultLimits.Streams. Past it, a server with more streams
// open runs out of files: it can accept no connection, and SQLite cannot
// open the files it needs, before the limit on streams refuses one.
func StreamsFit(files uint64) int {
	if files == 0 {
		return DefaultLimits.Streams
	}
	// At most what an int holds everywhere: a bound of 2⁶³ files
	// (RLIM_INFINITY, where it is not all ones) is no bound.
	return int(min(max(1, files-FilesKept(files)), math.MaxInt32))
}

// DefaultStreams is the event streams a server holds open at once when
// not told: DefaultLimits.Streams, or fewer to fit this process's
// open-file limit (StreamsFit).
func DefaultStreams() int {
	return min(DefaultLimits.Streams, StreamsFit(FileLimit()))
}

// openStream counts one more stream of key, or refuses it.
func (l *limiter) openStream(key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total >= l.l.Streams {
		return refuse(http.StatusServiceUnavailable, "too-many-streams", "the server has %d event streams open, its most; try again later", l.total)
	}
	if l.streams[key] >= l.l.StreamsPerClient {
		return refuse(http.StatusTooManyRequests, "too-many-streams", "%d event streams are open with this secret or from this address, the most; close one first", l.streams[key])
	}
	l.streams[key]++
	l.total++
	return nil
}

func (l *limiter) closeStream(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.streams[key]--
	if l.streams[key] <= 0 {
		delete(l.streams, key)
	}
	l.total--
}

// view counts one more replay viewer of key under way, or refuses it
// when key has Limits.ViewersPerClient already; done ends it.
func (l *limiter) view(key string) (done func(), err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.viewing[key] >= l.l.ViewersPerClient {
		return nil, refuse(http.StatusTooManyRequests, "too-many-viewers", "%d replays are under way for this secret or from this address, the most; wait for one to be answered (and read it) first", l.viewing[key])
	}
	l.viewing[key]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.viewing[key]--; l.viewing[key] <= 0 {
			delete(l.viewing, key)
		}
	}, nil
}

// budget counts bytes held at once, up to a bound.
type budget struct {
	mu   sync.Mutex
	held int64
}

// uploadWait is how long a record refused for the bytes of the others
// being read (too-many-uploads) is told to wait: they arrive within
// BodyTime, and are let go once their viewers are made.
const uploadWait = 2 * time.Second

// take holds n more bytes of records read (POST /replay), or refuses
// them when they would pass bound: 503 too-many-uploads with a wait, or,
// for a record larger than bound itself, 413 too-large. size is the
// record's, for the message (its Content-Length, or what has come of it).
func (b *budget) take(n, size, bound int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.refusal(n, size, bound); err != nil {
		return err
	}
	b.held += n
	return nil
}

// fits refuses n bytes as take would, taking none.
func (b *budget) fits(n, size, bound int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.refusal(n, size, bound)
}

// refusal is take's refusal of n bytes, if any; b.mu is held.
func (b *budget) refusal(n, size, bound int64) error {
	if n > bound {
		return tooLarge("the record", bound)
	}
	if b.held+n > bound {
		e := refuse(http.StatusServiceUnavailable, "too-many-uploads", "the server reads and holds at most %s of records sent to be viewed (POST /replay) at once, in all, and %s of it are held now; send this one (%s) again in %v, or view it with arbiter replay --html",
			bytesSaid(bound), bytesSaid(b.held), bytesSaid(size), uploadWait)
		e.retry = uploadWait
		return e
	}
	return nil
}

// bytesSaid says n bytes as people read them: 256 MiB, 700 KiB, 12 bytes,
// rounded up.
func bytesSaid(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 10<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", (n+1023)>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// give lets n bytes go.
func (b *budget) give(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.held -= n
}

// sweep forgets the buckets not used for a while.
func (l *limiter) sweep(before time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range []map[string]*bucket{l.moves, l.creates} {
		for k, b := range m {
			if b.seen.Before(before) {
				delete(m, k)
			}
		}
	}
}

// checkBotURL refuses the URL of an HTTP bot that is not http(s), or, unless
// private addresses are allowed, that names or resolves to a private,
// loopback or link-local address.
func checkBotURL(ctx context.Context, raw string, allowPrivate bool) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an http:// or https:// URL", raw)
	}
	if allowPrivate {
		return nil
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, "ip", u.Hostname())
	if err != nil {
		return fmt.Errorf("the bot's host %s: %v", u.Hostname(), err)
	}
	for _, a := range addrs {
		if private(a) {
			return fmt.Errorf("the bot's host %s is at %s, a private or loopback address; the server is run with --allow-private-bots to allow it", u.Hostname(), a)
		}
	}
	return nil
}

// private reports whether a is loopback, private, link-local,
// unspecified, or of a range that is not the internet's: what a bot's
// address may not be unless allowed.
func private(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() || a.IsUnspecified() || a.IsMulticast() {
		return true
	}
	for _, p := range notTheInternet {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// notTheInternet are the special-purpose ranges of IANA's registries that
// reach no public host, or reach one by way of a translator that may sit
// on the server's own network (NAT64, 6to4), besides those netip tells.
var notTheInternet = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // this network
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local NAT64
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4
}

// botClient is the HTTP client of bots: unless private addresses are
// allowed, it refuses to connect to one, whatever the name resolved to when
// the match was made; it follows no redirect to another host.
func botClient(allowPrivate bool) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if !allowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			a, err := netip.ParseAddr(host)
			if err != nil {
				return err
			}
			if private(a) {
				return fmt.Errorf("%s is a private or loopback address; bots may not be there on this server", a)
			}
			return nil
		}
	}
	return &http.Client{
		Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 16, IdleConnTimeout: 90 * time.Second,
			MaxResponseHeaderBytes: player.MaxAnswerHeader},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("more than 5 redirects")
			}
			if !strings.EqualFold(req.URL.Host, via[0].URL.Host) || req.URL.Scheme != via[0].URL.Scheme {
				return fmt.Errorf("a redirect to another host (%s), which is not followed", req.URL.Host)
			}
			return nil
		},
	}
}
