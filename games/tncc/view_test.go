package tncc

import (
	"context"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

func TestEnterDefendsWithTheWholeArmy(t *testing.T) {
	// "A war answer: 0, 0, 0" is the default of the slow; a person who
	// presses Enter at an attack defends with every soldier, split over
	// the flanks, which the rules accept.
	v := View{m: &Match{world: World{Countries: []Country{{}, {}}}}, seat: 1}
	v.m.world.Countries[1].Stock[Army] = 301
	req := &engine.Request[Move]{Kind: WarAnswerKind, Default: DefendMove(Flanks{})}
	mv, why, ok := v.Suggest(req)
	if !ok || mv != DefendMove(Flanks{100, 101, 100}) || !strings.Contains(why, "your 301 soldiers") {
		t.Errorf("suggested %+v (%q, %v); want 100 101 100", mv, why, ok)
	}
	if err := v.m.world.CheckDefence(1, mv.Flanks); err != nil {
		t.Errorf("the rules refuse the suggested defence: %v", err)
	}
	if _, _, ok := v.Suggest(&engine.Request[Move]{Kind: TurnKind, Default: WaitMove}); ok {
		t.Error("a suggestion for a turn: Enter waits, as the default")
	}
	v.m.world.Countries[1].Stock[Army] = 0
	if _, _, ok := v.Suggest(req); ok {
		t.Error("a suggestion with no army: there is nobody to send")
	}
}

func TestDeathByProductionSaysWhatWasMissing(t *testing.T) {
	// A country that production leaves with no citizens is told what it
	// lacked when the match can tell: land (the wars took it) or food.
	m := &Match{world: World{Countries: []Country{{}, {}}}}
	m.world.Countries[1].Stock[Food] = 50
	if got := m.why(death{seat: 1, how: byProduction}); !strings.Contains(got, "no land to live on: wars took it all") {
		t.Errorf("no land: %q", got)
	}
	m.world.Countries[1].Stock = [5]int64{}
	m.world.Countries[1].Stock[Land] = 10
	if got := m.why(death{seat: 1, how: byProduction}); !strings.Contains(got, "no food: hunger took your last citizens") {
		t.Errorf("no food: %q", got)
	}
}

func TestAttackedPersonIsToldWhatADefenceIs(t *testing.T) {
	// rules: the defender "answers with its own three flanks". At the
	// terminal, an answer that is no defence is told what one is (not the
	// turn's actions), help explains the defence, and the example fits the
	// army: none suggests 5 5 5 to a country with no soldiers.
	for _, army := range []int64{10, 0} {
		m := rulesMatch(t, 3, nil)
		m.world.Countries[0].Stock[Army], m.world.Countries[0].Stock[Gold] = 60, 2000
		m.world.Countries[1].Stock[Army] = army
		rulesPlay(t, m, 0, WarMove(1, Flanks{10, 0, 30}))
		v := m.View(1)
		example := "e.g. 3 4 3"
		if army == 0 {
			example = "you have none, so 0 0 0"
		}
		for _, line := range []string{"100 100", "wait", "recruit 5", "1 2 3 4"} {
			_, err := v.Parse(line)
			if err == nil || !strings.Contains(err.Error(), "a defence is three numbers: LEFT FRONT RIGHT") || !strings.Contains(err.Error(), example) || strings.Contains(err.Error(), "recruit N") {
				t.Errorf("army %d, %q: %v; want what a defence is, %q", army, line, err, example)
			}
		}
		if mv, err := v.Parse("3 3 3"); err != nil || mv != DefendMove(Flanks{3, 3, 3}) {
			t.Errorf("army %d, 3 3 3: %v, %v", army, mv, err)
		}
		help := v.Help()
		if !strings.Contains(help, "Country 1 attacks you with 40 soldiers") || !strings.Contains(help, "LEFT FRONT RIGHT") || strings.Contains(help, "recruit N") {
			t.Errorf("army %d: help at an attack tells the turn's actions, not the defence:\n%s", army, help)
		}
		board := strings.Join(strings.Fields(v.String()), " ")
		if strings.Contains(board, "5 5 5") {
			t.Errorf("army %d: the board suggests 5 5 5:\n%s", army, v.String())
		}
		if want := map[int64]string{10: "You have 10. Defend with LEFT FRONT RIGHT, the soldiers on each flank (e.g. 3 4 3).", 0: "You have no soldiers: your defence is 0 0 0 (Enter)."}[army]; !strings.Contains(board, want) {
			t.Errorf("army %d: the board lacks %q:\n%s", army, want, v.String())
		}
	}
	// Elsewhere a move reads as before.
	m := rulesMatch(t, 3, nil)
	if mv, err := m.View(0).Parse("recruit 5"); err != nil || mv != RecruitMove(5) {
		t.Errorf("a turn's recruit 5: %v, %v", mv, err)
	}
}

func TestTheBoardShowsAPresetsNameAsATerminalShowsIt(t *testing.T) {
	// A custom preset's name is the file's (or the match creator's) text:
	// the board a person reads at a terminal shows an escape sequence in
	// it as "?", not obeyed.
	p := rulesPreset(func(p *Preset) { p.Name = "\x1b[31mred" })
	board := rulesMatch(t, 2, p).View(0).String()
	if strings.ContainsRune(board, '\x1b') || !strings.Contains(board, "(?[31mred preset)") {
		t.Errorf("the board:\n%q", board)
	}
}

func TestAPersonsUnknownMoveAtATurnIsToldTheActions(t *testing.T) {
	// A person whose turn it is and who types no move is told the four
	// actions, and offered the nearest of them: not the answers to a
	// trade or a war, which are not asked.
	m := rulesMatch(t, 2, nil)
	const actions = "it is your turn: wait; recruit N; trade COUNTRY GIVE GIVE_N TAKE TAKE_N; war COUNTRY LEFT FRONT RIGHT"
	for line, want := range map[string]string{
		"attack 2 1 1 1": `unknown move "attack"; ` + actions,
		"recrut 5":       `unknown move "recrut"; did you mean recruit 5? I` + actions[1:],
		"defnd 1 1 1":    `unknown move "defnd"; ` + actions,
	} {
		if _, err := m.View(0).Parse(line); err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v;\nwant %s", line, err, want)
		}
	}
	// The move's text form alone knows no turn: it tells every move.
	if _, err := ParseMove("attack 2 1 1 1"); err == nil || !strings.Contains(err.Error(), "as answers, yes, no, or LEFT FRONT RIGHT") {
		t.Errorf("ParseMove(attack 2 1 1 1) = %v; want every move told", err)
	}
}

func TestAPersonsCountryThatIsNoneIsToldTheLivingOthers(t *testing.T) {
	// A person who types a country that is no number of one ("0", "two")
	// is told which countries they may pick: the living others, by their
	// numbers, from 1, and their players.
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"person", "war", "turtle"}})
	if err != nil {
		t.Fatal(err)
	}
	m.world.Countries[2].Dead, m.world.Countries[2].Stock[Citizens] = true, 0
	for line, want := range map[string]string{
		"trade 0 gold 1 food 1": `"0" is not a country; trade with another living country: country 2 (war). A trade is trade COUNTRY GIVE GIVE_N TAKE TAKE_N, e.g. trade 2 gold 100 food 200`,
		"war two 1 1 1":         `"two" is not a country; attack another living country: country 2 (war). A war is war COUNTRY LEFT FRONT RIGHT, e.g. war 2 10 0 30`,
	} {
		if _, err := m.View(0).Parse(line); err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v;\nwant %s", line, err, want)
		}
	}
}

// freeWar writes 0 into the price of war it is shown, then attacks with its
// whole army whatever its gold.
type freeWar struct{}

func (freeWar) Turn(v View) (Move, error) {
	v.Preset().GoldForWar = 0
	target := (v.You() + 1) % v.Countries()
	if army := v.Me().Stock[Army]; army > 0 && !v.Country(target).Dead {
		return WarMove(target, Thirds(army)), nil
	}
	return RecruitMove(v.Me().Stock[Citizens] / 4), nil
}
func (freeWar) AnswerTrade(View, Offer) (bool, error) { return false, nil }
func (freeWar) AnswerWar(v View, _ Attack) (Flanks, error) {
	return Thirds(v.Me().Stock[Army]), nil
}

func TestPresetWrittenByABotChangesNothing(t *testing.T) {
	// A bot that writes into the preset its view shows it changes nothing
	// of the game: a war it cannot pay for is refused, the game's preset
	// keeps its numbers, and the record replays.
	s := engine.Series[Move, View]{Ruleset: Game{}, Seed: 1}
	var price int64
	s.Played = func(_ int, _ *engine.Record[Move], m engine.Match[Move, View]) error {
		price = m.(*Match).World().Preset.GoldForWar
		return nil
	}
	turtle, err := Bots("turtle")
	if err != nil {
		t.Fatal(err)
	}
	s.Game(engine.Seat[Move, View]{Name: "free", Player: Player(freeWar{})}, engine.Seat[Move, View]{Name: "turtle", Player: turtle[0].New()})
	recs, err := s.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := Default().GoldForWar; price != want {
		t.Errorf("the game's gold for war at the end: %d; want %d", price, want)
	}
	refused := 0
	for _, f := range recs[0].Faults() {
		if f.Seat == 0 && f.Kind == engine.FaultIllegal {
			refused++
		}
	}
	if refused == 0 {
		t.Error("no war of the bot refused for its gold")
	}
	if _, err := engine.Replay[Move, View](Game{}, recs[0], nil); err != nil {
		t.Error(err)
	}
}

// The preset a view shows is made at the first call only, and a clone's
// is its own: a player that writes into the one a clone shows changes
// neither the match's numbers nor what a view of the match shows.
func TestPresetShownIsAClonesOwn(t *testing.T) {
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.shown != nil {
		t.Error("a match holds a copy of its preset before any view asked for one")
	}
	want := m.View(0).Preset().GoldForWar
	c := m.Clone().(*Match)
	c.View(0).Preset().GoldForWar = 0
	if got := m.View(1).Preset().GoldForWar; got != want {
		t.Errorf("the match's view shows war at %d after a clone's was written; want %d", got, want)
	}
	if m.View(0).Preset() == c.View(0).Preset() {
		t.Error("a clone shows its preset in the match's own memory")
	}
	if n := testing.AllocsPerRun(100, func() { m.View(0).Preset() }); n != 0 {
		t.Errorf("Preset allocates %v times a call after the first; want 0", n)
	}
}
