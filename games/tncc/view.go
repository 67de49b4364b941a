package tncc

import (
	"encoding/json"
	"fmt"
	"iter"
	"strings"
)

// View is what one country may know: every country's resources and whether
// it lives, the preset's constants, the public history, and the question it
// is asked (the offer or the attack it must answer). It is read-only and
// valid until the match moves on.
type View struct {
	m    *Match
	seat int
}

// You returns the viewer's seat.
func (v View) You() int { return v.seat }

// Me returns the viewer's country.
func (v View) Me() Country { return v.m.world.Countries[v.seat] }

// Cycle returns the cycle now, from 1.
func (v View) Cycle() int { return v.m.world.Cycle }

// Preset returns the game's constants. They are the match's own: read
// them, never change them.
func (v View) Preset() *Preset { return &v.m.world.Preset }

// GoldForWar returns what a war costs, the constant bots read most.
func (v View) GoldForWar() int64 { return v.m.world.Preset.GoldForWar }

// MaxCycles returns the number of cycles the game lasts at most.
func (v View) MaxCycles() int { return v.m.world.Preset.MaxCycles }

// Countries returns the number of countries, dead or alive.
func (v View) Countries() int { return len(v.m.world.Countries) }

// Country returns country i.
func (v View) Country(i int) Country { return v.m.world.Countries[i] }

// Living returns the number of living countries.
func (v View) Living() int { return v.m.world.Living() }

// Len returns the number of entries in the history.
func (v View) Len() int { return v.m.hist.len() }

// Entry returns entry i of the history, from 0, oldest first.
func (v View) Entry(i int) Entry { return v.m.hist.entry(i) }

// History yields the history's entries, oldest first.
func (v View) History() iter.Seq2[int, Entry] {
	return func(yield func(int, Entry) bool) {
		for i := range v.m.hist.len() {
			if !yield(i, v.m.hist.entry(i)) {
				return
			}
		}
	}
}

// Offer returns the trade offer the viewer is asked to answer.
func (v View) Offer() (Offer, bool) {
	if v.m.phase != tradePhase || v.m.action.With != v.seat {
		return Offer{}, false
	}
	return offerOf(v.m.next, v.m.action), true
}

// Attack returns the attack the viewer is asked to answer: who attacks, and
// with how many soldiers in all.
func (v View) Attack() (Attack, bool) {
	if v.m.phase != warPhase || v.m.action.Target != v.seat {
		return Attack{}, false
	}
	return Attack{From: v.m.next, Sent: v.m.action.Flanks.Total()}, true
}

// Check returns why the viewer may not make move mv now, or nil: the rules'
// own refusal, for people who should be asked again rather than defaulted.
func (v View) Check(mv Move) error {
	m := v.m
	switch {
	case m.phase == overPhase:
		return fmt.Errorf("the game is over")
	case m.reqs[m.kind].Seat != v.seat:
		return fmt.Errorf("it is not your move")
	case m.phase == tradePhase:
		if mv.Type != Accept && mv.Type != Decline {
			return fmt.Errorf("answer the offer: yes or no")
		}
		return nil
	case m.phase == warPhase:
		if mv.Type != Defend {
			return fmt.Errorf("answer the attack with your flanks: LEFT FRONT RIGHT, e.g. 5 5 5")
		}
		return m.world.CheckDefence(v.seat, mv.Flanks)
	case !mv.Type.IsAction():
		return fmt.Errorf("it is your turn: %s", actionSyntax)
	}
	return m.world.Check(v.seat, mv)
}

const actionSyntax = "wait; recruit N; trade COUNTRY GIVE GIVE_N TAKE TAKE_N; war COUNTRY LEFT FRONT RIGHT"

// recent is how many cycles of history a view's JSON carries.
const recent = 2

// viewJSON is a view's JSON shape, for programs and training data: the
// world, the history of the last two cycles, and the question.
type viewJSON struct {
	You       int         `json:"you"`
	Cycle     int         `json:"cycle"`
	MaxCycles int         `json:"max_cycles"`
	Preset    string      `json:"preset"`
	Countries []countryJS `json:"countries"`
	Recent    []entryJSON `json:"recent"`
	Offer     *offerJSON  `json:"offer,omitempty"`
	Attack    *Attack     `json:"attack,omitempty"`
}

type offerJSON struct {
	From  int      `json:"from"`
	Give  Resource `json:"give"`
	GiveN int64    `json:"give_n"`
	Take  Resource `json:"take"`
	TakeN int64    `json:"take_n"`
}

// MarshalJSON writes the view for programs: you, cycle, max_cycles, preset,
// countries, the history of this cycle and the last ("recent"), and the
// offer or attack to answer.
func (v View) MarshalJSON() ([]byte, error) {
	m := v.m
	j := viewJSON{You: v.seat, Cycle: m.world.Cycle, MaxCycles: m.world.Preset.MaxCycles, Preset: m.world.Preset.Name}
	for i := range m.world.Countries {
		j.Countries = append(j.Countries, countryJSON(&m.world.Countries[i]))
	}
	j.Recent = []entryJSON{}
	for i := range m.hist.len() {
		if e := m.hist.entry(i); e.Cycle > m.world.Cycle-recent {
			j.Recent = append(j.Recent, toEntryJSON(e))
		}
	}
	if o, ok := v.Offer(); ok {
		j.Offer = &offerJSON{From: o.From, Give: o.Give, GiveN: o.GiveN, Take: o.Take, TakeN: o.TakeN}
	}
	if a, ok := v.Attack(); ok {
		j.Attack = &a
	}
	return json.Marshal(j)
}

// String shows the view to a person: the countries, the last cycle's
// events, and the question.
func (v View) String() string {
	var b strings.Builder
	m := v.m
	fmt.Fprintf(&b, "Cycle %d of %d (%s preset). You are country %d.\n", m.world.Cycle, m.world.Preset.MaxCycles, m.world.Preset.Name, v.seat+1)
	writeCountries(&b, &m.world, v.seat)
	var events []string
	for i := range m.hist.len() {
		e := m.hist.entry(i)
		if e.Cycle > m.world.Cycle-recent && (e.Type != Wait || e.Refused != "") {
			events = append(events, fmt.Sprintf("  cycle %d: %s", e.Cycle, e))
		}
	}
	if len(events) > 0 {
		fmt.Fprintln(&b, "Lately:")
		for _, s := range events {
			fmt.Fprintln(&b, s)
		}
	}
	switch {
	case m.phase == overPhase:
	case m.reqs[m.kind].Seat != v.seat:
	case m.phase == tradePhase:
		o, _ := v.Offer()
		fmt.Fprintf(&b, "Country %d offers you %d %v for %d of your %v. Accept? (yes or no)\n", o.From+1, o.GiveN, o.Give, o.TakeN, o.Take)
	case m.phase == warPhase:
		a, _ := v.Attack()
		fmt.Fprintf(&b, "Country %d attacks you with %d soldiers in all. You have %d. Defend with LEFT FRONT RIGHT (e.g. 5 5 5).\n",
			a.From+1, a.Sent, m.world.Countries[v.seat].Stock[Army])
	default:
		fmt.Fprintf(&b, "Your turn: %s. War costs %d gold.\n", actionSyntax, m.world.Preset.GoldForWar)
	}
	return b.String()
}

func writeCountries(b *strings.Builder, w *World, you int) {
	fmt.Fprintf(b, "  %-9s %10s %10s %10s %10s %10s\n", "country", "gold", "food", "citizens", "army", "land")
	for i := range w.Countries {
		c := &w.Countries[i]
		name := fmt.Sprint(i + 1)
		if i == you {
			name += " (you)"
		}
		fmt.Fprintf(b, "  %-9s %10d %10d %10d %10d %10d", name, c.Stock[Gold], c.Stock[Food], c.Stock[Citizens], c.Stock[Army], c.Stock[Land])
		if c.Dead {
			fmt.Fprintf(b, "  dead (cycle %d)", c.Died)
		}
		b.WriteByte('\n')
	}
}

// String describes the entry for people, countries from 1.
func (e Entry) String() string {
	who := fmt.Sprintf("country %d", e.Seat+1)
	switch e.Type {
	case Recruit:
		if e.N < 0 {
			return fmt.Sprintf("%s sent %d soldiers home", who, -e.N)
		}
		return fmt.Sprintf("%s recruited %d", who, e.N)
	case Trade:
		o := e.Offer
		ans := "declined"
		if e.Accepted {
			ans = "accepted"
		}
		return fmt.Sprintf("%s offered country %d %d %v for %d %v: %s", who, o.With+1, o.GiveN, o.Give, o.TakeN, o.Take, ans)
	case War:
		return e.Battle.String()
	}
	if e.Refused != "" {
		return fmt.Sprintf("%s waited (its action was refused: %s)", who, e.Refused)
	}
	return who + " waited"
}

// String describes the battle for people, countries from 1.
func (bt Battle) String() string {
	s := fmt.Sprintf("country %d attacked country %d: %d against %d; %d and %d left; ",
		bt.Attacker+1, bt.Defender+1, bt.Sent, bt.Defended, bt.AttackersLeft, bt.DefendersLeft)
	switch bt.Outcome {
	case Tie:
		return s + "a tie"
	case DefenderWon:
		return s + "the defender won"
	}
	var loot []string
	for r, n := range bt.Loot {
		if n > 0 {
			loot = append(loot, fmt.Sprintf("%d %v", n, Resource(r)))
		}
	}
	if len(loot) == 0 {
		return s + "the attacker won, and took nothing"
	}
	return s + "the attacker won, and took " + strings.Join(loot, ", ")
}

// World returns a copy of the world, for bots that look ahead by playing
// the rules (World.Check, Recruit, Trade, War, Produce) on it.
func (v View) World() World { return v.m.world.Clone() }

// Complete completes a move a person has partly typed: the action's word,
// then countries that may be its target, resources, and for flanks the army
// in thirds. It returns whole lines.
func (v View) Complete(line string) []string {
	m := v.m
	fields := strings.Fields(line)
	if line == "" || strings.HasSuffix(line, " ") {
		fields = append(fields, "")
	}
	k := len(fields) - 1
	head := strings.Join(fields[:k], " ")
	if head != "" {
		head += " "
	}
	var words []string
	army := m.world.Countries[v.seat].Stock[Army]
	thirds := func() string { f := Thirds(army); return fmt.Sprintf("%d %d %d", f[0], f[1], f[2]) }
	switch {
	case m.phase == tradePhase:
		if k == 0 {
			words = []string{"yes", "no"}
		}
	case m.phase == warPhase:
		if k == 0 {
			words = []string{thirds(), "0 0 0"}
		}
	case k == 0:
		words = []string{"wait", "recruit", "trade", "war"}
	default:
		switch verb := strings.ToLower(fields[0]); {
		case (verb == "trade" || verb == "war") && k == 1:
			for i := range m.world.Countries {
				if i != v.seat && !m.world.Countries[i].Dead {
					words = append(words, fmt.Sprint(i+1))
				}
			}
		case verb == "trade" && (k == 2 || k == 4):
			words = []string(resourceNames)
		case verb == "war" && k == 2:
			words = []string{thirds(), fmt.Sprintf("%d 0 0", army)}
		case verb == "recruit" && k == 1:
			words = []string{fmt.Sprint(m.world.Countries[v.seat].Stock[Citizens] / 10), fmt.Sprint(-army)}
		}
	}
	var out []string
	last := strings.ToLower(fields[k])
	for _, w := range words {
		if strings.HasPrefix(strings.ToLower(w), last) {
			out = append(out, head+w)
		}
	}
	return out
}
