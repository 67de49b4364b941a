package main

import (
	"net"
	"strings"
	"testing"
)

func TestServeSaysWhereItIsReached(t *testing.T) {
	// A server on every interface (--addr 0.0.0.0:8080, for phones on the
	// same network) says the addresses that reach it, not "[::]".
	got := reachable("http", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080})
	if got[0] != "http://127.0.0.1:8080" {
		t.Errorf("reachable at %v; want this machine's loopback first", got)
	}
	for _, u := range got {
		if strings.Contains(u, "[::]") || strings.Contains(u, "0.0.0.0") {
			t.Errorf("reachable at %v: %s reaches nothing", got, u)
		}
	}
	if got := reachable("https", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9}); len(got) != 1 || got[0] != "https://127.0.0.1:9" {
		t.Errorf("a server on one address: %v", got)
	}
}
