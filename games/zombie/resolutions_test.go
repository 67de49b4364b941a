package zombie

import (
	"strings"
	"testing"
)

// The rules page's resolutions of the seed's gaps and contradictions, one
// test each, quoting the resolution.

func TestA1InfectedZombieLoss(t *testing.T) {
	// A1. "the infected player antibody decreases" (I–Z): "exactly 1, never
	// below 0."
	tableRow(t, I("X", 4), Z("Y", 0), "", "", I("X", 3), Z("Y", 0))
	tableRow(t, I("X", 0), Z("Y", 0), "", "", I("X", 0), Z("Y", 0))
}

func TestA2LossBeforeCheck(t *testing.T) {
	// A2. "the loss comes first, then the check. An infected player needs
	// a ≥ 2 at end of turn to stay infected."
	tr := judged(t, "HUMAN Ann 1", "HUMAN Bob 2", "HUMAN Cat", "HUMAN Dan", "ZOMBIE Zed", "GAME_START",
		"i Ann Zed", "i Bob Zed", "i Cat Dan", "nt")
	is(t, "a=1 at the end", player(t, tr, "Ann"), Zombie, 0, 0)
	is(t, "a=2 at the end", player(t, tr, "Bob"), Infected, 1, 0)
}

func TestA3InfectedThisTurnPays(t *testing.T) {
	// A3. "yes. The loss applies to everyone whose state is I at the end of
	// the turn."
	tr := judged(t, "HUMAN Ann 3", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed", "GAME_START", "i Bob Cat", "i Zed Ann", "nt")
	is(t, "infected in the turn", player(t, tr, "Ann"), Infected, 2, 0)
}

func TestA4InfectedCountAsHumans(t *testing.T) {
	// A4. "yes, everywhere except the judge's STATE record. An infected last
	// survivor wins."
	tr := judged(t, "HUMAN Ann 4", "HUMAN Bob 4", "HUMAN Cat", "ZOMBIE Zed", "GAME_START 1",
		"i Ann Zed", "i Bob Zed", "i Cat Zed", "nt")
	if got := outputLines(t, tr, "PUBLIC turn"); got[0] != "PUBLIC turn=1 zombies=2 humans=2 max_antibodies=3 max_viruses=0" {
		t.Errorf("the infected are not counted as humans: %q", got)
	}
	if got := outputLines(t, tr, "GAME OVER"); got[0] != "GAME OVER: HUMANS WIN max_turns ranking=1:Ann:3,1:Bob:3" {
		t.Errorf("the infected are not ranked: %q", got)
	}
	if got := outputLines(t, tr, "STATE Ann"); got[0] != "STATE Ann infected antibodies=3 viruses=0" {
		t.Errorf("STATE: %q", got)
	}
	tr = judged(t, "HUMAN Ann 4", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "i Ann Zed", "i Bob Zed", "nt")
	if tr.Result.Outcome != HumansWinSurvivor || player(t, tr, "Ann").State != Infected {
		t.Errorf("%s; want the infected Ann to survive", tr.Result.Outcome)
	}
}

func TestA5DefaultMaxTurns(t *testing.T) {
	// A5. "5, and it must be ≥ 1."
	if tr := judged(t, cast, "GAME_START"); tr.MaxTurns != 5 {
		t.Errorf("max_turns %d", tr.MaxTurns)
	}
	if tr := judged(t, cast, "GAME_START 0"); tr.Phase != Setup {
		t.Error("GAME_START 0 started a game")
	}
	c, err := ParseConfig([]byte("players: [A, B, C]\nzombie_count: 1\n"))
	if err != nil || c.MaxTurns != 5 {
		t.Errorf("config: %v, max_turns %d", err, c.MaxTurns)
	}
	if _, err := ParseConfig([]byte("players: [A, B, C]\nzombie_count: 1\nmax_turns: 0\n")); err == nil || !strings.Contains(err.Error(), "max_turns") {
		t.Errorf("max_turns 0 in a config: %v", err)
	}
}

func TestA6StartingCounts(t *testing.T) {
	// A6. "0 and 0, configurable, with per-player overrides."
	c, err := ParseConfig([]byte("players: [Ann, Bob, Zed]\nzombie_count: 1\nstart_antibodies: 2\nstart_viruses: 3\nseed: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Run(c.Script("config.yml", c.Seed))
	if err != nil || tr.Errors != 0 {
		t.Fatal(err, refusals(tr))
	}
	for _, p := range tr.Players {
		if p.State == Zombie && p.Viruses != 3 || p.State == Human && p.Antibodies != 2 {
			t.Errorf("%+v", p)
		}
	}
	tr = judged(t, "HUMAN Ann 1", "HUMAN Bob", "ZOMBIE Zed 4", "GAME_START")
	is(t, "override", player(t, tr, "Ann"), Human, 1, 0)
	is(t, "default", player(t, tr, "Bob"), Human, 0, 0)
	is(t, "override", player(t, tr, "Zed"), Zombie, 0, 4)
}

func TestA7VirusesAgainstPrecaution(t *testing.T) {
	// A7. "yes. Precaution holds only while k < the antibodies left after
	// paying for it (T11)."
	tableRow(t, H("X", 4), Z("Y", 2), "/p", "/v2", H("X", 1), Z("Y", 0))
	tableRow(t, H("X", 3), Z("Y", 2), "/p", "/v2", I("X", 0), Z("Y", 0))
}

func TestA8LostAllAntibodies(t *testing.T) {
	// A8. "only the case where viruses take the human to 0. That includes
	// having 0 left after paying for precaution and then receiving k ≥ 1
	// viruses. Spending antibodies on precaution or cure never infects by
	// itself."
	tableRow(t, H("X", 1), Z("Y", 1), "/p", "/v1", I("X", 0), Z("Y", 0))
	tableRow(t, H("X", 1), Z("Y", 1), "/p", "", H("X", 0), Z("Y", 1))
	tableRow(t, H("X", 1), H("Y", 0), "/p", "", H("X", 1), H("Y", 1))
	tr := judged(t, "HUMAN Ann 1", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "c Ann", "i Ann Bob", "i Zed Bob", "nt")
	if p := player(t, tr, "Ann"); p.State != Human {
		t.Errorf("a cure of the last antibody infected Ann: %+v", p)
	}
}

func TestA9OrderOfEffects(t *testing.T) {
	// A9. "all costs first, then the pair effect from the states at the
	// start of the interaction. The result does not depend on which player
	// is written first."
	x1, y1, _ := meet(t, H("Ann", 3), Z("Zed", 2), "/p", "/v2")
	y2, x2, _ := meet(t, Z("Zed", 2), H("Ann", 3), "/v2", "/p")
	if x1 != x2 || y1 != y2 {
		t.Errorf("%v %v against %v %v", x1, y1, x2, y2)
	}
	// The human infected in this interaction does not infect as an
	// infected player would; the zombie's state is the one at the start.
	tableRow(t, H("X", 0), I("Y", 2), "", "", I("X", 0), I("Y", 3))
}

func TestA10PrecautionBetweenHumans(t *testing.T) {
	// A10. "both players still gain 1, so the player using precaution ends
	// up even (−1 then +1)."
	tableRow(t, H("X", 1), H("Y", 1), "/p", "", H("X", 1), H("Y", 2))
}

func TestA11PrecautionAgainstInfected(t *testing.T) {
	// A11. "the infected player gets +1; the human gains nothing and pays
	// 1."
	tableRow(t, H("X", 1), I("Y", 0), "/p", "", H("X", 0), I("Y", 1))
}

func TestA12LeftoverViruses(t *testing.T) {
	// A12. "they disappear, so H and I never hold viruses."
	_, x, _ := meet(t, Z("Zed", 9), H("X", 2), "/v9", "")
	is(t, "leftovers", x, Infected, 0, 0)
	_, y, _ := meet(t, Z("Zed", 9), I("Y", 2), "/v9", "")
	is(t, "leftovers", y, Infected, 0, 0)
}

func TestA13InfectedReinforced(t *testing.T) {
	// A13. "1 (for I–Z) plus k, never below 0."
	tableRow(t, I("X", 10), Z("Y", 4), "", "/v4", I("X", 5), Z("Y", 0))
	tableRow(t, I("X", 3), Z("Y", 4), "", "/v4", I("X", 0), Z("Y", 0))
}

func TestA14InfectedPrecaution(t *testing.T) {
	// A14. "it still needs a ≥ 1 and still costs 1, and nothing else
	// changes. In I(p)–H the human is still infected; in I(p)–Z the
	// infected player loses 2."
	tableRow(t, I("X", 2), H("Y", 3), "/p", "", I("X", 2), I("Y", 3))
	tableRow(t, I("X", 3), Z("Y", 0), "/p", "", I("X", 1), Z("Y", 0))
	if _, _, err := meet(t, I("X", 0), H("Y", 3), "/p", ""); !refused(err, CodeNoAntibody) {
		t.Errorf("an infected player's precaution at 0: %v", err)
	}
}

func TestA15ZombiePrecautionOrCure(t *testing.T) {
	// A15. "no, it is rejected with E_ZOMBIE_ACTION."
	tr := judged(t, cast, "GAME_START", "i Zed/p Ann", "c Zed")
	wantRefusals(t, tr, "7 E_ZOMBIE_ACTION", "8 E_ZOMBIE_ACTION")
}

func TestA16HumanCure(t *testing.T) {
	// A16. "yes. It is allowed, costs 1 and has no effect."
	tr := judged(t, "HUMAN Ann 2", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "c Ann")
	wantRefusals(t, tr)
	is(t, "cured a human", player(t, tr, "Ann"), Human, 1, 0)
}

func TestA17CureAtAnyTime(t *testing.T) {
	// A17. "any moment while a turn is open, before or after the player's
	// own END_TURN, taking effect immediately. Not before GAME_START or
	// after game over. It does not count as an interaction."
	tr := judged(t, "HUMAN Ann 3", "HUMAN Bob", "ZOMBIE Zed", "c Ann", "GAME_START 1", "i Ann Zed", "c Ann", "i Ann/p Bob",
		"e Ann", "c Ann", "i Bob Zed", "nt", "c Ann")
	wantRefusals(t, tr, "4 E_NOT_STARTED", "13 E_GAME_OVER")
	// Line 7 cures the infection at once (3 → 2); the precaution of line 8
	// costs 1 and Bob gives 1 back; line 10 cures again (2 → 1).
	is(t, "cures", player(t, tr, "Ann"), Human, 1, 0)
}

func TestA18InfectedAtZeroMidTurn(t *testing.T) {
	// A18. "they stay infected until the end of the turn, and can still get
	// +1 from touching a human."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed", "GAME_START", "i Ann Zed", "i Ann/p Bob")
	wantRefusals(t, tr, "7 E_NO_ANTIBODY")
	tr = judged(t, "HUMAN Ann", "HUMAN Bob 1", "HUMAN Cat", "ZOMBIE Zed", "GAME_START", "i Ann Zed", "i Ann Bob/p")
	is(t, "infected at 0, then +1", player(t, tr, "Ann"), Infected, 1, 0)
}

func TestA19ZombieTransfers(t *testing.T) {
	// A19. "only the transfers happen, and nobody gets +1."
	tableRow(t, Z("X", 2), Z("Y", 0), "/v2", "", Z("X", 0), Z("Y", 2))
	tableRow(t, Z("X", 2), Z("Y", 2), "/v1", "/v2", Z("X", 3), Z("Y", 1))
}

func TestA20NoGainFromInfecting(t *testing.T) {
	// A20. "no."
	tableRow(t, Z("X", 0), H("Y", 0), "", "", Z("X", 0), I("Y", 0))
	tableRow(t, Z("X", 2), H("Y", 5), "/v2", "", Z("X", 0), I("Y", 3))
}

func TestA21TurnEnds(t *testing.T) {
	// A21. "both. The last player's END_TURN ends the turn, as the seed
	// says; NEXT_TURN ends it and declares for everyone still playing
	// (rejected if any player has no interaction); a NEXT_TURN right after
	// an END_TURN-ended turn is a no-op (R24)."
	tr := judged(t, "HUMAN Ann 5", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "i Ann Bob", "i Zed Ann", "e Ann", "e Bob", "e Zed",
		"nt", "i Ann Bob", "nt", "i Zed Bob/p", "nt")
	wantRefusals(t, tr, "12 E_NO_INTERACTION")
	if got := len(outputLines(t, tr, "TURN ")); got != 2 {
		t.Errorf("%d turns ended; want 2", got)
	}
}

func TestA22Deadlock(t *testing.T) {
	// A22. "reject any END_TURN that would leave a player with 0
	// interactions and no partner who has not ended the turn (E_DEADLOCK)."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob", "HUMAN Cat", "ZOMBIE Zed", "GAME_START", "i Ann Bob", "i Bob Cat",
		"e Ann", "e Bob", "e Cat", "i Cat Zed", "e Cat", "nt")
	wantRefusals(t, tr, "10 E_DEADLOCK")
	if tr.Turn != 2 {
		t.Errorf("turn %d; want the turn closed by the last END_TURN and NEXT_TURN a no-op", tr.Turn)
	}
}

func TestA23Announcements(t *testing.T) {
	// A23. "PUBLIC: turn number, number of zombies, number of humans
	// (including infected), highest antibody count, highest virus count.
	// Numbers only, no names; the highest counts are taken over all
	// players. PRIVATE: human or zombie, plus a and v."
	tr := judged(t, "HUMAN Ann 2", "HUMAN Bob", "ZOMBIE Zed 7", "GAME_START", "i Ann Zed", "i Bob Zed", "nt")
	if got := outputLines(t, tr, "PUBLIC turn"); got[0] != "PUBLIC turn=1 zombies=2 humans=1 max_antibodies=1 max_viruses=7" {
		t.Errorf("got %q", got)
	}
	if got := outputLines(t, tr, "PRIVATE Zed"); got[1] != "PRIVATE Zed zombie antibodies=0 viruses=7" {
		t.Errorf("got %q", got)
	}
}

func TestA24Precedence(t *testing.T) {
	// A24. "zombies win, then last survivor, then max turns."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob", "ZOMBIE Zed", "GAME_START 1", "i Ann Zed", "i Bob Zed", "nt")
	if tr.Result.Outcome != ZombiesWin {
		t.Errorf("%s", tr.Result.Outcome)
	}
	tr = judged(t, "HUMAN Ann 2", "HUMAN Bob", "ZOMBIE Zed", "GAME_START 1", "i Ann/p Zed", "i Bob Zed", "nt")
	if tr.Result.Outcome != HumansWinSurvivor {
		t.Errorf("%s", tr.Result.Outcome)
	}
}

func TestA25Ranking(t *testing.T) {
	// A25. "it covers all non-zombies, infected included, by a from high to
	// low. It uses competition ranking (1, 2, 2, 4), ties are listed in
	// roster order, and the ranking is for information only."
	tr := judged(t, "HUMAN Eve 5", "HUMAN Dan 2", "HUMAN Cat 2", "HUMAN Bob 2", "HUMAN Ann 9", "ZOMBIE Zed", "GAME_START 1",
		"i Eve Dan/p", "i Cat/p Bob/p", "i Zed Ann", "nt")
	// Eve 6, Dan 2, Cat 2, Bob 2, Ann infected 9 → 8.
	if got := outputLines(t, tr, "GAME OVER"); got[0] != "GAME OVER: HUMANS WIN max_turns ranking=1:Ann:8,2:Eve:6,3:Dan:2,3:Cat:2,3:Bob:2" {
		t.Errorf("got %q", got)
	}
}

func TestA26EndCheckAtTurnEndOnly(t *testing.T) {
	// A26. "only at the end of a turn, not mid-turn or at the start."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob", "ZOMBIE Zed", "ZOMBIE Zoe", "ZOMBIE Zack", "GAME_START 1", "i Ann Zed", "i Bob Zoe")
	if tr.Phase != InProgress || tr.Result.Outcome != NoOutcome {
		t.Errorf("%s %s: every human infected mid-turn ended the game", tr.Phase, tr.Result.Outcome)
	}
}

func TestA27AfterGameOver(t *testing.T) {
	// A27. "they are rejected with E_GAME_OVER."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "i Ann Zed", "i Bob Zed", "nt", "i Ann Bob")
	wantRefusals(t, tr, "8 E_GAME_OVER")
	is(t, "unchanged", player(t, tr, "Ann"), Zombie, 0, 0)
}

func TestA28SelfAndRepeats(t *testing.T) {
	// A28. "Self-interaction is rejected. The same pair twice in one turn is
	// rejected in either order. The pair may interact again in the next
	// turn."
	tr := judged(t, richCast, "GAME_START", "i Ann ann", "i Ann Bob", "i bob ANN", "i Cat Zed", "i Zoe Ann", "nt", "i Bob Ann")
	wantRefusals(t, tr, "7 E_SELF_INTERACTION", "9 E_ALREADY_INTERACTED")
}

func TestA29ZombiesInteractToo(t *testing.T) {
	// A29. "yes." (Zombies, too, must interact every turn.)
	tr := judged(t, cast, "GAME_START", "i Ann Bob", "i Cat Zed", "nt", "e Zoe")
	wantRefusals(t, tr, "9 E_NO_INTERACTION", "10 E_NO_INTERACTION")
}

func TestA30VirusCounts(t *testing.T) {
	// A30. "more than it holds is rejected with E_NOT_ENOUGH_VIRUS. k must
	// be ≥ 1 (E_ARGS otherwise)."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob", "ZOMBIE Zed 2", "GAME_START", "i Zed/v3 Ann", "i Zed/v0 Ann", "i Zed/v2 Ann")
	wantRefusals(t, tr, "5 E_NOT_ENOUGH_VIRUS", "6 E_ARGS")
	is(t, "2 applied", player(t, tr, "Zed"), Zombie, 0, 0)
}

func TestA31InfectedIdentity(t *testing.T) {
	// A31. "an infected player is told human. The judge's STATE record says
	// infected."
	tr := judged(t, "HUMAN Ann 5", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "i Ann Zed", "i Bob Ann/p", "nt")
	if got := outputLines(t, tr, "PRIVATE Ann"); got[1] != "PRIVATE Ann human antibodies=4 viruses=0" {
		t.Errorf("Ann is told %q", got[1])
	}
	if got := outputLines(t, tr, "STATE Ann"); got[0] != "STATE Ann infected antibodies=4 viruses=0" {
		t.Errorf("STATE %q", got)
	}
}

func TestA32Antidote(t *testing.T) {
	// A32. "ANTIDOTE is an alias of CURE. There is no separate antidote
	// stock."
	for _, word := range []string{"ANTIDOTE", "antidote", "CURE", "c", "a", "A"} {
		tr := judged(t, "HUMAN Ann 2", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "i Ann Zed", word+" Ann")
		is(t, word, player(t, tr, "Ann"), Human, 1, 0)
	}
}

func TestA33StayingInfected(t *testing.T) {
	// A33. "no. It happens automatically when a ≥ 1 after the per-turn
	// loss."
	tr := judged(t, "HUMAN Ann 3", "HUMAN Bob", "ZOMBIE Zed", "GAME_START", "i Ann Zed", "i Bob Ann/p", "nt")
	is(t, "kept infected", player(t, tr, "Ann"), Infected, 2, 0)
}

func TestA34Rosters(t *testing.T) {
	// A34. "require at least 1 zombie and at least 2 humans. Deliberately,
	// more zombies than humans is allowed, for variants."
	tr := judged(t, "HUMAN Ann", "HUMAN Bob", "ZOMBIE Z1", "ZOMBIE Z2", "ZOMBIE Z3", "ZOMBIE Z4", "GAME_START")
	if tr.Phase != InProgress {
		t.Error("4 zombies and 2 humans did not start")
	}
	if _, err := ParseConfig([]byte("players: [A, B, C, D, E, F]\nzombie_count: 4\n")); err != nil {
		t.Errorf("config with 4 zombies of 6: %v", err)
	}
	if _, err := ParseConfig([]byte("players: [A, B, C, D, E, F]\nzombie_count: 5\n")); err == nil {
		t.Error("config with 5 zombies of 6 accepted")
	}
	if _, err := ParseConfig([]byte("players: [A, B, C, D, E, F]\nzombie_count: 0\n")); err == nil {
		t.Error("config with no zombie accepted")
	}
}
