package tncc

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// Fuzz targets: the readers never panic, what they accept reads back the
// same, and the rules keep their invariants on any world that parses.
//
//	go test ./games/tncc -run XXX -fuzz FuzzWorldJSON -fuzztime 20s

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"wait", "recruit 50", "recruit -50", "trade 2 gold 100 food 200", "war 2 10 0 30",
		"defend 5 5 5", "5 5 5", "yes", "no", "accept", "decline", "WAR 12 0 0 1000000000000", "recruit 1000000000001",
		"trade 13 gold 1 food 1", "", "  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: an empty error", s)
			}
			return
		}
		back, err := ParseMove(m.String())
		if err != nil || back != m {
			t.Fatalf("%q parses as %#v, written %q, which reads back as %#v, %v", s, m, m.String(), back, err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		var j Move
		if err := json.Unmarshal(b, &j); err != nil || j != m {
			t.Fatalf("%q: JSON %s reads back as %#v, %v", s, b, j, err)
		}
	})
}

// textual reports whether ParseMove can read m's String: its numbers are
// within MaxAmount and its countries are 1 to MaxCountries.
func textual(m Move) bool {
	in := func(v int64) bool { return v >= -MaxAmount && v <= MaxAmount }
	country := func(c int) bool { return c >= 0 && c < MaxCountries }
	switch m.Type {
	case Recruit:
		return in(m.N)
	case Trade:
		return country(m.With) && in(m.GiveN) && in(m.TakeN)
	case War:
		return country(m.Target) && in(m.Flanks[0]) && in(m.Flanks[1]) && in(m.Flanks[2])
	case Defend:
		return in(m.Flanks[0]) && in(m.Flanks[1]) && in(m.Flanks[2])
	}
	return true
}

func FuzzMoveJSON(f *testing.F) {
	for _, s := range []string{`{"type": "wait"}`, `{"type": "recruit", "n": 50}`,
		`{"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 200}`,
		`{"type": "war", "target": 1, "flanks": [10, 0, 30]}`, `{"accept": true}`, `{"accept": false}`,
		`{"flanks": [5, 5, 5]}`, `{"type": "war", "target": -3, "flanks": [-1, 9223372036854775807, 0]}`,
		`{"flanks": [1, 2]}`, `{}`, `null`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m Move
		if err := m.UnmarshalJSON(b); err != nil {
			return
		}
		if m.Type >= numMoveTypes || m.Type == Trade && (!m.Give.Valid() || !m.Take.Valid()) {
			t.Fatalf("%s reads as %#v", b, m)
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		var back Move
		if err := json.Unmarshal(out, &back); err != nil || back != m {
			t.Fatalf("%s reads as %#v, written %s, which reads back as %#v, %v", b, m, out, back, err)
		}
		if textual(m) {
			if p, err := ParseMove(m.String()); err != nil || p != m {
				t.Fatalf("%s reads as %#v, written %q, which parses as %#v, %v", b, m, m.String(), p, err)
			}
		}
	})
}

func FuzzParseRatio(f *testing.F) {
	for _, s := range []string{"0.1", ".025", "-.1", "1.07", "2", "-0", "+1.5", "999999999.999999999", "1e3", "abc", "", "1.2.3", "."} {
		f.Add(s, int64(15))
	}
	f.Add("-0.1", int64(math.MinInt64))
	f.Add("999999999", int64(math.MaxInt64))
	f.Fuzz(func(t *testing.T, s string, x int64) {
		r, err := ParseRatio(s)
		if err != nil {
			return
		}
		want, ok := new(big.Rat).SetString(strings.TrimSpace(s))
		if !ok {
			t.Fatalf("%q reads as %v, but is not a number", s, r)
		}
		if big.NewRat(r.Num, r.den()).Cmp(want) != 0 {
			t.Fatalf("%q reads as %d/%d; want %v", s, r.Num, r.den(), want)
		}
		d := r.den()
		for d%10 == 0 {
			d /= 10
		}
		if d != 1 {
			t.Fatalf("%q reads as %d/%d: the denominator is not a power of ten", s, r.Num, r.den())
		}
		if back, err := ParseRatio(r.String()); err != nil || back != r {
			t.Fatalf("%q written %q reads back as %v, %v", s, r.String(), back, err)
		}
		if b, err := json.Marshal(r); err != nil || !json.Valid(b) {
			t.Fatalf("%q: JSON %s, %v", s, b, err)
		}
		if got, want := r.Floor(x), floorRef(r.Num, r.den(), x); got != want {
			t.Fatalf("⌊%s × %d⌋ = %d; want %d", s, x, got, want)
		}
	})
}

func FuzzReadPreset(f *testing.F) {
	f.Add(everyKey)
	f.Add("base: tribe\ngold_for_war: 10\nsteal: {land: 0.5}\n")
	f.Add("base: decay\nname: rot\nmax_cycles: 3\n")
	f.Add("base: default\ndefend_advantage: 0.5\n")
	f.Add("base: nope\n")
	f.Add("")
	for _, p := range presets {
		b, _ := json.Marshal(p)
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ReadPreset(strings.NewReader(s))
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: an empty error", s)
			}
			return
		}
		if err := p.Check(); err != nil {
			t.Fatalf("%q read, but: %v", s, err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if !utf8.ValidString(p.Name) {
			return // JSON cannot carry the name's bytes as they are
		}
		var back Preset
		if err := json.Unmarshal(b, &back); err != nil || back != p {
			t.Fatalf("%q read as %+v; JSON %s reads back as %+v, %v", s, p, b, back, err)
		}
		if back, err := ReadPreset(bytes.NewReader(b)); err != nil || back != p {
			t.Fatalf("%q read as %+v; JSON %s reads back as YAML %+v, %v", s, p, b, back, err)
		}
	})
}

// produceRef runs one country's production in big.Int, exactly, and
// reports whether every number on the way fits in an int64. It is the rules
// page's six steps, written independently of World.Produce.
func produceRef(p *Preset, s Stock) (Stock, bool) {
	fits := true
	floor := func(r Ratio, x *big.Int) *big.Int {
		q := new(big.Int).Mul(big.NewInt(r.Num), x)
		return q.Div(q, big.NewInt(r.den()))
	}
	var v [NumResources]*big.Int
	for i := range v {
		v[i] = big.NewInt(s[i])
	}
	check := func(xs ...*big.Int) {
		for _, x := range xs {
			if !x.IsInt64() {
				fits = false
			}
		}
	}
	zero := new(big.Int)
	mx := func(a, b *big.Int) *big.Int {
		if a.Cmp(b) >= 0 {
			return a
		}
		return b
	}
	mn := func(a, b *big.Int) *big.Int {
		if a.Cmp(b) <= 0 {
			return a
		}
		return b
	}
	// 1. Income, from the citizens before growth.
	food, gold := floor(p.FoodPerCitizen, v[Citizens]), floor(p.GoldPerCitizen, v[Citizens])
	check(food, gold)
	v[Food] = new(big.Int).Add(v[Food], food)
	v[Gold] = new(big.Int).Add(v[Gold], gold)
	// 2. Growth, within land × land_capacity.
	capacity := floor(p.LandCapacity, v[Land])
	grown := floor(p.Growth, v[Citizens])
	check(capacity, grown)
	room := mx(new(big.Int).Sub(capacity, v[Army]), zero)
	v[Citizens] = mn(grown, room)
	// 3. Upkeep.
	food, gold = floor(p.FoodPerSoldier, v[Army]), floor(p.GoldPerSoldier, v[Army])
	check(food, gold, v[Food], v[Gold], room)
	v[Food] = new(big.Int).Sub(v[Food], food)
	v[Gold] = new(big.Int).Sub(v[Gold], gold)
	check(v[Food], v[Gold])
	// 4. Bankrupt.
	if v[Gold].Sign() <= 0 {
		v[Gold] = zero
		v[Citizens] = new(big.Int).Add(v[Citizens], v[Army])
		v[Army] = zero
	}
	// 5. Hunger.
	if v[Food].Sign() <= 0 {
		v[Food] = zero
		v[Citizens] = mx(new(big.Int).Sub(v[Citizens], big.NewInt(p.HungerDeaths)), zero)
	}
	var out Stock
	for i := range v {
		check(v[i])
		out[i] = v[i].Int64()
	}
	return out, fits
}

func FuzzWorldJSON(f *testing.F) {
	f.Add([]byte(rulesWorld))
	f.Add([]byte(`{"preset": {"base": "tribe", "gold_for_war": 5}, "cycle": 7, "countries": [` +
		`{"gold": 1, "food": 2, "citizens": 3, "army": 4, "land": 5}, {"gold": 0, "food": 0, "citizens": 0, "army": 0, "land": 0, "dead": true, "died": 2}]}`))
	f.Add([]byte(`{"preset": "decay", "cycle": 1, "countries": [` +
		`{"gold": 0, "food": 2, "citizens": 15, "army": 300, "land": 35}, {"gold": -5, "food": -1000000000000, "citizens": 1000000000000, "army": -3, "land": 1000000000000}]}`))
	f.Add([]byte(`{"preset": {"base": "crazy", "food_per_citizen": 999999999.999999999, "land_capacity": 999999999, "growth": 0.5}, "cycle": 100001, "countries": [` +
		`{"gold": 1000000000000, "food": 1000000000000, "citizens": 1000000000000, "army": 1000000000000, "land": 1000000000000},` +
		`{"gold": -1000000000000, "food": -1000000000000, "citizens": -1000000000000, "army": -1000000000000, "land": -1000000000000}]}`))
	full, _ := json.Marshal(World{Preset: *rulesPreset(func(p *Preset) { p.FoodPerCitizen = MustRatio("-0.125") }), Cycle: 3,
		Countries: []Country{{Stock: Stock{1, 2, 3, 4, 5}}, {Stock: Stock{5, 4, 3, 2, 1}}, {Dead: true, Died: 2}}})
	f.Add(full)
	f.Fuzz(func(t *testing.T, b []byte) {
		var w World
		if err := w.UnmarshalJSON(b); err != nil {
			if err.Error() == "" {
				t.Fatalf("%s: an empty error", b)
			}
			return
		}
		// What is read writes back, and reads back the same.
		out, err := json.Marshal(w)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		var back World
		if err := back.UnmarshalJSON(out); err != nil {
			t.Fatalf("%s read, written %s, which is refused: %v", b, out, err)
		}
		if utf8.ValidString(w.Preset.Name) {
			if diff := cmp.Diff(w, back); diff != "" {
				t.Fatalf("%s read, written %s, reads back differently:\n%s", b, out, diff)
			}
		}
		// Production: the dead unchanged, the living per the rules, every
		// country with no citizens dead.
		before := w.Clone()
		w.Produce()
		if w.Cycle != before.Cycle+1 {
			t.Fatalf("cycle %d after production in cycle %d", w.Cycle, before.Cycle)
		}
		for i, c := range w.Countries {
			was := before.Countries[i]
			if was.Dead {
				if c != was {
					t.Fatalf("%s: production changed dead country %d: %+v, was %+v", b, i, c, was)
				}
				continue
			}
			if c.Stock[Gold] < 0 || c.Stock[Food] < 0 {
				t.Fatalf("%s: country %d after production: %v; gold and food are never below 0 (steps 4, 5)", b, i, c.Stock)
			}
			if c.Stock[Citizens] <= 0 != c.Dead || c.Dead && c.Died != before.Cycle {
				t.Fatalf("%s: country %d after production: %+v; dead exactly when it has no citizens, in cycle %d", b, i, c, before.Cycle)
			}
			if want, exact := produceRef(&w.Preset, was.Stock); exact && c.Stock != want {
				t.Fatalf("%s: country %d produced %v from %v; the rules give %v", b, i, c.Stock, was.Stock, want)
			}
		}
		// Every action a country may take keeps the world sane too.
		for seat := range w.Countries {
			for _, m := range []Move{RecruitMove(w.Countries[seat].Stock[Citizens]), RecruitMove(-w.Countries[seat].Stock[Army]),
				TradeMove((seat+1)%len(w.Countries), Gold, w.Countries[seat].Stock[Gold], Land, 1),
				WarMove((seat+1)%len(w.Countries), Thirds(w.Countries[seat].Stock[Army]))} {
				v := w.Clone()
				if v.Check(seat, m) != nil {
					continue
				}
				switch m.Type {
				case Recruit:
					v.Recruit(seat, m.N)
				case Trade:
					v.Trade(seat, m, true)
				case War:
					v.War(seat, m, Thirds(v.Countries[m.Target].Stock[Army]))
				}
				for i, c := range v.Countries {
					if w.Countries[i].Dead && c != w.Countries[i] {
						t.Fatalf("%s: %v changed dead country %d", b, m, i)
					}
					if !c.Dead && c.Stock[Citizens] <= 0 {
						t.Fatalf("%s: %v left country %d alive with %d citizens", b, m, i, c.Stock[Citizens])
					}
				}
			}
		}
	})
}

// FuzzStepMove reads step moves as arbiter step does and applies what reads
// to a world: no input panics, and a refused step leaves the world as it was.
func FuzzStepMove(f *testing.F) {
	for _, s := range []string{
		`{"seat": 0, "action": {"type": "war", "target": 1, "flanks": [10, 0, 30]}, "answer": {"flanks": [5, 5, 5]}}`,
		`{"seat": 0, "action": {"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 200}, "answer": {"accept": true}}`,
		`{"seat": 1, "action": {"type": "recruit", "n": -5}}`, `{"production": true}`, `{"production": true, "seat": 0}`, `{}`, `null`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseStepMove([]byte(s))
		if err != nil {
			return
		}
		w := NewWorld(Default(), 3)
		w.Countries[0].Stock[Army], w.Countries[0].Stock[Gold] = 100, 5000
		before := w.Clone()
		if _, err := Step(w, m); err != nil && !cmp.Equal(w, before) {
			t.Fatalf("a refused step changed the world: %s", s)
		}
	})
}

// FuzzPresetOption reads the preset option as a match does: a name or a
// preset's JSON. What reads is a valid preset, and reads back the same.
func FuzzPresetOption(f *testing.F) {
	f.Add("default")
	f.Add(Default().Option())
	f.Add(`{"base": "tribe", "gold_for_war": 1}`)
	f.Add(`{"base": "tribe", "growth": -1}`)
	f.Fuzz(func(t *testing.T, s string) {
		p, err := PresetOption(s)
		if err != nil {
			return
		}
		if err := p.Check(); err != nil {
			t.Fatalf("%q reads as a preset that fails its check: %v", s, err)
		}
		back, err := PresetOption(p.Option())
		if err != nil || back != p {
			t.Fatalf("%q: its option %q reads back as %+v, %v", s, p.Option(), back, err)
		}
	})
}
