package server

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/player"
)

func TestBotAddressesOffTheInternet(t *testing.T) {
	// "Bot URLs that name or resolve to a private, loopback or link-local
	// address are refused": and so are the ranges that reach no public
	// host, or reach one through a translator on the server's own network.
	for addr, want := range map[string]bool{
		"127.0.0.1": true, "10.1.2.3": true, "192.168.0.9": true, "172.16.5.5": true, "169.254.169.254": true,
		"100.64.0.1": true, "0.0.0.0": true, "0.1.2.3": true, "198.18.0.1": true, "198.19.255.255": true,
		"240.0.0.1": true, "255.255.255.255": true, "192.0.2.7": true, "::1": true, "fd00::1": true, "fe80::1": true,
		"64:ff9b::a9fe:a9fe": true, "64:ff9b:1::1": true, "2002:7f00:1::1": true, "::ffff:127.0.0.1": true, "2001:db8::1": true,
		"1.1.1.1": false, "8.8.8.8": false, "100.128.0.1": false, "198.20.0.1": false, "2606:4700::1111": false, "93.184.216.34": false,
	} {
		if got := private(netip.MustParseAddr(addr)); got != want {
			t.Errorf("%s: off the internet %v; want %v", addr, got, want)
		}
	}
}

func FuzzForwardedFor(f *testing.F) {
	// X-Forwarded-For as a trusted proxy relays it: the client is one of
	// its addresses, the last that is no trusted proxy's (or the first),
	// or none when an entry where it would be is not an address; never a
	// panic.
	for _, h := range []string{"", "203.0.113.9", "203.0.113.9, 10.0.0.2", "10.0.0.2, 10.0.0.3", "203.0.113.9:4000", " , ", "::1, fe80::1%eth0", "x,,y"} {
		f.Add(h)
	}
	s := &Server{cfg: Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}}
	f.Fuzz(func(t *testing.T, header string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("X-Forwarded-For", header)
		client, ok := s.forwardedFor(r)
		if !ok {
			return
		}
		hops := strings.Split(r.Header.Get("X-Forwarded-For"), ",")
		found := false
		for _, h := range hops {
			if a, err := netip.ParseAddr(strings.TrimSpace(h)); err == nil && a == client {
				found = true
			}
		}
		if !found {
			t.Fatalf("client %v is none of %q", client, header)
		}
	})
}

func TestBotClientBoundsAnswersHeaders(t *testing.T) {
	// A bot's answer is read with its headers bounded as the CLI bounds
	// them (player.MaxAnswerHeader), not by Go's 10 MB.
	for _, private := range []bool{false, true} {
		tr, ok := botClient(private).Transport.(*http.Transport)
		if !ok || tr.MaxResponseHeaderBytes != player.MaxAnswerHeader {
			t.Errorf("botClient(%v): headers bounded by %v; want %d", private, tr, player.MaxAnswerHeader)
		}
	}
}

func TestARefusalForSpeedSaysOneWait(t *testing.T) {
	// A 429's message and its retry_after_ms say the same wait, the first
	// whole millisecond past it: a wait under half a millisecond was told
	// as "wait 0s" beside retry_after_ms 1, and 1.7 ms as "wait 2ms"
	// beside 2, 12 ms as "wait 12ms" beside 13.
	for _, c := range []struct {
		wait time.Duration
		ms   string
	}{{300 * time.Microsecond, "1"}, {1700 * time.Microsecond, "2"}, {12 * time.Millisecond, "13"}, {2500 * time.Millisecond, "2501"}} {
		rec := httptest.NewRecorder()
		s := &Server{log: slog.New(slog.DiscardHandler)}
		s.writeError(rec, httptest.NewRequest("POST", "/api/v1/matches/x/moves", nil), rateLimited(c.wait, "too fast"))
		var got struct {
			Error struct {
				Message string `json:"message"`
				Retry   int64  `json:"retry_after_ms"`
			} `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if want := "too fast; wait " + c.ms + "ms"; got.Error.Message != want && !(c.ms == "2501" && got.Error.Message == "too fast; wait 2.501s") ||
			strconv.FormatInt(got.Error.Retry, 10) != c.ms {
			t.Errorf("a wait of %v: %q, retry_after_ms %d; want %s ms in both", c.wait, got.Error.Message, got.Error.Retry, c.ms)
		}
	}
}
