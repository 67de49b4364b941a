package tncc

import (
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
