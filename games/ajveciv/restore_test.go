package ajveciv

import (
	"fmt"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// restoreSetups are the games the restore tests play: few seats and many,
// with inflections and without, to the end.
var restoreSetups = []engine.Setup{
	{Players: []string{"a", "b"}, Options: map[string]string{"turns": "25"}},
	{Players: []string{"a", "b", "c", "d", "e", "f"}, Options: map[string]string{"turns": "21"}},
	{Players: []string{"a", "b", "c", "d"}, Options: map[string]string{"turns": "30", "inflections": "false"}},
	{Players: []string{"a", "b", "c"}, Options: map[string]string{"turns": "11"}},
}

// TestRestore: "snapshot: JSON round trip of the full state (turn, RNG,
// world, pending)". At every step of random games a match restored from
// its snapshot is the original, and plays on as it does.
func TestRestore(t *testing.T) {
	for i, setup := range restoreSetups {
		for seed := range uint64(3) {
			setup.Seed = 100*uint64(i) + seed
			t.Run(fmt.Sprintf("%d-seats/%s/seed-%d", setup.Seats(), setup.Options["turns"], setup.Seed), func(t *testing.T) {
				enginetest.CheckRestore(t, Original(), setup, enginetest.Options[Value, View]{Seed: seed, Steps: 400})
			})
		}
	}
}

// TestRestoreRefusesAnotherGame: a snapshot is restored only under the
// setup of its match.
func TestRestoreRefusesAnotherGame(t *testing.T) {
	setup := restoreSetups[0]
	m, err := Original().NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := m.MarshalJSON()
	other := setup
	other.Options = map[string]string{"turns": "26"}
	if _, err := Original().Restore(other, snap); err == nil {
		t.Error("a snapshot of a 25-turn game restored as a 26-turn one")
	}
	flood := Game{Variant: "flood", Rules: OriginalRules{}}
	if _, err := flood.Restore(setup, snap); err == nil {
		t.Error("a snapshot of the original world restored as another")
	}
}

// FuzzRestore: a damaged snapshot is refused, or restores a match that
// plays on; never a panic.
func FuzzRestore(f *testing.F) {
	setup := engine.Setup{Seed: 7, Players: []string{"a", "b", "c", "d"}, Options: map[string]string{"turns": "21"}}
	o := enginetest.Options[Value, View]{Seed: 1, Steps: 200}
	snaps, err := enginetest.Snapshots(Original(), setup, o, 12)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range snaps {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.CheckDamaged(t, Original(), setup, data, o)
	})
}

// BenchmarkRestore: resuming a six-society match at about turn 500 of
// 1000, from its snapshot or by replaying its moves.
func BenchmarkRestore(b *testing.B) {
	setup := engine.Setup{Seed: 1, Players: make([]string, 6), Options: map[string]string{"turns": "1000"}}
	enginetest.BenchRestore(b, Original(), setup, enginetest.Options[Value, View]{Seed: 1, Steps: 3300})
}
