package tournament

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/tournament/sprt"
)

// Duel is a match between two players, A and B, played in pairs of games
// until it is known which is the stronger: each pair is two games on the
// same seed, A and B in each other's seats, so that neither the seed's luck
// nor a seat's advantage favours either. A game of more seats seats a
// fixed field beside them; from pair to pair, A and B move through every
// two seats of the table in turn, the field keeping its order in the
// others.
//
// In each game A wins against B when the game ranks A above B, loses when
// it ranks B above A, and draws when it ranks them equal, whoever else is
// ahead or behind: a duel measures A against B, not against the field.
//
// A Duel is a pure description: the same Duel deals the same games.
type Duel struct {
	Ruleset string `json:"ruleset"`
	Variant string `json:"variant,omitempty"`
	// Rules is the rules version: the same seed plays a different game
	// under other rules.
	Rules   string            `json:"rules_version"`
	Options map[string]string `json:"options,omitempty"`
	A       string            `json:"a"`
	B       string            `json:"b"`
	// Field are the other players, by name, in seat order.
	Field []string `json:"field,omitempty"`
	// Seed is pair 1's seed; pair k plays on Seed+k−1.
	Seed uint64 `json:"seed"`
}

// MaxPairs bounds a duel: tournament.MaxGames games.
const MaxPairs = MaxGames / 2

// ID is the duel's fingerprint: equal for equal duels.
func (d *Duel) ID() string {
	b, _ := json.Marshal(d)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Seats is the number of seats at the table: A, B and the field.
func (d *Duel) Seats() int { return 2 + len(d.Field) }

// Names are the players' names by entrant: A, B, then the field.
func (d *Duel) Names() []string { return append([]string{d.A, d.B}, d.Field...) }

// PairSeed is the seed of pair k (from 0).
func (d *Duel) PairSeed(k int) uint64 { return d.Seed + uint64(k) }

// Lineup returns who sits where in the first or second game of pair k
// (from 0), as indices into Names: 0 for A, 1 for B, 2 and up for the
// field.
func (d *Duel) Lineup(k int, second bool) []int {
	i, j := d.seatsOf(k, second)
	lineup := make([]int, d.Seats())
	lineup[i], lineup[j] = 0, 1
	f := 2
	for s := range lineup {
		if s != i && s != j {
			lineup[s] = f
			f++
		}
	}
	return lineup
}

// seatPair is the c-th pair of seats i < j of n, in the order (0, 1),
// (0, 2), …, (0, n−1), (1, 2), …
func seatPair(n, c int) (int, int) {
	for i := range n - 1 {
		if c < n-1-i {
			return i, i + 1 + c
		}
		c -= n - 1 - i
	}
	return 0, 1
}

// Describe says what the duel is, in one line.
func (d *Duel) Describe() string {
	return d.describe(fmt.Sprintf("duel %s", d.ID()), fmt.Sprintf(", seed %d", d.Seed))
}

// DescribeUnseeded says what the duel is but for its seed, and the id
// that follows from the seed: a duel whose seed is still to be drawn.
func (d *Duel) DescribeUnseeded() string {
	return d.describe("duel", "")
}

// describe writes the duel's line with what (its kind and id) after the
// game's name and seed after its players.
func (d *Duel) describe(what, seed string) string {
	game := d.Ruleset
	if d.Variant != "" {
		game += " (" + d.Variant + ")"
	}
	s := fmt.Sprintf("%s %s: %s vs %s", game, what, d.A, d.B)
	if len(d.Field) > 0 {
		s += fmt.Sprintf(", field %s (%d seats)", strings.Join(d.Field, ", "), d.Seats())
	}
	s += seed
	if len(d.Options) > 0 {
		s += " (" + optionsText(d.Options) + ")"
	}
	return s
}

// Pair is a pair of a duel's games, as they ended.
type Pair struct {
	// Pair is the pair's number, from 1.
	Pair int `json:"pair"`
	// Outcome is A's result in each game: W, D or L.
	Outcome string `json:"outcome"`
	// Games are the two games: the duel's games 2·Pair−1 and 2·Pair.
	Games [2]GameResult `json:"games"`
}

// seatsOf returns the seats of A and B in the first or second game of
// pair k (from 0).
func (d *Duel) seatsOf(k int, second bool) (a, b int) {
	n := d.Seats()
	a, b = seatPair(n, k%(n*(n-1)/2))
	if second {
		a, b = b, a
	}
	return a, b
}

// Outcome is A's result in g, the first or second game of pair k (from
// 0): by A's rank against B's.
func (d *Duel) Outcome(k int, second bool, g *GameResult) sprt.Outcome {
	a, b := d.seatsOf(k, second)
	switch {
	case a >= len(g.Ranks) || b >= len(g.Ranks) || g.Ranks[a] == g.Ranks[b]:
		return sprt.Draw
	case g.Ranks[a] < g.Ranks[b]:
		return sprt.Win
	}
	return sprt.Loss
}

// outcomeLetters are the outcomes as Pair.Outcome writes them.
var outcomeLetters = [3]byte{sprt.Loss: 'L', sprt.Draw: 'D', sprt.Win: 'W'}

// NewPair makes pair k (from 0) of its two games, A's outcomes worked out.
func (d *Duel) NewPair(k int, first, second GameResult) Pair {
	p := Pair{Pair: k + 1, Games: [2]GameResult{first, second}}
	o1, o2 := d.Outcome(k, false, &p.Games[0]), d.Outcome(k, true, &p.Games[1])
	p.Outcome = string([]byte{outcomeLetters[o1], outcomeLetters[o2]})
	return p
}

// Outcomes are A's results in the pair's games, as its Outcome writes them.
func (p *Pair) Outcomes() (first, second sprt.Outcome, ok bool) {
	if len(p.Outcome) != 2 {
		return 0, 0, false
	}
	first, ok1 := letterOutcome(p.Outcome[0])
	second, ok2 := letterOutcome(p.Outcome[1])
	return first, second, ok1 && ok2
}

func letterOutcome(c byte) (sprt.Outcome, bool) {
	for o, l := range outcomeLetters {
		if l == c {
			return sprt.Outcome(o), true
		}
	}
	return 0, false
}
