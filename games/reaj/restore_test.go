package reaj

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/engine/enginetest"
)

// restoreSetups are the games the restore tests play, to the end.
var restoreSetups = []engine.Setup{
	{Players: []string{"a", "b"}, Options: map[string]string{"turns": "40"}},
	{Players: []string{"a", "b", "c", "d", "e", "f", "g"}, Options: map[string]string{"turns": "25"}},
	{Players: []string{"a", "b", "c", "d"}, Options: map[string]string{"turns": "30"}},
}

// TestRestore: at every step of random games a match restored from its
// snapshot is the original, and plays on as it does.
func TestRestore(t *testing.T) {
	for i, setup := range restoreSetups {
		for seed := range uint64(3) {
			setup.Seed = 100*uint64(i) + seed
			t.Run(fmt.Sprintf("%d-seats/seed-%d", setup.Seats(), setup.Seed), func(t *testing.T) {
				enginetest.CheckRestore(t, Game{}, setup, enginetest.Options[Value, View]{Seed: seed, Steps: 400})
			})
		}
	}
}

// TestRestoreRefusesAnotherGame: a snapshot is restored only under the
// setup of its match.
func TestRestoreRefusesAnotherGame(t *testing.T) {
	setup := restoreSetups[0]
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	snap, _ := m.MarshalJSON()
	other := setup
	other.Options = map[string]string{"turns": "41"}
	if _, err := (Game{}).Restore(other, snap); err == nil {
		t.Error("a snapshot of a 40-turn game restored as a 41-turn one")
	}
}

// FuzzRestore: a damaged snapshot is refused, or restores a match that
// plays on; never a panic.
func FuzzRestore(f *testing.F) {
	setup := engine.Setup{Seed: 7, Players: []string{"a", "b", "c", "d"}, Options: map[string]string{"turns": "20"}}
	o := enginetest.Options[Value, View]{Seed: 1, Steps: 200}
	snaps, err := enginetest.Snapshots(Game{}, setup, o, 12)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range snaps {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		enginetest.CheckDamaged(t, Game{}, setup, data, o)
	})
}

// BenchmarkRestore: resuming a six-society match at turn 500 of 1000,
// from its snapshot or by replaying its moves. The societies mostly adapt,
// so that they live.
func BenchmarkRestore(b *testing.B) {
	setup := engine.Setup{Seed: 1, Players: make([]string, 6), Options: map[string]string{"turns": "1000"}}
	adapt := func(r *rand.Rand, m engine.Match[Value, View]) (int, Value, bool) {
		q := m.Pending()
		if len(q) == 0 {
			return 0, None, false
		}
		if r.IntN(4) == 0 {
			return q[0].Seat, AllValues[r.IntN(NumValues)], true
		}
		return q[0].Seat, Adapt, true
	}
	enginetest.BenchRestore(b, Game{}, setup, enginetest.Options[Value, View]{Seed: 1, Steps: 3000, Move: adapt})
}
