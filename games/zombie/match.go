package zombie

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/arbiter-games/arbiter/engine"
)

// RulesVersion is written in every match record; it changes whenever a rule
// changes what a recorded game would replay to.
const RulesVersion = "1"

// MinSeats and MaxSeats bound the seats of `arbiter play zombie`.
const (
	MinSeats = 3
	MaxSeats = 64
)

// PlanKind is the kind of every request of a match: a seat's plan for the
// turn.
const PlanKind engine.Kind = "plan"

//go:embed rules.txt
var rulesText string

// Game is the Zombie Game as an engine.Ruleset: the judge's rules with bots
// in the seats. Seats are named P1, P2, … in the judge's roster (and its
// script and the record's result); people read a seat by the name its
// person was given, where it has one (see Match.PlayerName). The zombies
// are drawn from the match seed by DrawZombies. Its options are
// zombies (how many), turns (max_turns), antibodies and viruses (every
// human's and every zombie's at the start).
type Game struct{}

var info = engine.Info{
	Name:           "zombie",
	Title:          "Zombie: a hidden-role party game of antibodies and an infection nobody is told about",
	Version:        RulesVersion,
	Score:          "1 for a winner, 0 otherwise",
	MinSeats:       MinSeats,
	MaxSeats:       MaxSeats,
	Clock:          "turn",
	DefaultPlayers: "sensible,sensible,sensible,sensible,sensible",
	Options: []engine.Option{
		{Name: "zombies", Usage: "how many seats are drawn as zombies (at most the seats - 2)", Kind: engine.IntOption, Default: "1", Min: 1, Max: MaxSeats - 2,
			SeatMax: func(seats int) int { return seats - 2 }, SeatWhy: "so that at least 2 humans play"},
		{Name: "turns", Usage: "the turns a game lasts at most (max_turns)", Kind: engine.IntOption, Default: strconv.Itoa(DefaultMaxTurns), Min: 1, Max: TurnLimit},
		{Name: "antibodies", Usage: "every human's antibodies at the start", Kind: engine.IntOption, Default: "0", Min: 0, Max: MaxCount},
		{Name: "viruses", Usage: "every zombie's viruses at the start", Kind: engine.IntOption, Default: "0", Min: 0, Max: MaxCount},
	},
	Players: roster.Names(),
	Rules:   rulesText,
}

// Info describes the game.
func (Game) Info() engine.Info { return info }

// New starts a match.
func (g Game) New(setup engine.Setup) (engine.Match[Plan, View], error) { return g.NewMatch(setup) }

// NewMatch is New with the concrete type: the roster P1…Pn with the zombies
// drawn from the seed, and GAME_START with the options' numbers.
func (Game) NewMatch(setup engine.Setup) (*Match, error) {
	if err := setup.Check(info); err != nil {
		return nil, err
	}
	var opt [4]int
	for i, name := range []string{"zombies", "turns", "antibodies", "viruses"} {
		v, err := setup.Int(info, name)
		if err != nil {
			return nil, err
		}
		opt[i] = v
	}
	n := setup.Seats() // opt[0] is at most n-2 (the option's SeatMax)
	m := &Match{judge: NewJudge(), rng: engine.NewRNG(setup.Seed), order: make([]int, n), n: n, seed: setup.Seed, entrants: setup.Players,
		names: seatNames(setup.Players), plans: make([]Plan, n), planned: make([]bool, n), used: make([][]bool, n), reqs: make([]engine.Request[Plan], n)}
	for i := range m.order {
		m.order[i] = i
	}
	for i, z := range drawZombies(m.rng, n, opt[0]) {
		c := HumanCommand(SeatName(i))
		if z {
			c = ZombieCommand(SeatName(i))
		}
		if err := m.do(c); err != nil {
			return nil, err
		}
	}
	if err := m.do(StartCommand(int64(opt[1]), int64(opt[2]), int64(opt[3]))); err != nil {
		return nil, err
	}
	for s := range m.reqs {
		m.reqs[s] = engine.Request[Plan]{Seat: s, Kind: PlanKind, Default: Plan{Touch: []Contact{{With: (s + 1) % n}}}}
	}
	m.open()
	return m, nil
}

// Match is a Zombie Game under way: an engine.Match. Every turn each seat
// plans its turn (all seats at once, each seeing only its own PRIVATE lines
// and the PUBLIC lines); when the last plan is in, the match draws the
// turn's order of the seats from its generator (a shuffle, so that no seat
// is first by its place at the table), turns the plans into script
// commands, in this order, and the judge applies them:
//
//  1. Cures first: every seat that asked, in the turn's order (CURE).
//  2. Interactions, in rounds: in round r every seat, in the turn's order,
//     makes its r-th contact (INTERACT), unless either player has ended the turn
//     or the pair has met this turn. The partner brings the modifier of its
//     own contact with this seat if it asked for one (that contact is then
//     made), else its guard. A modifier its player can no longer pay for
//     (antibodies or viruses spent or lost earlier in the turn) is dropped,
//     and the contact goes ahead without it. Right after a seat's last
//     contact it cures if it asked to cure last, and ends the turn
//     (END_TURN) if it asked to and the rules allow it.
//  3. Every seat still without an interaction is paired, in the turn's
//     order, with the next seat after it in that order that has not ended
//     the turn, both with their guards (R23 guarantees there is one).
//  4. NEXT_TURN, unless the last END_TURN has already ended the turn.
//
// The match keeps these commands as the game's script (see Script), so a
// record converts to a game.txt that Run judges to the same output.
type Match struct {
	judge    *Judge
	rng      *rand.PCG // the match's generator: the zombies, then each turn's order
	order    []int     // the seats in this turn's order
	n        int
	seed     uint64
	entrants []string
	names    []string // the seats' names for people (see seatNames)
	plans    []Plan
	planned  []bool
	used     [][]bool // per seat and contact: made already this turn
	waiting  int      // seats yet to plan this turn
	reqs     []engine.Request[Plan]
	serial   int64
	cmds     []Command
	turnAt   []int // the index in cmds where each turn's commands start
	result   engine.Result
}

// do applies a command the match issues and keeps it for the script.
func (m *Match) do(c Command) error {
	if err := m.judge.Do(c); err != nil {
		return fmt.Errorf("zombie: the match issued %q, which the judge refused: %w", c, err)
	}
	m.cmds = append(m.cmds, c)
	return nil
}

// open asks every seat for its plan for the turn now open.
func (m *Match) open() {
	for s := range m.reqs {
		m.serial++
		m.reqs[s].ID = m.serial
		m.planned[s] = false
	}
	m.waiting = m.n
}

// Judge returns the match's judge. It is the match's own: read it, never
// change it.
func (m *Match) Judge() *Judge { return m.judge }

// Pending returns the plans owed for the turn: one request per seat that
// has not planned yet, all simultaneous.
func (m *Match) Pending() []engine.Request[Plan] {
	if m.judge.Phase() != InProgress {
		return nil
	}
	if m.waiting == m.n {
		return m.reqs
	}
	var out []engine.Request[Plan]
	for s := range m.reqs {
		if !m.planned[s] {
			out = append(out, m.reqs[s])
		}
	}
	return out
}

// Apply takes seat's plan for the turn. When it is the last plan owed, the
// turn is played (see Match).
func (m *Match) Apply(seat int, p Plan) error {
	if m.judge.Phase() != InProgress {
		return engine.Refuse("over", "the game is over")
	}
	if seat < 0 || seat >= m.n {
		return engine.Refuse("no-seat", "there is no seat %d; the seats are 0 to %d", seat, m.n-1)
	}
	if m.planned[seat] {
		return engine.Refuse("planned", "%s has already planned turn %d", m.who(seat), m.judge.Turn())
	}
	if err := m.check(seat, p, false); err != nil {
		return err
	}
	m.plans[seat] = p.clone()
	m.planned[seat] = true
	m.waiting--
	if m.waiting > 0 {
		return nil
	}
	if err := m.play(); err != nil {
		return err
	}
	if m.judge.Phase() == Over {
		m.finish()
		return nil
	}
	m.open()
	return nil
}

// check says why seat may not make plan p now, from what the seat knows:
// its own identity and counts. For a person at a terminal (person), who
// writes plans in P1, P2, …, the players are named so alone; otherwise a
// refusal names them by their seat from 0 too, as a plan's JSON does.
func (m *Match) check(seat int, p Plan, person bool) error {
	who := m.who
	if person {
		who = m.called
	}
	me := m.judge.Player(seat)
	zombie := me.State == Zombie
	if len(p.Touch) == 0 {
		return engine.Refuse("no-contact", "touch at least one player: every player interacts at least once a turn")
	}
	if len(p.Touch) > m.n-1 {
		return engine.Refuse("contacts", "%d contacts; there are only %d other players", len(p.Touch), m.n-1)
	}
	var precautions, viruses int64
	seen := make([]bool, m.n)
	for _, c := range p.Touch {
		switch {
		case (c.With < 0 || c.With >= m.n) && person:
			return engine.Refuse("no-seat", "%s", m.noPlayer(c.With))
		case c.With < 0 || c.With >= m.n:
			return engine.Refuse("no-seat", "%s", m.noSeat(c.With))
		case c.With == seat && person:
			return engine.Refuse("self", "you (%s) cannot touch yourself; touch another player", who(seat))
		case c.With == seat:
			return engine.Refuse("self", "%s cannot touch themself; touch another seat", who(seat))
		case seen[c.With]:
			return engine.Refuse("twice", "%s is named twice; a pair interacts at most once a turn", who(c.With))
		}
		seen[c.With] = true
		if err := checkOwnModifier(c.Modifier, zombie, "with "+who(c.With)); err != nil {
			return err
		}
		if c.Precaution {
			precautions++
		}
		viruses += c.Viruses
	}
	if err := checkOwnModifier(p.Guard, zombie, "as a guard"); err != nil {
		return err
	}
	cures := int64(0)
	for _, cure := range []bool{p.CureFirst, p.CureLast} {
		if cure {
			cures++
		}
	}
	switch {
	case zombie && cures > 0:
		return engine.Refuse("zombie-cure", "you are a zombie: zombies cannot cure")
	case precautions+cures > me.Antibodies:
		return engine.Refuse("antibodies", "%s and %s cost %s; you have %d", counted(precautions, "precaution", "precautions"), counted(cures, "cure", "cures"), counted(precautions+cures, "antibody", "antibodies"), me.Antibodies)
	case viruses > me.Viruses:
		return engine.Refuse("viruses", "the plan applies %s; you have %d", counted(viruses, "virus", "viruses"), me.Viruses)
	}
	return nil
}

// counted writes n with its noun, one or many: "1 antibody", "0 cures",
// "2 viruses".
func counted[N int | int64](n N, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func checkOwnModifier(mod Modifier, zombie bool, where string) error {
	switch {
	case mod.Precaution && mod.Viruses != 0:
		return engine.Refuse("modifier", "one modifier per side %s: precaution or viruses, not both", where)
	case mod.Viruses < 0 || mod.Viruses > MaxCount:
		return engine.Refuse("modifier", "%d viruses %s; a zombie applies 1 to %d", mod.Viruses, where, MaxCount)
	case mod.Precaution && zombie:
		return engine.Refuse("zombie-precaution", "precaution %s: you are a zombie, and zombies cannot apply precaution", where)
	case mod.Viruses > 0 && !zombie:
		return engine.Refuse("human-viruses", "viruses %s: you are human, and only zombies apply viruses", where)
	}
	return nil
}

// play turns the plans of the turn into commands (see Match).
func (m *Match) play() error {
	j := m.judge
	turn := j.Turn()
	m.turnAt = append(m.turnAt, len(m.cmds))
	closed := func() bool { return j.Phase() != InProgress || j.Turn() != turn }
	// The turn's order: a Fisher–Yates shuffle drawn from the match's
	// generator.
	for i := m.n - 1; i > 0; i-- {
		k := int(engine.Below(m.rng, uint64(i+1)))
		m.order[i], m.order[k] = m.order[k], m.order[i]
	}
	// 1. Cures first.
	for _, s := range m.order {
		if m.plans[s].CureFirst && m.affords(s, Precaution) {
			if err := m.do(CureCommand(SeatName(s))); err != nil {
				return err
			}
		}
	}
	// 2. Contacts, in rounds.
	longest := 0
	for s := range m.plans {
		longest = max(longest, len(m.plans[s].Touch))
		m.used[s] = append(m.used[s][:0], make([]bool, len(m.plans[s].Touch))...)
	}
	for r := range longest {
		for _, s := range m.order {
			p := &m.plans[s]
			if r >= len(p.Touch) {
				continue
			}
			if !m.used[s][r] {
				if err := m.contact(s, r); err != nil {
					return err
				}
			}
			if r == len(p.Touch)-1 {
				if err := m.close(s); err != nil {
					return err
				}
				if closed() {
					return nil
				}
			}
		}
	}
	// 3. Nobody is left without an interaction.
	for at, q := range m.order {
		if j.Partners(q) > 0 {
			continue
		}
		for k := 1; k < m.n; k++ {
			p := m.order[(at+k)%m.n]
			if j.Ended(p) {
				continue
			}
			x := Side{Name: SeatName(q), Modifier: m.afford(q, m.plans[q].Guard)}
			y := Side{Name: SeatName(p), Modifier: m.afford(p, m.plans[p].Guard)}
			if err := m.do(InteractCommand(x, y)); err != nil {
				return err
			}
			break
		}
	}
	// 4. The end of the turn.
	if closed() {
		return nil
	}
	return m.do(NextTurnCommand)
}

// contact makes seat s's r-th contact, if it can still be made.
func (m *Match) contact(s, r int) error {
	j := m.judge
	c := m.plans[s].Touch[r]
	q := c.With
	m.used[s][r] = true
	if j.Ended(s) || j.Ended(q) || j.Met(s, q) {
		return nil
	}
	theirs := m.plans[q].Guard
	for k, back := range m.plans[q].Touch {
		if back.With == s {
			theirs = back.Modifier
			m.used[q][k] = true
			break
		}
	}
	x := Side{Name: SeatName(s), Modifier: m.afford(s, c.Modifier)}
	y := Side{Name: SeatName(q), Modifier: m.afford(q, theirs)}
	return m.do(InteractCommand(x, y))
}

// close is what seat s does right after its last contact: cure last, end
// the turn, as it asked and as the rules allow.
func (m *Match) close(s int) error {
	p := &m.plans[s]
	if p.CureLast && m.affords(s, Precaution) {
		if err := m.do(CureCommand(SeatName(s))); err != nil {
			return err
		}
	}
	if p.End {
		c := EndTurnCommand(SeatName(s))
		if m.judge.Do(c) == nil {
			m.cmds = append(m.cmds, c)
		}
	}
	return nil
}

// affords reports whether seat s can pay for mod now; a cure costs what a
// precaution does.
func (m *Match) affords(s int, mod Modifier) bool {
	p := m.judge.Player(s)
	switch {
	case mod.Precaution:
		return p.State != Zombie && p.Antibodies >= 1
	case mod.Viruses > 0:
		return p.State == Zombie && p.Viruses >= mod.Viruses
	}
	return true
}

// afford returns mod if seat s can pay for it now, else no modifier.
func (m *Match) afford(s int, mod Modifier) Modifier {
	if m.affords(s, mod) {
		return mod
	}
	return Modifier{}
}

// finish makes the engine's result from the judge's (see judgedResult);
// seat i is the roster's player i.
func (m *Match) finish() {
	roster := make([]int, m.n)
	for i := range roster {
		roster[i] = i
	}
	m.result = judgedResult(m.judge, roster)
}

// judgedResult is an engine result of the judge's, for the seats whose
// players are roster[seat] (-1: not in the game). Winners score 1 and the
// others 0. When the zombies win, the seats that started as zombies win
// (everyone else was turned); a last survivor wins alone; at max turns
// every non-zombie wins. Ranks: winners first, and at max turns the
// non-zombies by antibodies (1, 2, 2, 4). Status marks every zombie, with
// the turn it was turned in; it never says infected.
func judgedResult(j *Judge, roster []int) engine.Result {
	n := len(roster)
	r := j.Result()
	res := engine.Result{Scores: make([]int64, n), Winners: []int{}, Status: make([]string, n)}
	won := make([]bool, n)
	antibodies := make([]int64, n)
	for seat, i := range roster {
		if i < 0 {
			continue
		}
		p := &j.players[i]
		antibodies[seat] = p.Antibodies
		switch r.Outcome {
		case ZombiesWin:
			won[seat] = p.from == Zombie
		case HumansWinSurvivor:
			won[seat] = i == r.Survivor
		case HumansWinMaxTurns:
			won[seat] = p.State != Zombie
		}
		switch {
		case p.State == Zombie && p.from == Zombie:
			res.Status[seat] = "zombie from the start"
		case p.State == Zombie:
			res.Status[seat] = "zombie since turn " + strconv.Itoa(p.turned)
		}
	}
	for seat, w := range won {
		if w {
			res.Winners = append(res.Winners, seat)
			res.Scores[seat] = 1
		}
	}
	res.Ranks = engine.CompetitionRanks(n, func(a, b int) bool {
		if won[a] != won[b] {
			return won[a]
		}
		return r.Outcome == HumansWinMaxTurns && won[a] && antibodies[a] > antibodies[b]
	})
	switch r.Outcome {
	case ZombiesWin:
		res.Reason = "zombies win: every player is a zombie"
	case HumansWinSurvivor:
		res.Reason = "humans win: " + j.players[r.Survivor].Name + " is the last survivor"
	case HumansWinMaxTurns:
		res.Reason = "humans win: max_turns played"
	}
	return res
}

// View returns what seat may know now: its own PRIVATE lines and the PUBLIC
// lines.
func (m *Match) View(seat int) View { return View{m: m, seat: seat} }

// Overseen is every player's true state, for the judge's eyes only
// (engine.Overseer): human, infected or zombie, with their antibodies
// and viruses. Nobody is told they are infected; the judge is.
func (m *Match) Overseen() any {
	out := make([]stateJSON, m.n)
	for s := range out {
		p := m.judge.Player(s)
		out[s] = stateJSON{Name: m.name(s), State: p.State.String(), Antibodies: p.Antibodies, Viruses: p.Viruses}
	}
	return out
}

// Over reports whether the game has ended.
func (m *Match) Over() bool { return m.judge.Phase() == Over }

// Result returns the result (see finish).
func (m *Match) Result() engine.Result { return m.result }

// Transcript returns the judge's output so far: what `arbiter zombie run`
// prints for the match's script.
func (m *Match) Transcript() *Transcript { return m.judge.Transcript() }

// Clock is the number of turns ended.
func (m *Match) Clock() int {
	if m.judge.Phase() == Over {
		return m.judge.Turn()
	}
	return m.judge.Turn() - 1
}

var measures = []engine.Measure{{Name: "zombies"}, {Name: "humans"}, {Name: "most antibodies"}, {Name: "most viruses"}}

// Measures names the public numbers a chart shows: the last announcement's.
func (m *Match) Measures() []engine.Measure { return measures }

// Measure returns public number k of the last announcement.
func (m *Match) Measure(k, _ int) float64 {
	a := m.lastPublic()
	if a.Turn == 0 && k >= 2 {
		// The start tells no highest antibodies or viruses (R6); they
		// are every player's own at the start, which the game's options
		// make public: no turn has changed them yet.
		var top int64
		for i := range m.n {
			p := m.judge.Player(i)
			v := p.Viruses
			if k == 2 {
				v = p.Antibodies
			}
			top = max(top, v)
		}
		return float64(top)
	}
	switch k {
	case 0:
		return float64(a.Zombies)
	case 1:
		return float64(a.Humans)
	case 2:
		return float64(a.MaxAntibodies)
	case 3:
		return float64(a.MaxViruses)
	}
	return 0
}

// lastPublic returns the latest PUBLIC announcement.
func (m *Match) lastPublic() Announcement {
	ev := m.judge.Events()
	for i := len(ev) - 1; i >= 0; i-- {
		if ev[i].Kind == Announced {
			return announcement(&ev[i])
		}
	}
	return Announcement{}
}

// Public returns what a spectator may know: the last announcement, and the
// result once the game is over.
func (m *Match) Public() any {
	p := Public{Announcement: m.lastPublic(), MaxTurns: m.judge.MaxTurns()}
	if m.judge.Phase() == Over {
		t := m.transcript()
		for i := range t.Events {
			if t.Events[i].Kind == Ended {
				p.Result = t.Line(&t.Events[i])
			}
		}
	}
	return p
}

// Public is what a spectator of a match may know: the last PUBLIC
// announcement, and the GAME OVER line once there is one.
type Public struct {
	Announcement
	MaxTurns int64  `json:"max_turns"`
	Result   string `json:"result,omitempty"`
}

// MarshalJSON writes the announcement (Announcement.MarshalJSON), then
// "max_turns" and "result".
func (p Public) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		announcedJSON
		MaxTurns int64  `json:"max_turns"`
		Result   string `json:"result,omitempty"`
	}{p.Announcement.asJSON(), p.MaxTurns, p.Result})
}

// String writes the announcement for people.
func (p Public) String() string {
	s := "at the start: "
	if p.Turn > 0 {
		s = fmt.Sprintf("after turn %d of %d: ", p.Turn, p.MaxTurns)
	}
	s += howMany(p.Zombies, "zombie", "zombies") + ", " + howMany(p.Humans, "human", "humans")
	if p.Turn > 0 {
		s += fmt.Sprintf("; most antibodies %d, most viruses %d", p.MaxAntibodies, p.MaxViruses)
	}
	s += "\n"
	if p.Result != "" {
		s += p.Result + "\n"
	}
	return s
}

func howMany(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Chronicle returns the public story so far: each PUBLIC announcement, in
// words, at the turn it closes, and the GAME OVER line once there is one.
func (m *Match) Chronicle() []engine.Event {
	var out []engine.Event
	ev := m.judge.Events()
	turn := 0 // the turn the events so far close
	for i := range ev {
		e := &ev[i]
		switch e.Kind {
		case Announced, TurnEnded:
			turn = e.Turn
			if e.Kind == Announced {
				out = append(out, engine.Event{Clock: turn, Kind: "announced", Text: announced(e)})
			}
		case Ended:
			out = append(out, engine.Event{Clock: turn, Kind: "over", Text: m.transcript().Line(e), Mark: true})
		}
	}
	return out
}

// announced words a PUBLIC announcement for people, beside the turn it
// closes: "1 zombie, 4 humans at the start", "3 zombies, 2 humans; most
// antibodies 1, most viruses 2".
func announced(e *Event) string {
	plural := func(n int64, one, many string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.FormatInt(n, 10) + " " + many
	}
	counts := plural(int64(e.Zombies), "zombie", "zombies") + ", " + plural(int64(e.Humans), "human", "humans")
	if e.Turn == 0 {
		return counts + " at the start"
	}
	return fmt.Sprintf("%s; most antibodies %d, most viruses %d", counts, e.MaxAntibodies, e.MaxViruses)
}
