package ajveciv

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

// Request kinds.
const (
	// TurnKind asks for a turn's choice among three offered values.
	TurnKind engine.Kind = "turn"
	// InflectionKind asks for an inflection's choice among the three highest values.
	InflectionKind engine.Kind = "inflection"
)

// Game options.
const (
	// DefaultTurns is the length of a game.
	DefaultTurns = 100
	// InflectionEvery is how many turns pass between inflections.
	InflectionEvery = 10
	// MaxTurns bounds the turns option.
	MaxTurns = 100_000
	// MinSeats and MaxSeats bound the number of societies.
	MinSeats = 2
	MaxSeats = MaxSocieties
)

// RulesVersion is written in every match record; it changes whenever a rule
// changes what a recorded game would replay to.
const RulesVersion = "1"

//go:embed rules.txt
var rulesText string

// Game is the AjveCiv ruleset for one world: an engine.Ruleset. Variant names
// the world's rules in match records, so a record can say which laws it was
// played under.
type Game struct {
	Variant string
	Rules   Rules
}

// Original returns AjveCiv as its rules tell it: the original world.
func Original() Game { return Game{Variant: "original", Rules: OriginalRules{}} }

// validVariant reports whether name is a variant's name: 1 to 40 of a-z,
// 0-9, '_', '.', '-', the first a letter or digit.
func validVariant(name string) bool {
	if len(name) == 0 || len(name) > 40 {
		return false
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case i > 0 && (c == '_' || c == '.' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// declared is what the game declares of itself, whatever its world: its
// seats and options, which every new match checks its setup against.
var declared = engine.Info{
	Name:           "ajveciv",
	Title:          "AjveCiv: guide an engineered people as they settle an alien world",
	Version:        RulesVersion,
	Score:          "yield plus population",
	MinSeats:       MinSeats,
	MaxSeats:       MaxSeats,
	DefaultPlayers: "basic",
	Players:        []string{"basic", "basic.<value>", "basic2", "basic2.<value>-<value>", "basic3", "basic3.<value>-<value>-<value>", "random", "planner", "guide"},
	Options: []engine.Option{
		{Name: "turns", Usage: "number of turns in a game", Kind: engine.IntOption, Default: fmt.Sprint(DefaultTurns), Min: 1, Max: MaxTurns},
		{Name: "inflections", Usage: "an inflection after every tenth turn", Kind: engine.BoolOption, Default: "true"},
	},
	Rules: rulesText,
}

// Info describes the game.
func (g Game) Info() engine.Info {
	info := declared
	info.Variant = g.Variant
	return info
}

// New starts a match: one society per player, on the starting world.
func (g Game) New(setup engine.Setup) (engine.Match[Value, View], error) {
	return g.NewMatch(setup)
}

// NewMatch is New with the concrete type.
func (g Game) NewMatch(setup engine.Setup) (*Match, error) {
	info := declared
	if g.Rules == nil {
		return nil, errors.New("ajveciv: the game has no rules")
	}
	if !validVariant(g.Variant) {
		return nil, fmt.Errorf("ajveciv: variant name %q; want 1 to 40 of a-z, 0-9, '_', '.', '-'", g.Variant)
	}
	if err := setup.Check(info); err != nil {
		return nil, err
	}
	turns, err := setup.Int(info, "turns")
	if err != nil {
		return nil, err
	}
	inflections, err := setup.Bool(info, "inflections")
	if err != nil {
		return nil, err
	}
	n := setup.Seats()
	m := &Match{
		rules:       g.Rules,
		variant:     g.Variant,
		turns:       turns,
		inflections: inflections,
		world:       NewWorld(n),
		original:    isOriginal(g.Rules),
		pcg:         *engine.NewRNG(setup.Seed),
		chosen:      make([]Value, n),
		last:        noChoices(n),
		players:     setup.Players,
	}
	m.offers, m.shown = offers(n)
	m.reqs, m.open = requests(n)
	m.rng = *rand.New(&m.pcg)
	if init, ok := g.Rules.(Initializer); ok {
		if err := init.Init(&m.world); err != nil {
			return nil, fmt.Errorf("ajveciv: %s world: Init: %w", g.Variant, err)
		}
		if err := m.world.Check(); err != nil {
			return nil, fmt.Errorf("ajveciv: %s world after Init: %w", g.Variant, err)
		}
		if len(m.world.Societies) != n {
			return nil, fmt.Errorf("ajveciv: %s world: Init made %d societies for %d players", g.Variant, len(m.world.Societies), n)
		}
	}
	m.living = m.world.Living()
	m.openTurn()
	return m, nil
}

// noChoices returns n choices not made.
func noChoices(n int) []Value {
	vs := make([]Value, n)
	for i := range vs {
		vs[i] = None
	}
	return vs
}

// requests returns the empty request lists of a match of n societies, the
// round's and the open ones, in one piece of memory.
func requests(n int) (round, open []engine.Request[Value]) {
	all := make([]engine.Request[Value], 2*n)
	return all[:0:n], all[n : n : 2*n]
}

// offers returns a match's offers and the copy of them it shows, for n
// societies, in one piece of memory.
func offers(n int) (dealt, shown []offer) {
	all := make([]offer, 2*n)
	return all[:n:n], all[n:]
}

// isOriginal reports whether r are the original rules, which a match plays
// on a fast path of its own.
func isOriginal(r Rules) bool {
	switch r.(type) {
	case OriginalRules, *OriginalRules:
		return true
	}
	return false
}

// Match is an AjveCiv match under way: an engine.Match.
//
// Each turn every living society is offered three of its six values and all
// choose at once; after every tenth turn (but the last) comes an inflection,
// where each chooses among its three highest.
//
// Offers are dealt from the match's random source. An offer is one of the
// 120 ordered triples of distinct values: offer number x (0 ≤ x < 120) is the
// first three values of a partial Fisher–Yates shuffle of the six, in the
// rules' order, at positions (x mod 6, x/6 mod 5, x/30); its first value is
// the default. The living societies, in seat order, are dealt in groups of
// up to nine: for each group one number k is drawn uniform in [0, 120^g)
// (g the group's size; engine.Below), and the group's societies take, in seat
// order, the base-120 digits of k from the least significant up.
type Match struct {
	rules       Rules
	variant     string
	turns       int
	inflections bool

	world World
	// lag is the change of feelings the original rules have not yet
	// written into the world (see regard); settle writes it.
	lag      regard
	original bool      // the rules are OriginalRules: turns leave lag
	pcg      rand.PCG  // the match's random source
	rng      rand.Rand // the same source, for the rules

	turn   int         // turns completed
	kind   engine.Kind // what the open round asks
	infl   bool        // the open round is an inflection
	vturn  int         // the turn a view of the open round shows
	round  int64       // rounds opened, turns and inflections
	offers []offer     // per seat, this round
	// shown is a copy of offers, the one that views (View.Offered) and
	// requests (Choices) hand to players: a player that writes into the
	// slice it was given changes its own copy, never what Apply allows.
	shown  []offer
	chosen []Value // per seat, this round; None until answered
	last   []Value // per seat, the last round's choices, for people
	// lastInfl says the last round was an inflection; players names each
	// seat's player, for people.
	lastInfl bool
	players  []string
	owed     int // answers still owed this round
	living   int // living societies
	reqs     []engine.Request[Value]
	open     []engine.Request[Value]

	over   bool
	reason string
	result engine.Result
}

// openTurn deals the offers of the next turn.
func (m *Match) openTurn() { m.openRound(false) }

// openInflection offers each living society its three highest values.
func (m *Match) openInflection() { m.openRound(true) }

// openRound starts a round of the given kind: one request per living society, in
// seat order. The requests are kept from round to round and only their
// changing fields are written.
func (m *Match) openRound(inflection bool) {
	kind := TurnKind
	if inflection {
		kind = InflectionKind
	}
	m.vturn = m.turn + 1
	if inflection {
		m.vturn = m.turn
	}
	m.round++
	if len(m.reqs) != m.living {
		m.reqs = m.reqs[:0]
		for i := range m.world.Societies {
			m.chosen[i] = None
			m.offers[i] = noOffer
			if !m.world.Societies[i].Dead {
				m.reqs = append(m.reqs, engine.Request[Value]{Seat: i, Kind: kind, Choices: m.shown[i][:3:3]})
			}
		}
	}
	if m.kind == "" || m.infl != inflection {
		m.kind, m.infl = kind, inflection
		for k := range m.reqs {
			m.reqs[k].Kind = kind
		}
	}
	n := int64(len(m.chosen))
	if m.infl {
		for k := range m.reqs {
			r := &m.reqs[k]
			seat := r.Seat
			t := m.world.Societies[seat].Values.Top()
			m.offers[seat] = newOffer(t[0], t[1], t[2])
			r.ID, r.Default = m.round*n+int64(seat), t[0]
			m.chosen[seat] = None
		}
	} else {
		// One draw deals the offers of up to nine societies (see Match).
		base, offers, chosen := m.round*n, m.offers, m.chosen
		for g := 0; g < len(m.reqs); g += dealGroup {
			group := m.reqs[g:min(g+dealGroup, len(m.reqs))]
			k := engine.Below(&m.pcg, dealSpan[len(group)])
			for i := range group {
				r := &group[i]
				seat := r.Seat
				q := k / 120
				o := offerTable[k-q*120]
				k = q
				offers[seat] = o
				chosen[seat] = None
				r.ID, r.Default = base+int64(seat), o[0]
			}
		}
	}
	copy(m.shown, m.offers)
	m.owed = len(m.reqs)
}

// Pending returns the choices still owed this round.
func (m *Match) Pending() []engine.Request[Value] {
	if m.over {
		return nil
	}
	if m.owed == len(m.reqs) {
		return m.reqs
	}
	m.open = m.open[:0]
	for _, r := range m.reqs {
		if m.chosen[r.Seat] == None {
			m.open = append(m.open, r)
		}
	}
	return m.open
}

// Apply records seat's choice; when every living society has chosen, the
// round is resolved.
func (m *Match) Apply(seat int, v Value) error {
	// Dead societies and a finished game have no offer, so one test covers
	// every legal move.
	if uint(seat) >= uint(len(m.chosen)) || !v.Valid() || !m.offers[seat].has(v) || m.chosen[seat] != None {
		return m.refuse(seat, v)
	}
	m.chosen[seat] = v
	m.owed--
	if m.owed > 0 {
		return nil
	}
	return m.resolve()
}

// refuse says why seat may not choose v.
func (m *Match) refuse(seat int, v Value) error {
	switch {
	case m.over:
		return engine.Refuse("over", "the game is over")
	case seat < 0 || seat >= len(m.chosen):
		return engine.Refuse("no-seat", "there is no society %d; societies are 1 to %d", seat+1, len(m.chosen))
	case m.world.Societies[seat].Dead:
		return engine.Refuse("dead", "society %d is dead and makes no choices", seat+1)
	case m.chosen[seat] != None:
		return engine.Refuse("answered", "society %d has already chosen %v this %s", seat+1, m.chosen[seat], m.kind)
	}
	o := &m.offers[seat]
	return engine.Refuse("not-offered", "%v was not offered to society %d; choose %v, %v or %v", v, seat+1, o[0], o[1], o[2])
}

// resolve applies the round's choices and opens the next round.
func (m *Match) resolve() error {
	copy(m.last, m.chosen)
	m.lastInfl = m.infl
	if m.infl {
		if m.original {
			// The round's offers are every living society's three
			// highest values.
			originalInflection(m.world.Societies, m.chosen, m.offers)
			m.openTurn()
			return nil
		}
		if err := m.rules.Inflection(&m.world, m.chosen); err != nil {
			return fmt.Errorf("ajveciv: %s rules, inflection after turn %d: %w", m.variant, m.turn, err)
		}
		m.openTurn()
		return nil
	}
	if err := m.playTurn(); err != nil {
		return fmt.Errorf("ajveciv: %s rules, turn %d: %w", m.variant, m.turn+1, err)
	}
	m.turn++
	switch {
	case m.living == 0:
		m.end("all dead")
	case m.turn >= m.turns:
		m.end("turns")
	case m.inflections && m.turn%InflectionEvery == 0:
		m.openInflection()
	default:
		m.openTurn()
	}
	return nil
}

// playTurn applies the turn's choices and counts the living. The original
// rules leave the change of feelings in m.lag.
func (m *Match) playTurn() (err error) {
	if m.original {
		m.living, err = originalTurn(&m.world, m.chosen, &m.rng, &m.lag)
		return err
	}
	if err := m.rules.Turn(&m.world, m.chosen, &m.rng); err != nil {
		return err
	}
	m.living = m.world.Living()
	return nil
}

// settle writes the feelings the match owes into its world. Only the
// match's owner calls it: views read the feelings with the lag added,
// changing nothing.
func (m *Match) settle() { m.lag.settle(&m.world) }

// end scores the game: nation yield plus population. Living societies rank
// above dead ones; the living with the highest score win.
func (m *Match) end(reason string) {
	m.over, m.reason = true, reason
	m.vturn = m.turn
	for i := range m.offers {
		m.offers[i] = noOffer
	}
	copy(m.shown, m.offers)
	m.reqs, m.open = m.reqs[:0], m.open[:0]
	n := len(m.world.Societies)
	res := engine.Result{Scores: make([]int64, n), Winners: []int{}, Reason: reason}
	best := 0
	anyLiving := false
	for i := range m.world.Societies {
		s := &m.world.Societies[i]
		res.Scores[i] = int64(s.Score())
		if s.Dead {
			if res.Status == nil {
				res.Status = make([]string, n)
			}
			res.Status[i] = "dead"
		} else if !anyLiving || s.Score() > best {
			best, anyLiving = s.Score(), true
		}
	}
	for i := range m.world.Societies {
		if s := &m.world.Societies[i]; !s.Dead && s.Score() == best {
			res.Winners = append(res.Winners, i)
		}
	}
	res.Ranks = engine.CompetitionRanks(n, func(i, j int) bool {
		a, b := &m.world.Societies[i], &m.world.Societies[j]
		if a.Dead != b.Dead {
			return !a.Dead
		}
		return a.Score() > b.Score()
	})
	m.result = res
}

// View returns what seat knows: everything. AjveCiv hides nothing but the
// choices of the round under way.
func (m *Match) View(seat int) View {
	return View{m, seat}
}

// Over reports whether the game has ended.
func (m *Match) Over() bool { return m.over }

// Result returns the final scores; see end.
func (m *Match) Result() engine.Result { return m.result }

// World returns the world as it is now. It is the match's own: do not change it.
func (m *Match) World() *World {
	m.settle()
	return &m.world
}

// Turn returns the number of turns completed.
func (m *Match) Turn() int { return m.turn }

// Public returns a copy of the world: a spectator sees everything.
func (m *Match) Public() any {
	m.settle()
	return m.world.Clone()
}

// Clock is the number of turns completed.
func (m *Match) Clock() int { return m.turn }

var measures = []engine.Measure{{Name: "yield", PerSeat: true}, {Name: "population", PerSeat: true}, {Name: "world yield"}}

// Measures names the numbers a chart can show: each society's yield and
// population, and the world's yield.
func (m *Match) Measures() []engine.Measure { return measures }

// Measure returns measure k (see Measures) for seat.
func (m *Match) Measure(k, seat int) float64 {
	switch k {
	case 0:
		return float64(m.world.Societies[seat].Nation.Yield)
	case 1:
		return float64(m.world.Societies[seat].Nation.Population)
	default:
		return float64(m.world.Yield)
	}
}

// snapshot is the full state of a match, for hashing and for resuming.
type snapshot struct {
	Variant     string      `json:"variant"`
	Turns       int         `json:"turns"`
	Inflections bool        `json:"inflections"`
	Turn        int         `json:"turn"`
	Kind        engine.Kind `json:"kind"`
	Round       int64       `json:"round"`
	World       World       `json:"world"`
	Offers      [][3]Value  `json:"offers"`
	Chosen      []Value     `json:"chosen"`
	Last        []Value     `json:"last,omitempty"`            // the last round's choices, once one is played
	LastInfl    bool        `json:"last_inflection,omitempty"` // and whether it was an inflection
	RNG         []byte      `json:"rng"`
	Over        bool        `json:"over"`
	Reason      string      `json:"reason,omitempty"`
}

// MarshalJSON returns a snapshot of the full state: world, turn, offers,
// choices made this round and the random source.
func (m *Match) MarshalJSON() ([]byte, error) {
	rng, err := m.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	m.settle()
	offers := make([][3]Value, len(m.offers))
	for i := range offers {
		offers[i] = [3]Value(m.offers[i][:3])
		if m.world.Societies[i].Dead || m.over {
			offers[i] = [3]Value{None, None, None}
		}
	}
	var last []Value
	if slices.ContainsFunc(m.last, func(v Value) bool { return v != None }) {
		last = m.last
	}
	return json.Marshal(snapshot{
		Variant: m.variant, Turns: m.turns, Inflections: m.inflections,
		Turn: m.turn, Kind: m.kind, Round: m.round, World: m.world,
		Offers: offers, Chosen: m.chosen, Last: last, LastInfl: last != nil && m.lastInfl, RNG: rng, Over: m.over, Reason: m.reason,
	})
}

// Restore resumes the match of setup from a snapshot made by MarshalJSON
// under the same rules (see engine.Restorer). The snapshot holds the
// match's random source, and so the offers of every turn to come: it is
// for storage only.
func (g Game) Restore(setup engine.Setup, data []byte) (engine.Match[Value, View], error) {
	return g.RestoreMatch(setup, data)
}

// RestoreMatch is Restore with the concrete type.
func (g Game) RestoreMatch(setup engine.Setup, data []byte) (*Match, error) {
	var s snapshot
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, fmt.Errorf("ajveciv: snapshot: %w", err)
	}
	if s.Variant != g.Variant {
		return nil, fmt.Errorf("ajveciv: the snapshot is of the %q world; these rules are %s", s.Variant, g.Variant)
	}
	if err := g.fits(setup, &s); err != nil {
		return nil, err
	}
	if err := s.World.Check(); err != nil {
		return nil, fmt.Errorf("ajveciv: snapshot: %w", err)
	}
	n := len(s.World.Societies)
	if n != setup.Seats() || len(s.Offers) != n || len(s.Chosen) != n {
		return nil, fmt.Errorf("ajveciv: snapshot: %d societies, %d offers and %d choices; the setup has %d seats", n, len(s.Offers), len(s.Chosen), setup.Seats())
	}
	if s.Turn < 0 || s.Turn > s.Turns || s.Round < 0 {
		return nil, fmt.Errorf("ajveciv: snapshot: turn %d of %d, round %d; want 0 to %d, and a round from 0", s.Turn, s.Turns, s.Round, s.Turns)
	}
	m := &Match{
		rules: g.Rules, original: isOriginal(g.Rules), variant: g.Variant, turns: s.Turns, inflections: s.Inflections,
		world: s.World, turn: s.Turn, kind: s.Kind, infl: s.Kind == InflectionKind, round: s.Round,
		chosen: s.Chosen, last: noChoices(n), lastInfl: s.LastInfl, players: setup.Players,
	}
	m.offers, m.shown = offers(n)
	m.reqs, m.open = requests(n)
	if s.Last != nil {
		if len(s.Last) != n {
			return nil, fmt.Errorf("ajveciv: snapshot: %d last choices for %d societies", len(s.Last), n)
		}
		copy(m.last, s.Last)
	}
	for i, o := range s.Offers {
		if o[0] == None {
			m.offers[i] = noOffer
		} else {
			m.offers[i] = newOffer(o[0], o[1], o[2])
		}
	}
	copy(m.shown, m.offers)
	if err := m.pcg.UnmarshalBinary(s.RNG); err != nil {
		return nil, fmt.Errorf("ajveciv: snapshot: rng: %w", err)
	}
	m.rng = *rand.New(&m.pcg)
	if s.Over {
		if s.Reason != "all dead" && s.Reason != "turns" {
			return nil, fmt.Errorf("ajveciv: snapshot: the game ended for %q; games end for \"all dead\" or \"turns\"", s.Reason)
		}
		m.end(s.Reason)
		return m, nil
	}
	if s.Kind != TurnKind && s.Kind != InflectionKind {
		return nil, fmt.Errorf("ajveciv: snapshot: kind %q; want turn or inflection", s.Kind)
	}
	if err := s.checkRound(); err != nil {
		return nil, err
	}
	m.living = m.world.Living()
	m.vturn = m.turn + 1
	if m.infl {
		m.vturn = m.turn
	}
	for i := range m.world.Societies {
		if m.world.Societies[i].Dead {
			if m.chosen[i] != None || m.offers[i] != noOffer {
				return nil, fmt.Errorf("ajveciv: snapshot: society %d is dead but has an offer or a choice", i+1)
			}
			continue
		}
		o := m.offers[i]
		if !o[0].Valid() || !o[1].Valid() || !o[2].Valid() || o[0] == o[1] || o[0] == o[2] || o[1] == o[2] {
			return nil, fmt.Errorf("ajveciv: snapshot: society %d's offer %v is not three distinct values", i+1, o)
		}
		if c := m.chosen[i]; c != None && c != o[0] && c != o[1] && c != o[2] {
			return nil, fmt.Errorf("ajveciv: snapshot: society %d chose %v, which it was not offered", i+1, c)
		}
		m.reqs = append(m.reqs, engine.Request[Value]{ID: m.round*int64(n) + int64(i), Seat: i, Kind: m.kind, Choices: m.shown[i][:3:3], Default: o[0]})
		if m.chosen[i] == None {
			m.owed++
		}
	}
	if m.owed == 0 {
		return nil, errors.New("ajveciv: snapshot: every choice of the round is made but the round is not resolved")
	}
	return m, nil
}

// fits checks that a snapshot is of a match of setup: the turns and
// inflections its options give.
func (g Game) fits(setup engine.Setup, s *snapshot) error {
	info := g.Info()
	if err := setup.Check(info); err != nil {
		return err
	}
	turns, err := setup.Int(info, "turns")
	if err != nil {
		return err
	}
	inflections, err := setup.Bool(info, "inflections")
	if err != nil {
		return err
	}
	if s.Turns != turns || s.Inflections != inflections {
		return fmt.Errorf("ajveciv: the snapshot is of a game of %d turns (inflections %v); the setup's is of %d (inflections %v)", s.Turns, s.Inflections, turns, inflections)
	}
	return nil
}

// checkRound checks that the round a snapshot has open is the one the
// rules open after its turn: its kind and its number.
func (s *snapshot) checkRound() error {
	if s.Turn >= s.Turns {
		return fmt.Errorf("ajveciv: snapshot: turn %d of %d, and the game is not over", s.Turn, s.Turns)
	}
	infl := s.Kind == InflectionKind
	if infl && !(s.Inflections && s.Turn > 0 && s.Turn%InflectionEvery == 0) {
		return fmt.Errorf("ajveciv: snapshot: an inflection after turn %d; inflections come after every tenth turn, when the game has them", s.Turn)
	}
	if want := roundOf(s.Turn, s.Inflections, infl); s.Round != want {
		return fmt.Errorf("ajveciv: snapshot: round %d after turn %d; the rules open round %d there", s.Round, s.Turn, want)
	}
	return nil
}
