package catalog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/livetest"
)

// judgeScripts are judge's moves for the modes whose every move is the
// judge's, by the ruleset's name: some the rules refuse.
var judgeScripts = map[string][]string{
	"zombie": {`"ZOMBIE Ann"`, `"HUMAN Bob 2"`, `"HUMAN Cat"`, `"HUMAN Nobody"`, `"HUMAN Dan 3"`, `"HUMAN Eve"`, `"GAME_START 4 antibodies=1 viruses=2"`,
		`"INTERACT Ann/v1 Bob/p"`, `"INTERACT Bob Cat"`, `"END_TURN Bob"`, `"INTERACT Dan/p Eve"`, `"INTERACT Cat Eve"`, `"NEXT_TURN"`,
		`"INTERACT Ann/v2 Dan/p"`, `"INTERACT Ann Bob"`, `"CURE Cat"`, `"INTERACT Bob/p Cat"`, `"INTERACT Eve Dan"`, `"NEXT_TURN"`,
		`"INTERACT Ann Bob"`, `"INTERACT Bob Cat"`, `"INTERACT Dan Eve"`, `"END_TURN Bob"`, `"END_TURN Cat"`, `"NEXT_TURN"`,
		`"INTERACT Ann/v1 Eve"`, `"INTERACT Bob Dan"`, `"INTERACT Cat Ann"`, `"NEXT_TURN"`},
	"territories": {`{"player":"alice","action":"join Amber CA"}`, `{"player":"bob","action":"join Basalt NV"}`,
		`{"player":"bob","action":"join Cobalt UT"}`, `{"player":"carol","action":"join Cobalt UT"}`,
		`{"player":"bob","action":"raise NV"}`, `{"player":"bob","action":"raise NV"}`, `{"player":"carol","action":"raise UT"}`,
		`{"player":"alice","action":"raise CA"}`, `{"player":"alice","action":"attack CA NV"}`, `{"player":"carol","action":"attack UT NV"}`,
		`{"player":"bob","action":"attack NV CA"}`, `{"player":"alice","action":"attack CA NV"}`, `{"player":"bob","action":"move NV OR"}`,
		`{"player":"carol","action":"attack UT NV"}`, `{"player":"alice","action":"attack CA NV"}`, `{"player":"alice","action":"color #123456"}`,
		`{"player":"carol","action":"attack UT NV"}`, `{"player":"bob","action":"attack OR CA"}`, `{"player":"carol","action":"raise UT"}`},
}

// liveOptions are the options of the matches that would be over too soon
// without them.
var liveOptions = map[string]map[string]string{"zombie/party": {"antibodies": "3", "turns": "8"}}

// TestLiveRestoresTheMatchAsItStands: a live match restored from its
// snapshot (RestoreLive, with the LiveSetup of NewLive) is the match: at
// every step of every game in every mode it shows the same views, public
// view, requests, end and hash, and a snapshot of the same bytes; and
// played on with the same moves, both the match restored the step before
// and the one restored at the start stay the same.
func TestLiveRestoresTheMatchAsItStands(t *testing.T) {
	ctx := context.Background()
	livetest.EachMode(t, func(t *testing.T, lg catalog.LiveGame, mode catalog.Mode, info engine.Info) {
		players := livetest.People(max(info.MinSeats, 5))
		if info.MaxSeats == 0 {
			players = nil
		}
		setup := catalog.LiveSetup{Setup: engine.Setup{Seed: 7, Players: players, Options: liveOptions[info.Name+"/"+mode.Name]},
			Mode: mode.Name, Names: []string{"Ann", "Bob", "Cat", "Dan", "Eve"}}
		live := livetest.Start(t, lg, setup)
		restore := func(step int) catalog.Live {
			snap, err := live.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			back, err := lg.RestoreLive(ctx, setup, snap)
			if err != nil {
				t.Fatalf("step %d: RestoreLive: %v", step, err)
			}
			return back
		}
		first := restore(0)
		defer first.Close()
		rng := rand.New(rand.NewPCG(1, 2))
		script := judgeScripts[info.Name]
		for step := 0; step < 60 && !live.Over(); step++ {
			back := restore(step)
			sameLive(t, step, "restored", back, live)
			seat, move, ok := nextLiveMove(rng, live, mode.Judge, script, step)
			if !ok {
				break
			}
			err := live.Apply(seat, move)
			for _, x := range []catalog.Live{back, first} {
				if e := x.Apply(seat, move); fmt.Sprint(e) != fmt.Sprint(err) {
					t.Fatalf("step %d: %s by %d: the original says %v, a restored match %v", step, move, seat, err, e)
				}
			}
			sameLive(t, step, "restored the step before", back, live)
			sameLive(t, step, "restored at the start", first, live)
			back.Close()
		}
	})
}

// nextLiveMove is the judge's next line of the script in a judge's mode;
// else a random choice (or the default) of a random pending request.
func nextLiveMove(rng *rand.Rand, live catalog.Live, judge bool, script []string, step int) (int, json.RawMessage, bool) {
	if judge {
		if step >= len(script) {
			return 0, nil, false
		}
		return engine.Judge, json.RawMessage(script[step]), true
	}
	return livetest.RandomMove(rng, live)
}

// sameLive fails unless got shows what want shows.
func sameLive(t *testing.T, step int, which string, got, want catalog.Live) {
	t.Helper()
	parts := func(l catalog.Live) map[string][]byte {
		p := map[string][]byte{"the public view": l.Public(), "the judge's view": l.View(engine.Judge)}
		for s := range l.Seats() {
			p[fmt.Sprintf("seat %d's view", s)] = l.View(s)
		}
		p["the requests"], _ = json.Marshal(l.Pending())
		p["the result"], _ = json.Marshal(struct {
			Over   bool
			Result engine.Result
		}{l.Over(), l.Result()})
		h, err := l.Hash()
		p["the hash"] = []byte(fmt.Sprint(h, err))
		snap, err := l.Snapshot()
		p["the snapshot"] = append(snap, fmt.Sprint(err)...)
		return p
	}
	g, w := parts(got), parts(want)
	for what, b := range w {
		if !bytes.Equal(g[what], b) {
			t.Fatalf("after move %d, the match %s differs in %s:\n%.500s\nwant\n%.500s", step, which, what, g[what], b)
		}
	}
}
