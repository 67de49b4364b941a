package server

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
)

// A server on a loopback address (127.0.0.1:8080, the default) answers
// only requests that name this machine. A web page anywhere can make its
// own name lead to 127.0.0.1 (DNS rebinding: its name's address changes
// once the page is loaded); the browser then sends that page's requests
// to this server as requests of the page's own site, whose Origin matches
// their Host, and from this machine's address, which may create matches.
// Such a request names the page's site in its Host header: on a
// connection that came to a loopback address, a Host that is not one of
// this machine's names (localhost or a name under it, a loopback address,
// the machine's host name) or the host of --public-url is refused, on
// every path (the API and the pages alike). A page cannot be given one of
// these names: browsers take localhost and every name under it for this
// machine without asking DNS, and the host name is this machine's own
// (which its resolver often leads to a loopback address: 127.0.1.1 on
// Debian, 127.0.0.1 or 127.0.0.2 with systemd's nss-myhostname).

// hostGuard refuses the requests that came to a loopback address under
// another name (checkHost), before next sees them.
func (s *Server) hostGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.checkHost(r); err != nil {
			// Its body, if any, is not read (nor waited for): the
			// connection closes after the answer.
			w.Header().Set("Connection", "close")
			s.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkHost refuses r if it came to the server at a loopback address
// and its Host names neither this machine nor --public-url's host: 421
// misdirected, saying what was named and what is answered.
func (s *Server) checkHost(r *http.Request) error {
	at, ok := arrivedAt(r)
	local := at.Addr()
	if !ok || !local.IsLoopback() || r.Host == "" {
		// Another interface (a phone on the LAN names the address it
		// reached), or no Host at all (HTTP/1.0: not a browser's page).
		return nil
	}
	host, ok := hostOf(r.Host)
	if ok && (host == "localhost" || strings.HasSuffix(host, ".localhost") || isLoopbackLiteral(host) ||
		s.machineName != "" && host == s.machineName || s.publicHost != "" && host == s.publicHost) {
		return nil
	}
	name, also := "", ""
	if s.machineName != "" && s.machineName != "localhost" {
		name = " and to its name, " + s.machineName
	}
	if s.publicHost != "" {
		also = ", and " + s.publicHost + " (--public-url)"
	}
	return refuse(http.StatusMisdirectedRequest, "misdirected",
		"this request came to the server at this machine's own address (%s), under the name %s (its Host header): a server on this machine answers only to localhost, 127.0.0.1 and [::1]%s, with any port%s, so that a web page whose name is made to lead here (DNS rebinding) reaches nothing; open it as http://%s/, or, to reach it under another name (a reverse proxy's, a name in /etc/hosts), start it with --public-url http://NAME:PORT",
		local, quoteHeader(r.Host), name, also, at)
}

// arrivedAt is the local address r's connection came to, and its port.
func arrivedAt(r *http.Request) (netip.AddrPort, bool) {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return netip.AddrPort{}, false
	}
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return netip.AddrPort{}, false
	}
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), true
}

// hostOf is the host a Host header names, without its port, in lower case
// and without a final dot; an IPv6 address without its brackets. It is
// false for a header that is not a host (and port): empty, with a bracket
// left in its host, or with an empty last label ("a..").
func hostOf(h string) (string, bool) {
	host := h
	switch {
	case strings.HasPrefix(h, "["):
		end := strings.IndexByte(h, ']')
		if end < 0 || end+1 < len(h) && h[end+1] != ':' {
			return "", false
		}
		host = h[1:end]
	case strings.Count(h, ":") == 1:
		host, _, _ = strings.Cut(h, ":")
	case strings.Contains(h, ":"):
		return "", false // an IPv6 address without its brackets
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	return host, host != "" && !strings.HasSuffix(host, ".") && !strings.ContainsAny(host, "[]")
}

// isLoopbackLiteral reports whether host is a loopback address written
// as one (127.0.0.1, ::1): a name a page cannot make its own.
func isLoopbackLiteral(host string) bool {
	a, err := netip.ParseAddr(host)
	return err == nil && a.Zone() == "" && a.Unmap().IsLoopback()
}

// machineName is this machine's host name, as hostOf writes a host; ""
// when it has none that a Host header could name.
func machineName() string {
	name, err := os.Hostname()
	if err != nil {
		return ""
	}
	h, ok := hostOf(name)
	if !ok || strings.ContainsAny(h, ":[]") {
		return ""
	}
	return h
}

// publicHostOf is the host of a --public-url, as hostOf writes it; "" for
// none.
func publicHostOf(publicURL string) string {
	u, err := url.Parse(publicURL)
	if publicURL == "" || err != nil || u.Host == "" {
		return ""
	}
	h, _ := hostOf(u.Host)
	return h
}
