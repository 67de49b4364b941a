package zombie

import (
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Each test here checks one numbered rule of the rules page
// (rules/zombie.md, which settles the seed 004_5c1f30eee5206922.txt) and
// quotes it: R1–R40 here, the interaction table T1–T20 in table_test.go,
// the resolutions A1–A34 in resolutions_test.go. TestEveryRuleHasATest
// checks that none is missing.

func TestR1Roster(t *testing.T) {
	// R1. "The roster has at least 3 players. Names match
	// ^[A-Za-z][A-Za-z0-9_.-]*$ and are unique when compared
	// case-insensitively. Output always uses the spelling from the roster."
	tr := judged(t, "HUMAN Ann", "ZOMBIE Zed", "GAME_START")
	wantRefusals(t, tr, "3 E_SETUP")
	tr = judged(t, "HUMAN 1abc", "HUMAN Ann!", "HUMAN _x", "HUMAN a.b-c_9", "HUMAN A", "ZOMBIE a", "HUMAN aNN", "HUMAN A.B-C_9")
	wantRefusals(t, tr, "1 E_ARGS", "2 E_ARGS", "3 E_ARGS", "6 E_DUPLICATE_PLAYER", "8 E_DUPLICATE_PLAYER")
	pattern := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`)
	for _, name := range []string{"Ann", "a", "Z9", "a.b-c_d", "9a", "", "a b", "é", "a/b", "a#", "_", "A-", "Ann\x00"} {
		if got, want := validName(name), pattern.MatchString(name); got != want {
			t.Errorf("validName(%q) = %v; the pattern says %v", name, got, want)
		}
	}
	tr = judged(t, cast, "GAME_START 1", "t ann CAT", "i zed ZOE", "i bOB aNN", "nt")
	if got := outputLines(t, tr, "PRIVATE Ann"); len(got) != 2 {
		t.Errorf("the messages to Ann: %q; want them under the roster's spelling", got)
	}
	if strings.Contains(output(t, tr), "ann") || strings.Contains(output(t, tr), "CAT") {
		t.Errorf("the output spells a name as a command did:\n%s", output(t, tr))
	}
}

func TestR2PlayerData(t *testing.T) {
	// R2. "Each player has a state (H/I/Z), antibodies a ≥ 0 and viruses
	// v ≥ 0. During a turn the judge also keeps the player's partner set and
	// ended flag."
	j := NewJudge()
	if err := j.RunScript([]byte(richCast + "\nGAME_START\ni Ann Bob\ni Ann Cat\ne Ann\ni Zed Zoe")); err != nil {
		t.Fatal(err)
	}
	ann, _ := j.Lookup("ann")
	bob, _ := j.Lookup("bob")
	cat, _ := j.Lookup("cat")
	if j.Partners(ann) != 2 || j.Partners(bob) != 1 || !j.Met(ann, cat) || j.Met(bob, cat) || !j.Ended(ann) || j.Ended(bob) {
		t.Errorf("partners %d %d, met %v %v, ended %v %v", j.Partners(ann), j.Partners(bob), j.Met(ann, cat), j.Met(bob, cat), j.Ended(ann), j.Ended(bob))
	}
	j.Exec(7, NextTurnCommand)
	if j.Partners(ann) != 0 || j.Ended(ann) || j.Met(ann, bob) {
		t.Error("the partner set and ended flag outlive the turn")
	}
	if p := j.Player(ann); p.State != Human || p.Antibodies != 5 || p.Viruses != 0 {
		t.Errorf("Ann: %+v", p)
	}
}

func TestR3StartStates(t *testing.T) {
	// R3. "Every player starts as H or Z. Nobody starts infected. GAME_START
	// requires at least 1 zombie and at least 2 humans; otherwise it fails
	// with E_SETUP and the game does not start."
	for _, roster := range []string{"HUMAN A\nHUMAN B\nHUMAN C", "HUMAN A\nZOMBIE B\nZOMBIE C", "", "ZOMBIE A\nZOMBIE B\nZOMBIE C"} {
		tr := judged(t, roster, "GAME_START", "i A B")
		if tr.Phase != Setup || len(refusals(tr)) != 2 || !strings.HasSuffix(refusals(tr)[0], "E_SETUP") || !strings.HasSuffix(refusals(tr)[1], "E_NOT_STARTED") {
			t.Errorf("%q: phase %s, errors %q; want E_SETUP and no game", roster, tr.Phase, refusals(tr))
		}
	}
	tr := judged(t, "HUMAN A", "HUMAN B", "ZOMBIE C", "GAME_START")
	if tr.Phase != InProgress {
		t.Fatal("1 zombie and 2 humans did not start")
	}
	for _, p := range tr.Players {
		if p.State == Infected {
			t.Errorf("%s starts infected", p.Name)
		}
	}
}

func TestR4StartingCounts(t *testing.T) {
	// R4. "Starting counts. A human starts with a = start_antibodies
	// (default 0) and v = 0. A zombie starts with a = 0 and v =
	// start_viruses (default 0). A number on a roster line overrides the
	// default for that one player."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob 7", "HUMAN Cat 0", "ZOMBIE Zed", "ZOMBIE Zoe 5", "GAME_START 3 antibodies=2 viruses=3")
	is(t, "default", player(t, tr, "Ann"), Human, 2, 0)
	is(t, "override", player(t, tr, "Bob"), Human, 7, 0)
	is(t, "override 0", player(t, tr, "Cat"), Human, 0, 0)
	is(t, "default", player(t, tr, "Zed"), Zombie, 0, 3)
	is(t, "override", player(t, tr, "Zoe"), Zombie, 0, 5)
	tr = judged(t, cast, "GAME_START")
	for _, p := range tr.Players {
		if p.Antibodies != 0 || p.Viruses != 0 {
			t.Errorf("defaults: %+v", p)
		}
	}
}

func TestR5Invariants(t *testing.T) {
	// R5. "Invariants: a zombie always has a = 0; H and I always have v = 0;
	// no count is ever negative." Checked after every command of many
	// random scripts.
	rng := rand.New(rand.NewPCG(5, 5))
	for k := range 300 {
		j := NewJudge()
		for n, line := range strings.Split(randomScript(rng, 200), "\n") {
			if c, ok := ParseLine(line); ok {
				j.Exec(n+1, c)
			}
			players := make([]Player, j.Players())
			for i := range players {
				players[i] = j.Player(i)
			}
			checkInvariants(t, "script "+string(rune('a'+k%26)), players)
		}
	}
}

func TestR6GameStart(t *testing.T) {
	// R6. "At GAME_START the judge sends each player a PRIVATE message
	// (identity, a, v), publicly announces the number of zombies and
	// humans, and opens turn 1."
	tr := judged(t, "HUMAN Ann 2", "ZOMBIE Zed 1", "HUMAN Bob", "GAME_START 4")
	want := "GAME START max_turns=4\nPRIVATE Ann human antibodies=2 viruses=0\nPRIVATE Zed zombie antibodies=0 viruses=1\n" +
		"PRIVATE Bob human antibodies=0 viruses=0\nPUBLIC start zombies=1 humans=2\nFINAL status=in_progress turn=1\n"
	if got := output(t, tr); !strings.HasPrefix(got, want) {
		t.Errorf("got\n%s\nwant it to start\n%s", got, want)
	}
}

func TestR7Symmetric(t *testing.T) {
	// R7. "An interaction involves two different players, A and B. It is
	// symmetric: A B and B A have the same effect. A modifier belongs to
	// the player it is written on, not to the position."
	for _, c := range []struct{ x, y Player }{
		{H("Ann", 3), Z("Zed", 2)}, {H("Ann", 1), I("Ian", 2)}, {Z("Zed", 3), Z("Zoe", 1)}, {I("Ian", 0), Z("Zed", 1)},
	} {
		for _, mods := range [][2]string{{"", ""}, {"/p", ""}, {"", "/v1"}, {"/p", "/v1"}, {"/v1", "/v1"}, {"/v1", ""}} {
			x1, y1, err1 := meet(t, c.x, c.y, mods[0], mods[1])
			y2, x2, err2 := meet(t, c.y, c.x, mods[1], mods[0])
			if (err1 == nil) != (err2 == nil) || x1 != x2 || y1 != y2 {
				t.Errorf("%v %v with %q: %v %v (%v) one way, %v %v (%v) the other", c.x, c.y, mods, x1, y1, err1, x2, y2, err2)
			}
		}
	}
	tr := judged(t, cast, "GAME_START", "i Ann Ann")
	wantRefusals(t, tr, "7 E_SELF_INTERACTION")
}

func TestR8PairOncePerTurn(t *testing.T) {
	// R8. "Within one turn, each unordered pair may interact at most once."
	tr := judged(t, cast, "GAME_START", "i Ann Bob", "i Ann Bob", "i Bob Ann", "t bob/p ann")
	wantRefusals(t, tr, "8 E_ALREADY_INTERACTED", "9 E_ALREADY_INTERACTED", "10 E_ALREADY_INTERACTED")
	is(t, "once", player(t, tr, "Ann"), Human, 1, 0)
}

func TestR9EndedPlayers(t *testing.T) {
	// R9. "Once a player has ended the turn, they cannot take part in any
	// interaction for the rest of that turn."
	tr := judged(t, richCast, "GAME_START", "i Ann Bob", "e Ann", "i Cat Ann", "i Ann Zed", "i Cat Zed", "i Zoe Bob", "nt", "i Ann Cat")
	wantRefusals(t, tr, "9 E_PLAYER_ENDED", "10 E_PLAYER_ENDED")
	if tr.Turn != 2 || player(t, tr, "Ann").State != Infected {
		t.Errorf("turn %d, Ann %+v: Ann did not take part in turn 2", tr.Turn, player(t, tr, "Ann"))
	}
}

func TestR10OneModifierPerSide(t *testing.T) {
	// R10. "Each side may carry at most one modifier: precaution P, or k
	// viruses with k ≥ 1."
	for _, side := range []string{"Ann/p/v", "Ann/pv", "Ann/p/p", "Ann/v1/p", "Ann/", "Ann/v0", "Ann/vv", "Ann/x", "/p", "Ann/v-1", "Ann/v+1"} {
		tr := judged(t, cast, "GAME_START", "i "+side+" Zed")
		wantRefusals(t, tr, "7 E_ARGS")
	}
	for _, side := range []string{"Zack/v", "Zack/V", "Zack/v1", "Zack/V01"} {
		tr := judged(t, cast, "ZOMBIE Zack 1", "GAME_START", "i "+side+" Ann")
		wantRefusals(t, tr)
	}
}

func TestR11Precaution(t *testing.T) {
	// R11. "Precaution: Only H or I may apply it, and only with a ≥ 1. It
	// costs exactly 1 antibody and protects only in this interaction. For
	// an infected player it does nothing beyond the cost."
	if _, _, err := meet(t, Z("Zed", 1), H("Ann", 1), "/p", ""); !refused(err, CodeZombieAction) {
		t.Errorf("a zombie's precaution: %v", err)
	}
	if _, _, err := meet(t, H("Ann", 0), H("Bob", 1), "/p", ""); !refused(err, CodeNoAntibody) {
		t.Errorf("precaution with a = 0: %v", err)
	}
	ann, _, _ := meet(t, H("Ann", 2), Z("Zed", 0), "/p", "")
	is(t, "H(p)-Z", ann, Human, 1, 0)
	// Only in this interaction: the next one without it infects.
	tr := judged(t, "HUMAN Ann 2", "HUMAN Bob", "ZOMBIE Zed", "ZOMBIE Zoe", "GAME_START", "i Ann/p Zed", "i Ann Zoe")
	is(t, "protected once", player(t, tr, "Ann"), Infected, 1, 0)
	ian, _, _ := meet(t, I("Ian", 3), Z("Zed", 0), "/p", "")
	is(t, "I(p)-Z", ian, Infected, 1, 0)
	ian, _, _ = meet(t, I("Ian", 3), I("Ivy", 0), "/p", "")
	is(t, "I(p)-I", ian, Infected, 2, 0)
}

func refused(err error, code Code) bool {
	r, ok := err.(*Refusal)
	return ok && r.Code == code
}

func TestR12Viruses(t *testing.T) {
	// R12. "Viruses: only a zombie may apply them, and only with v ≥ k. The
	// k viruses leave the zombie."
	if _, _, err := meet(t, H("Ann", 3), H("Bob", 0), "/v1", ""); !refused(err, CodeNotZombie) {
		t.Errorf("a human's viruses: %v", err)
	}
	if _, _, err := meet(t, I("Ian", 3), H("Bob", 0), "/v1", ""); !refused(err, CodeNotZombie) {
		t.Errorf("an infected player's viruses: %v", err)
	}
	if _, _, err := meet(t, Z("Zed", 2), H("Bob", 0), "/v3", ""); !refused(err, CodeNotEnoughVirus) {
		t.Errorf("3 viruses of 2: %v", err)
	}
	zed, bob, _ := meet(t, Z("Zed", 3), H("Bob", 5), "/v3", "")
	is(t, "the viruses leave", zed, Zombie, 0, 0)
	is(t, "and reach Bob", bob, Infected, 2, 0)
}

func TestR13Resolution(t *testing.T) {
	// R13. "Resolving an interaction: 1. Validate the whole command. If any
	// check fails, reject it and change nothing. 2. Pay the costs: −1
	// antibody for each precaution, −k viruses for each zombie that applies
	// k. 3. Apply the pair effect from table T. Use both players' states as
	// they were at the start of the interaction. 4. The new states and
	// counts apply immediately to every later command in the same turn."
	// 1: the right side's bad modifier refuses the whole command.
	tr := judged(t, "HUMAN Ann 1", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "i Ann/p Bob/p")
	wantRefusals(t, tr, "5 E_NO_ANTIBODY")
	is(t, "nothing paid", player(t, tr, "Ann"), Human, 1, 0)
	// 3: states at the start: H–I makes the human infected, and the
	// infected still gains as from a human.
	_, ian, _ := meet(t, H("Ann", 0), I("Ian", 0), "", "")
	is(t, "from the start states", ian, Infected, 1, 0)
	// 4: at once: Bob, infected by Zed, infects Cat in the same turn.
	tr = judged(t, cast, "GAME_START", "i Bob Zed", "i Bob Cat", "i Ann Zoe/v0")
	if player(t, tr, "Cat").State != Infected {
		t.Error("an infection is not in effect for the next command")
	}
}

func TestR14Table(t *testing.T) {
	// R14. "The pair effects are given by table T in section 3." Every row
	// is its own test (TestT1 … TestT20); here every pair of states with
	// every legal modifier is checked against the rows, written out again
	// as a table of the seed's sentences.
	states := []Player{H("X", 3), I("X", 3), Z("X", 3)}
	for _, x := range states {
		for _, y := range states {
			y.Name = "Y"
			for _, mx := range mods(x) {
				for _, my := range mods(y) {
					gx, gy, err := meet(t, x, y, mx, my)
					if err != nil {
						t.Errorf("%v %q with %v %q: %v", x, mx, y, my, err)
						continue
					}
					wx, wy := row(x, y, mx, my)
					if gx != wx || gy != wy {
						t.Errorf("%s%s (%d) with %s%s (%d): got %v %v; table T says %v %v", x.State, mx, x.Antibodies+x.Viruses, y.State, my, y.Antibodies+y.Viruses, gx, gy, wx, wy)
					}
				}
			}
		}
	}
}

// mods are the legal modifiers of a player of 3.
func mods(p Player) []string {
	if p.State == Zombie {
		return []string{"", "/v1", "/v2", "/v3"}
	}
	return []string{"", "/p"}
}

// row is table T, row by row, for players of 3: what x and y become.
func row(x, y Player, mx, my string) (Player, Player) {
	k := func(m string) int64 {
		if strings.HasPrefix(m, "/v") {
			return int64(m[2] - '0')
		}
		return 0
	}
	p := func(m string) bool { return m == "/p" }
	one := func(me, other Player, mm, mo string) Player {
		a, v := me.Antibodies, me.Viruses
		switch me.State {
		case Human:
			switch other.State {
			case Human: // T1–T3
				return H(me.Name, a+1-b2i(p(mm)))
			case Infected: // T4–T7
				if p(mm) {
					return H(me.Name, a-1)
				}
				return I(me.Name, a)
			case Zombie: // T8–T11
				switch kk := k(mo); {
				case kk == 0 && p(mm):
					return H(me.Name, a-1)
				case kk == 0:
					return I(me.Name, a)
				case p(mm) && kk < a-1:
					return H(me.Name, a-1-kk)
				case p(mm):
					return I(me.Name, 0)
				default:
					return I(me.Name, max(0, a-kk))
				}
			}
		case Infected:
			switch other.State {
			case Human: // T4–T7
				return I(me.Name, a+1-b2i(p(mm)))
			case Infected: // T12, T13
				return I(me.Name, a-b2i(p(mm)))
			case Zombie: // T14–T17
				return I(me.Name, max(0, a-b2i(p(mm))-1-k(mo)))
			}
		case Zombie:
			if other.State != Zombie {
				return Z(me.Name, v-k(mm))
			}
			if k(mm) == 0 && k(mo) == 0 { // T18
				return Z(me.Name, v+1)
			}
			return Z(me.Name, v-k(mm)+k(mo)) // T19, T20
		}
		panic("no row")
	}
	return one(x, y, mx, my), one(y, x, my, mx)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func TestR15Neutralisation(t *testing.T) {
	// R15. "Neutralisation: k viruses reaching an H or I player remove
	// min(k, a) antibodies. Any viruses left over disappear."
	_, ann, _ := meet(t, Z("Zed", 5), H("Ann", 2), "/v5", "")
	is(t, "H hit by 5", ann, Infected, 0, 0)
	_, ian, _ := meet(t, Z("Zed", 2), I("Ian", 5), "/v2", "")
	is(t, "I hit by 2 (and 1 for I–Z)", ian, Infected, 2, 0)
	_, ian, _ = meet(t, Z("Zed", 9), I("Ian", 1), "/v9", "")
	is(t, "I hit by 9", ian, Infected, 0, 0)
}

func TestR16ReinforcedWithPrecaution(t *testing.T) {
	// R16. "Reinforced infection against a human with precaution: the human
	// pays 1 and has a′ = a − 1 left. If k ≥ a′ the human becomes I with 0
	// antibodies; otherwise a′ − k and the human stays H. (So a human who
	// spends the last antibody on precaution is infected by any virus.)"
	for _, c := range []struct {
		a, k  int64
		state State
		left  int64
	}{{5, 3, Human, 1}, {5, 4, Infected, 0}, {5, 9, Infected, 0}, {2, 1, Infected, 0}, {1, 1, Infected, 0}, {3, 1, Human, 1}} {
		ann, _, _ := meet(t, H("Ann", c.a), Z("Zed", c.k), "/p", "/v"+itoa(c.k))
		is(t, "a="+itoa(c.a)+" k="+itoa(c.k), ann, c.state, c.left, 0)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestR17ReinforcedWithoutPrecaution(t *testing.T) {
	// R17. "Reinforced infection against a human without precaution: the
	// human becomes I and a becomes max(0, a − k)."
	for _, c := range []struct{ a, k, left int64 }{{5, 2, 3}, {2, 2, 0}, {1, 3, 0}, {0, 1, 0}} {
		ann, _, _ := meet(t, H("Ann", c.a), Z("Zed", c.k), "", "/v"+itoa(c.k))
		is(t, "a="+itoa(c.a)+" k="+itoa(c.k), ann, Infected, c.left, 0)
	}
}

func TestR18NoZombieMidTurn(t *testing.T) {
	// R18. "An infected player never turns into a zombie during a turn,
	// even at a = 0."
	j := NewJudge()
	if err := j.RunScript([]byte(cast + "\nGAME_START\ni Ann Zed\ni Bob Zoe/v0")); err != nil {
		t.Fatal(err)
	}
	ann, _ := j.Lookup("Ann")
	if p := j.Player(ann); p.State != Infected || p.Antibodies != 0 {
		t.Errorf("Ann in the turn: %+v; want infected at 0", p)
	}
	j.Exec(9, NextTurnCommand) // Cat has no interaction: refused
	if p := j.Player(ann); p.State != Infected {
		t.Errorf("a refused NEXT_TURN turned Ann: %+v", p)
	}
}

func TestR19ZombiesGainOnlyFromZombies(t *testing.T) {
	// R19. "Zombies gain nothing from infecting anyone. The only way to
	// create viruses is a Z–Z interaction in which neither side applies
	// viruses (+1 each)."
	zed, _, _ := meet(t, Z("Zed", 0), H("Ann", 3), "", "")
	is(t, "Z-H", zed, Zombie, 0, 0)
	zed, _, _ = meet(t, Z("Zed", 0), I("Ian", 3), "", "")
	is(t, "Z-I", zed, Zombie, 0, 0)
	zed, zoe, _ := meet(t, Z("Zed", 0), Z("Zoe", 0), "", "")
	is(t, "Z-Z", zed, Zombie, 0, 1)
	is(t, "Z-Z", zoe, Zombie, 0, 1)
	zed, zoe, _ = meet(t, Z("Zed", 1), Z("Zoe", 0), "/v1", "")
	if zed.Viruses+zoe.Viruses != 1 {
		t.Errorf("Z-Z with a virus applied made viruses: %v %v", zed, zoe)
	}
}

func TestR20NobodyIsTold(t *testing.T) {
	// R20. "Nobody is told anything when an interaction happens."
	j := NewJudge()
	if err := j.RunScript([]byte(richCast + "\nGAME_START 3")); err != nil {
		t.Fatal(err)
	}
	n := len(j.Events())
	for _, line := range []string{"i Ann Zed", "i Bob/p Cat", "i Zed Zoe", "c Ann", "e Bob"} {
		c, _ := ParseLine(line)
		if err := j.Do(c); err != nil {
			t.Fatal(line, err)
		}
		if len(j.Events()) != n {
			t.Fatalf("%s: the judge said %+v", line, j.Events()[n:])
		}
	}
}

func TestR21Cure(t *testing.T) {
	// R21. "CURE p: A zombie is rejected with E_ZOMBIE_ACTION. A player with
	// a = 0 is rejected with E_NO_ANTIBODY. Otherwise the cure costs 1
	// antibody. An infected player becomes H. A real human's cure has no
	// effect (the antibody is still spent)."
	tr := judged(t, "HUMAN Ann 2", "HUMAN Bob 1", "HUMAN Cat", "ZOMBIE Zed", "GAME_START",
		"CURE Zed", "CURE Cat", "i Ann Zed", "CURE Ann", "CURE Bob")
	wantRefusals(t, tr, "6 E_ZOMBIE_ACTION", "7 E_NO_ANTIBODY")
	is(t, "infected, cured", player(t, tr, "Ann"), Human, 1, 0)
	is(t, "human, cured", player(t, tr, "Bob"), Human, 0, 0)
}

func TestR22CureAnyMoment(t *testing.T) {
	// R22. "CURE is allowed at any moment while a turn is open, before or
	// after the player's own END_TURN. It does not count as an
	// interaction."
	tr := judged(t, "HUMAN Ann 3", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed", "GAME_START",
		"c Ann", "e Ann", "i Ann Zed", "e Ann", "c Ann")
	wantRefusals(t, tr, "7 E_NO_INTERACTION")
	is(t, "cured before and after END_TURN", player(t, tr, "Ann"), Human, 1, 0)
}

func TestR23EndTurnRefusals(t *testing.T) {
	// R23. "END_TURN p is rejected if: p has already ended the turn
	// (E_ALREADY_ENDED); p has had no interaction this turn
	// (E_NO_INTERACTION); afterwards, some player q with no interaction
	// this turn would have no partner left who has not ended the turn
	// (E_DEADLOCK)."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed", "GAME_START",
		"e Ann", "i Ann Bob", "e Ann", "e Ann", "i Bob Cat", "e Bob", "e Cat", "i Cat Ann", "e Zed")
	wantRefusals(t, tr, "6 E_NO_INTERACTION", "9 E_ALREADY_ENDED", "12 E_DEADLOCK", "13 E_PLAYER_ENDED", "14 E_NO_INTERACTION")
	if tr.Turn != 1 {
		t.Errorf("turn %d; Bob, Cat and Zed have not ended", tr.Turn)
	}
}

func TestR24NextTurn(t *testing.T) {
	// R24. "NEXT_TURN is rejected with E_NO_INTERACTION, naming the players
	// concerned, if any player has no interaction this turn. Otherwise it
	// counts as END_TURN for everyone who has not declared, and the turn
	// ends. When the last player still playing declares END_TURN, the turn
	// ends right there; a NEXT_TURN that follows such an end with no other
	// command between them is accepted and does nothing."
	tr := judged(t, richCast, "GAME_START 5", "i Ann Bob", "nt", "i Cat Zed", "i Zoe Ann", "e Ann", "nt")
	wantRefusals(t, tr, "8 E_NO_INTERACTION")
	if tr.Turn != 2 {
		t.Errorf("turn %d; want 2", tr.Turn)
	}
	for _, e := range tr.Events {
		if e.Kind == Refused && !(strings.Contains(e.Text, "Cat") && strings.Contains(e.Text, "Zed") && strings.Contains(e.Text, "Zoe") && !strings.Contains(e.Text, "Ann")) {
			t.Errorf("the refusal does not name exactly Cat, Zed and Zoe: %s", e.Text)
		}
	}
	// The last END_TURN ends the turn; the NEXT_TURN after it does nothing.
	tr = judged(t, richCast, "GAME_START 5", "i Ann Bob", "i Cat Zed", "i Zoe Ann", "e Ann", "e Bob", "e Cat", "e Zed", "e Zoe", "nt")
	if tr.Turn != 2 || len(outputLines(t, tr, "TURN ")) != 1 || tr.Errors != 0 {
		t.Errorf("turn %d, %q, %d errors; want turn 1 ended once, by the last END_TURN", tr.Turn, outputLines(t, tr, "TURN "), tr.Errors)
	}
	// With another command between them, NEXT_TURN ends the new turn.
	tr = judged(t, "HUMAN Ann 1", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed", "GAME_START 5", "i Ann Bob", "i Cat Zed",
		"e Ann", "e Bob", "e Cat", "e Zed", "c Ann", "nt")
	wantRefusals(t, tr, "13 E_NO_INTERACTION")
	// A refused command is no command: the NEXT_TURN still does nothing.
	tr = judged(t, richCast, "GAME_START 5", "i Ann Bob", "i Cat Zed", "i Zoe Ann", "e Ann", "e Bob", "e Cat", "e Zed", "e Zoe", "i Ann Ann", "nt")
	wantRefusals(t, tr, "15 E_SELF_INTERACTION")
	if tr.Turn != 2 {
		t.Errorf("turn %d after a refused command and NEXT_TURN; want 2", tr.Turn)
	}
}

func TestR25EndOfTurnSteps(t *testing.T) {
	// R25. "End-of-turn steps, in this order: 1. Every infected player loses
	// 1 antibody (never below 0). 2. Every infected player now at a = 0
	// becomes a zombie (a = 0, v = 0). 3. PRIVATE message to every player,
	// in roster order. 4. PUBLIC announcement. 5. Game-end check. 6. If the
	// game is not over: the turn number goes up by 1, and all partner sets
	// and ended flags are cleared."
	tr := judged(t, "HUMAN Ann 3", "HUMAN Bob 1", "HUMAN Cat", "HUMAN Dan 2", "ZOMBIE Zed", "GAME_START 2",
		"i Ann Zed", "i Bob Zed", "i Cat Zed", "i Dan/p Zed", "nt")
	is(t, "I at 3 → 2", player(t, tr, "Ann"), Infected, 2, 0)
	is(t, "I at 1 → 0 → Z", player(t, tr, "Bob"), Zombie, 0, 0)
	is(t, "I at 0 → Z", player(t, tr, "Cat"), Zombie, 0, 0)
	is(t, "H", player(t, tr, "Dan"), Human, 1, 0)
	want := "TURN 1 END\nPRIVATE Ann human antibodies=2 viruses=0\nPRIVATE Bob zombie antibodies=0 viruses=0\n" +
		"PRIVATE Cat zombie antibodies=0 viruses=0\nPRIVATE Dan human antibodies=1 viruses=0\nPRIVATE Zed zombie antibodies=0 viruses=0\n" +
		"PUBLIC turn=1 zombies=3 humans=2 max_antibodies=2 max_viruses=0\nFINAL status=in_progress turn=2\n"
	if got := output(t, tr); !strings.Contains(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	tr = judged(t, richCast, "GAME_START 2", "i Ann Bob", "i Cat Zed", "i Zoe Ann", "e Ann", "nt", "i Ann Bob")
	if tr.Turn != 2 || tr.Errors != 0 {
		t.Errorf("turn %d, errors %q: the pair set and ended flags were not cleared", tr.Turn, refusals(tr))
	}
}

func TestR26PrivateMessage(t *testing.T) {
	// R26. "The PRIVATE message holds the identity (human for H and I,
	// zombie for Z), a and v. It never says "infected"."
	tr := judged(t, "HUMAN Ann 3", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed", "GAME_START", "i Ann Zed", "i Bob Cat", "nt")
	if player(t, tr, "Ann").State != Infected {
		t.Fatal("Ann is not infected")
	}
	if got := outputLines(t, tr, "PRIVATE Ann"); got[1] != "PRIVATE Ann human antibodies=2 viruses=0" {
		t.Errorf("Ann is told %q", got[1])
	}
	for _, l := range outputLines(t, tr, "PRIVATE") {
		if strings.Contains(l, "infected") {
			t.Errorf("a PRIVATE line says infected: %s", l)
		}
	}
}

func TestR27PublicAnnouncement(t *testing.T) {
	// R27. "The PUBLIC announcement holds: the turn number; zombies = number
	// of Z; humans = number of H + number of I; max_antibodies = the
	// highest a of any player; max_viruses = the highest v of any player.
	// It gives numbers only, never names."
	tr := judged(t, "HUMAN Ann 4", "HUMAN Bob 1", "HUMAN Cat", "ZOMBIE Zed 2", "ZOMBIE Zoe", "GAME_START",
		"i Ann Zed", "i Bob Cat", "i Zoe Cat", "nt")
	got := outputLines(t, tr, "PUBLIC turn=")
	// Ann infected (4 → 3), Bob 2, Cat infected at 0 → zombie; Zed 2.
	if len(got) != 1 || got[0] != "PUBLIC turn=1 zombies=3 humans=2 max_antibodies=3 max_viruses=2" {
		t.Errorf("got %q", got)
	}
	for _, l := range outputLines(t, tr, "PUBLIC") {
		for _, p := range tr.Players {
			if strings.Contains(l, p.Name) {
				t.Errorf("%q names %s", l, p.Name)
			}
		}
	}
}

func TestR28ZombiesWin(t *testing.T) {
	// R28. "Let h = #H + #I after step 2 of R25. If h = 0, the zombies win."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "i Ann Zed", "i Bob Zed", "nt")
	if tr.Phase != Over || tr.Result.Outcome != ZombiesWin || outputLines(t, tr, "GAME OVER")[0] != "GAME OVER: ZOMBIES WIN" {
		t.Errorf("%s %s", tr.Phase, tr.Result.Outcome)
	}
}

func TestR29LastSurvivor(t *testing.T) {
	// R29. "Otherwise, if h = 1, the humans win. The one remaining
	// non-zombie is the survivor and the winner, even if infected."
	tr := judged(t, "HUMAN Ann 5", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "i Ann Zed", "i Bob Zed", "nt")
	if player(t, tr, "Ann").State != Infected {
		t.Fatal("Ann should be infected")
	}
	if got := outputLines(t, tr, "GAME OVER"); len(got) != 1 || got[0] != "GAME OVER: HUMANS WIN last_survivor=Ann" {
		t.Errorf("got %q", got)
	}
}

func TestR30MaxTurnsRanking(t *testing.T) {
	// R30. "Otherwise, if turn = max_turns, the humans win. The ranking
	// covers every non-zombie, by a from high to low, using competition
	// ranking (1, 2, 2, 4). Tied players are listed in roster order."
	tr := judged(t, "HUMAN Dan 1", "HUMAN Ann 2", "HUMAN Cat 2", "HUMAN Bob 3", "ZOMBIE Zed", "GAME_START 1",
		"i Dan Ann/p", "i Cat/p Bob/p", "i Zed Dan/p", "nt")
	// Dan 1+1-1 = 1; Ann 2-1+1 = 2; Cat 2-1+1 = 2; Bob 3-1+1 = 3.
	if got := outputLines(t, tr, "GAME OVER"); len(got) != 1 || got[0] != "GAME OVER: HUMANS WIN max_turns ranking=1:Bob:3,2:Ann:2,2:Cat:2,4:Dan:1" {
		t.Errorf("got %q", got)
	}
}

func TestR31EndChecksOnlyAtTurnEnd(t *testing.T) {
	// R31. "These checks run only at the end of a turn, in the order R28,
	// R29, R30."
	// Mid-turn every human is infected: no end yet.
	tr := judged(t, "HUMAN Ann 1", "HUMAN Bob 1", "ZOMBIE Zed", "GAME_START 1", "i Ann Zed", "i Bob Zed", "c Ann")
	if tr.Phase != InProgress {
		t.Errorf("the game ended mid-turn: %s", tr.Phase)
	}
	// At the last turn with one human left: the survivor rule comes first.
	tr = judged(t, "HUMAN Ann 2", "HUMAN Bob", "ZOMBIE Zed", "GAME_START 1", "i Ann Zed", "i Bob Zed", "nt")
	if tr.Result.Outcome != HumansWinSurvivor {
		t.Errorf("%s; want the survivor rule before max turns", tr.Result.Outcome)
	}
	// At the last turn with no human left: the zombies win.
	tr = judged(t, "HUMAN Ann", "HUMAN Bob", "ZOMBIE Zed", "GAME_START 1", "i Ann Zed", "i Bob Zed", "nt")
	if tr.Result.Outcome != ZombiesWin {
		t.Errorf("%s; want the zombies to win first", tr.Result.Outcome)
	}
}

func TestR32GameOverRefusesAll(t *testing.T) {
	// R32. "After the game is over, every command is rejected with
	// E_GAME_OVER."
	tr := judged(t, cast, "GAME_START 1", "i Ann Bob", "i Cat Zed", "i Zoe Ann", "nt",
		"i Ann Bob", "c Ann", "e Ann", "nt", "HUMAN Eve", "ZOMBIE Zack", "GAME_START", "nt extra", "FLY")
	wantRefusals(t, tr, "11 E_GAME_OVER", "12 E_GAME_OVER", "13 E_GAME_OVER", "14 E_GAME_OVER", "15 E_GAME_OVER",
		"16 E_GAME_OVER", "17 E_GAME_OVER", "18 E_GAME_OVER", "19 E_UNKNOWN_COMMAND")
	// A NEXT_TURN right after the END_TURN that ended the game is R24's
	// no-op ("so scripts that close every turn with NEXT_TURN stay valid"),
	// the one command accepted after the end; a second one is refused.
	tr = judged(t, cast, "GAME_START 1", "i Ann Bob", "i Cat Zed", "i Zoe Ann", "e Ann", "e Bob", "e Cat", "e Zed", "e Zoe", "nt", "nt")
	wantRefusals(t, tr, "16 E_GAME_OVER")
}

func TestR33MaxTurns(t *testing.T) {
	// R33. "max_turns must be ≥ 1. The default is 5."
	tr := judged(t, cast, "GAME_START 0", "GAME_START", "GAME_START 2")
	wantRefusals(t, tr, "6 E_ARGS", "8 E_ALREADY_STARTED")
	if tr.MaxTurns != 5 || outputLines(t, tr, "GAME START")[0] != "GAME START max_turns=5" {
		t.Errorf("max_turns %d", tr.MaxTurns)
	}
}

func TestR34Tokens(t *testing.T) {
	// R34. "The script is read line by line and split into tokens on
	// whitespace. A token that starts with # starts a comment, which runs to
	// the end of the line. Empty lines and comment-only lines are skipped,
	// but still count for line numbers. Keywords and player names are
	// case-insensitive."
	tr := judged(t, "# a roster", "human Ann\t", "  HuMaN   bob # the second", "", "zombie\tZED", "Game_Start 2 # go",
		"  # a comment", "\t", "I ANN bob#x", "i ann BOB #x", "Fly # not a keyword", "nt", "i ann Ann#x\r", "TOUCH\u00a0ann\u00a0bob")
	wantRefusals(t, tr, "9 E_UNKNOWN_PLAYER", "11 E_UNKNOWN_COMMAND", "12 E_NO_INTERACTION", "13 E_UNKNOWN_PLAYER", "14 E_ALREADY_INTERACTED")
	if got := player(t, tr, "ann").Antibodies; got != 1 {
		t.Errorf("Ann has %d; line 10 was not read as an interaction", got)
	}
	// Comments, blank lines and \r\n line ends.
	tr = judged(t, "HUMAN Ann\r", "HUMAN Bob\r", "ZOMBIE Zed\r", "GAME_START\r", "\r", "FLY\r")
	wantRefusals(t, tr, "6 E_UNKNOWN_COMMAND")
}

func TestR35RefusedChangesNothing(t *testing.T) {
	// R35. "A rejected command changes nothing. It prints ERROR line <n>
	// <CODE>: <text> with a 1-based line number, and processing continues
	// with the next line."
	rng := rand.New(rand.NewPCG(35, 35))
	for range 100 {
		j := NewJudge()
		for n, line := range strings.Split(randomScript(rng, 150), "\n") {
			c, ok := ParseLine(line)
			if !ok {
				continue
			}
			before := snapshotJudge(j)
			if !j.Exec(n+1, c) {
				if after := snapshotJudge(j); after != before {
					t.Fatalf("line %d %q was refused but changed the judge:\n%s\n%s", n+1, line, before, after)
				}
				e := j.Events()[len(j.Events())-1]
				if e.Kind != Refused || e.Line != n+1 || e.Text == "" {
					t.Fatalf("line %d %q: the last event is %+v", n+1, line, e)
				}
			}
		}
	}
	tr := judged(t, cast, "GAME_START", "FLY")
	if got := outputLines(t, tr, "ERROR"); len(got) != 1 || !regexp.MustCompile(`^ERROR line 7 E_UNKNOWN_COMMAND: .+`).MatchString(got[0]) {
		t.Errorf("got %q", got)
	}
}

// snapshotJudge is everything a judge holds, but its events, as text.
func snapshotJudge(j *Judge) string {
	var b strings.Builder
	b.WriteString(j.phase.String() + " " + itoa(int64(j.turn)) + " ")
	for _, p := range j.players {
		b.WriteString(strings.Join([]string{p.Name, p.State.String(), itoa(p.Antibodies), itoa(p.Viruses)}, ","))
		b.WriteString(" " + map[bool]string{true: "E", false: "-"}[p.ended] + itoa(int64(p.partners)) + ";")
	}
	var met []string
	for k, v := range j.met {
		if v == j.turn {
			met = append(met, itoa(int64(k>>32))+"-"+itoa(int64(k&0xffffffff)))
		}
	}
	slices.Sort(met)
	b.WriteString(strings.Join(met, " ") + " ")
	b.WriteString(map[bool]string{true: "closed", false: "open"}[j.closed])
	return b.String() + " " + itoa(int64(j.open)) + " " + itoa(int64(j.idle))
}

func TestR36InteractCheckOrder(t *testing.T) {
	// R36. "INTERACT checks, in this order: 1. phase (E_NOT_STARTED /
	// E_GAME_OVER); 2. arity and syntax (E_ARGS); 3. both players known
	// (E_UNKNOWN_PLAYER); 4. not the same player twice
	// (E_SELF_INTERACTION); 5. neither player has ended the turn
	// (E_PLAYER_ENDED); 6. the pair has not interacted yet this turn
	// (E_ALREADY_INTERACTED); 7. the modifiers, left side first:
	// precaution: E_ZOMBIE_ACTION, then E_NO_ANTIBODY; viruses:
	// E_NOT_ZOMBIE, then E_NOT_ENOUGH_VIRUS."
	tr := judged(t, cast, "i Nobody Nobody/x") // before GAME_START: phase first
	wantRefusals(t, tr, "6 E_NOT_STARTED")
	base := []string{"HUMAN Ann 1", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed 1", "ZOMBIE Zoe", "GAME_START",
		"i Ann Bob", "e Ann", "i Cat Zed"}
	for _, c := range []struct{ line, code string }{
		{"i Nobody Nobody/x", "E_ARGS"},
		{"i Nobody Ann/v0", "E_ARGS"},
		{"i Ann", "E_ARGS"},
		{"i Nobody Nobody", "E_UNKNOWN_PLAYER"},
		{"i Ann Nobody", "E_UNKNOWN_PLAYER"},
		{"i Ann ANN/p", "E_SELF_INTERACTION"},
		{"i Ann/v9 Bob", "E_PLAYER_ENDED"},
		{"i Bob Ann", "E_PLAYER_ENDED"},
		{"i Zed/p Cat/v5", "E_ALREADY_INTERACTED"},
		{"i Zoe/p Cat/v9", "E_ZOMBIE_ACTION"},
		{"i Cat/p Zoe/p", "E_NO_ANTIBODY"},
		{"i Bob/v1 Zoe/p", "E_NOT_ZOMBIE"},
		{"i Zoe/v1 Bob/v1", "E_NOT_ENOUGH_VIRUS"},
		{"i Bob Zoe/p", "E_ZOMBIE_ACTION"},
		{"i Zed/v1 Bob/v1", "E_NOT_ZOMBIE"},
		{"i Zed/v2 Bob", "E_NOT_ENOUGH_VIRUS"},
	} {
		tr := judged(t, append(base, c.line)...)
		wantRefusals(t, tr, "10 "+c.code)
		if t.Failed() {
			t.Fatalf("at %q", c.line)
		}
	}
}

func TestR37OtherCheckOrders(t *testing.T) {
	// R37. "Check order for the other commands: CURE: phase → arity →
	// player known → zombie → antibody. END_TURN: phase → arity → player
	// known → already ended → no interaction → deadlock. NEXT_TURN: phase →
	// arity → no interaction."
	tr := judged(t, "HUMAN Ann", "c Nobody extra", "e Nobody extra", "nt extra")
	wantRefusals(t, tr, "2 E_NOT_STARTED", "3 E_NOT_STARTED", "4 E_NOT_STARTED")
	base := []string{"HUMAN Ann 1", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed", "GAME_START", "i Ann Bob", "e Ann"}
	for _, c := range []struct{ line, code string }{
		{"c Nobody extra", "E_ARGS"}, {"c", "E_ARGS"}, {"c Nobody", "E_UNKNOWN_PLAYER"},
		{"c Zed", "E_ZOMBIE_ACTION"}, {"c Cat", "E_NO_ANTIBODY"},
		{"e Nobody extra", "E_ARGS"}, {"e Nobody", "E_UNKNOWN_PLAYER"}, {"e Ann", "E_ALREADY_ENDED"},
		{"e Cat", "E_NO_INTERACTION"},
		{"nt extra", "E_ARGS"}, {"nt", "E_NO_INTERACTION"},
	} {
		tr := judged(t, append(base, c.line)...)
		wantRefusals(t, tr, "8 "+c.code)
		if t.Failed() {
			t.Fatalf("at %q", c.line)
		}
	}
	tr = judged(t, "HUMAN Ann", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed", "GAME_START", "i Ann Bob", "i Bob Cat", "e Ann", "e Bob", "e Cat extra", "e Cat")
	wantRefusals(t, tr, "10 E_ARGS", "11 E_DEADLOCK")
}

func TestR38Phases(t *testing.T) {
	// R38. "Phase rules: HUMAN, ZOMBIE and GAME_START are allowed only
	// before the game starts. Afterwards they fail with E_ALREADY_STARTED,
	// or E_GAME_OVER once the game is over. INTERACT, CURE, END_TURN and
	// NEXT_TURN before GAME_START fail with E_NOT_STARTED."
	tr := judged(t, "i A B", "c A", "e A", "nt", cast, "GAME_START 1", "HUMAN Eve", "ZOMBIE Zack", "GAME_START",
		"i Ann Bob", "i Cat Zed", "i Zoe Ann", "nt", "HUMAN Eve", "ZOMBIE Zack", "GAME_START")
	wantRefusals(t, tr, "1 E_NOT_STARTED", "2 E_NOT_STARTED", "3 E_NOT_STARTED", "4 E_NOT_STARTED",
		"11 E_ALREADY_STARTED", "12 E_ALREADY_STARTED", "13 E_ALREADY_STARTED",
		"18 E_GAME_OVER", "19 E_GAME_OVER", "20 E_GAME_OVER")
	// Bad arguments do not come before the phase.
	tr = judged(t, cast, "GAME_START", "HUMAN", "ZOMBIE 1x", "GAME_START 0")
	wantRefusals(t, tr, "7 E_ALREADY_STARTED", "8 E_ALREADY_STARTED", "9 E_ALREADY_STARTED")
}

func TestR39Final(t *testing.T) {
	// R39. "At the end of the run the judge prints FINAL
	// status=<setup|in_progress|over> turn=<t>, then one STATE line per
	// player showing the true state. t is the open turn when the game is in
	// progress, the last ended turn when it is over, and 0 before
	// GAME_START."
	for _, c := range []struct {
		script []string
		final  string
	}{
		{nil, "FINAL status=setup turn=0\n"},
		{[]string{"HUMAN Ann 2", "ZOMBIE Zed"}, "FINAL status=setup turn=0\nSTATE Ann human antibodies=2 viruses=0\nSTATE Zed zombie antibodies=0 viruses=0\n"},
		{[]string{richCast, "GAME_START 3", "i Ann Zed", "i Bob Cat", "i Zoe Ann", "nt"}, "FINAL status=in_progress turn=2\nSTATE Ann infected antibodies=1 viruses=0\n"},
		{[]string{cast, "GAME_START 1", "i Ann Bob", "i Cat Bob", "i Zoe Zed", "nt"}, "FINAL status=over turn=1\n"},
	} {
		got := output(t, judged(t, c.script...))
		if !strings.Contains(got, c.final) || strings.Count(got, "FINAL") != 1 {
			t.Errorf("%q:\n%s\nwant\n%s", c.script, got, c.final)
		}
		if i := strings.Index(got, "FINAL"); strings.Count(got[i:], "\nSTATE ") != strings.Count(got, "STATE ") {
			t.Errorf("a STATE line before FINAL:\n%s", got)
		}
	}
	tr := judged(t, "HUMAN Ann 2", "ZOMBIE Zed", "HUMAN Bob")
	if got := outputLines(t, tr, "STATE"); len(got) != 3 {
		t.Errorf("STATE lines %q; want one per player", got)
	}
}

func TestR40ErrorsCount(t *testing.T) {
	// R40. "Exit status: 0 when there is no ERROR line; 1 when there is at
	// least one; 2 when the script or config cannot be read or is
	// invalid." The exit codes are the CLI's (cmd/arbiter tests them); the
	// judge counts the ERROR lines and refuses text that is not UTF-8.
	if tr := judged(t, cast, "GAME_START"); tr.Errors != 0 {
		t.Errorf("%d errors", tr.Errors)
	}
	if tr := judged(t, cast, "GAME_START", "FLY", "nt"); tr.Errors != 2 {
		t.Errorf("%d errors; want 2", tr.Errors)
	}
	_, err := Run([]byte("HUMAN Ann\nHUMAN B\xffb\n"))
	if se, ok := err.(*ScriptError); !ok || se.Line != 2 {
		t.Errorf("not UTF-8: %v", err)
	}
}

func TestScriptWithAByteOrderMark(t *testing.T) {
	// Notepad saves UTF-8 with a byte order mark (U+FEFF) first: the
	// first line was refused as the unknown command "\ufeffHUMAN", which
	// a game master cannot see in the file, and the roster lost a player.
	script := "\ufeffHUMAN Ann 2\r\nHUMAN Bob\r\nZOMBIE Zed\r\nGAME_START\r\n"
	tr, err := Run([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Errors != 0 {
		t.Errorf("%d ERROR lines: %v", tr.Errors, refusals(tr))
	}
	is(t, "Ann", player(t, tr, "Ann"), Human, 2, 0)
	// Only at the start: elsewhere it is a character of a line like any other.
	tr, err = Run([]byte("HUMAN Ann\nHUMAN Bob\n\ufeffZOMBIE Zed\nGAME_START\n"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Errors != 2 {
		t.Errorf("a mark on line 3: %d ERROR lines %v; want 2 (line 3 and the roster)", tr.Errors, refusals(tr))
	}
}

// TestEveryRuleHasATest checks that every rule R1–R40, every row T1–T20 and
// every resolution A1–A34 has a test named for it.
func TestEveryRuleHasATest(t *testing.T) {
	var src strings.Builder
	for _, f := range []string{"rules_test.go", "table_test.go", "resolutions_test.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	for _, set := range []struct {
		prefix string
		n      int
	}{{"R", 40}, {"T", 20}, {"A", 34}} {
		for i := 1; i <= set.n; i++ {
			id := set.prefix + itoa(int64(i))
			if !regexp.MustCompile(`func Test` + id + `[A-Z]`).MatchString(src.String()) {
				t.Errorf("no test for %s", id)
			}
		}
	}
}

func TestEveryErrorCode(t *testing.T) {
	// Section 6's table: every error code, each on its line.
	tr := judged(t,
		"FLY",          // 1 E_UNKNOWN_COMMAND
		"HUMAN 9",      // 2 E_ARGS
		"HUMAN Ann",    // 3
		"HUMAN ann",    // 4 E_DUPLICATE_PLAYER
		"GAME_START",   // 5 E_SETUP
		"i Ann Bob",    // 6 E_NOT_STARTED
		"HUMAN Bob 1",  // 7
		"HUMAN Cat",    // 8
		"ZOMBIE Zed 1", // 9
		"GAME_START 1", // 10
		"HUMAN Eve",    // 11 E_ALREADY_STARTED
		"i Ann Nobody", // 12 E_UNKNOWN_PLAYER
		"i Ann Ann",    // 13 E_SELF_INTERACTION
		"i Ann Cat/p",  // 14 E_NO_ANTIBODY
		"i Zed/p Cat",  // 15 E_ZOMBIE_ACTION
		"i Ann/v1 Cat", // 16 E_NOT_ZOMBIE
		"i Zed/v2 Cat", // 17 E_NOT_ENOUGH_VIRUS
		"e Ann",        // 18 E_NO_INTERACTION
		"i Ann Bob",    // 19
		"i Bob Ann",    // 20 E_ALREADY_INTERACTED
		"i Bob Cat",    // 21
		"e Ann",        // 22
		"e Ann",        // 23 E_ALREADY_ENDED
		"i Cat Ann",    // 24 E_PLAYER_ENDED
		"e Bob",        // 25
		"e Cat",        // 26 E_DEADLOCK: Zed would be left alone
		"i Zed Cat",    // 27
		"nt",           // 28: the last turn ends
		"nt",           // 29 E_GAME_OVER
	)
	wantRefusals(t, tr, "1 E_UNKNOWN_COMMAND", "2 E_ARGS", "4 E_DUPLICATE_PLAYER", "5 E_SETUP", "6 E_NOT_STARTED",
		"11 E_ALREADY_STARTED", "12 E_UNKNOWN_PLAYER", "13 E_SELF_INTERACTION", "14 E_NO_ANTIBODY", "15 E_ZOMBIE_ACTION",
		"16 E_NOT_ZOMBIE", "17 E_NOT_ENOUGH_VIRUS", "18 E_NO_INTERACTION", "20 E_ALREADY_INTERACTED", "23 E_ALREADY_ENDED",
		"24 E_PLAYER_ENDED", "26 E_DEADLOCK", "29 E_GAME_OVER")
	got := map[Code]int{}
	for _, e := range tr.Events {
		if e.Kind == Refused {
			got[e.Code] = e.Line
		}
	}
	for _, code := range Codes {
		if got[code] == 0 {
			t.Errorf("%s never happened: %q", code, refusals(tr))
		}
	}
}

func TestATypoIsOfferedWhatItMisspells(t *testing.T) {
	// A game master's typo of a command or of a player's name is offered
	// the one it misspells, as arbiter's other refusals of a name are; a
	// word near none gets the list alone, as before.
	out := output(t, judged(t, cast, "GAME_START", "INTERAC Ann Bob", "i Ann Bbo", "FLY Ann", "i Ann Xavier"))
	for _, want := range []string{
		`ERROR line 7 E_UNKNOWN_COMMAND: unknown command "INTERAC"; did you mean INTERACT? The commands are HUMAN, ZOMBIE,`,
		`ERROR line 8 E_UNKNOWN_PLAYER: no player "Bbo" in the roster; did you mean Bob? The players are Ann, Bob, Cat, Zed, Zoe`,
		`ERROR line 9 E_UNKNOWN_COMMAND: unknown command "FLY"; the commands are HUMAN, ZOMBIE,`,
		`ERROR line 10 E_UNKNOWN_PLAYER: no player "Xavier" in the roster; the players are Ann, Bob, Cat, Zed, Zoe`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
}
