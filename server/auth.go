package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/wrap"
	"github.com/arbiter-games/arbiter/store"
)

// Secrets are 128 random bits (crypto/rand), written in URL-safe base64.
// Only their SHA-256 is stored; a secret is shown once, when it is made.

// newSecret returns a new secret and its hash.
func newSecret() (secret, hash string) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error()) // the kernel's generator does not fail
	}
	secret = base64.RawURLEncoding.EncodeToString(b[:])
	return secret, hashSecret(secret)
}

// hashSecret returns the stored form of a secret.
func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// caller is who sends a request: a seat's player, a named player, the
// judge, or anyone (no secret).
type caller struct {
	role store.Role // "" for anyone
	seat int        // the seat, for a seat's player; engine.Judge for the judge
	name string     // a named player's name
	// key identifies the caller for limits: its secret's hash, or its
	// address.
	key string
}

// anyone is a caller with no secret.
func (c caller) anyone() bool { return c.role == "" }

// actor is the caller as a match's rules see it: its seat, or the judge.
func (c caller) actor() int {
	if c.role == store.SeatRole {
		return c.seat
	}
	return engine.Judge
}

// bearer returns the secret of a request's Authorization header, if any.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", false
	}
	scheme, secret, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || secret == "" {
		return "", true
	}
	return strings.TrimSpace(secret), true
}

// who says who calls about match id: errNoSecret for a secret the server
// does not know (or a malformed header), errNotYours for another match's.
func (s *Server) who(r *http.Request, id string) (caller, error) {
	secret, sent := bearer(r)
	if !sent {
		return caller{key: s.clientKey(r)}, nil
	}
	if secret == "" {
		return caller{}, errNoSecret
	}
	sec, err := s.lookup(r, secret)
	if err != nil {
		return caller{}, err
	}
	if subtle.ConstantTimeCompare([]byte(sec.Match), []byte(id)) != 1 {
		return caller{}, errNotYours
	}
	return caller{role: sec.Role, seat: sec.Seat, name: sec.Name, key: "secret:" + sec.Hash}, nil
}

// lookup finds a secret by its hash: in memory when seen before, else in
// the store.
func (s *Server) lookup(r *http.Request, secret string) (store.Secret, error) {
	hash := hashSecret(secret)
	if v, ok := s.secrets.Load(hash); ok {
		sec := v.(store.Secret)
		if subtle.ConstantTimeCompare([]byte(sec.Hash), []byte(hash)) == 1 {
			return sec, nil
		}
	}
	s.secretsMu.Lock()
	gen := s.secretsGen
	s.secretsMu.Unlock()
	sec, err := s.cfg.Store.Secret(r.Context(), hash)
	if errors.Is(err, store.ErrNoSecret) {
		return store.Secret{}, errNoSecret
	}
	if err != nil {
		return store.Secret{}, err
	}
	if s.secretHook != nil {
		s.secretHook()
	}
	// Kept only if no secret was issued again since it was read: a
	// secret read just before its reissue must not outlive it here.
	s.secretsMu.Lock()
	if s.secretsGen == gen {
		s.secrets.Store(hash, sec)
	}
	s.secretsMu.Unlock()
	return sec, nil
}

// secretsGeneration counts the times the secrets kept in memory were
// forgotten (forget): a secret read before a change of it may no longer
// work.
func (s *Server) secretsGeneration() uint64 {
	s.secretsMu.Lock()
	defer s.secretsMu.Unlock()
	return s.secretsGen
}

// forget drops the secrets of a match from memory, after a reissue; those
// being read from the store meanwhile are not kept (lookup).
func (s *Server) forget(id string) {
	s.secretsMu.Lock()
	defer s.secretsMu.Unlock()
	s.secretsGen++
	s.secrets.Range(func(k, v any) bool {
		if v.(store.Secret).Match == id {
			s.secrets.Delete(k)
		}
		return true
	})
}

// clientAddr is the client's address: the connection's, or, behind a
// trusted proxy, the last address X-Forwarded-For names that is not a
// trusted proxy itself.
func (s *Server) clientAddr(r *http.Request) string {
	host, addr, ok := peer(r)
	if !ok || !s.trusted(addr) {
		return host
	}
	if client, ok := s.forwardedFor(r); ok {
		return client.String()
	}
	return host
}

// forwardedFor is the client that a trusted proxy's X-Forwarded-For
// names: the last address in it that is not a trusted proxy's own, or the
// first when every one is. It is false when the header names no client:
// there is none, or an entry where the client would be is not an address
// (a client written with its port, say).
func (s *Server) forwardedFor(r *http.Request) (netip.Addr, bool) {
	// Every line of the header, in order, as one list (RFC 9110): a proxy
	// may add its own line after the client's (HAProxy's option
	// forwardfor does), and the first line alone is the client's word.
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return netip.Addr{}, false
		}
		if !s.trusted(hop) || i == 0 {
			return hop, true
		}
	}
	return netip.Addr{}, false
}

// forwardedBy names the header that says a request was relayed by a
// proxy for a client, if it has one.
func forwardedBy(r *http.Request) string {
	for _, h := range []string{"X-Forwarded-For", "Forwarded", "X-Real-Ip"} {
		if r.Header.Get(h) != "" {
			return h
		}
	}
	return ""
}

// viaTrusted reports whether a request came from a trusted proxy, whose
// X-Forwarded-For names the client (clientAddr).
func (s *Server) viaTrusted(r *http.Request) bool {
	_, a, ok := peer(r)
	return ok && s.trusted(a)
}

// peer is the address the request's connection comes from, as written
// and as an address, which ok says it is.
func peer(r *http.Request) (host string, addr netip.Addr, ok bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err = netip.ParseAddr(host)
	return host, addr, err == nil
}

// clientKey is the client as the limits count it (streams, creations,
// records viewed): its address, or for IPv6 its /64 network, which one
// host or household usually holds whole, so that the addresses of one
// network are one client and not 2^64.
func (s *Server) clientKey(r *http.Request) string {
	host := s.clientAddr(r)
	if a, err := netip.ParseAddr(host); err == nil && a.Unmap().Is6() {
		p, _ := a.Unmap().WithZone("").Prefix(64)
		return "addr:" + p.String()
	}
	return "addr:" + host
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a.Unmap()) {
			return true
		}
	}
	return false
}

// mayCreate says whether a request may create a match: with the server's
// creation secret when it has one, else from a loopback address.
func (s *Server) mayCreate(r *http.Request) error {
	if s.cfg.CreateSecret != "" {
		secret, _ := bearer(r)
		if secret == "" || subtle.ConstantTimeCompare([]byte(hashSecret(secret)), []byte(s.cfg.CreateSecret)) != 1 {
			return errCreateOnly
		}
		return nil
	}
	a, err := netip.ParseAddr(s.clientAddr(r))
	if err != nil || !a.Unmap().IsLoopback() {
		return refuse(http.StatusForbidden, "create-forbidden", "matches are created from this machine only (a loopback address); the server can be started with --create-secret FILE to let holders of that secret create them from elsewhere")
	}
	if err := s.sameSite.Check(r); err != nil {
		// A page of another site, open in a browser on this machine,
		// sends its requests from this machine's address too: the right
		// to create is this machine's user's, not the sites' they visit.
		return refuse(http.StatusForbidden, "create-forbidden", "this request comes from a page of another site (Origin %s, Sec-Fetch-Site %s) in a browser on this machine: a web page may not create matches here; they are created from this server's own pages, with curl or a program, or from anywhere with the secret of --create-secret FILE",
			quoteHeader(r.Header.Get("Origin")), quoteHeader(r.Header.Get("Sec-Fetch-Site")))
	}
	if h := forwardedBy(r); h != "" && !s.viaTrusted(r) {
		// A reverse proxy on this machine relays everyone's requests from
		// a loopback address: the request is not this machine's own.
		return refuse(http.StatusForbidden, "create-forbidden", "this request came through a proxy (it has %s) from a client whose address this server does not know, so it is not taken as this machine's own: matches are created from this machine only; behind a reverse proxy, start the server with --trusted-proxy ADDR (the proxy's address), or with --create-secret FILE", h)
	}
	if h := forwardedBy(r); h != "" {
		if _, ok := s.forwardedFor(r); !ok {
			// The trusted proxy relays for a client it does not name: its
			// own loopback address is not the client's.
			return refuse(http.StatusForbidden, "create-forbidden", "this request came through a trusted proxy (it has %s) whose X-Forwarded-For does not name its client by address, so it is not taken as this machine's own: have the proxy send X-Forwarded-For, or start the server with --create-secret FILE", h)
		}
	}
	return nil
}

// quoteHeader quotes a header's value for a message, cut to 64 characters
// between whole ones; "none" when it is not there.
func quoteHeader(v string) string {
	if v == "" {
		return "none"
	}
	if cut := wrap.FirstRunes(v, 64); len(cut) < len(v) {
		return strconv.Quote(cut) + "…"
	}
	return strconv.Quote(v)
}

// HashSecret returns the stored form of a secret: its SHA-256, hex.
func HashSecret(secret string) string { return hashSecret(secret) }
