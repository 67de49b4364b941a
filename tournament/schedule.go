// Package tournament plays many matches of one game among many players, on
// every core, and says who is really better: standings with wins, mean
// scores and a rating with its uncertainty.
//
// A tournament is a Schedule (who sits where in which game, with which
// seed), deterministic from its parameters; Run plays its games, or one
// shard of them, and reports each game's result in schedule order; Standings
// rates the results in that order. Shards of one schedule, played anywhere,
// merge into exactly the standings a single run prints.
package tournament

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// Schedule kinds.
const (
	// Groups is the seed's schedule: every player appears Appearances times,
	// dealt at random into Rounds games.
	Groups = "groups"
	// Rotation plays every group of Seats players, once with each of them in
	// each seat, so that seat positions are balanced.
	Rotation = "rotation"
)

// MaxGames bounds a schedule: a tournament that needs more is split in
// several.
const MaxGames = 10_000_000

// Schedule is a tournament's games, in order: which players sit where, and
// each game's seed (Seed + the game's index). It is a pure function of its
// parameters, so every shard of a tournament computes the same one.
type Schedule struct {
	Ruleset     string            `json:"ruleset"`
	Variant     string            `json:"variant,omitempty"`
	Options     map[string]string `json:"options,omitempty"`
	Players     []string          `json:"players"`
	Kind        string            `json:"kind"`
	Rounds      int               `json:"rounds,omitempty"`
	Appearances int               `json:"appearances,omitempty"`
	Seats       int               `json:"seats,omitempty"`
	Repeat      int               `json:"repeat"`
	Seed        uint64            `json:"seed"`

	// dealt holds the games of one time over the schedule, each the
	// players' indices in seat order; Game repeats them. Kept once, not
	// Repeat times: --games 3333333 of a three-game schedule held ten
	// million games' seats, some 900 MB.
	dealt [][]int
}

// Len is the number of games of the schedule, every time over it counted.
func (s *Schedule) Len() int { return len(s.dealt) * max(s.Repeat, 1) }

// Game returns the players of game g (from 0), as their indices in
// Players, in seat order. The slice is the schedule's: not to be changed.
func (s *Schedule) Game(g int) []int { return s.dealt[g%len(s.dealt)] }

// Games iterates over the schedule's games in order: each game's index
// (from 0) and its players, as Game returns them.
func (s *Schedule) Games() iter.Seq2[int, []int] {
	return func(yield func(int, []int) bool) {
		for g := range s.Len() {
			if !yield(g, s.Game(g)) {
				return
			}
		}
	}
}

// Params are what a schedule is made from.
type Params struct {
	Info    engine.Info
	Options map[string]string
	Players []string // distinct names
	Seed    uint64
	// Rounds and Appearances, when set, ask for the Groups schedule;
	// otherwise Seats players per game in Rotation (all players when 0).
	Rounds, Appearances, Seats int
	// Repeat plays the whole schedule this many times; zero plays it once,
	// as 1 does (the same schedule, with the same ID).
	Repeat int
	// Uneven deals Rounds games whose seats, the players' appearances,
	// do not divide evenly among them, as schedules were dealt before
	// they were refused: the games then differ by a seat. It lets a
	// results file of such a schedule be read and merged.
	Uneven bool
}

// NewSchedule makes the schedule p asks for, or an error that says why it
// cannot be made.
func NewSchedule(p Params) (*Schedule, error) {
	if len(p.Players) < 1 {
		return nil, errors.New("tournament: no players")
	}
	seen := map[string]bool{}
	for _, name := range p.Players {
		if seen[name] {
			return nil, fmt.Errorf("tournament: player %q is named twice; every player of a tournament is one entrant", name)
		}
		seen[name] = true
	}
	if p.Repeat == 0 {
		p.Repeat = 1
	}
	if p.Repeat < 1 {
		return nil, fmt.Errorf("tournament: --games %d; play the schedule at least once", p.Repeat)
	}
	// Bounded before any product is taken: --games 4611686018427387904
	// times two games overflowed to a negative count, passed, and ran the
	// machine out of memory dealing it.
	if p.Repeat > MaxGames {
		return nil, fmt.Errorf("tournament: --games %d; a tournament holds at most %d games", p.Repeat, MaxGames)
	}
	s := &Schedule{
		Ruleset: p.Info.Name, Variant: p.Info.Variant, Options: p.Options,
		Players: p.Players, Repeat: p.Repeat, Seed: p.Seed,
	}
	var games [][]int
	var err error
	if p.Rounds != 0 || p.Appearances != 0 {
		s.Kind, s.Rounds, s.Appearances = Groups, p.Rounds, p.Appearances
		games, err = groups(len(p.Players), p.Rounds, p.Appearances, p.Seed, p.Info, p.Uneven)
	} else {
		seats := p.Seats
		if seats == 0 {
			if len(p.Players) < p.Info.MinSeats {
				return nil, fmt.Errorf("tournament: %s (%s); %s takes %d to %d seats a game: give at least %d players",
					plural(len(p.Players), "player"), strings.Join(p.Players, ", "), p.Info.Name, p.Info.MinSeats, p.Info.MaxSeats, p.Info.MinSeats)
			}
			seats = min(len(p.Players), p.Info.MaxSeats)
		}
		s.Kind, s.Seats = Rotation, seats
		games, err = rotation(len(p.Players), seats, p.Info)
	}
	if err != nil {
		return nil, err
	}
	if len(games)*p.Repeat > MaxGames {
		return nil, fmt.Errorf("tournament: %d games; a tournament holds at most %d", len(games)*p.Repeat, MaxGames)
	}
	s.dealt = games
	return s, nil
}

// GameSeed returns the seed of game g.
func (s *Schedule) GameSeed(g int) uint64 { return s.Seed + uint64(g) }

// ID is the schedule's fingerprint: equal for equal parameters, so shards
// can tell that they belong together.
func (s *Schedule) ID() string {
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// groups is the seed's schedule: a pool with every player appearances
// times, shuffled by the schedule's dice and dealt in turn into rounds
// games. A player dealt twice into one game swaps places with someone in
// another game, so that nobody plays against itself. Every game has the
// same seats, players × appearances / rounds; rounds that do not divide the
// appearances are refused, unless uneven.
func groups(players, rounds, appearances int, seed uint64, info engine.Info, uneven bool) ([][]int, error) {
	if rounds < 1 || appearances < 1 {
		return nil, fmt.Errorf("tournament: --rounds %d --appearances %d; give both, each at least 1", rounds, appearances)
	}
	if rounds > MaxGames {
		return nil, fmt.Errorf("tournament: --rounds %d; a tournament holds at most %d games", rounds, MaxGames)
	}
	if appearances > rounds {
		return nil, fmt.Errorf("tournament: %d appearances over %d rounds; nobody sits twice in one game, so a player appears at most once per round: give more rounds or fewer appearances", appearances, rounds)
	}
	// Counted before the pool is made: a pool of trillions ran the
	// machine out of memory.
	if players*appearances > MaxGames*info.MaxSeats {
		return nil, fmt.Errorf("tournament: %d appearances in all (%s × %s); too many", players*appearances, plural(players, "player"), plural(appearances, "appearance"))
	}
	pool := make([]int, 0, players*appearances)
	for p := range players {
		for range appearances {
			pool = append(pool, p)
		}
	}
	if n := len(pool); (n%rounds != 0 && !uneven) || n < rounds*info.MinSeats || n > rounds*info.MaxSeats {
		return nil, splitRefusal(players, appearances, rounds, info)
	}
	rng := engine.NewRNG(seed ^ scheduleStream)
	for k := len(pool) - 1; k > 0; k-- {
		j := int(engine.Below(rng, uint64(k+1)))
		pool[k], pool[j] = pool[j], pool[k]
	}
	games := make([][]int, rounds)
	for i, p := range pool {
		games[i%rounds] = append(games[i%rounds], p)
	}
	for _, seats := range games {
		if n := len(seats); n < info.MinSeats || n > info.MaxSeats {
			// Only an uneven deal can get here.
			return nil, splitRefusal(players, appearances, rounds, info)
		}
	}
	if !separate(games) {
		// The swaps can get stuck (mostly when every game holds nearly
		// every player); deal again, in a way that cannot.
		deal(games, players, appearances, rng)
	}
	return games, nil
}

// deal refills games, keeping their sizes, so that every player sits in
// appearances of them and in none twice: each player in turn, in a shuffled
// order, joins the games with the most empty seats, ties broken at random.
// This always succeeds when appearances ≤ len(games) and no game is larger
// than players (the Gale–Ryser construction). Each game's seats are then
// shuffled.
func deal(games [][]int, players, appearances int, rng *rand.PCG) {
	left := make([]int, len(games))
	for g := range games {
		left[g] = len(games[g])
		games[g] = games[g][:0]
	}
	shuffle := func(s []int) {
		for k := len(s) - 1; k > 0; k-- {
			j := int(engine.Below(rng, uint64(k+1)))
			s[k], s[j] = s[j], s[k]
		}
	}
	order := make([]int, players)
	for i := range order {
		order[i] = i
	}
	shuffle(order)
	pick := make([]int, len(games))
	for i := range pick {
		pick[i] = i
	}
	for _, p := range order {
		shuffle(pick)
		slices.SortStableFunc(pick, func(a, b int) int { return left[b] - left[a] })
		for _, g := range pick[:appearances] {
			games[g] = append(games[g], p)
			left[g]--
		}
	}
	for _, g := range games {
		shuffle(g)
	}
}

// scheduleStream keeps the schedule's dice apart from every match's.
const scheduleStream = 0x5343484544554c45 // "SCHEDULE"

// separate swaps players between games until no game holds a player twice,
// and reports whether it could.
func separate(games [][]int) bool {
	for g := range games {
		for s := 0; s < len(games[g]); s++ {
			p := games[g][s]
			if !slices.Contains(games[g][:s], p) {
				continue
			}
			if !swapOut(games, g, s) {
				return false
			}
		}
	}
	return true
}

// swapOut moves the player at games[g][s] into another game, in exchange for
// one who is in neither. It looks at the following games first, so that the
// swaps spread over the schedule.
func swapOut(games [][]int, g, s int) bool {
	p := games[g][s]
	for k := 1; k < len(games); k++ {
		h := (g + k) % len(games)
		if slices.Contains(games[h], p) {
			continue
		}
		for t, q := range games[h] {
			if !slices.Contains(games[g], q) {
				games[g][s], games[h][t] = q, p
				return true
			}
		}
	}
	return false
}

// rotation plays every group of seats players (in the order of their
// indices) once with each of them in each seat: the group, then the group
// turned by one, and so on.
func rotation(players, seats int, info engine.Info) ([][]int, error) {
	if seats < info.MinSeats || seats > info.MaxSeats {
		return nil, fmt.Errorf("tournament: %s per game; %s takes %d to %d", plural(seats, "seat"), info.Name, info.MinSeats, info.MaxSeats)
	}
	if seats > players {
		return nil, fmt.Errorf("tournament: %s per game but only %s; give at most %d seats, or more players", plural(seats, "seat"), plural(players, "player"), players)
	}
	if n := binomial(players, seats) * seats; n > MaxGames || n < 0 {
		return nil, fmt.Errorf("tournament: every group of %d of %d players in every seat is too many games; use --rounds and --appearances", seats, players)
	}
	var games [][]int
	group := make([]int, seats)
	for i := range group {
		group[i] = i
	}
	for {
		for turn := range seats {
			g := make([]int, seats)
			for i := range g {
				g[i] = group[(i+turn)%seats]
			}
			games = append(games, g)
		}
		// The next group in lexicographic order.
		i := seats - 1
		for i >= 0 && group[i] == players-seats+i {
			i--
		}
		if i < 0 {
			return games, nil
		}
		group[i]++
		for j := i + 1; j < seats; j++ {
			group[j] = group[j-1] + 1
		}
	}
}

// binomial is n choose k, or -1 when it passes MaxGames.
func binomial(n, k int) int {
	b := 1
	for i := 1; i <= k; i++ {
		b = b * (n - k + i) / i
		if b > MaxGames {
			return -1
		}
	}
	return b
}

// splitRefusal is the refusal of a groups schedule whose seats (players ×
// appearances) do not make whole games of the same size over rounds, or
// make games too small or too large for the game. It names the nearest
// rounds, and the nearest appearances, that would, with their games' seats.
func splitRefusal(players, appearances, rounds int, info engine.Info) error {
	seats := players * appearances
	fits := func(seats, rounds int) bool {
		return seats%rounds == 0 && seats/rounds >= info.MinSeats && seats/rounds <= info.MaxSeats
	}
	var what string
	switch {
	case seats < rounds:
		what = fmt.Sprintf("cannot fill %s;", plural(rounds, "round"))
	case seats%rounds != 0:
		lo := seats / rounds
		what = fmt.Sprintf("do not divide evenly over %s: they would make games of %d and %d seats;", plural(rounds, "round"), lo+1, lo)
	default:
		what = fmt.Sprintf("over %s make games of %s; %s takes %d to %d a game:", plural(rounds, "round"), plural(seats/rounds, "seat"), info.Name, info.MinSeats, info.MaxSeats)
	}
	// The nearest fitting rounds below and above (no more appearances than
	// rounds), and likewise appearances (at most the rounds).
	var fixes []string
	if rs := nearest(rounds, appearances, seats, func(r int) bool { return fits(seats, r) }); len(rs) > 0 {
		fixes = append(fixes, "--rounds "+withSeats(rs, func(r int) int { return seats / r }))
	}
	if as := nearest(appearances, 1, rounds, func(a int) bool { return fits(players*a, rounds) }); len(as) > 0 {
		fixes = append(fixes, "--appearances "+withSeats(as, func(a int) int { return players * a / rounds }))
	}
	fix := "give other rounds or appearances, or more players"
	if len(fixes) > 0 {
		fix = "give " + strings.Join(fixes, ", or ")
	}
	return fmt.Errorf("tournament: %s (%s × %s) %s %s",
		plural(seats, "seat"), plural(players, "player"), plural(appearances, "appearance"), what, fix)
}

// nearest returns the nearest number below n and the nearest above n, from
// lo to hi, for which ok holds: none, one or both, in increasing order.
func nearest(n, lo, hi int, ok func(int) bool) []int {
	var found []int
	for k := min(n-1, hi); k >= lo; k-- {
		if ok(k) {
			found = append(found, k)
			break
		}
	}
	for k := max(n+1, lo); k <= hi; k++ {
		if ok(k) {
			found = append(found, k)
			break
		}
	}
	return found
}

// withSeats says numbers with the seats of a game each makes:
// "7 (games of 3 seats) or 14 (games of 2 seats)".
func withSeats(ns []int, seats func(int) int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("%d (games of %s)", n, plural(seats(n), "seat"))
	}
	return strings.Join(parts, " or ")
}
