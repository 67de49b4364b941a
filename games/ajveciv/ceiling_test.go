package ajveciv

import (
	"flag"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

var ceiling = flag.Int("guide.ceiling", 0, "pairs of games TestDevelopRaceCeiling plays per list (0 skips it)")

// TestDevelopRaceCeiling shows why no player wins 90% head to head against
// basic.develop and basic2.develop-consent: it plays every one of the 720
// full lists of priorities against them, and a seer that sees every offer
// to come (it plays each choice out on a copy of the real match, its dice
// included, against the opponent's real play, and takes the best). Run it
// with
//
//	go test ./games/ajveciv -run DevelopRaceCeiling -v -guide.ceiling 200
func TestDevelopRaceCeiling(t *testing.T) {
	if *ceiling == 0 {
		t.Skip("set -guide.ceiling N to play N pairs per list")
	}
	for _, name := range []string{"basic.develop", "basic2.develop-consent"} {
		es, err := Bots(name)
		if err != nil {
			t.Fatal(err)
		}
		opponent := func() AI { return aiOf(es[0]) }
		best, bestRate := []Value(nil), 0.0
		for _, l := range permutations(AllValues[:]) {
			if r := headToHead(func() AI { return Priority(l...) }, opponent, *ceiling); r > bestRate {
				best, bestRate = l, r
			}
		}
		seer := headToHead(func() AI { return &seer{opponent: aiOf(es[0])} }, opponent, *ceiling)
		guide := headToHead(func() AI { return NewGuide() }, opponent, *ceiling)
		t.Logf("against %s, %d games each: the best of the 720 lists %v wins %.1f%%, the seer %.1f%%, the guide %.1f%%",
			name, 2**ceiling, best, 100*bestRate, 100*seer, 100*guide)
	}
}

// aiOf returns the AI behind a basic entrant.
func aiOf(e Entrant) AI {
	p := e.New()
	if a, ok := p.(AI); ok {
		return a
	}
	return p.(*aiPlayer).ai
}

// permutations lists every order of vs.
func permutations(vs []Value) [][]Value {
	if len(vs) <= 1 {
		return [][]Value{slices.Clone(vs)}
	}
	var out [][]Value
	for i := range vs {
		rest := slices.Concat(vs[:i], vs[i+1:])
		for _, p := range permutations(rest) {
			out = append(out, append([]Value{vs[i]}, p...))
		}
	}
	return out
}

// headToHead returns a's share of the wins in pairs pairs of two-seat
// games against b, seats swapped on the same seed.
func headToHead(a, b func() AI, pairs int) float64 {
	wins := 0.0
	for g := range pairs {
		seed := uint64(7000 + g)
		wins += winShare(quickGame(seed, []AI{a(), b()}), 0)
		wins += winShare(quickGame(seed, []AI{b(), a()}), 1)
	}
	return wins / float64(2*pairs)
}

// quickGame plays one game of ais, in seat order, on the match itself,
// each seat answering in turn, and returns its result.
func quickGame(seed uint64, ais []AI) engine.Result {
	names := make([]string, len(ais))
	m, err := Original().NewMatch(engine.Setup{Seed: seed, Players: names})
	if err != nil {
		panic(err)
	}
	for i, ai := range ais {
		if in, ok := ai.(AIInitializer); ok {
			in.Init(engine.MatchInfo{Seat: i, Seed: engine.SeatSeed(seed, i), Players: names})
		}
	}
	for !m.Over() {
		for _, r := range slices.Clone(m.Pending()) {
			if err := m.Apply(r.Seat, decideWith(ais[r.Seat], m.View(r.Seat), r.Default)); err != nil {
				panic(err)
			}
		}
	}
	return m.Result()
}

// decideWith asks ai for its choice in v, or def when it answers nothing
// offered.
func decideWith(ai AI, v View, def Value) Value {
	var c Value
	if v.Inflection() {
		c, _ = ai.Inflection(v)
	} else {
		c, _ = ai.Turn(v)
	}
	if !v.Offers(c) {
		return def
	}
	return c
}

// seer sees the real match's future: it plays every offered choice out on
// a clone of the match, the real dice included, with the opponent's real
// play and its own rule of thumb (the guide's) after the choice, and takes
// the choice that wins, and wins by most. It cheats; it is a bound.
type seer struct {
	opponent AI
	own      Guide
}

func (s *seer) pick(v View) Value {
	best, bestScore := None, 0.0
	for _, c := range v.Offered() {
		m := v.m.CloneMatch()
		if err := m.Apply(v.you, c); err != nil {
			panic(err)
		}
		for !m.Over() {
			for _, r := range slices.Clone(m.Pending()) {
				w := m.View(r.Seat)
				x := s.own.own(w.offer(), w.m.living)
				if r.Seat != v.you {
					x = decideWith(s.opponent, w, r.Default)
				}
				if err := m.Apply(r.Seat, x); err != nil {
					panic(err)
				}
			}
		}
		res := m.Result()
		score := float64(res.Scores[v.you]-res.Scores[1-v.you]) / 1e6
		if res.Won(v.you) {
			score++
		}
		if best == None || score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

func (s *seer) Turn(v View) (Value, error)       { return s.pick(v), nil }
func (s *seer) Inflection(v View) (Value, error) { return s.pick(v), nil }

// TestBasicFieldCeiling shows why no player wins 85% of six-seat games
// against the field of the six basic AIs: in five games of six it meets
// basic.develop, and the develop race decides those as it does head to
// head. It plays every one of the 720 full lists of priorities, the
// planner and the guide in that field (the player and five of the six
// basics, each basic sitting out in turn, every seat), -guide.ceiling
// seeds each. Run it with
//
//	go test ./games/ajveciv -run BasicFieldCeiling -v -guide.ceiling 20
func TestBasicFieldCeiling(t *testing.T) {
	if *ceiling == 0 {
		t.Skip("set -guide.ceiling N to play N seeds per list")
	}
	es, err := Bots("basic")
	if err != nil {
		t.Fatal(err)
	}
	field := func(a func() AI) (rate, withDevelop float64) {
		wins, games, dwins, dgames := 0.0, 0, 0.0, 0
		for g := range *ceiling {
			seed := uint64(9000 + g)
			for out := range es {
				others := slices.Delete(slices.Clone(es), out, out+1)
				for seat := range 6 {
					ais := make([]AI, 0, 6)
					for _, e := range others {
						ais = append(ais, aiOf(e))
					}
					ais = slices.Insert(ais, seat, a())
					w := winShare(quickGame(seed, ais), seat)
					wins, games = wins+w, games+1
					if es[out].Name != "basic.develop" {
						dwins, dgames = dwins+w, dgames+1
					}
				}
			}
		}
		return wins / float64(games), dwins / float64(dgames)
	}
	best, bestRate, bestDevelop := []Value(nil), 0.0, 0.0
	for _, l := range permutations(AllValues[:]) {
		if r, d := field(func() AI { return Priority(l...) }); r > bestRate {
			best, bestRate, bestDevelop = l, r, d
		}
	}
	t.Logf("the six basics' field, %d games each: the best of the 720 lists %v wins %.1f%% (%.1f%% of the games with basic.develop)", 36**ceiling, best, 100*bestRate, 100*bestDevelop)
	for _, p := range []struct {
		name string
		ai   func() AI
	}{{"planner", func() AI { return NewPlanner() }}, {"guide", func() AI { return NewGuide() }}} {
		r, d := field(p.ai)
		t.Logf("%s wins %.1f%% (%.1f%% of the games with basic.develop)", p.name, 100*r, 100*d)
	}
}
