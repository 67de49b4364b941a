package territories

import (
	"context"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

// Bot plays one seat. Join chooses where to found its nation; Act chooses
// one action of its turn (raise, move, attack, or pass to stop). An
// illegal answer, an error or a panic gets the rules' default (the first
// free territory; pass), and the fault is recorded.
type Bot interface {
	Join(v View) (Action, error)
	Act(v View) (Action, error)
}

// Player turns a bot into a player for a seat. The player is
// engine.Bounded when the bot is; a bot that wants chance implements
// Seeded and gets its own dice for each match; a bot that prepares for
// each match (forgets the last one, reads its seat and the options)
// implements engine.Initializer, as the other games' bots do.
func Player(b Bot) engine.Player[Action, View] { return &botPlayer{engine.Shell{Bot: b}, b} }

// Seeded is implemented by bots that want their own dice: Seed is called
// before each match with a source drawn from (match seed, seat), never the
// match's.
type Seeded interface {
	Seed(src *rand.Rand)
}

// botPlayer takes Bounded from its shell; its Start seeds the bot's dice.
type botPlayer struct {
	engine.Shell
	bot Bot
}

func (p *botPlayer) Decide(_ context.Context, req *engine.Request[Action], v View) (Action, error) {
	if req.Kind == JoinKind {
		return p.bot.Join(v)
	}
	return p.bot.Act(v)
}

func (p *botPlayer) Start(ctx context.Context, info engine.MatchInfo) error {
	if s, ok := p.bot.(Seeded); ok {
		s.Seed(rand.New(info.RNG()))
	}
	return p.Shell.Start(ctx, info)
}

// Random returns the random bot: it joins on a random free territory and
// takes a random legal action, pass included, with its own dice.
func Random() Bot { return &random{rng: rand.New(rand.NewPCG(1, 2))} }

type random struct{ rng *rand.Rand }

func (r *random) Seed(src *rand.Rand) { r.rng = src }
func (*random) Bounded() bool         { return true }

func (r *random) Join(v View) (Action, error) {
	l := v.Legal()
	return l[r.rng.IntN(len(l))], nil
}

func (r *random) Act(v View) (Action, error) {
	l := v.Legal()
	if len(l) == 0 {
		return PassAction, nil
	}
	return l[r.rng.IntN(len(l))], nil
}

// Greedy returns the greedy bot. It founds its nation where the most free
// land lies around it, far from others. On its turn it attacks where the
// battle's expected armies destroyed (over the die's twenty faces) beat
// those lost, the likeliest to empty the territory first; else it spreads
// into free land next to it; else it raises an army where the enemy
// presses hardest; else it brings armies from safe territories to the
// front; else it passes.
func Greedy() Bot { return greedy{} }

type greedy struct{}

func (greedy) Bounded() bool { return true }

func (greedy) Join(v View) (Action, error) { return greedyJoin(v.World(), v.You()), nil }

// greedyJoin is the greedy bot's join for seat on w.
func greedyJoin(w *World, seat int) Action {
	cfg := w.cfg
	best, bestScore := -1, -1<<30
	for i := range cfg.Len() {
		if w.held[i].Nation >= 0 {
			continue
		}
		score := 0
		for _, j := range cfg.neighbors[i] {
			if w.held[j].Nation < 0 {
				score += 2
			} else {
				score -= 3
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return JoinAction(nationNames[seat], cfg.Territories[best].ID)
}

// enemyPressure returns the armies of other nations next to territory i.
func enemyPressure(w *World, k, i int) int {
	p := 0
	for _, j := range w.cfg.neighbors[i] {
		if h := w.held[j]; h.Nation >= 0 && h.Nation != k {
			p += h.Armies
		}
	}
	return p
}

// odds are a battle's expectations over the die's twenty faces: armies
// destroyed on each side, and the chances that it empties the defending
// territory and the attacking one.
type odds struct {
	defLoss, attLoss, takes, loses float64
}

// oddsTable holds battleOdds(a, b) for a and b up to oddsTableSize − 1.
const oddsTableSize = 9

var oddsTable = func() (t [oddsTableSize][oddsTableSize]odds) {
	for a := range oddsTableSize {
		for b := range oddsTableSize {
			t[a][b] = fightOdds(a, b)
		}
	}
	return t
}()

func battleOdds(a, b int) odds {
	if a < oddsTableSize && b < oddsTableSize && a >= 0 && b >= 0 {
		return oddsTable[a][b]
	}
	return fightOdds(a, b)
}

// fightOdds works battleOdds out over the die's faces.
func fightOdds(a, b int) odds {
	var o odds
	for x := 1; x <= Die; x++ {
		bt := Fight(a, b, x)
		o.defLoss += float64(bt.DefenderLosses)
		o.attLoss += float64(bt.AttackerLosses)
		if bt.DefenderLosses == b {
			o.takes++
		}
		if bt.AttackerLosses == a {
			o.loses++
		}
	}
	return odds{o.defLoss / Die, o.attLoss / Die, o.takes / Die, o.loses / Die}
}

func (greedy) Act(v View) (Action, error) {
	k := v.Nation()
	if k < 0 {
		return PassAction, nil
	}
	return greedyAct(v.World(), k), nil
}

// greedyAct is the greedy bot's action for nation k on w.
func greedyAct(w *World, k int) Action { return w.action(greedyOrder(w, k)) }

// greedyOrder is greedyAct as an order.
func greedyOrder(w *World, k int) order {
	cfg := w.cfg
	// 1. The best attack.
	bestAttack, bestValue := order{}, 0.25
	for i, h := range w.held {
		if h.Nation != k {
			continue
		}
		for _, j := range cfg.neighbors[i] {
			d := w.held[j]
			if d.Nation < 0 || d.Nation == k {
				continue
			}
			o := battleOdds(h.Armies, d.Armies)
			value := o.defLoss - o.attLoss + o.takes - o.loses
			if w.Holdings(d.Nation) == 1 {
				value += 2 * o.takes // it would put the defender out
			}
			if w.Holdings(k) == 1 && o.loses > 0 {
				continue // never risk the nation's last territory
			}
			if value > bestValue {
				bestAttack, bestValue = order{kind: Attack, from: i, to: j}, value
			}
		}
	}
	if bestAttack.kind != 0 {
		return bestAttack
	}
	// 2. Spread into free land: half the armies of the strongest neighbour.
	bestFrom, bestTo, most := -1, -1, 1
	for i, h := range w.held {
		if h.Nation != k || h.Armies <= most {
			continue
		}
		for _, j := range cfg.neighbors[i] {
			if w.held[j].Nation < 0 {
				bestFrom, bestTo, most = i, j, h.Armies
				break
			}
		}
	}
	if bestFrom >= 0 {
		return order{kind: Move, from: bestFrom, to: bestTo, armies: w.held[bestFrom].Armies / 2}
	}
	// 3. Raise where the enemy presses hardest (anywhere with room, at worst).
	raise, pressure := -1, -1
	for i, h := range w.held {
		if h.Nation == k && h.Armies < cfg.MaxArmies {
			if p := enemyPressure(w, k, i); p > pressure {
				raise, pressure = i, p
			}
		}
	}
	if raise >= 0 && pressure > 0 {
		return order{kind: Raise, from: raise}
	}
	// 4. From a safe territory to a neighbour of its own at the front.
	for i, h := range w.held {
		if h.Nation != k || h.Armies < 2 || enemyPressure(w, k, i) > 0 {
			continue
		}
		for _, j := range cfg.neighbors[i] {
			if t := w.held[j]; t.Nation == k && t.Armies < cfg.MaxArmies && enemyPressure(w, k, j) > 0 {
				return order{kind: Move, from: i, to: j, armies: min(h.Armies-1, cfg.MaxArmies-t.Armies)}
			}
		}
	}
	if raise >= 0 {
		return order{kind: Raise, from: raise}
	}
	return order{kind: Pass}
}

// action names order's territories by their ids: the Action it is.
func (w *World) action(od order) Action {
	id := func(i int) string { return w.cfg.Territories[i].ID }
	switch od.kind {
	case Raise:
		return RaiseAction(id(od.from))
	case Move:
		return MoveAction(id(od.from), od.armies, id(od.to))
	case Attack:
		return AttackAction(id(od.from), id(od.to))
	}
	return PassAction
}

// Entrant is a named kind of territories player.
type Entrant = engine.Entrant[Action, View]

// roster lists the built-in bots, in the order help texts give them.
var roster = engine.Roster[Action, View]{
	builtIn("random", Random),   // joins anywhere free and takes a random legal action, pass included
	builtIn("greedy", Greedy),   // attacks when the battle's expected losses favour it, spreads into free land, raises at the front
	builtIn("general", General), // plays each candidate action forward with the greedy bot's play for every nation, keeps the best
}

func builtIn(name string, bot func() Bot) Entrant {
	return Entrant{Name: name, New: func() engine.Player[Action, View] { return Player(bot()) }}
}

// Bots returns the built-in player that one --players name stands for:
// random (Random), greedy (Greedy) or general (General), the strongest.
func Bots(name string) ([]Entrant, error) { return roster.Find(name, "territories") }
