package tncc

import (
	"bytes"
	_ "embed"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
)

// The kinds of request a match makes.
const (
	TurnKind        engine.Kind = "turn"         // a country's action
	TradeAnswerKind engine.Kind = "trade answer" // yes or no to an offer
	WarAnswerKind   engine.Kind = "war answer"   // the defending flanks
)

// RulesVersion is written in every match record; it changes whenever a rule
// changes what a recorded game would replay to.
const RulesVersion = "1"

//go:embed rules.txt
var rulesText string

// Game is the TNCC ruleset: an engine.Ruleset. It plays the preset its
// "preset" option names (default: "default"), or a custom preset given as
// the option's JSON (see Preset.Option).
type Game struct{}

var info = engine.Info{
	Name:           "tncc",
	Title:          "TNCC: countries trade, recruit and go to war, one action a turn",
	Version:        RulesVersion,
	Score:          "cycles survived",
	MinSeats:       MinCountries,
	MaxSeats:       MaxCountries,
	Clock:          "cycle",
	DefaultPlayers: "nothing,turtle,war,blitz",
	Options: []engine.Option{
		{Name: "preset", Usage: "the numbers of the game: default, tribe, crazy, robot_army, mexican_standoff, decay, or a preset's JSON", Kind: engine.StringOption, Default: "default",
			File: "config", FileUsage: "a preset of your own in YAML: every key of the rules' table, or base: NAME and the keys to change",
			Load: loadPreset},
	},
	Presets:      PresetNames(),
	PresetValues: PresetValues(),
	Players:      roster.Names(),
	Rules:        rulesText + PresetTable(),
}

func loadPreset(data []byte) (string, error) {
	p, err := ReadPreset(bytes.NewReader(data))
	if err != nil {
		return "", err
	}
	return p.Option(), nil
}

// Info describes the game.
func (Game) Info() engine.Info { return info }

// New starts a match.
func (g Game) New(setup engine.Setup) (engine.Match[Move, View], error) { return g.NewMatch(setup) }

// NewMatch is New with the concrete type.
func (g Game) NewMatch(setup engine.Setup) (*Match, error) {
	inf := g.Info()
	if err := setup.Check(inf); err != nil {
		return nil, err
	}
	p, err := PresetOption(setup.Options["preset"])
	if err != nil {
		return nil, err
	}
	m := newMatch(NewWorld(p, setup.Seats()))
	m.players = setup.Players
	return m, nil
}

func newMatch(w World) *Match {
	m := &Match{world: w, reqs: requests(), living: w.Living()}
	n := len(w.Countries)
	m.hist.log = make([]logEntry, 0, min(n*w.Preset.MaxCycles+n, 160))
	m.hist.amounts = make([]int64, 0, 48)
	m.next = -1
	m.advance()
	return m
}

// phase is what a match waits for.
type phase uint8

const (
	turnPhase phase = iota
	tradePhase
	warPhase
	overPhase
)

// Match is a TNCC match under way: an engine.Match. Every cycle each living
// country takes one turn in seat order, then production runs. A trade asks
// its partner to answer, and a war its defender, before the next turn.
type Match struct {
	world   World
	phase   phase
	next    int  // the seat whose turn it is
	action  Move // the action waiting for its answer
	hist    history
	reqs    [3]engine.Request[Move] // by kind: turnRequest, ...
	kind    int                     // the kind of request open now
	serial  int64
	refused string // why this turn's action was refused, when its default is applied (Defaulted)
	deaths  []death
	buried  uint16 // bit i: country i's death is in deaths
	living  int    // living countries, as last counted
	reason  string
	last    int // the cycle the game ended in, once it is over
	result  engine.Result
	players []string // each seat's player, for people
	// shown is the copy of the preset View.Preset hands out, so that a
	// player that writes into it changes nothing of the game; made at its
	// first call (the built-in players read the match's own), and never
	// shared with a clone.
	shown *Preset
}

// World returns the state of the game now. It is the match's own: do not
// change it.
func (m *Match) World() *World { return &m.world }

// Pending returns the one decision owed: a turn, or an answer.
func (m *Match) Pending() []engine.Request[Move] {
	if m.phase == overPhase {
		return nil
	}
	return m.reqs[m.kind : m.kind+1]
}

// TurnOf returns the country whose turn it is, while its action or the
// answer it waits for is owed: everyone may know whose turn it is, not
// that another country owes an answer to a trade or a war.
func (m *Match) TurnOf() (seat int, ok bool) {
	if m.phase == overPhase {
		return 0, false
	}
	return m.next, true
}

// Owed returns, while a country's trade or war waits for its answer, the
// country that offered it and the country that owes the answer: nobody
// else is told that the offer was made until it is answered (TurnOf, the
// turn under way, says nothing of it).
func (m *Match) Owed() (from, to int, ok bool) {
	if m.phase != tradePhase && m.phase != warPhase {
		return 0, 0, false
	}
	return m.next, m.reqs[m.kind].Seat, true
}

func (m *Match) ask(seat int, kind int) {
	m.serial++
	m.kind = kind
	r := &m.reqs[kind]
	r.ID, r.Seat = m.serial, seat
}

// The requests a match makes, by kind: only their ID and seat change, so
// asking writes two numbers.
const (
	turnRequest = iota
	tradeRequest
	warRequest
)

func requests() [3]engine.Request[Move] {
	return [3]engine.Request[Move]{
		turnRequest:  {Kind: TurnKind, Default: WaitMove, Class: engine.Ordinary},
		tradeRequest: {Kind: TradeAnswerKind, Default: AcceptMove, Choices: tradeAnswers, Class: engine.Reply},
		warRequest:   {Kind: WarAnswerKind, Default: DefendMove(Flanks{}), Class: engine.Reply},
	}
}

var tradeAnswers = []Move{AcceptMove, DeclineMove}

// Apply validates and applies seat's move: the action of its turn, or its
// answer to an offer or an attack.
func (m *Match) Apply(seat int, mv Move) error {
	w := &m.world
	if m.phase == overPhase {
		return engine.Refuse("over", "the game is over")
	}
	if asked := m.reqs[m.kind].Seat; seat != asked {
		return engine.Refuse("not-asked", "it is country %d's move (%s), not country %d's", asked+1, m.reqs[m.kind].Kind, seat+1)
	}
	switch m.phase {
	case tradePhase:
		if mv.Type != Accept && mv.Type != Decline {
			return engine.Refuse("answer", `answer the trade offer with accept or decline ({"accept": true} or {"accept": false}; yes or no at a prompt), not %v`, mv.Type)
		}
		w.Trade(m.next, m.action, mv.Type == Accept)
		m.hist.trade(w.Cycle, m.next, m.action, mv.Type == Accept)
		m.done()
		return nil
	case warPhase:
		if mv.Type != Defend {
			return engine.Refuse("answer", `answer the war with your defending flanks ({"flanks": [LEFT, FRONT, RIGHT]}; defend LEFT FRONT RIGHT at a prompt), not %v`, mv.Type)
		}
		if err := w.CheckDefence(seat, mv.Flanks); err != nil {
			return err
		}
		m.hist.war(w.Cycle, m.next, w.War(m.next, m.action, mv.Flanks))
		m.done()
		return nil
	}
	if !mv.Type.IsAction() {
		return engine.Refuse("not-action", "it is your turn: play an action, not %s: %s (%s at a prompt)", answerOf(mv.Type), kindShapes[TurnKind].forms, actionSyntax)
	}
	if err := w.check(seat, mv, naming{players: m.players, seats: true}); err != nil {
		return err
	}
	switch mv.Type {
	case Wait:
		m.hist.wait(w.Cycle, seat, m.refused)
	case Recruit:
		w.Recruit(seat, mv.N)
		m.hist.recruit(w.Cycle, seat, mv.N)
	case Trade:
		m.action, m.phase = mv, tradePhase
		m.ask(mv.With, tradeRequest)
		return nil
	case War:
		m.action, m.phase = mv, warPhase
		m.ask(mv.Target, warRequest)
		return nil
	}
	m.done()
	return nil
}

// answerOf names an answer played where an action is asked: "an answer to
// a trade offer (accept)".
func answerOf(t MoveType) string {
	if t == Defend {
		return "an answer to a war (defend)"
	}
	return fmt.Sprintf("an answer to a trade offer (%v)", t)
}

// Defaulted notes why the action of the country whose turn it is was
// refused, when the default wait replaces it (engine.Defaulter): the
// history's wait says so, as everyone may be told (Told). Other faults,
// and answers, leave no note.
func (m *Match) Defaulted(seat int, f engine.Fault) {
	if f.Kind == engine.FaultIllegal && m.phase == turnPhase && seat == m.next {
		m.refused = Told(f.Detail)
	}
}

func offerOf(seat int, mv Move) Offer {
	return Offer{From: seat, With: mv.With, Give: mv.Give, GiveN: mv.GiveN, Take: mv.Take, TakeN: mv.TakeN}
}

// done ends the turn of m.next: the game may be over; else the next living
// country's turn comes, or production.
func (m *Match) done() {
	m.refused = ""
	if m.counted(byAction) <= 1 {
		m.end(m.world.Cycle)
		return
	}
	m.advance()
}

// counted counts the living countries, noting any new deaths, which came
// about as how says.
func (m *Match) counted(how deathCause) int {
	if n := m.world.Living(); n != m.living {
		m.living = n
		m.noteDeaths(how)
	}
	return m.living
}

// advance gives the turn to the next living country after m.next in this
// cycle or, when none is left, runs production and starts the next cycle.
func (m *Match) advance() {
	w := &m.world
	for s := m.next + 1; s < len(w.Countries); s++ {
		if !w.Countries[s].Dead {
			m.next, m.phase = s, turnPhase
			m.ask(s, turnRequest)
			return
		}
	}
	if m.next >= 0 {
		w.Produce()
		if m.counted(byProduction) <= 1 || w.Cycle > w.Preset.MaxCycles {
			m.end(w.Cycle - 1) // the cycle whose production was the last
			return
		}
	}
	m.next = -1
	m.advance()
}

// death is a country's death, after the history's first at entries.
type death struct {
	at, seat, cycle int
	how             deathCause
}

// deathCause is what killed a country, as far as the match knows: the
// action before the death (the history's entry at-1), or the cycle's
// production. A match restored from a snapshot or sampled does not know.
type deathCause uint8

const (
	unknownCause deathCause = iota
	byAction
	byProduction
)

// noteDeaths notes the countries that died since it was last called, of
// cause how.
func (m *Match) noteDeaths(how deathCause) {
	for i := range m.world.Countries {
		if c := &m.world.Countries[i]; c.Dead && m.buried&(1<<i) == 0 {
			m.buried |= 1 << i
			m.deaths = append(m.deaths, death{at: m.hist.len(), seat: i, cycle: c.Died, how: how})
		}
	}
}

// why says to the person of the dead country d what killed it.
func (m *Match) why(d death) string {
	switch {
	case d.how == byProduction:
		switch c := &m.world.Countries[d.seat]; {
		case c.Stock[Land] == 0:
			return "the cycle's production found you no land to live on: wars took it all"
		case c.Stock[Food] == 0:
			return "the cycle's production found you no food: hunger took your last citizens"
		}
		return "the cycle's production left you no citizens (hunger, or an army that leaves no room for them on your land)"
	case d.how != byAction || d.at == 0:
		return "it had no citizens left"
	}
	e := m.hist.entry(d.at - 1)
	switch {
	case e.Type == War && e.Battle.Defender == d.seat && e.Battle.Outcome == AttackerWon:
		return fmt.Sprintf("country %d won a war against you and took your last citizens", e.Seat+1)
	case e.Type == Recruit && e.Seat == d.seat:
		return "you sent your last citizens to the army"
	case e.Type == Trade && e.Accepted:
		return "a trade took your last citizens"
	}
	return "it had no citizens left, after " + e.String()
}

// Chronicle tells the game's public story: every trade and war, every
// refused action, and every death, in order. Wars are marked on charts.
func (m *Match) Chronicle() []engine.Event {
	var out []engine.Event
	d := 0
	emitDeaths := func(upTo int) {
		for ; d < len(m.deaths) && m.deaths[d].at <= upTo; d++ {
			x := m.deaths[d]
			out = append(out, engine.Event{Clock: x.cycle, Kind: "death", Text: fmt.Sprintf("country %d died", x.seat+1), Seats: []int{x.seat}})
		}
	}
	for i := range m.hist.len() {
		e := m.hist.entry(i)
		emitDeaths(i)
		switch {
		case e.Type == Trade:
			out = append(out, engine.Event{Clock: e.Cycle, Kind: "trade", Text: e.String(), Seats: []int{e.Seat, e.Offer.With}})
		case e.Type == War:
			b, _ := e.War()
			out = append(out, engine.Event{Clock: e.Cycle, Kind: "war", Text: e.String(), Seats: []int{b.Attacker, b.Defender}, Mark: true})
		case e.Refused != "":
			out = append(out, engine.Event{Clock: e.Cycle, Kind: "refused", Text: e.String(), Seats: []int{e.Seat}})
		}
	}
	emitDeaths(m.hist.len())
	return out
}

// end ranks the countries when the game ends in cycle last: the living
// share first place; the dead rank below them, later deaths above earlier
// ones, deaths in the same cycle sharing a rank. A country's score is the
// cycles it took part in: for the living, every cycle of the game; for the
// dead, the cycles before the one it died in.
func (m *Match) end(last int) {
	w := &m.world
	m.phase, m.last = overPhase, last
	switch n := w.Living(); {
	case n == 1:
		m.reason = "one country left"
	case n == 0:
		m.reason = "every country is dead"
	default:
		m.reason = "max_cycles played"
	}
	k := len(w.Countries)
	res := engine.Result{Scores: make([]int64, k), Winners: []int{}, Reason: m.reason}
	for i := range w.Countries {
		c := &w.Countries[i]
		if c.Dead {
			res.Scores[i] = int64(c.Died - 1)
			if res.Status == nil {
				res.Status = make([]string, k)
			}
			res.Status[i] = fmt.Sprintf("dead (cycle %d)", c.Died)
		} else {
			res.Scores[i] = int64(last)
			res.Winners = append(res.Winners, i)
		}
	}
	res.Ranks = engine.CompetitionRanks(k, func(i, j int) bool {
		a, b := &w.Countries[i], &w.Countries[j]
		if a.Dead != b.Dead {
			return !a.Dead
		}
		return a.Dead && a.Died > b.Died
	})
	m.result = res
}

// View returns what seat may know now.
func (m *Match) View(seat int) View { return View{m: m, seat: seat} }

// Over reports whether the game has ended.
func (m *Match) Over() bool { return m.phase == overPhase }

// Result returns the ranking.
func (m *Match) Result() engine.Result { return m.result }

// History returns the public history so far.
func (m *Match) History() []Entry {
	out := make([]Entry, m.hist.len())
	for i := range out {
		out[i] = m.hist.entry(i)
	}
	return out
}

// Clock is the number of cycles played: 0 at the start, c once cycle c's
// production has run; once the game is over, the cycle it ended in.
func (m *Match) Clock() int {
	if m.phase == overPhase {
		return m.last
	}
	return m.world.Cycle - 1
}

var measures = []engine.Measure{
	{Name: "gold", PerSeat: true}, {Name: "food", PerSeat: true}, {Name: "citizens", PerSeat: true},
	{Name: "army", PerSeat: true}, {Name: "land", PerSeat: true},
}

// Measures names the numbers a chart shows: each country's five resources.
func (m *Match) Measures() []engine.Measure { return measures }

// Measure returns resource k of seat's country.
func (m *Match) Measure(k, seat int) float64 { return float64(m.world.Countries[seat].Stock[k]) }

// Public returns what a spectator may know now: the world, and what
// happened in the last cycle played. Never an open war's flanks.
func (m *Match) Public() any { return newPublic(m) }
