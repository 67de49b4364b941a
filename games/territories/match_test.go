package territories

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// seats returns the named built-in bots as seats, and their setup.
func seats(tb testing.TB, names ...string) ([]engine.Seat[Action, View], engine.Setup) {
	tb.Helper()
	var out []engine.Seat[Action, View]
	setup := engine.Setup{}
	for _, name := range names {
		es, err := Bots(name)
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range es {
			// A minute: these tests check play, not the clock.
			out = append(out, engine.Seat[Action, View]{Name: e.Name, Player: e.New(), Deadline: time.Minute})
			setup.Players = append(setup.Players, e.Name)
		}
	}
	return out, setup
}

// play plays one match of the named bots with seed and returns its record
// and the match.
func play(tb testing.TB, seed uint64, options map[string]string, names ...string) (*engine.Record[Action], *Match) {
	tb.Helper()
	ss, setup := seats(tb, names...)
	setup.Seed, setup.Options = seed, options
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		tb.Fatal(err)
	}
	rec := engine.NewRecord[Action](info, setup)
	var runner engine.Runner[Action, View]
	if err := runner.Run(context.Background(), m, ss, rec); err != nil {
		tb.Fatal(err)
	}
	if err := rec.Seal(m); err != nil {
		tb.Fatal(err)
	}
	return rec, m
}

func TestMatchPlaysToTheEnd(t *testing.T) {
	for seed := range uint64(20) {
		rec, m := play(t, seed, nil, "greedy", "random", "greedy")
		if !m.Over() {
			t.Fatalf("seed %d: not over", seed)
		}
		if f := rec.Faults(); len(f) > 0 {
			t.Fatalf("seed %d: faults %+v", seed, f)
		}
		res := m.Result()
		if len(res.Winners) == 0 || len(res.Ranks) != 3 {
			t.Errorf("seed %d: result %+v", seed, res)
		}
		// The record replays to the same result and state.
		if _, err := engine.Replay[Action, View](Game{}, rec, nil); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}

func TestMatchSameSeedSameGame(t *testing.T) {
	a, _ := play(t, 7, nil, "greedy", "random", "random")
	b, _ := play(t, 7, nil, "greedy", "random", "random")
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) || a.End.Hash != b.End.Hash {
		t.Error("two games with the same seed differ")
	}
}

func TestMatchTurnsAndJoins(t *testing.T) {
	// "seats join on the sample map; each turn a seat may raise, move or
	// attack as turn management allows"
	_, setup := seats(t, "random", "random")
	setup.Seed = 1
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	req := m.Pending()
	if len(req) != 1 || req[0].Kind != JoinKind || req[0].Seat != 0 || len(req[0].Choices) != 11 {
		t.Fatalf("the first request: %+v", req)
	}
	wantRefused(t, "an attack before joining", m.Apply(0, AttackAction("CA", "NV")), "join Amber")
	wantRefused(t, "another nation's name", m.Apply(0, JoinAction("Zed", "CA")), "Amber")
	if err := m.Apply(0, JoinAction("Amber", "CA")); err != nil {
		t.Fatal(err)
	}
	if r := m.Pending()[0]; r.Seat != 1 || len(r.Choices) != 10 {
		t.Fatalf("the second join: %+v", r)
	}
	wantRefused(t, "seat 0 again", m.Apply(0, RaiseAction("CA")), "seat 2's join")
	if err := m.Apply(1, JoinAction("Basalt", "NV")); err != nil {
		t.Fatal(err)
	}
	// Turn 1: each nation has ⌈1 ÷ 3⌉ = 1 action, in seat order.
	if r := m.Pending()[0]; r.Seat != 0 || r.Kind != ActionKind || r.Default != PassAction {
		t.Fatalf("turn 1: %+v", r)
	}
	wantRefused(t, "a colour on a turn", m.Apply(0, ColorAction("#123456")), "raise, move, attack or pass")
	if err := m.Apply(0, RaiseAction("CA")); err != nil {
		t.Fatal(err)
	}
	if r := m.Pending()[0]; r.Seat != 1 {
		t.Fatalf("after seat 1's one action: %+v", r)
	}
	if err := m.Apply(1, PassAction); err != nil {
		t.Fatal(err)
	}
	if m.World().Turn() != 2 {
		t.Errorf("turn %d; want 2 once both nations acted", m.World().Turn())
	}
	if v := m.View(0); !strings.Contains(v.String(), "Turn 2. You are Amber (seat 1), with 1 action left") {
		t.Errorf("the view: %s", v)
	}
}

func TestMatchTurnLimit(t *testing.T) {
	// "The game ends when one nation is left, or after the turns option's
	// turns": ended after its last turn, the match is at that turn, on its
	// clock and its board, not at the next one its rules have begun.
	_, m := play(t, 3, map[string]string{"turns": "2"}, "random", "random", "random")
	if r := m.Result(); r.Reason != "2 turns played" {
		t.Errorf("reason %q", r.Reason)
	}
	var seat struct{ Board Board }
	b, _ := json.Marshal(m.View(0))
	json.Unmarshal(b, &seat)
	if c, b := m.Clock(), m.Public().(Board); c != 2 || b.Turn != 2 || seat.Board.Turn != 2 {
		t.Errorf("the match ended after turn 2 is at turn %d, its board at %d, a seat's at %d", c, b.Turn, seat.Board.Turn)
	}
	// Its last action says the last turn is over, not that turn 3 begins.
	view := m.View(0).String()
	if !strings.Contains(strings.Join(strings.Fields(view), " "), "; that was the last turn") || strings.Contains(view, "turn 3 begins") {
		t.Errorf("the last action of a match of 2 turns does not say it ended the last turn; the view:\n%s", view)
	}
}

func TestGreedyBeatsRandom(t *testing.T) {
	// The greedy bot is sensible: against two random bots it wins most
	// games, from either seat.
	wins, games := 0, 0
	for seed := range uint64(30) {
		for _, lineup := range [][]string{{"greedy", "random", "random"}, {"random", "random", "greedy"}} {
			_, m := play(t, seed, nil, lineup...)
			g := 0
			if lineup[0] != "greedy" {
				g = 2
			}
			games++
			if m.Result().Won(g) {
				wins++
			}
		}
	}
	if wins*10 < games*7 {
		t.Errorf("greedy won %d of %d games against two random bots; want 70%% or more", wins, games)
	}
	t.Logf("greedy won %d of %d", wins, games)
}

func TestViewLegalIsWhatTheRulesAccept(t *testing.T) {
	// Every action Legal lists is accepted, and every raise, move or
	// attack it leaves out is refused.
	for seed := range uint64(10) {
		ss, setup := seats(t, "random", "random", "random")
		setup.Seed = seed
		m, _ := Game{}.NewMatch(setup)
		for step := 0; !m.Over() && step < 200; step++ {
			req := m.Pending()[0]
			v := m.View(req.Seat)
			legal := v.Legal()
			if req.Kind == ActionKind {
				listed := map[string]bool{}
				for _, a := range legal {
					listed[a.String()] = true
					if err := v.Check(a); err != nil {
						t.Fatalf("seed %d: %v is listed but refused: %v", seed, a, err)
					}
				}
				cfg := v.Config()
				for i := range cfg.Len() {
					from := cfg.Territory(i).ID
					cands := []Action{RaiseAction(from)}
					for j := range cfg.Len() {
						to := cfg.Territory(j).ID
						cands = append(cands, AttackAction(from, to))
						for n := 1; n <= cfg.MaxArmies; n++ {
							cands = append(cands, MoveAction(from, n, to))
						}
					}
					for _, a := range cands {
						if !listed[a.String()] && v.Check(a) == nil {
							t.Fatalf("seed %d: %v is accepted but not listed", seed, a)
						}
					}
				}
			}
			a, err := ss[req.Seat].Player.Decide(context.Background(), &req, v)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Apply(req.Seat, a); err != nil {
				t.Fatalf("seed %d: %v: %v", seed, a, err)
			}
		}
	}
}

func TestAppendLegalListsWhatLegalDoesWithoutAllocating(t *testing.T) {
	// A bot that keeps its slice lists the actions of every decision, the
	// join's included, as Legal does, and allocates nothing once the
	// slice has grown; so does a world it looks ahead on.
	ss, setup := seats(t, "greedy", "greedy", "random")
	setup.Seed = 7
	m, err := Game{}.NewMatch(setup)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]Action, 0, 512)
	for step := 0; !m.Over() && step < 300; step++ {
		req := m.Pending()[0]
		v := m.View(req.Seat)
		buf = v.AppendLegal(buf[:0])
		if legal := v.Legal(); !slices.Equal(buf, legal) {
			t.Fatalf("step %d: AppendLegal %v; Legal %v", step, buf, legal)
		}
		if n := testing.AllocsPerRun(5, func() { buf = v.AppendLegal(buf[:0]) }); n != 0 {
			t.Fatalf("step %d: AppendLegal allocates %v times", step, n)
		}
		if w := v.World(); req.Kind == ActionKind {
			k := v.Nation()
			if buf = w.AppendLegal(buf[:0], k); !slices.Equal(buf, w.Legal(k)) {
				t.Fatalf("step %d: World.AppendLegal %v; Legal %v", step, buf, w.Legal(k))
			}
			if n := testing.AllocsPerRun(5, func() { buf = w.AppendLegal(buf[:0], k) }); n != 0 {
				t.Fatalf("step %d: World.AppendLegal allocates %v times", step, n)
			}
		}
		a, err := ss[req.Seat].Player.Decide(context.Background(), &req, v)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Apply(req.Seat, a); err != nil {
			t.Fatal(err)
		}
	}
}

func TestViewHidesTheDice(t *testing.T) {
	// No view carries the match's random generator: from everything a
	// seat's view offers (the world, a clone of it, the configuration and
	// its seed, the JSON), a bot predicts the next battle's roll no better
	// than chance, one time in twenty.
	const matches = 400
	hits := map[string]int{}
	for seed := range uint64(matches) {
		m, err := Game{}.NewMatch(engine.Setup{Seed: seed, Players: []string{"a", "b"}})
		if err != nil {
			t.Fatal(err)
		}
		for seat, at := range []string{"CA", "NV"} {
			if err := m.Apply(seat, JoinAction(NationName(seat), at)); err != nil {
				t.Fatal(err)
			}
		}
		attack := AttackAction("CA", "NV")
		v := m.View(0)
		if v.Config().Seed != nil || v.World().Config().Seed != nil {
			t.Fatalf("seed %d: the view's configuration has the seed %d", seed, *v.Config().Seed)
		}
		if b, _ := json.Marshal(v); strings.Contains(string(b), "dice") || strings.Contains(string(b), "seed") {
			t.Fatalf("the view's JSON tells the dice: %s", b)
		}
		// The roll the match is about to draw.
		truth, err := m.World().Clone().Apply(v.Player(), attack)
		if err != nil {
			t.Fatal(err)
		}
		roll := truth.Dice[0]
		// Try the attack on the view's world, and on a clone of it.
		if o, err := v.World().Apply(v.Player(), attack); err == nil && o.Dice[0] == roll {
			hits["the view's world"]++
		}
		if o, err := v.World().Clone().Apply(v.Player(), attack); err == nil && o.Dice[0] == roll {
			hits["a clone of the view's world"]++
		}
		// Replay the dice from the configuration's seed: the two joins
		// drew one colour each, then comes the roll.
		rng := engine.NewRNG(v.Config().SeedValue())
		engine.Below(rng, 10)
		engine.Below(rng, 9)
		if 1+int(engine.Below(rng, Die)) == roll {
			hits["the configuration's seed"]++
		}
		// The view's world is the match's board all the same.
		if w := v.World(); w.Seq() != m.World().Seq() || w.Holding(0) != m.World().Holding(0) || w.Nation(1).Name != m.World().Nation(1).Name {
			t.Fatalf("the view's world is not the board: seq %d", w.Seq())
		}
	}
	// By chance: 20 of 400, with a standard deviation of 4.4.
	for way, n := range hits {
		if n > 40 {
			t.Errorf("%s predicts %d of %d rolls; chance is %d", way, n, matches, matches/Die)
		}
	}
	t.Logf("rolls predicted of %d: %v", matches, hits)
}

func TestViewCheckChangesNothing(t *testing.T) {
	// Checking an action (as a person's prompt does) leaves the match as
	// it was: its request, its choices and its board.
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"a", "b", "c"}})
	if err != nil {
		t.Fatal(err)
	}
	before := m.Pending()[0]
	choices := make([]string, len(before.Choices))
	for i, a := range before.Choices {
		choices[i] = a.String()
	}
	v := m.View(0)
	if err := v.Check(JoinAction(NationName(0), "CA")); err != nil {
		t.Fatal(err)
	}
	after := m.Pending()[0]
	for i, a := range after.Choices {
		if a.String() != choices[i] {
			t.Fatalf("after Check, choice %d is %v; was %s", i, a, choices[i])
		}
	}
	if after.Seat != 0 || m.World().Seq() != 0 || m.World().Holding(0).Nation != -1 {
		t.Errorf("Check moved the match on: seat %d, seq %d", after.Seat, m.World().Seq())
	}
}

func TestASeatedGameSaysWhatOfTheBoardItSetsAside(t *testing.T) {
	// A game of seats joins every seat first and ends a turn when each
	// seat has acted: a board's min_nations and turn_duration shape
	// nothing there, and its board option says so; the referee, whose
	// game waits for min_nations and ends turns by the clock, does not.
	board := `{"min_nations": 2, "turn_management": true, "turn_duration": "90m", "territories": [{"id": "A", "name": "Ay", "neighbors": ["B"]}, {"id": "B", "name": "Bee", "neighbors": ["A", "C"]}, {"id": "C", "name": "Cee", "neighbors": ["B"]}]}`
	warn := func(i engine.Info, board string) string {
		for _, o := range i.Options {
			if o.Name == "board" {
				return o.Warn(board)
			}
		}
		t.Fatalf("%s has no board option", i.Variant)
		return ""
	}
	seated := warn(info, board)
	for _, want := range []string{"min_nations 2 is not used", "turn_duration 1h30m0s is not used"} {
		if !strings.Contains(seated, want) {
			t.Errorf("the game's board warning %q lacks %q", seated, want)
		}
	}
	if refereed := warn(refereeInfo, board); strings.Contains(refereed, "min_nations") || strings.Contains(refereed, "turn_duration") {
		t.Errorf("the referee's board warning %q; both count there", refereed)
	}
	// And they are unused: the game is the same without them.
	plain := `{"turn_management": true, "territories": [{"id": "A", "name": "Ay", "neighbors": ["B"]}, {"id": "B", "name": "Bee", "neighbors": ["A", "C"]}, {"id": "C", "name": "Cee", "neighbors": ["B"]}]}`
	if w := warn(info, plain); w != "" {
		t.Errorf("a board without them is warned of: %s", w)
	}
	a, _ := play(t, 1, map[string]string{"board": board, "turns": "5"}, "greedy", "random")
	b, _ := play(t, 1, map[string]string{"board": plain, "turns": "5"}, "greedy", "random")
	ja, _ := json.Marshal([]any{a.Steps, a.End.Result})
	jb, _ := json.Marshal([]any{b.Steps, b.End.Result})
	if string(ja) != string(jb) {
		t.Errorf("min_nations and turn_duration changed the game:\n%s\n%s", ja, jb)
	}
}

func TestOutTellsItsTurn(t *testing.T) {
	// A nation out of the game keeps "out (action N)" in the result, as
	// records have it, but tells people the turn it went out in, as its
	// chronicle gives it: "out at turn T (action N)", in the ranks and on
	// the board.
	outs := 0
	for seed := range uint64(10) {
		_, m := play(t, seed, nil, "greedy", "random", "greedy")
		res := m.Result()
		turns := map[int]int{}
		for _, e := range m.Chronicle() {
			if e.Kind == "out" {
				turns[e.Seats[0]] = e.Clock
			}
		}
		board := m.Public().(Board).String()
		for s, status := range res.Status {
			told := m.TellStatus(s, status)
			if status == "" {
				if told != "" {
					t.Errorf("seed %d seat %d: no status, told %q", seed, s+1, told)
				}
				continue
			}
			outs++
			action := m.w.nations[s].Out
			if want := fmt.Sprintf("out (action %d)", action); status != want {
				t.Fatalf("seed %d seat %d: status %q; want %q, as records keep it", seed, s+1, status, want)
			}
			want := fmt.Sprintf("out at turn %d (action %d)", turns[s], action)
			if turns[s] < 1 || told != want {
				t.Errorf("seed %d seat %d: %q told as %q; want %q", seed, s+1, status, told, want)
			}
			if !strings.Contains(board, "out of the game at turn "+strconv.Itoa(turns[s])+" (action "+strconv.Itoa(action)+")") {
				t.Errorf("seed %d seat %d: the board does not tell turn %d:\n%s", seed, s+1, turns[s], board)
			}
			if m.TellStatus(s, "absent") != "" {
				t.Errorf("seed %d seat %d: another status is retold", seed, s+1)
			}
		}
	}
	if outs == 0 {
		t.Fatal("no nation went out")
	}
}

// counting is a bot that prepares for each match (engine.Initializer) and
// wants its own dice (Seeded): it counts the matches it was told of.
type counting struct {
	Bot
	inits, seeds int
	seat         int
}

func (c *counting) Init(info engine.MatchInfo) error {
	c.inits++
	c.seat = info.Seat
	return nil
}

func (c *counting) Seed(*rand.Rand) { c.seeds++ }

func TestPlayerRunsTheBotsInit(t *testing.T) {
	// A bot that implements engine.Initializer is told of each match
	// before its first decision, as in every other game, and one that is
	// Seeded still gets its dice.
	c := &counting{Bot: Greedy(), seat: -1}
	s := engine.Series[Action, View]{Ruleset: Game{}, Seed: 1}
	s.Options = map[string]string{"turns": "2"}
	g := engine.Seat[Action, View]{Name: "greedy", Player: Player(Greedy())}
	s.Game(g, engine.Seat[Action, View]{Name: "counting", Player: Player(c)})
	s.Game(engine.Seat[Action, View]{Name: "counting", Player: Player(c)}, g)
	if _, err := s.Play(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.inits != 2 || c.seeds != 2 || c.seat != 0 {
		t.Errorf("Init called %d times, last for seat %d, Seed %d times; want 2, seat 0 last, and 2", c.inits, c.seat, c.seeds)
	}
}
