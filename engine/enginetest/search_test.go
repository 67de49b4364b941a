package enginetest

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// searchPot is the pot game with the hooks of a search AI.
type searchPot struct {
	pot
	shallow bool // its clones share their sums with the original
	peek    bool // its samples show the judge's pot to the seat
}

type searchPotMatch struct {
	*potMatch
	g *searchPot
}

func (g *searchPot) New(s engine.Setup) (engine.Match[int, potView], error) {
	m, err := g.pot.New(s)
	if err != nil {
		return nil, err
	}
	return &searchPotMatch{m.(*potMatch), g}, nil
}

func (m *searchPotMatch) Clone() engine.Match[int, potView] {
	c := &potMatch{potState: m.potState, rng: &rand.PCG{}}
	b, _ := m.rng.MarshalBinary()
	_ = c.rng.UnmarshalBinary(b)
	c.Picked = slices.Clone(m.Picked)
	if !m.g.shallow {
		c.Sums = slices.Clone(m.Sums)
	}
	return &searchPotMatch{c, m.g}
}

func (g *searchPot) Sample(setup engine.Setup, seat int, v potView, rng *rand.PCG) (engine.Match[int, potView], error) {
	m := &potMatch{potState: potState{Rounds: 6, Round: v.Round, Sums: slices.Clone(v.Sums), Picked: make([]int, len(v.Sums)), Pot: engine.Below(rng, 50)}, rng: rand.NewPCG(rng.Uint64(), rng.Uint64())}
	m.Serial = int64((v.Round + 1) * len(v.Sums))
	if g.peek {
		m.Pot = 7
	}
	return &searchPotMatch{m, g}, nil
}

func (m *searchPotMatch) View(seat int) potView {
	v := m.potMatch.View(seat)
	if m.g.peek && seat >= 0 {
		v.Pot = &m.Pot
	}
	return v
}

func TestCheckSearchPassesFaithfulHooks(t *testing.T) {
	if msgs := reported(func(r reporter) { checkSearch(r, &searchPot{}, potSetup, Options[int, potView]{Seed: 1}) }); len(msgs) > 0 {
		t.Fatalf("faithful hooks reported: %q", msgs)
	}
}

func TestCheckSearchFindsWhatTheHooksGetWrong(t *testing.T) {
	for name, g := range map[string]*searchPot{
		"clone": {shallow: true},
		"view":  {peek: true},
	} {
		msgs := reported(func(r reporter) { checkSearch(r, g, potSetup, Options[int, potView]{Seed: 1}) })
		if len(msgs) == 0 {
			t.Errorf("%s: a broken hook passed the check", name)
			continue
		}
		t.Logf("%s: %s", name, msgs[0])
	}
	msgs := reported(func(r reporter) { checkSearch(r, pot{}, potSetup, Options[int, potView]{Seed: 1}) })
	if len(msgs) != 1 || !strings.Contains(msgs[0], "offers none") {
		t.Errorf("a game without hooks: %q", msgs)
	}
}
