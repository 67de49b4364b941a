package tournament

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/report"
	"github.com/arbiter-games/arbiter/tournament/sprt"
)

// DuelRun plays a duel's pairs, or the pairs from one on, several games at
// once, and reports each pair in order. Which pairs come out, and what they
// hold, depends on the duel alone, not on how many games are played at
// once.
type DuelRun[M, V any] struct {
	Ruleset engine.Ruleset[M, V]
	Duel    *Duel
	// Entrants holds the entrant of each of Duel.Names: A, B, then one per
	// seat of the field.
	Entrants []engine.Entrant[M, V]
	// Deadline bounds each decision; zero means no limit. Bank,
	// StartDeadline and ReplyDeadline are every seat's time bank, start-up
	// deadline and deadline for answers owed to another seat's move.
	Deadline, Bank, StartDeadline, ReplyDeadline time.Duration
	// Parallel is how many games are played at once; zero means one per
	// core (GOMAXPROCS).
	Parallel int
	// From is the first pair to play, from 0 (the pairs before it were
	// played before); To is one past the last.
	From, To int
	// Pair is called with each pair, in order, from one goroutine.
	// ErrStop ends the duel after that pair (the test has decided); any
	// other error stops it.
	Pair func(Pair) error
	// KeepGoing plays on when a player never answers in its first game;
	// without it, Run stops there with an *AbsentError.
	KeepGoing bool
}

// Run plays the pairs and reports each through Pair. It returns how many
// pairs were reported. It returns nil when every pair was reported or Pair
// returned ErrStop; when ctx is cancelled, the count so far and an error
// wrapping ctx's error.
func (r *DuelRun[M, V]) Run(ctx context.Context) (int, error) {
	d := r.Duel
	names := d.Names()
	if len(r.Entrants) != len(names) {
		return 0, fmt.Errorf("duel: %d entrants for %d players", len(r.Entrants), len(names))
	}
	for i, e := range r.Entrants {
		if e.Person {
			return 0, fmt.Errorf("duel: %s is a person; a duel plays many games at once, so only bots can sit in it", names[i])
		}
	}
	if r.From < 0 || r.To > MaxPairs || r.From > r.To {
		return 0, fmt.Errorf("duel: pairs %d to %d; a duel plays pairs 1 to %d", r.From+1, r.To, MaxPairs)
	}
	var first GameResult
	pairs := 0
	p := &pool[M, V]{
		ruleset: r.Ruleset, entrants: r.Entrants, names: names, options: d.Options,
		deadline: r.Deadline, bank: r.Bank, startDeadline: r.StartDeadline, replyDeadline: r.ReplyDeadline, parallel: r.Parallel,
		n: 2 * (r.To - r.From), keepGoing: r.KeepGoing,
		deal: func(k int) (int, []int, uint64) {
			pair := r.From + k/2
			return 2*pair + k%2, d.Lineup(pair, k%2 == 1), d.PairSeed(pair)
		},
		played: func(g GameResult) error {
			if g.Game%2 == 1 { // the first of its pair
				first = g
				return nil
			}
			k := g.Game/2 - 1
			pairs++
			if r.Pair == nil {
				return nil
			}
			return r.Pair(d.NewPair(k, first, g))
		},
	}
	_, err := p.run(ctx)
	switch {
	case err == nil, errors.Is(err, ErrStop):
		return pairs, nil
	case errors.Is(err, errAbandoned):
		return pairs, fmt.Errorf("duel stopped after %d of %d pairs: %w", pairs, r.To-r.From, errors.Unwrap(err))
	}
	return pairs, err
}

// Tally adds up a duel's pairs, in order, and runs its test after each.
type Tally struct {
	// Test is the SPRT, or nil for a duel of a fixed number of games.
	Test *sprt.Test
	// Pentanomial counts the pairs, Trinomial the games, by A's results.
	Pentanomial sprt.Pentanomial
	Trinomial   sprt.Trinomial
	// Faults counts the decisions of A and of B that got the default move,
	// and FaultKinds tells them kind by kind, with what the first of each
	// said (FaultsText).
	Faults     [2]int
	FaultKinds [2][]FaultCount
	// FieldFaults counts the decisions of the field's seats, every other
	// seat than A's and B's, that got the default move.
	FieldFaults int
	// Names are the names the programs of A and B gave themselves in
	// their ready, the first in the pairs' order (GameResult.Names); ""
	// for a player that gave none, as a built-in one.
	Names [2]string
	// LLR is the test's log-likelihood ratio after the last pair, and
	// Verdict where the test stands: once it is not sprt.Continue, the
	// duel is decided and no pair may be added.
	LLR     float64
	Verdict sprt.Verdict
}

// Pairs is how many pairs were counted.
func (t *Tally) Pairs() int { return t.Pentanomial.Pairs() }

// Add counts pair p of duel d, and runs the test. p's Outcome must be
// well formed (as Duel.NewPair makes it).
func (t *Tally) Add(d *Duel, p *Pair) error {
	if t.Verdict != sprt.Continue {
		return fmt.Errorf("pair %d: the test was decided (%s) before it", p.Pair, t.Verdict)
	}
	o1, o2, ok := p.Outcomes()
	if !ok {
		return fmt.Errorf("pair %d: outcome %q; want two of W, D and L", p.Pair, p.Outcome)
	}
	t.Pentanomial.Add(o1, o2)
	t.Trinomial.Add(o1)
	t.Trinomial.Add(o2)
	for i := range p.Games {
		a, b := d.seatsOf(p.Pair-1, i == 1)
		for who, s := range [2]int{a, b} {
			if t.Names[who] == "" && s < len(p.Games[i].Names) {
				t.Names[who] = p.Games[i].Names[s]
			}
		}
		if f := p.Games[i].Faults; a < len(f) && b < len(f) {
			t.Faults[0] += f[a]
			t.Faults[1] += f[b]
			for s, n := range f {
				if s != a && s != b {
					t.FieldFaults += n
				}
			}
		}
		if kinds := p.Games[i].FaultKinds; a < len(kinds) && b < len(kinds) {
			for who, s := range [2]int{a, b} {
				for _, f := range kinds[s] {
					t.FaultKinds[who] = report.AddFaults(t.FaultKinds[who], f)
				}
			}
		}
	}
	if t.Test != nil {
		t.LLR = t.Test.LLR(t.Pentanomial)
		t.Verdict = t.Test.Decide(t.LLR)
	}
	return nil
}
