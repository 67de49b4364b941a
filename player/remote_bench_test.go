package player_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/player"
)

// starter builds the Go starter bot once.
var starter = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "arbiter-starter")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "starter")
	if out, err := exec.Command("go", "build", "-o", bin, "../starters/go").CombinedOutput(); err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return bin, nil
})

type tinyView struct {
	Turn int `json:"turn"`
}

// BenchmarkRoundTrip measures one decision of an external program that
// answers at once (the Go starter): the request written, the answer read
// and decoded. It reports the median.
func BenchmarkRoundTrip(b *testing.B) {
	bin, err := starter()
	if err != nil {
		b.Fatal(err)
	}
	r := player.NewRemote[json.RawMessage, tinyView]("exec:"+bin, player.External{Logs: &player.Logs{Dir: b.TempDir()}})
	info := engine.MatchInfo{Ruleset: "tiny", Seed: 1, Players: []string{"a", "b"}, Seat: 1,
		Time: engine.TimeControl{Deadline: time.Second, StartDeadline: 10 * time.Second}}
	ctx := context.Background()
	if err := r.Start(ctx, info); err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	req := &engine.Request[json.RawMessage]{Seat: 1, Kind: "turn", Deadline: time.Second,
		Choices: []json.RawMessage{json.RawMessage(`"conquer"`), json.RawMessage(`"develop"`)}, Default: json.RawMessage(`"conquer"`)}
	times := make([]time.Duration, 0, 1<<16)
	for i := 0; b.Loop(); i++ {
		req.ID = int64(i)
		t0 := time.Now()
		if _, err := r.Decide(ctx, req, tinyView{Turn: i}); err != nil {
			b.Fatal(err)
		}
		if len(times) < cap(times) {
			times = append(times, time.Since(t0))
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e3, "µs-median")
}

// BenchmarkExternalGame plays a full 100-turn AjveCiv game with six
// external bots (the Go starter), programs started and stopped included.
func BenchmarkExternalGame(b *testing.B) {
	bin, err := starter()
	if err != nil {
		b.Fatal(err)
	}
	logs := b.TempDir()
	rules := ajveciv.Original()
	setup := engine.Setup{Players: make([]string, 6)}
	seats := make([]engine.Seat[ajveciv.Value, ajveciv.View], 6)
	for i := range seats {
		setup.Players[i] = "starter"
		seats[i] = engine.Seat[ajveciv.Value, ajveciv.View]{Name: "starter", Deadline: time.Second,
			Player: player.NewRemote[ajveciv.Value, ajveciv.View]("exec:"+bin, player.External{Logs: &player.Logs{Dir: logs}})}
	}
	var runner engine.Runner[ajveciv.Value, ajveciv.View]
	ctx := context.Background()
	var seed uint64
	for b.Loop() {
		seed++
		setup.Seed = seed
		m, err := rules.New(setup)
		if err != nil {
			b.Fatal(err)
		}
		rec := engine.NewRecord[ajveciv.Value](rules.Info(), setup)
		if err := runner.Run(ctx, m, seats, rec); err != nil {
			b.Fatal(err)
		}
		if f := rec.Faults(); len(f) > 0 {
			b.Fatalf("faults: %+v", f[0])
		}
	}
}
