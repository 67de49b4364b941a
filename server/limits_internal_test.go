package server

import (
	"net/netip"
	"testing"
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
