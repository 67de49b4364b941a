package tncc

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// MinCountries and MaxCountries bound the seats of a game.
const (
	MinCountries = 2
	MaxCountries = 12
)

// Country is one seat's country: its five resources, and whether it is
// dead. A dead country keeps its numbers as they were when it died.
type Country struct {
	Stock
	Dead bool
	// Died is the cycle in which the country died; 0 while it lives.
	Died int
}

// Alive reports whether the country is alive.
func (c *Country) Alive() bool { return !c.Dead }

// World is the state the rules act on: the preset, the cycle (from 1) and
// the countries, one per seat.
type World struct {
	Preset    Preset
	Cycle     int
	Countries []Country
}

// NewWorld returns the world at the start of a game of n countries.
func NewWorld(p Preset, n int) World {
	w := World{Preset: p, Cycle: 1, Countries: make([]Country, n)}
	for i := range w.Countries {
		w.Countries[i].Stock = p.Start
	}
	return w
}

// Living returns the number of living countries.
func (w *World) Living() int {
	n := 0
	for i := range w.Countries {
		if !w.Countries[i].Dead {
			n++
		}
	}
	return n
}

// Clone returns a copy that shares no memory with w.
func (w *World) Clone() World {
	c := *w
	c.Countries = append([]Country(nil), w.Countries...)
	return c
}

// bury marks every living country with no citizens dead, in this cycle: "A
// country with no citizens left has lost."
func (w *World) bury() {
	for i := range w.Countries {
		c := &w.Countries[i]
		if !c.Dead && c.Stock[Citizens] <= 0 {
			c.Dead, c.Died = true, w.Cycle
		}
	}
}

func (w *World) country(seat int) (*Country, error) {
	if seat < 0 || seat >= len(w.Countries) {
		return nil, engine.Refuse("no-country", "there is no country %d; countries are 1 to %d (seat %d: in moves, seats count from 0, so 0 to %d)", seat+1, len(w.Countries), seat, len(w.Countries)-1)
	}
	c := &w.Countries[seat]
	if c.Dead {
		return nil, engine.Refuse("dead", "country %d is dead", seat+1)
	}
	return c, nil
}

// Check returns a *engine.RuleError saying why seat may not take action m
// now, or nil if it may.
func (w *World) Check(seat int, m Move) error { return w.check(seat, m, naming{seats: true}) }

// naming says how a refusal names the countries it tells of.
type naming struct {
	// players names each seat's player, as the match's setup does (nil:
	// none are named).
	players []string
	// seats adds each country's seat, from 0, as moves name it: programs
	// are told it; people, who name countries from 1, are not.
	seats bool
}

// name names country i: "country 2 (seat 1, war)", "country 2 (war)".
func (n naming) name(i int) string {
	var about []string
	if n.seats {
		about = append(about, fmt.Sprintf("seat %d", i))
	}
	if i < len(n.players) && n.players[i] != "" {
		about = append(about, engine.DisplayName(n.players[i]))
	}
	if len(about) == 0 {
		return fmt.Sprintf("country %d", i+1)
	}
	return fmt.Sprintf("country %d (%s)", i+1, strings.Join(about, ", "))
}

// check is Check, whose refusals name the countries as n says.
func (w *World) check(seat int, m Move, n naming) error {
	c, err := w.country(seat)
	if err != nil {
		return err
	}
	switch m.Type {
	case Wait:
		return nil
	case Recruit:
		switch {
		case m.N > c.Stock[Citizens]:
			return engine.Refuse("citizens", "recruit %d: you have %d citizens; recruit at most that many", m.N, c.Stock[Citizens])
		case m.N < 0 && c.Stock[Army] == 0:
			return engine.Refuse("army", "recruit %d: you have no soldiers to send back", m.N)
		case m.N < 0 && m.N < -c.Stock[Army]: // not -m.N: it overflows for the smallest int64
			return engine.Refuse("army", "recruit %d: you have %d soldiers; send at most that many back (recruit -%d)", m.N, c.Stock[Army], c.Stock[Army])
		}
		return nil
	case Trade:
		other, err := w.other(seat, m.With, "trade with", n)
		if err != nil {
			return err
		}
		switch {
		case !m.Give.Valid() || !m.Take.Valid():
			return engine.Refuse("resource", "trade: resources are %s", allResources)
		case m.Give != Gold && m.Take != Gold:
			return engine.Refuse("gold", "trade: one side of a trade must be gold; you offered %v for %v", m.Give, m.Take)
		case m.GiveN < 0 || m.TakeN < 0:
			return engine.Refuse("amount", "trade: amounts are 0 or more")
		case m.GiveN == 0 && m.TakeN == 0:
			return engine.Refuse("amount", "trade: at least one amount must be above 0")
		case m.GiveN > c.Stock[m.Give]:
			return engine.Refuse("hold", "trade: you offer %d %v and hold %d", m.GiveN, m.Give, c.Stock[m.Give])
		case m.TakeN > other.Stock[m.Take]:
			return engine.Refuse("hold", "trade: you ask %d %v of country %d, which holds %d", m.TakeN, m.Take, m.With+1, other.Stock[m.Take])
		}
		return nil
	case War:
		// A war needs a target, soldiers for its flanks and the gold it
		// costs: a refusal names every one that is missing.
		var refused []*engine.RuleError
		if _, err := w.other(seat, m.Target, "attack", n); err != nil {
			refused = append(refused, err.(*engine.RuleError))
		}
		if err := checkFlanks(m.Flanks, c.Stock[Army], "war"); err != nil {
			refused = append(refused, err.(*engine.RuleError))
		}
		if c.Stock[Gold] < w.Preset.GoldForWar {
			if len(refused) == 0 {
				return engine.Refuse("gold", "war costs %d gold; you have %d", w.Preset.GoldForWar, c.Stock[Gold])
			}
			refused = append(refused, engine.Refuse("gold", "war costs %d gold, and you have %d", w.Preset.GoldForWar, c.Stock[Gold]))
		}
		switch len(refused) {
		case 0:
			return nil
		case 1:
			return refused[0]
		}
		msgs := make([]string, len(refused))
		for i, r := range refused {
			msgs[i] = r.Msg
		}
		return engine.Refuse(refused[0].Code, "%s", strings.Join(msgs, "; also, "))
	}
	return engine.Refuse("not-action", "%v is not an action; actions: wait, recruit, trade, war", m.Type)
}

// other returns the country seat would trade with or attack (as verb
// says), or a refusal that names the countries seat may pick instead.
func (w *World) other(seat, other int, verb string, n naming) (*Country, error) {
	if other == seat {
		you := fmt.Sprintf("country %d", seat+1)
		if n.seats {
			you += fmt.Sprintf(", seat %d", seat)
		}
		return nil, engine.Refuse("self", "you cannot %s yourself (%s); %s", verb, you, w.others(seat, verb, n))
	}
	c, err := w.country(other)
	if err != nil {
		return nil, engine.Refuse("target", "%s country %d: %v; %s", verb, other+1, err, w.others(seat, verb, n))
	}
	return c, nil
}

// others says which countries seat may trade with or attack (as verb
// says), the living others, named as n says: "trade with another living
// country: country 2 (seat 1, war) or country 4 (seat 3, exec:bot.py)".
func (w *World) others(seat int, verb string, n naming) string {
	var names []string
	for i := range w.Countries {
		if i != seat && !w.Countries[i].Dead {
			names = append(names, n.name(i))
		}
	}
	if len(names) == 0 {
		return "there is no other living country to " + verb
	}
	return verb + " another living country: " + engine.Or(names)
}

func checkFlanks(f Flanks, army int64, what string) error {
	for i, n := range f {
		if n < 0 {
			return engine.Refuse("flanks", "%s: the %s flank has %d soldiers; flanks are 0 or more", what, flankWords[i], n)
		}
	}
	// Add up without overflow: each flank is at most what the army has left.
	var t int64
	for _, n := range f {
		if n > army-t {
			return engine.Refuse("flanks", "%s: %d, %d and %d soldiers on the flanks, and the army has %d", what, f[0], f[1], f[2], army)
		}
		t += n
	}
	return nil
}

var flankWords = [3]string{"left", "front", "right"}

// The refusals of checkFlanks that name the flanks of a war.
var (
	flanksOverArmy = regexp.MustCompile(`-?\d+, -?\d+ and -?\d+ soldiers on the flanks, and the army has (-?\d+)`)
	flankBelowZero = regexp.MustCompile(`the (left|front|right) flank has -\d+ soldiers; flanks are 0 or more`)
)

// Told is a refusal as the history tells everyone: without the flanks of
// the war it refused, which would tell how the country divides its army
// ("Flank divisions are never revealed"); its fault in the record, and
// the report, keep them.
func Told(refusal string) string {
	refusal = flanksOverArmy.ReplaceAllString(refusal, "the flanks send more soldiers than the army has ($1)")
	return flankBelowZero.ReplaceAllString(refusal, "a flank has fewer than 0 soldiers")
}

// Recruit turns n of seat's citizens into soldiers (n < 0: soldiers back
// into citizens). The action must be legal (see Check).
func (w *World) Recruit(seat int, n int64) {
	c := &w.Countries[seat]
	c.Stock[Citizens] -= n
	c.Stock[Army] += n
	w.bury()
}

// Trade carries out seat's trade offer m, if accepted: both amounts move at
// once. The offer must be legal (see Check).
func (w *World) Trade(seat int, m Move, accepted bool) {
	if !accepted {
		return
	}
	a, b := &w.Countries[seat], &w.Countries[m.With]
	a.Stock[m.Give] -= m.GiveN
	b.Stock[m.Give] = addSat(b.Stock[m.Give], m.GiveN)
	b.Stock[m.Take] -= m.TakeN
	a.Stock[m.Take] = addSat(a.Stock[m.Take], m.TakeN)
	w.bury()
}

// Outcome is how a battle ended.
type Outcome uint8

// Battle outcomes.
const (
	Tie         Outcome = iota // nobody left on either side: nothing is looted
	AttackerWon                // the attacker had soldiers left, and looted
	DefenderWon                // the defender had soldiers left
)

var outcomeNames = engine.Names{"tie", "attacker", "defender"}

// String returns "tie", "attacker" or "defender": who won.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "Outcome(?)"
}

// MarshalText writes the outcome's name.
func (o Outcome) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// Battle is what a war did, as everyone may read it: never the flanks.
type Battle struct {
	Attacker, Defender int
	Sent, Defended     int64 // soldiers sent by each side
	AttackersLeft      int64 // survivors, who return home
	DefendersLeft      int64
	Outcome            Outcome
	Loot               Stock // what the attacker took
}

// Fight resolves a battle between attacking and defending flanks, in the
// rules' two waves: on each flank defenders have advantage m1, then all
// survivors gather and attackers have advantage m2. It returns the
// survivors of each side.
func Fight(attack, defence Flanks, m1, m2 Ratio) (attackers, defenders int64) {
	var a, d int64
	for i := range 3 {
		a += max(0, attack[i]-m1.Floor(defence[i]))
		d += max(0, defence[i]-attack[i])
	}
	return max(0, a-d), max(0, d-m2.Floor(a))
}

// War carries out seat's war m against m.Target, defended by defence; both
// must be legal (see Check and CheckDefence). The attacker pays gold_for_war,
// the soldiers sent leave home, the survivors return, and a winning
// attacker loots.
func (w *World) War(seat int, m Move, defence Flanks) Battle {
	p := &w.Preset
	a, d := &w.Countries[seat], &w.Countries[m.Target]
	b := Battle{Attacker: seat, Defender: m.Target, Sent: m.Flanks.Total(), Defended: defence.Total()}
	a.Stock[Gold] -= p.GoldForWar
	a.Stock[Army] -= b.Sent
	d.Stock[Army] -= b.Defended
	b.AttackersLeft, b.DefendersLeft = Fight(m.Flanks, defence, p.DefendAdvantage, p.AttackAdvantage)
	a.Stock[Army] += b.AttackersLeft
	d.Stock[Army] += b.DefendersLeft
	switch {
	case b.AttackersLeft > 0:
		b.Outcome = AttackerWon
		for r := range NumResources {
			n := min(p.Steal[r].Floor(b.AttackersLeft), d.Stock[r])
			n = max(n, 0)
			b.Loot[r] = n
			d.Stock[r] -= n
			a.Stock[r] = addSat(a.Stock[r], n)
		}
	case b.DefendersLeft > 0:
		b.Outcome = DefenderWon
	}
	w.bury()
	return b
}

// CheckDefence returns a *engine.RuleError unless defence is a legal answer
// of seat to a war: each flank 0 or more, in all no more than its army.
func (w *World) CheckDefence(seat int, defence Flanks) error {
	c, err := w.country(seat)
	if err != nil {
		return err
	}
	return checkFlanks(defence, c.Stock[Army], "defence")
}

// Produce runs production for every living country, in seat order, then
// adds 1 to the cycle. Every product rounds down.
//
//  1. food += ⌊food_per_citizen × citizens⌋; gold += ⌊gold_per_citizen × citizens⌋.
//  2. Citizens grow to ⌊citizens × growth⌋, never taking citizens + army
//     above land × land_capacity; a country above it loses citizens down to it.
//  3. Upkeep: food −= ⌊army × food_per_soldier⌋; gold −= ⌊army × gold_per_soldier⌋.
//  4. Gold at 0 or less: gold becomes 0 and the army turns back into citizens.
//  5. Food at 0 or less: food becomes 0 and hunger_deaths citizens die.
//  6. Citizens at 0 or less: the country is dead.
func (w *World) Produce() {
	p := &w.Preset
	for i := range w.Countries {
		c := &w.Countries[i]
		if c.Dead {
			continue
		}
		s := &c.Stock
		s[Food] = addSat(s[Food], p.FoodPerCitizen.Floor(s[Citizens]))
		s[Gold] = addSat(s[Gold], p.GoldPerCitizen.Floor(s[Citizens]))

		room := max(0, subSat(p.LandCapacity.Floor(s[Land]), s[Army]))
		s[Citizens] = min(p.Growth.Floor(s[Citizens]), room)

		s[Food] = subSat(s[Food], p.FoodPerSoldier.Floor(s[Army]))
		s[Gold] = subSat(s[Gold], p.GoldPerSoldier.Floor(s[Army]))

		if s[Gold] <= 0 {
			s[Gold] = 0
			s[Citizens] = addSat(s[Citizens], s[Army])
			s[Army] = 0
		}
		if s[Food] <= 0 {
			s[Food] = 0
			s[Citizens] = max(0, s[Citizens]-p.HungerDeaths)
		}
	}
	w.bury()
	w.Cycle++
}

// addSat returns a + b and subSat a − b, saturating at the int64 bounds as
// Ratio.Floor does: a sum too large for an int64 must not wrap around (a
// rich country turned bankrupt by its own income).
func addSat(a, b int64) int64 {
	c := a + b
	switch {
	case a > 0 && b > 0 && c < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && c >= 0:
		return math.MinInt64
	}
	return c
}

func subSat(a, b int64) int64 {
	c := a - b
	switch {
	case a >= 0 && b < 0 && c < 0:
		return math.MaxInt64
	case a < 0 && b > 0 && c >= 0:
		return math.MinInt64
	}
	return c
}
