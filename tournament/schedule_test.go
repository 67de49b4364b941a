package tournament_test

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/tournament"
)

// lineups returns the players of each of the schedule's games, in order.
func lineups(s *tournament.Schedule) [][]int {
	var all [][]int
	for _, g := range s.Games() {
		all = append(all, g)
	}
	return all
}

// playerNames returns n distinct player names, p1 to pn.
func playerNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%d", i+1)
	}
	return out
}

func binomial(n, k int) int {
	b := 1
	for i := 1; i <= k; i++ {
		b = b * (n - k + i) / i
	}
	return b
}

// checkAppearances checks that no game seats a player twice and that every
// player sits in want games.
func checkAppearances(t *testing.T, s *tournament.Schedule, want int) {
	t.Helper()
	count := make([]int, len(s.Players))
	for g, seats := range s.Games() {
		for i, p := range seats {
			if p < 0 || p >= len(s.Players) {
				t.Fatalf("game %d seats player index %d of %d players", g+1, p, len(s.Players))
			}
			if slices.Contains(seats[:i], p) {
				t.Fatalf("game %d seats %s twice: %v", g+1, s.Players[p], seats)
			}
			count[p]++
		}
	}
	for p, n := range count {
		if n != want {
			t.Errorf("%s appears %d times; want %d", s.Players[p], n, want)
		}
	}
}

func groupsSchedule(t *testing.T, players, rounds, appearances int, seed uint64) *tournament.Schedule {
	t.Helper()
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: playerNames(players),
		Rounds: rounds, Appearances: appearances, Seed: seed, Repeat: 1})
	if err != nil {
		t.Fatalf("%d players, %d rounds, %d appearances, seed %d: %v", players, rounds, appearances, seed, err)
	}
	return s
}

func TestGroupsSeatsEveryPlayerAppearancesTimes(t *testing.T) {
	for _, c := range []struct{ players, rounds, appearances int }{
		{6, 10, 10}, // every game holds every player, in a shuffled order
		{7, 7, 6},
		{8, 100, 75},
		{12, 50, 25},
		{7, 7, 3},
		{16, 40, 40},
		{20, 30, 9},
	} {
		t.Run(fmt.Sprintf("%dp_%dr_%da", c.players, c.rounds, c.appearances), func(t *testing.T) {
			for seed := range uint64(20) {
				s := groupsSchedule(t, c.players, c.rounds, c.appearances, seed)
				if s.Kind != tournament.Groups || s.Rounds != c.rounds || s.Appearances != c.appearances {
					t.Fatalf("kind %q, %d rounds, %d appearances", s.Kind, s.Rounds, s.Appearances)
				}
				if s.Len() != c.rounds {
					t.Fatalf("%d games; want %d", s.Len(), c.rounds)
				}
				checkAppearances(t, s, c.appearances)
				// Every game has players × appearances / rounds seats.
				for g, seats := range s.Games() {
					if len(seats) != c.players*c.appearances/c.rounds {
						t.Fatalf("seed %d: game %d has %d seats; want %d", seed, g+1, len(seats), c.players*c.appearances/c.rounds)
					}
				}
			}
		})
	}
}

// Every request that a schedule can satisfy is satisfied, whatever the
// seed: appearances at most rounds and no game larger than the players.
// (Dealing shuffled seats and swapping duplicates out used to get stuck when
// games held nearly every player, depending on the seed.)
func TestGroupsNeverFailsWhenASolutionExists(t *testing.T) {
	info := engine.Info{Name: "any", MinSeats: 1, MaxSeats: 64}
	for players := 1; players <= 10; players++ {
		for rounds := 1; rounds <= 10; rounds++ {
			for appearances := 1; appearances <= rounds; appearances++ {
				seats := players * appearances
				if seats%rounds != 0 || seats < rounds || seats/rounds > players {
					continue
				}
				for seed := range uint64(30) {
					s, err := tournament.NewSchedule(tournament.Params{Info: info, Players: playerNames(players),
						Rounds: rounds, Appearances: appearances, Seed: seed, Repeat: 1})
					if err != nil {
						t.Fatalf("%d players, %d rounds, %d appearances, seed %d: %v", players, rounds, appearances, seed, err)
					}
					checkAppearances(t, s, appearances)
				}
			}
		}
	}
}

func TestGroupsIsAFunctionOfTheSeed(t *testing.T) {
	a := groupsSchedule(t, 9, 30, 20, 42)
	b := groupsSchedule(t, 9, 30, 20, 42)
	if !reflect.DeepEqual(lineups(a), lineups(b)) {
		t.Errorf("the same seed dealt different games:\n%v\n%v", lineups(a), lineups(b))
	}
	if a.ID() != b.ID() {
		t.Errorf("ids %s and %s for equal schedules", a.ID(), b.ID())
	}
	for seed := range uint64(10) {
		c := groupsSchedule(t, 9, 30, 20, seed)
		if reflect.DeepEqual(lineups(a), lineups(c)) {
			t.Errorf("seeds 42 and %d dealt the same games", seed)
		}
	}
	// The whole-players case still shuffles the seats.
	full := groupsSchedule(t, 6, 20, 20, 1)
	orders := map[string]bool{}
	for _, g := range full.Games() {
		orders[fmt.Sprint(g)] = true
	}
	if len(orders) < 10 {
		t.Errorf("20 games of all 6 players in only %d seat orders", len(orders))
	}
}

func TestScheduleErrorsSayWhatIsWrong(t *testing.T) {
	info := reaj.Game{}.Info()
	for _, c := range []struct {
		name string
		p    tournament.Params
		want []string
	}{
		{"no players", tournament.Params{Info: info, Repeat: 1}, []string{"no players"}},
		{"a player twice", tournament.Params{Info: info, Players: []string{"a", "b", "a"}, Repeat: 1}, []string{`"a"`, "named twice"}},
		{"negative repeat", tournament.Params{Info: info, Players: playerNames(3), Repeat: -1}, []string{"--games -1", "at least once"}},
		{"zero rounds", tournament.Params{Info: info, Players: playerNames(6), Appearances: 2, Repeat: 1},
			[]string{"--rounds 0", "--appearances 2", "give both"}},
		{"zero appearances", tournament.Params{Info: info, Players: playerNames(6), Rounds: 4, Repeat: 1},
			[]string{"--rounds 4", "--appearances 0", "give both"}},
		{"negative rounds", tournament.Params{Info: info, Players: playerNames(6), Rounds: -1, Appearances: -1, Repeat: 1},
			[]string{"--rounds -1", "at least 1"}},
		{"more appearances than rounds", tournament.Params{Info: info, Players: playerNames(6), Rounds: 3, Appearances: 4, Repeat: 1},
			[]string{"4 appearances over 3 rounds", "twice", "more rounds or fewer appearances"}},
		{"games too small for the game", tournament.Params{Info: info, Players: playerNames(3), Rounds: 3, Appearances: 1, Repeat: 1},
			[]string{"3 seats (3 players × 1 appearance) over 3 rounds make games of 1 seat; reaj takes 2 to 16 a game: give --rounds 1 (games of 3 seats), or --appearances 2 (games of 2 seats)"}},
		{"games too large for the game", tournament.Params{Info: info, Players: playerNames(20), Rounds: 1, Appearances: 1, Repeat: 1},
			[]string{"20 seats (20 players × 1 appearance) over 1 round make games of 20 seats; reaj takes 2 to 16 a game: give --rounds 2 (games of 10 seats)"}},
		{"seats fewer than the rounds", tournament.Params{Info: info, Players: playerNames(1), Rounds: 3, Appearances: 1, Repeat: 1},
			[]string{"1 seat (1 player × 1 appearance) cannot fill 3 rounds; give other rounds or appearances, or more players"}},
		// The seats must divide evenly: 3 players appearing 7 times over 10
		// rounds would make one game of 3 seats and nine of 2.
		{"uneven games", tournament.Params{Info: info, Players: playerNames(3), Rounds: 10, Appearances: 7, Repeat: 1},
			[]string{"21 seats (3 players × 7 appearances) do not divide evenly over 10 rounds: they would make games of 3 and 2 seats; give --rounds 7 (games of 3 seats), or --appearances 10 (games of 3 seats)"}},
		{"uneven games with fits on both sides", tournament.Params{Info: info, Players: playerNames(12), Rounds: 5, Appearances: 3, Repeat: 1},
			[]string{"36 seats (12 players × 3 appearances) do not divide evenly over 5 rounds: they would make games of 8 and 7 seats; give --rounds 4 (games of 9 seats) or 6 (games of 6 seats), or --appearances 5 (games of 12 seats)"}},
		{"uneven games too small", tournament.Params{Info: info, Players: playerNames(5), Rounds: 3, Appearances: 1, Repeat: 1},
			[]string{"5 seats (5 players × 1 appearance) do not divide evenly over 3 rounds: they would make games of 2 and 1 seats; give --rounds 1 (games of 5 seats), or --appearances 3 (games of 5 seats)"}},
		{"too few seats", tournament.Params{Info: info, Players: playerNames(4), Seats: 1, Repeat: 1},
			[]string{"1 seat per game", "reaj takes 2 to 16"}},
		{"too many seats", tournament.Params{Info: info, Players: playerNames(20), Seats: 17, Repeat: 1},
			[]string{"17 seats per game", "reaj takes 2 to 16"}},
		{"more seats than players", tournament.Params{Info: info, Players: playerNames(4), Seats: 6, Repeat: 1},
			[]string{"6 seats per game but only 4 players; give at most 4 seats, or more players"}},
		// Players too few are told as such, not as games of fewer seats
		// that nobody asked for.
		{"one player", tournament.Params{Info: info, Players: playerNames(1), Repeat: 1},
			[]string{"tournament: 1 player (p1); reaj takes 2 to 16 seats a game: give at least 2 players"}},
		{"too many rotations", tournament.Params{Info: info, Players: playerNames(60), Seats: 16, Repeat: 1},
			[]string{"every group of 16 of 60 players", "too many games", "--rounds and --appearances"}},
		{"too many repeats", tournament.Params{Info: info, Players: playerNames(7), Seats: 6, Repeat: 1_000_000},
			[]string{"42000000 games", "at most 10000000"}},
		// Counts whose products overflow, refused before anything is dealt.
		{"repeats past any count", tournament.Params{Info: info, Players: playerNames(3), Seats: 2, Repeat: 1 << 62},
			[]string{"--games 4611686018427387904; a tournament holds at most 10000000 games"}},
		{"rounds past any count", tournament.Params{Info: info, Players: playerNames(3), Rounds: 1 << 62, Appearances: 2, Repeat: 1},
			[]string{"--rounds 4611686018427387904; a tournament holds at most 10000000 games"}},
		{"appearances past any pool", tournament.Params{Info: info, Players: playerNames(20), Rounds: 10_000_000, Appearances: 10_000_000, Repeat: 1},
			[]string{"200000000 appearances in all (20 players × 10000000 appearances); too many"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := tournament.NewSchedule(c.p)
			if err == nil {
				t.Fatalf("no error; made %d games", s.Len())
			}
			if s != nil {
				t.Errorf("a schedule along with the error %v", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

func TestRotationBalancesPlayersAndSeats(t *testing.T) {
	info := reaj.Game{}.Info()
	for players := 2; players <= 8; players++ {
		for seats := 2; seats <= players; seats++ {
			for repeat := 1; repeat <= 2; repeat++ {
				s, err := tournament.NewSchedule(tournament.Params{Info: info, Players: playerNames(players), Seats: seats, Repeat: repeat, Seed: 5})
				if err != nil {
					t.Fatalf("%d players, %d seats, %d repeats: %v", players, seats, repeat, err)
				}
				name := fmt.Sprintf("%d players, %d seats, %d repeats", players, seats, repeat)
				if s.Kind != tournament.Rotation || s.Seats != seats || s.Repeat != repeat {
					t.Fatalf("%s: kind %q, %d seats, %d repeats", name, s.Kind, s.Seats, s.Repeat)
				}
				if want := binomial(players, seats) * seats * repeat; s.Len() != want {
					t.Fatalf("%s: %d games; want C(%d,%d)×%d×%d = %d", name, s.Len(), players, seats, seats, repeat, want)
				}
				// Each player is in C(P-1,K-1) groups, each played K
				// times, once from each seat.
				perSeat := binomial(players-1, seats-1) * repeat
				checkAppearances(t, s, perSeat*seats)
				count := make([][]int, players)
				for p := range count {
					count[p] = make([]int, seats)
				}
				groups := map[string]int{}
				for _, g := range s.Games() {
					if len(g) != seats {
						t.Fatalf("%s: a game of %d", name, len(g))
					}
					for i, p := range g {
						count[p][i]++
					}
					groups[fmt.Sprint(slices.Sorted(slices.Values(g)))]++
				}
				for p := range count {
					for i, n := range count[p] {
						if n != perSeat {
							t.Errorf("%s: %s sits in seat %d %d times; want %d", name, s.Players[p], i, n, perSeat)
						}
					}
				}
				if len(groups) != binomial(players, seats) {
					t.Errorf("%s: %d distinct groups; want %d", name, len(groups), binomial(players, seats))
				}
				for g, n := range groups {
					if n != seats*repeat {
						t.Errorf("%s: group %s plays %d times; want %d", name, g, n, seats*repeat)
					}
				}
			}
		}
	}
}

func TestRotationSeatsDefaultToAllPlayersUpToTheGamesMost(t *testing.T) {
	info := reaj.Game{}.Info()
	s, err := tournament.NewSchedule(tournament.Params{Info: info, Players: playerNames(3), Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Seats != 3 || s.Len() != 3 {
		t.Errorf("3 players: %d seats, %d games; want 3 and 3", s.Seats, s.Len())
	}
	s, err = tournament.NewSchedule(tournament.Params{Info: info, Players: playerNames(17), Repeat: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Seats != info.MaxSeats || s.Len() != 17*info.MaxSeats {
		t.Errorf("17 players: %d seats, %d games; want %d and %d", s.Seats, s.Len(), info.MaxSeats, 17*info.MaxSeats)
	}
}

func TestScheduleIDIsAFingerprint(t *testing.T) {
	base := func() tournament.Params {
		info := reaj.Game{}.Info()
		return tournament.Params{Info: info, Players: playerNames(7), Options: map[string]string{"turns": "30"}, Seats: 6, Repeat: 2, Seed: 9}
	}
	build := func(p tournament.Params) *tournament.Schedule {
		t.Helper()
		s, err := tournament.NewSchedule(p)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := build(base()), build(base())
	if a.ID() != b.ID() {
		t.Fatalf("equal schedules: ids %s and %s", a.ID(), b.ID())
	}
	if len(a.ID()) != 16 {
		t.Errorf("id %q; want 16 hex digits", a.ID())
	}
	// The options' order does not matter.
	c := base()
	c.Options = map[string]string{}
	c.Options["turns"] = "30"
	if build(c).ID() != a.ID() {
		t.Errorf("the same options give another id")
	}

	ids := map[string]string{a.ID(): "base"}
	for name, change := range map[string]func(*tournament.Params){
		"ruleset":       func(p *tournament.Params) { p.Info.Name = "other" },
		"variant":       func(p *tournament.Params) { p.Info.Variant = "v2" },
		"option value":  func(p *tournament.Params) { p.Options = map[string]string{"turns": "31"} },
		"no options":    func(p *tournament.Params) { p.Options = nil },
		"players":       func(p *tournament.Params) { p.Players = append(playerNames(6), "q7") },
		"players order": func(p *tournament.Params) { p.Players[0], p.Players[1] = p.Players[1], p.Players[0] },
		"a player more": func(p *tournament.Params) { p.Players = playerNames(8) },
		"seats":         func(p *tournament.Params) { p.Seats = 5 },
		"repeat":        func(p *tournament.Params) { p.Repeat = 3 },
		"seed":          func(p *tournament.Params) { p.Seed = 10 },
		"groups":        func(p *tournament.Params) { p.Rounds, p.Appearances = 14, 12 },
		"rounds":        func(p *tournament.Params) { p.Rounds, p.Appearances = 21, 12 },
		"appearances":   func(p *tournament.Params) { p.Rounds, p.Appearances = 14, 10 },
	} {
		p := base()
		change(&p)
		id := build(p).ID()
		if other, dup := ids[id]; dup {
			t.Errorf("%s and %s share the id %s", name, other, id)
		}
		ids[id] = name
	}

	// Every field of a schedule but its games (which its other fields
	// determine) is in the id.
	v := reflect.ValueOf(a).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Name == "Games" {
			continue
		}
		s := *a
		s.Players = slices.Clone(a.Players)
		s.Options = map[string]string{"turns": "30"}
		fv := reflect.ValueOf(&s).Elem().Field(i)
		switch fv.Kind() {
		case reflect.String:
			fv.SetString(fv.String() + "x")
		case reflect.Int:
			fv.SetInt(fv.Int() + 1)
		case reflect.Uint64:
			fv.SetUint(fv.Uint() + 1)
		case reflect.Slice:
			s.Players = append(s.Players, "x")
		case reflect.Map:
			s.Options["x"] = "1"
		default:
			t.Fatalf("field %s: kind %s; extend this test", f.Name, fv.Kind())
		}
		if s.ID() == a.ID() {
			t.Errorf("changing %s keeps the id", f.Name)
		}
	}
}

func TestGameSeeds(t *testing.T) {
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: playerNames(7), Seats: 6, Repeat: 3, Seed: 1<<64 - 50})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint64]int{}
	for g := range s.Games() {
		seed := s.GameSeed(g)
		if h, dup := seen[seed]; dup {
			t.Fatalf("games %d and %d have the seed %d", h+1, g+1, seed)
		}
		seen[seed] = g
	}
	if s.GameSeed(0) != s.Seed {
		t.Errorf("game 1's seed is %d; want the schedule's, %d", s.GameSeed(0), s.Seed)
	}
	// A repeat plays the same lineups with new seeds.
	n := s.Len() / 3
	if all := lineups(s); len(all) != 3*n || !reflect.DeepEqual(all[:n], all[n:2*n]) || !reflect.DeepEqual(all[:n], all[2*n:]) {
		t.Errorf("the second time over has other lineups")
	}
}

func TestRepeatLeftZeroPlaysTheScheduleOnce(t *testing.T) {
	// Params left at their zero Repeat, as a Go program writes them, make
	// the schedule that Repeat 1 (arbiter tournament --games 1) makes.
	p := tournament.Params{Info: reaj.Game{}.Info(), Players: playerNames(3), Seats: 2, Seed: 1}
	zero, err := tournament.NewSchedule(p)
	if err != nil {
		t.Fatal(err)
	}
	p.Repeat = 1
	once, err := tournament.NewSchedule(p)
	if err != nil {
		t.Fatal(err)
	}
	if zero.Len() != 6 || zero.Len() != once.Len() || zero.ID() != once.ID() {
		t.Errorf("Repeat 0: %d games, ID %s; Repeat 1: %d games, ID %s; want 6 games and the same ID", zero.Len(), zero.ID(), once.Len(), once.ID())
	}
}

func TestARepeatedScheduleIsKeptOnce(t *testing.T) {
	// --games 3333333 of three players in three seats is ten million
	// games, three lineups over and over: the schedule held every game's
	// seats, some 900 MB of a run's memory, for three lineups.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := tournament.NewSchedule(tournament.Params{Info: reaj.Game{}.Info(), Players: playerNames(3), Seats: 3, Repeat: 3_333_333, Seed: 1})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 9_999_999 {
		t.Fatalf("%d games; want 9999999", s.Len())
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 1<<20 {
		t.Errorf("dealing the schedule took %d bytes; want its three lineups, under 1 MiB", grown)
	}
	for _, g := range []int{0, 1, 2, 3, 4_999_999, 9_999_998} {
		if got, want := s.Game(g), s.Game(g%3); !reflect.DeepEqual(got, want) {
			t.Errorf("game %d: %v; want game %d's lineup, %v", g+1, got, g%3+1, want)
		}
	}
	n := 0
	for g, lineup := range s.Games() {
		if g != n || len(lineup) != 3 {
			t.Fatalf("game %d comes as %d, %v", n, g, lineup)
		}
		if n++; n == 10 {
			break
		}
	}
}
