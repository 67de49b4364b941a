package main

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
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

func TestServeRefusesLimitsAndOriginsItCannotKeep(t *testing.T) {
	// A limit of 0 or less (or NaN) was taken for the default, silently,
	// and a --public-url with a path, query, fragment or user made links
	// that reach no page (http://x/club/?a=1/m/ID#s=...). Each is refused
	// before the server opens its database or listens (the address given
	// here would fail, and say so, if it were reached), saying what to
	// give; a user's password is not repeated.
	db := filepath.Join(t.TempDir(), "live.db")
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--max-body", "0"}, "--max-body 0: give the largest body in bytes, 1 or more"},
		{[]string{"--max-body", "-1"}, "--max-body -1: give"},
		{[]string{"--moves-per-second", "-5"}, "--moves-per-second -5: give a number above 0"},
		{[]string{"--moves-per-second", "NaN"}, "--moves-per-second NaN: give a number above 0"},
		{[]string{"--creates-per-minute", "0"}, "--creates-per-minute 0: give a number above 0"},
		{[]string{"--creates-per-minute", "NaN"}, "--creates-per-minute NaN: give"},
		{[]string{"--max-streams", "-3"}, "--max-streams -3: give 1 or more"},
		{[]string{"--max-uploads", "0"}, `--max-uploads "0": give a size above 0 such as 256MiB or 1GiB`},
		{[]string{"--max-uploads", "lots"}, `--max-uploads "lots": give a size above 0`},
		{[]string{"--keep", "-1h"}, "--keep -1h0m0s: give a duration, or 0 to keep every match"},
		{[]string{"--public-url", "http://club.example/arbiter"}, `--public-url "http://club.example/arbiter": give an origin`},
		{[]string{"--public-url", "http://club.example/?a=1"}, `--public-url "http://club.example/?a=1": give an origin`},
		{[]string{"--public-url", "http://club.example#x"}, `--public-url "http://club.example#x": give an origin`},
		{[]string{"--public-url", "http://me:Alpha7Bravo8@club.example"}, `--public-url "http://xxxxx@club.example": give an origin`},
		{[]string{"--public-url", "http://me:Alpha7 Bravo8%zz@club.example"}, `--public-url "xxxxx@club.example": give an origin`},
		{[]string{"--public-url", "ftp://club.example"}, `--public-url "ftp://club.example": give an origin`},
	} {
		args := append([]string{"serve", "--db", db, "--addr", "127.0.0.1:notaport"}, c.flags...)
		code, _, errOut := arbiter(t, "", args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "Alpha7Bravo8") {
			t.Errorf("serve %v: exit %d, said %q; want 2 and %q", c.flags, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("the database was made")
	}
	// What an operator writes for an origin is still taken.
	for _, u := range []string{"http://192.168.1.20:8080", "https://arbiter.example/"} {
		code, _, errOut := arbiter(t, "", "serve", "--db", db, "--addr", "127.0.0.1:notaport", "--public-url", u)
		if code != 2 || !strings.Contains(errOut, "--addr 127.0.0.1:notaport") {
			t.Errorf("--public-url %s: exit %d, said %q; want it taken (and the address refused)", u, code, errOut)
		}
	}
}

func TestServeRefusesACertificateItCannotRead(t *testing.T) {
	// A certificate or key that does not load was found only once the
	// server had said it served (https://...) and resumed its matches: it
	// ended with exit 3 and the TLS library's words. It is refused first,
	// as a flag, before the database is opened.
	dir := t.TempDir()
	db := filepath.Join(dir, "live.db")
	bad := filepath.Join(dir, "cert.pem")
	if err := os.WriteFile(bad, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, files := range [][2]string{{bad, bad}, {filepath.Join(dir, "none.pem"), bad}} {
		code, _, errOut := arbiter(t, "", "serve", "--db", db, "--addr", "127.0.0.1:notaport", "--tls-cert", files[0], "--tls-key", files[1])
		if code != 2 || !strings.Contains(errOut, "--tls-cert "+files[0]+", --tls-key "+files[1]+": ") || strings.Contains(errOut, "https://") {
			t.Errorf("--tls-cert %s --tls-key %s: exit %d, said %q", files[0], files[1], code, errOut)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("the database was made")
	}
}

func TestServeRefusesTheOtherDatabasesFlags(t *testing.T) {
	// --synchronous is SQLite's and --lease is for servers sharing a
	// PostgreSQL database: each was taken with the other database and
	// changed nothing, as --archive was with --keep 0. Each is refused before the database is opened or
	// the address listened on.
	db := filepath.Join(t.TempDir(), "live.db")
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--db", "postgres://arbiter@127.0.0.1:1/arbiter", "--synchronous", "NORMAL"}, "--synchronous has no effect on a PostgreSQL database"},
		{[]string{"--db", "postgresql://arbiter@127.0.0.1:1/arbiter", "--synchronous", "FULL"}, "--synchronous has no effect on a PostgreSQL database"},
		{[]string{"--db", db, "--lease", "5s"}, "--lease has no effect on an SQLite database"},
		// --keep 0 archives nothing: the directory was never written.
		{[]string{"--db", db, "--keep", "0", "--archive", "old"}, "--archive old has no effect with --keep 0: every match stays in the database for good, and nothing is archived; give --keep DURATION"},
		{[]string{"--db", db, "--keep", "0s", "--archive", "archive"}, "--archive archive has no effect with --keep 0"},
	} {
		code, _, errOut := arbiter(t, "", append([]string{"serve", "--addr", "127.0.0.1:notaport"}, c.flags...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("serve %v: exit %d, said %q; want 2 and %q", c.flags, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("the database was made")
	}
	// Each with its own database is taken (and the address refused).
	code, _, errOut := arbiter(t, "", "serve", "--addr", "127.0.0.1:notaport", "--db", db, "--synchronous", "NORMAL")
	if code != 2 || !strings.Contains(errOut, "--addr 127.0.0.1:notaport") {
		t.Errorf("--synchronous NORMAL on SQLite: exit %d, said %q; want it taken", code, errOut)
	}
}

func TestServeOnTheNetworkSaysWhichLinksPhonesOpen(t *testing.T) {
	// A game master who started arbiter serve --addr 0.0.0.0:8080 without
	// --public-url, and started the match from this machine's browser as
	// the README says, handed out links to http://127.0.0.1:8080 that no
	// phone opens, and nothing said so. The server now says it at start,
	// with the --public-url to give.
	reached := []string{"http://127.0.0.1:8080", "http://192.168.1.20:8080", "http://[fd00::2]:8080"}
	note := networkLinksNote(reached)
	for _, want := range []string{"links that begin http://127.0.0.1:8080", "--public-url http://192.168.1.20:8080"} {
		if !strings.Contains(note, want) {
			t.Errorf("the note %q lacks %q", note, want)
		}
	}
	// A server on one address (the loopback by default) has no network
	// links to speak of.
	if note := networkLinksNote([]string{"http://127.0.0.1:8080"}); note != "" {
		t.Errorf("a server on the loopback only says %q", note)
	}
}

func TestServeOnATakenAddressSaysWhatToDo(t *testing.T) {
	// The default port, 8080, is often taken: arbiter serve said only
	// "bind: address already in use", leaving the newcomer to find the
	// flag and a port. It now says that another program listens there and
	// names the next port's --addr.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	if port == 65535 {
		t.Skip("the next port would not be one")
	}
	addr := ln.Addr().String()
	db := filepath.Join(t.TempDir(), "live.db")
	code, _, errOut := arbiter(t, "", "serve", "--db", db, "--addr", addr)
	want := "--addr " + addr + ": another program (another arbiter serve, perhaps) already listens there; stop it, or give another port, such as --addr 127.0.0.1:" + strconv.Itoa(port+1)
	if code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, said %q; want 2 and %q", code, errOut, want)
	}
	// Nor is a database left behind by a server that never listened.
	if _, err := os.Stat(db); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was made by a server that could not listen (%v)", db, err)
	}
}
