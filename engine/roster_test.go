package engine

import (
	"context"
	"strings"
	"testing"
)

type initBot struct{ seat int }

func (b *initBot) Init(info MatchInfo) error { b.seat = info.Seat; return nil }
func (*initBot) Bounded() bool               { return true }

func TestShell(t *testing.T) {
	b := &initBot{seat: -1}
	s := Shell{Bot: b}
	if err := s.Start(context.Background(), MatchInfo{Seat: 3}); err != nil || b.seat != 3 {
		t.Errorf("Start: %v, seat %d; want the bot's Init to run", err, b.seat)
	}
	if !s.Bounded() {
		t.Error("the shell of a bounded bot is not bounded")
	}
	plain := Shell{Bot: 42}
	if plain.Bounded() || plain.Start(context.Background(), MatchInfo{}) != nil {
		t.Error("a bot with neither Init nor Bounded")
	}
}

func TestRoster(t *testing.T) {
	r := Roster[int, int]{{Name: "a"}, {Name: "b"}}
	if got := r.Names(); strings.Join(got, ",") != "a,b" {
		t.Errorf("Names %q", got)
	}
	if es, err := r.Find("b", "Test"); err != nil || len(es) != 1 || es[0].Name != "b" {
		t.Errorf("Find(b) = %v, %v", es, err)
	}
	if _, err := r.Find("c", "Test"); err == nil || err.Error() != `unknown player "c"; Test players are a, b` {
		t.Errorf("Find(c): %v", err)
	}
}
