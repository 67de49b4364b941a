package ajveciv

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

var updateBoards = flag.Bool("update-boards", false, "rewrite testdata/boards.txt")

// TestBoardsUnchanged keeps the boards people and reports read, byte for
// byte: the world and every seat's view at several turns of games of 2 to
// 20 societies, with short, long and no player names, compared with
// testdata/boards.txt.
func TestBoardsUnchanged(t *testing.T) {
	var b strings.Builder
	for _, n := range []int{2, 3, 6, 7, 12, 20} {
		for _, names := range []string{"short", "long"} {
			players := make([]string, n)
			for i := range players {
				players[i] = fmt.Sprintf("basic.%v", Value(i%NumValues))
				if names == "long" {
					players[i] = fmt.Sprintf("exec:python3 /home/someone/bots/a-very-long-bot-name-%d.py", i)
				}
			}
			m, err := Original().NewMatch(engine.Setup{Seed: uint64(n), Players: players, Options: map[string]string{"turns": "40"}})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(2, uint64(n)))
			for round := 0; !m.Over(); round++ {
				if round%9 == 0 {
					fmt.Fprintf(&b, "== %d societies, %s names, round %d\n%s", n, names, round, m.World().String())
					for _, seat := range []int{0, n - 1} {
						fmt.Fprintf(&b, "-- seat %d\n%s", seat+1, m.View(seat).String())
					}
				}
				for _, r := range m.Pending() {
					if err := m.Apply(r.Seat, r.Choices[rng.IntN(len(r.Choices))]); err != nil {
						t.Fatal(err)
					}
				}
			}
			fmt.Fprintf(&b, "== %d societies, %s names, the end\n%s-- seat 1\n%s", n, names, m.World().String(), m.View(0).String())
		}
	}
	path := filepath.Join("testdata", "boards.txt")
	if *updateBoards {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d of the boards differs:\n got %q\nwant %q", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("the boards have %d lines; want %d", len(gl), len(wl))
	}
}
