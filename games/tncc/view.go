package tncc

import (
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"

	"github.com/arbiter-games/arbiter/internal/wrap"
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

// Preset returns the game's constants: a copy, written afresh at every
// call into memory the match keeps for it (allocated at the first call
// only). Changing it changes nothing of the game, and the next call gives
// the game's own numbers again; keep the Preset itself, not the pointer,
// past the decision.
func (v View) Preset() *Preset {
	if v.m.shown == nil {
		v.m.shown = new(Preset)
	}
	*v.m.shown = v.m.world.Preset
	return v.m.shown
}

// preset returns the match's own constants, for the built-in bots, which
// only read them.
func (v View) preset() *Preset { return &v.m.world.Preset }

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

// Out tells a person that their country is dead, in which cycle and why
// (player.Knockout); it is "" while the country lives.
func (v View) Out() string {
	c := &v.m.world.Countries[v.seat]
	if !c.Dead {
		return ""
	}
	why := "it had no citizens left"
	for _, d := range v.m.deaths {
		if d.seat == v.seat {
			why = v.m.why(d)
		}
	}
	return fmt.Sprintf("Your country died in cycle %d: %s", c.Died, why)
}

// Suggest offers a person at a terminal, for Enter, an even split of their
// army over the flanks when they answer an attack: the default defence,
// which a slow player gets, leaves every soldier at home
// (player.Suggester).
func (v View) Suggest(req *engine.Request[Move]) (Move, string, bool) {
	army := v.m.world.Countries[v.seat].Stock[Army]
	if req.Kind != WarAnswerKind || army == 0 {
		return Move{}, "", false
	}
	return DefendMove(evenSplit(army)), fmt.Sprintf("your %d soldiers split over the flanks; the default, for the slow, sends none", army), true
}

// evenSplit splits army over the flanks, the odd soldiers at the front.
func evenSplit(army int64) Flanks {
	third := max(army, 0) / 3
	return Flanks{third, max(army, 0) - 2*third, third}
}

// defenceSyntax tells a person attacked what a defence is, with an example
// from their army: "a defence is three numbers: LEFT FRONT RIGHT, the
// soldiers you put on each flank; you have 10 (e.g. 3 4 3)".
func (v View) defenceSyntax() string {
	army := v.m.world.Countries[v.seat].Stock[Army]
	if army <= 0 {
		return "a defence is three numbers: LEFT FRONT RIGHT, the soldiers you put on each flank; you have none, so 0 0 0 (Enter plays it)"
	}
	f := evenSplit(army)
	return fmt.Sprintf("a defence is three numbers: LEFT FRONT RIGHT, the soldiers you put on each flank; you have %d (e.g. %d %d %d)", army, f[0], f[1], f[2])
}

// ChoiceName names a choice for a person (player.ChoiceNamer) as the
// offer asks it, "Accept? (yes or no)", and as tab completes it: an answer
// to a trade is yes or no, so that the choices and the prompt's default
// ("trade answer [yes]>") use the question's words. accept and decline are
// read too. Other moves are named by their text form.
func (v View) ChoiceName(mv Move) string {
	switch mv.Type {
	case Accept:
		return "yes"
	case Decline:
		return "no"
	}
	return mv.String()
}

// Parse reads a person's answer (player.Parser) as a move's text form
// (ParseMove); a country attacked is told what a defence is when its
// answer is none (an action, two numbers), one offered a trade that it
// answers yes or no, and one whose turn it is what the actions are.
func (v View) Parse(line string) (Move, error) {
	if m := v.m; m.phase == turnPhase && m.next == v.seat {
		others := func(verb string) string { return m.world.others(v.seat, verb, naming{players: m.players}) }
		return parseMove(line, actionWords, "it is your turn: "+actionSyntax, others)
	}
	mv, err := ParseMove(line)
	if _, attacked := v.Attack(); attacked && (err != nil || mv.Type != Defend) {
		return Move{}, fmt.Errorf("you are attacked: %s", v.defenceSyntax())
	}
	if _, offered := v.Offer(); offered && (err != nil || mv.Type != Accept && mv.Type != Decline) {
		return Move{}, fmt.Errorf("you are offered a trade: answer yes or no")
	}
	return mv, err
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
			return fmt.Errorf("you are attacked: %s", v.defenceSyntax())
		}
		return m.world.CheckDefence(v.seat, mv.Flanks)
	case !mv.Type.IsAction():
		return fmt.Errorf("it is your turn: %s", actionSyntax)
	}
	// A person names countries from 1 and never a seat from 0, which the
	// rules' refusal explains to programs.
	people := naming{players: m.players}
	n := len(m.world.Countries)
	switch {
	case mv.Type == Trade && (mv.With < 0 || mv.With >= n):
		return fmt.Errorf("trade with country %d: there is no country %d; countries are 1 to %d; %s", mv.With+1, mv.With+1, n, m.world.others(v.seat, "trade with", people))
	case mv.Type == War && (mv.Target < 0 || mv.Target >= n):
		return fmt.Errorf("attack country %d: there is no country %d; countries are 1 to %d; %s", mv.Target+1, mv.Target+1, n, m.world.others(v.seat, "attack", people))
	}
	return m.world.check(v.seat, mv, people)
}

const actionSyntax = "wait; recruit N; trade COUNTRY GIVE GIVE_N TAKE TAKE_N; war COUNTRY LEFT FRONT RIGHT"

// recent is how many cycles of history a view's JSON carries.
const recent = 2

// viewJSON is a view's JSON shape, for programs and training data: the
// world, the history of the last two cycles, and the question.
type viewJSON struct {
	You       int    `json:"you"`
	Cycle     int    `json:"cycle"`
	MaxCycles int    `json:"max_cycles"`
	Preset    string `json:"preset"`
	// Numbers are the preset's numbers (gold_for_war, the advantages, ...),
	// as a preset file writes them.
	Numbers   *Preset     `json:"numbers"`
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
// the preset's numbers, countries, the history of this cycle and the last ("recent"), and the
// offer or attack to answer.
func (v View) MarshalJSON() ([]byte, error) {
	m := v.m
	j := viewJSON{You: v.seat, Cycle: m.world.Cycle, MaxCycles: m.world.Preset.MaxCycles, Preset: cmp.Or(m.world.Preset.Name, "custom"), Numbers: &m.world.Preset}
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

// String shows the view to a person: the countries with their players,
// what happened in this cycle and the last, and the question. It fits 80
// columns.
func (v View) String() string {
	var b strings.Builder
	m := v.m
	fmt.Fprintf(&b, "Cycle %d of %d (%s preset). You are country %d.\n", m.world.Cycle, m.world.Preset.MaxCycles, engine.Printable(m.world.Preset.Name), v.seat+1)
	writeCountries(&b, &m.world, v.seat, m.players, wrap.Width)
	var events []string
	for i := range m.hist.len() {
		e := m.hist.entry(i)
		if e.Cycle > m.world.Cycle-recent && (e.Type != Wait || e.Refused != "") {
			events = append(events, fmt.Sprintf("cycle %d: %s", e.Cycle, e))
		}
	}
	if len(events) > 0 {
		fmt.Fprintln(&b, "Lately:")
		for _, s := range events {
			wrap.Write(&b, s, "  ", "    ", wrap.Width)
		}
	}
	switch {
	case m.phase == overPhase:
	case m.reqs[m.kind].Seat != v.seat:
	case m.phase == tradePhase:
		o, _ := v.Offer()
		wrap.Write(&b, fmt.Sprintf("Country %d offers you %d %v for %d of your %v. Accept? (yes or no)", o.From+1, o.GiveN, o.Give, o.TakeN, o.Take), "", "", wrap.Width)
	case m.phase == warPhase:
		a, _ := v.Attack()
		defend := "Defend with LEFT FRONT RIGHT, the soldiers on each flank"
		if army := m.world.Countries[v.seat].Stock[Army]; army > 0 {
			f := evenSplit(army)
			defend = fmt.Sprintf("You have %d. %s (e.g. %d %d %d).", army, defend, f[0], f[1], f[2])
		} else {
			defend = "You have no soldiers: your defence is 0 0 0 (Enter)."
		}
		wrap.Write(&b, fmt.Sprintf("Country %d attacks you with %d soldiers in all. %s", a.From+1, a.Sent, defend), "", "", wrap.Width)
	default:
		if warn := v.shortfall(); warn != "" {
			wrap.Write(&b, warn, "", "", wrap.Width)
		}
		fmt.Fprintf(&b, "Your turn, one action: wait; recruit N; trade COUNTRY GIVE GIVE_N TAKE TAKE_N;\nwar COUNTRY LEFT FRONT RIGHT. War costs %d gold.\n", m.world.Preset.GoldForWar)
	}
	return b.String()
}

// shortfall warns a person, at their turn, of what this cycle's production
// will do to their country if nothing else changes: that its food runs out
// and hunger kills citizens (the whole country, when none are left), or
// that its gold runs out and the army goes home. Production comes after
// every country's action, so an action of theirs (recruit −N) can still
// avert it; without a word they only see their food fall, then die. ""
// when production leaves them food and gold.
func (v View) shortfall() string {
	w := v.m.world.Clone()
	w.Produce()
	was, is := v.m.world.Countries[v.seat].Stock, w.Countries[v.seat].Stock
	p := &v.m.world.Preset
	var warns []string
	if is[Gold] == 0 && was[Army] > 0 {
		warns = append(warns, fmt.Sprintf("your gold runs out (your %d soldiers cost %d), and the army goes home as citizens", was[Army], p.GoldPerSoldier.Floor(was[Army])))
	}
	if is[Food] == 0 && p.HungerDeaths > 0 {
		died := fmt.Sprintf("hunger kills %d citizens", p.HungerDeaths)
		if w.Countries[v.seat].Dead {
			died = "hunger kills your last citizens: your country dies"
		}
		eat := ""
		if was[Army] > 0 {
			eat = fmt.Sprintf(" (your %d soldiers eat %d; recruit -N sends N home)", was[Army], p.FoodPerSoldier.Floor(was[Army]))
		}
		warns = append(warns, "your food runs out"+eat+", and "+died)
	}
	if len(warns) == 0 {
		return ""
	}
	return "Warning: at this cycle's production, if nothing changes, " + strings.Join(warns, "; ") + "."
}

// Help tells a person what they may answer now, and how a war is fought:
// a country attacked, its defence; one offered a trade, yes or no; else
// the actions.
func (v View) Help() string {
	p := &v.m.world.Preset
	if a, ok := v.Attack(); ok {
		army := v.m.world.Countries[v.seat].Stock[Army]
		f := evenSplit(army)
		return fmt.Sprintf(`Country %d attacks you with %d soldiers in all, split over three flanks
you are not told. Answer with your own three flanks: LEFT FRONT RIGHT, the
soldiers you put on each (whole numbers, 0 or more, at most your army of %d
in all), e.g. %d %d %d; those you keep home do not fight.
On each flank defenders fight with advantage %s, then the survivors meet and
attackers fight with advantage %s. Nobody left: a tie. A winning attacker
loots per survivor.
The whole rules: arbiter rules tncc.
`, a.From+1, a.Sent, army, f[0], f[1], f[2], p.DefendAdvantage, p.AttackAdvantage)
	}
	if o, ok := v.Offer(); ok {
		return fmt.Sprintf(`Country %d offers you %d %v for %d of your %v. Answer yes (both amounts
move at once) or no (its turn is spent either way).
The whole rules: arbiter rules tncc.
`, o.From+1, o.GiveN, o.Give, o.TakeN, o.Take)
	}
	return fmt.Sprintf(`Actions, one a turn:
  wait                      skip the turn
  recruit N                 N citizens become soldiers (N < 0: back home)
  trade C GIVE N TAKE M     offer country C N of GIVE for M of TAKE; one
                            side is gold; C answers yes or no at once
  war C LEFT FRONT RIGHT    attack country C with soldiers on three flanks;
                            costs %d gold, win or lose
Resources: gold, food, citizens, army, land. A war's defender answers with
its own three flanks, knowing only who attacks and with how many in all.
On each flank defenders fight with advantage %s, then the survivors meet and
attackers fight with advantage %s; a winning attacker loots per survivor.
Your score is the cycles your country survives; the last alive wins.
The whole rules and every preset's numbers: arbiter rules tncc.
`, p.GoldForWar, p.DefendAdvantage, p.AttackAdvantage)
}

// writeCountries writes a table of the countries: their players (when
// named), their resources, and whether they died. Country you, if ≥ 0, is
// marked. The table fits width columns: when amounts in full would pass
// it (a custom preset can take them to 2⁶³ − 1, 19 digits), those of more
// than six digits are shown in short (9.2E18), as wide as the heading
// "citizens" at most; a table that fits shows every amount whole.
func writeCountries(b *strings.Builder, w *World, you int, players []string, width int) {
	heads := [NumResources]string{"gold", "food", "citizens", "army", "land"}
	amounts := make([][NumResources]string, len(w.Countries))
	for i := range w.Countries {
		for r := range heads {
			amounts[i][r] = strconv.FormatInt(w.Countries[i].Stock[r], 10)
		}
	}
	names := make([]string, len(w.Countries))
	nameWidth := 0
	for i := range names {
		switch {
		case i == you:
			names[i] = "you"
		case i < len(players):
			names[i] = engine.DisplayName(players[i])
		}
		if wrap.Cells(names[i]) > 14 {
			names[i] = wrap.Head(names[i], 13) + "…"
		}
		nameWidth = max(nameWidth, wrap.Cells(names[i]))
	}
	head := "country"
	if nameWidth > 0 {
		head = wrap.PadRight("country", 3+nameWidth)
	}
	dead := func(c *Country) string {
		if !c.Dead {
			return ""
		}
		return fmt.Sprintf("  dead (cycle %d)", c.Died)
	}
	var widths [NumResources]int
	measure := func() (widest int) {
		for r, h := range heads {
			widths[r] = max(4, len(h))
			for i := range amounts {
				widths[r] = max(widths[r], len(amounts[i][r]))
			}
		}
		for i := range w.Countries {
			n := len(head) + len(dead(&w.Countries[i]))
			for r := range heads {
				n += 1 + widths[r]
			}
			widest = max(widest, n)
		}
		return widest
	}
	if measure() > width {
		for i := range amounts {
			for r := range heads {
				if len(amounts[i][r]) > 6 {
					amounts[i][r] = shortAmount(w.Countries[i].Stock[r])
				}
			}
		}
		measure()
	}
	b.WriteString(head)
	for r, h := range heads {
		fmt.Fprintf(b, " %*s", widths[r], h)
	}
	b.WriteByte('\n')
	for i := range w.Countries {
		c := &w.Countries[i]
		label := fmt.Sprintf("%2d", i+1)
		if nameWidth > 0 {
			label += " " + names[i]
		}
		b.WriteString(wrap.PadRight(label, len(head)))
		for r := range heads {
			fmt.Fprintf(b, " %*s", widths[r], amounts[i][r])
		}
		b.WriteString(dead(c))
		b.WriteByte('\n')
	}
}

// shortAmount writes an amount in two significant digits and a power of
// ten, as a calculator does: 9223372036854775807 is 9.2E18, 1250000 1.2E6.
// It is six characters at most.
func shortAmount(n int64) string {
	s := strconv.FormatFloat(float64(n), 'e', 1, 64) // 9.2e+18
	mant, exp, _ := strings.Cut(s, "e")
	return mant + "E" + strings.TrimLeft(strings.TrimPrefix(exp, "+"), "0")
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
