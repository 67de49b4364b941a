package tncc

import (
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Random returns a bot that plays at random, within the rules: each turn it
// picks wait, recruit, trade or war at random and makes the action up at
// random (a share of its citizens to recruit, or of its soldiers to send
// home; a trade of gold for another resource, either way, of amounts both
// sides hold; a war on a random rival with its army split at random), and
// waits when what it made up is refused. It answers offers at random and
// defends with its army split at random. Its dice are its seat's own.
func Random() Bot { return &randomBot{} }

type randomBot struct{ rng *rand.Rand }

func (b *randomBot) Init(info engine.MatchInfo) error {
	b.rng = rand.New(info.RNG())
	return nil
}

func (*randomBot) Bounded() bool { return true }

func (b *randomBot) Turn(v View) (Move, error) {
	me := v.Me().Stock
	var mv Move
	switch b.rng.IntN(4) {
	case 0:
		return WaitMove, nil
	case 1:
		if me[Army] > 0 && b.rng.IntN(2) == 0 {
			mv = RecruitMove(-1 - b.rng.Int64N(me[Army]))
		} else if me[Citizens] > 1 {
			mv = RecruitMove(1 + b.rng.Int64N(me[Citizens]-1))
		}
	case 2:
		if with, ok := b.rival(v); ok {
			other := v.Country(with).Stock
			r := Resource(1 + b.rng.IntN(NumResources-1))
			if b.rng.IntN(2) == 0 && me[Gold] > 0 && other[r] > 0 {
				mv = TradeMove(with, Gold, 1+b.rng.Int64N(me[Gold]), r, 1+b.rng.Int64N(other[r]))
			} else if me[r] > 0 && other[Gold] > 0 {
				mv = TradeMove(with, r, 1+b.rng.Int64N(me[r]), Gold, 1+b.rng.Int64N(other[Gold]))
			}
		}
	case 3:
		if target, ok := b.rival(v); ok && me[Army] > 0 {
			mv = WarMove(target, b.split(me[Army]))
		}
	}
	if mv.Type == Wait || v.Check(mv) != nil {
		return WaitMove, nil
	}
	return mv, nil
}

// rival returns a random living rival.
func (b *randomBot) rival(v View) (int, bool) {
	var rivals [64]int
	n := 0
	for i := range v.Countries() {
		if i != v.You() && !v.Country(i).Dead && n < len(rivals) {
			rivals[n] = i
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return rivals[b.rng.IntN(n)], true
}

// split divides some of an army (1 to all of it) over three flanks at
// random.
func (b *randomBot) split(army int64) Flanks {
	sent := 1 + b.rng.Int64N(army)
	left := b.rng.Int64N(sent + 1)
	front := b.rng.Int64N(sent - left + 1)
	return Flanks{left, front, sent - left - front}
}

func (b *randomBot) AnswerTrade(View, Offer) (bool, error) { return b.rng.IntN(2) == 0, nil }

func (b *randomBot) AnswerWar(v View, _ Attack) (Flanks, error) {
	army := v.Me().Stock[Army]
	if army == 0 {
		return Flanks{}, nil
	}
	f := b.split(army)
	return f, nil
}
