package territories

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// The kinds of request a match makes.
const (
	JoinKind   engine.Kind = "join"   // found the seat's nation on a free territory
	ActionKind engine.Kind = "action" // one action of the seat's turn
)

// Limits of a match.
const (
	MinSeats = 2
	MaxSeats = 6
)

// nationNames are the seats' nations in a match, by seat.
var nationNames = [MaxSeats]string{"Amber", "Basalt", "Cobalt", "Dune", "Ember", "Fjord"}

//go:embed rules.txt
var rulesText string

// Game is territories as an ordinary Arbiter game (an engine.Ruleset), for
// bots, tournaments and people at a terminal: the referee's rules with turn
// management on. The seats join one after another on free territories;
// then, turn after turn, each seat in order takes its ⌈holdings ÷
// holdings_per_action⌉ actions (raise, move, attack, or pass to stop). The
// game ends when one nation is left, or after the "turns" option's turns.
type Game struct{}

var info = engine.Info{
	Name:           "territories",
	Title:          "Territories: nations join on a map, raise armies, move them and attack their neighbours",
	Version:        RulesVersion,
	Score:          "territories held at the end",
	MinSeats:       MinSeats,
	MaxSeats:       MaxSeats,
	Clock:          "turn",
	DefaultPlayers: "greedy,greedy,random",
	Options: []engine.Option{
		{Name: "turns", Usage: "turns played at most; then the nations holding the most territories win", Kind: engine.IntOption, Default: "100", Min: 1, Max: 10000},
		{Name: "board", Usage: `the map's territories and numbers: "sample" (eleven states of the American West) or a configuration's JSON`, Kind: engine.StringOption, Default: "sample",
			File: "config", FileUsage: "a configuration of your own (YAML or JSON, as arbiter territories init reads it; its map is not drawn)",
			Load: loadBoard, Warn: seatedBoardWarning},
	},
	Players: roster.Names(),
	Rules:   rulesText,
}

// boardWarning is the board option's warning (Config.Warning): "" for the
// sample board, or one that does not parse (New refuses it). A match
// draws its dice from its own seed, so a seed in the board, which only
// arbiter territories init plays, is said to be unused rather than
// silently passed over.
func boardWarning(value string) string {
	if value == "" || value == "sample" {
		return ""
	}
	c, err := ParseConfig([]byte(value))
	if err != nil {
		return ""
	}
	var warnings []string
	if c.Seed != nil {
		warnings = append(warnings, fmt.Sprintf("seed %d is not used: a match draws its dice from its own seed (--seed, or the seed of a live match); only arbiter territories init plays the seed of the file", *c.Seed))
	}
	if w := c.Warning(); w != "" {
		warnings = append(warnings, w)
	}
	return strings.Join(warnings, "; ")
}

// seatedBoardWarning is boardWarning for a game of seats (Game), which
// also sets aside what the referee's turns alone count: the seats all join
// before anything else (min_nations), and a turn ends when each seat has
// taken its actions, each in its deadline (turn_duration). Both are said to
// be unused rather than passed over as if they had shaped the game.
func seatedBoardWarning(value string) string {
	warnings := []string{}
	if w := boardWarning(value); w != "" {
		warnings = append(warnings, w)
	}
	if value != "" && value != "sample" {
		if c, err := ParseConfig([]byte(value)); err == nil {
			if c.MinNations > 0 {
				warnings = append(warnings, fmt.Sprintf("min_nations %d is not used: in a game of seats every seat joins before any other action; only a refereed game (arbiter territories, a referee match of arbiter serve) waits for them", c.MinNations))
			}
			if c.TurnDuration > 0 {
				warnings = append(warnings, fmt.Sprintf("turn_duration %v is not used: in a game of seats a turn ends when each seat has taken its actions, each in its deadline; only a refereed game ends turns by the clock", time.Duration(c.TurnDuration)))
			}
		}
	}
	return strings.Join(warnings, "; ")
}

// loadBoard turns a configuration file into the board option's JSON.
func loadBoard(data []byte) (string, error) {
	c, err := ParseConfig(data)
	if err != nil {
		return "", err
	}
	return string(c.JSON()), nil
}

// Info describes the game.
func (Game) Info() engine.Info { return info }

// New starts a match.
func (g Game) New(setup engine.Setup) (engine.Match[Action, View], error) { return g.NewMatch(setup) }

// NewMatch is New with the concrete type.
func (Game) NewMatch(setup engine.Setup) (*Match, error) {
	m, err := newMatch(setup)
	if err != nil {
		return nil, err
	}
	m.ask(0, JoinKind)
	return m, nil
}

// newMatch returns the match of setup before its first request: the
// setup checked, the map, the world, the seats' players.
func newMatch(setup engine.Setup) (*Match, error) {
	if err := setup.Check(info); err != nil {
		return nil, err
	}
	turns, err := setup.Int(info, "turns")
	if err != nil {
		return nil, err
	}
	board, custom := Sample(), false
	if b, ok := setup.Options["board"]; ok && b != "sample" {
		if board, err = ParseConfig([]byte(b)); err != nil {
			return nil, fmt.Errorf("option board: %w", err)
		}
		custom = true
	}
	n := setup.Seats()
	if n > board.Len() {
		return nil, fmt.Errorf("territories: %d seats on a map of %d territories; at most one seat per territory", n, board.Len())
	}
	cfg := *board
	cfg.TurnManagement, cfg.TurnDuration, cfg.MinNations = true, 0, n
	if !board.TurnManagement {
		cfg.HoldingsPerAction = DefaultHoldingsPerAction
	}
	seed := setup.Seed
	cfg.Seed = &seed
	m := &Match{w: NewWorld(&cfg), seats: n, turns: turns, players: seatPlayers(n), names: setup.Players,
		recent: make([]Outcome, recentSize), acted: make([]int, n)}
	m.w.untracked = true
	if custom {
		m.terr = mapOf(board)
	}
	m.blind = blindConfigs(m.w.cfg, n)
	return m, nil
}

// seatPlayers returns the world's player of each of n seats: "seat 1", ...
func seatPlayers(n int) []string {
	players := make([]string, n)
	for s := range n {
		players[s] = fmt.Sprintf("seat %d", s+1)
	}
	return players
}

// Match is a match under way: an engine.Match.
type Match struct {
	w         *World
	seats     int
	turns     int
	players   []string // the world's player of each seat
	req       [1]engine.Request[Action]
	serial    int64
	over      bool
	reason    string
	result    engine.Result
	events    []engine.Event
	choices   []Action  // the join request's choices
	blind     []*Config // by seat, the configuration without its seed, as the seat sees it; shared by clones
	seen      *World    // the world as the seats see it (board): no seed, not the match's dice; made when first asked
	mapDigest string    // see digest
	names     []string  // each seat's player, as the setup names it
	terr      []mapJSON // a board of one's own's territories, for the public board; nil on the sample's, whose map pages draw
	// recent keeps the latest outcomes, for people: told counts every
	// outcome so far, and recent[k%recentSize] is outcome k (nil before
	// the first in a sample); acted[seat] is told when the seat's last
	// action was applied.
	recent []Outcome
	told   int
	acted  []int
	// recentShared says that recent is shared with a clone: the first to
	// write copies it.
	recentShared bool
}

// recentSize is how many of the latest actions a match keeps to tell a
// person what happened since their last action.
const recentSize = 32

// World returns the match's world, dice included. It is the match's own:
// the runner's, never a seat's (a seat sees View.World).
func (m *Match) World() *World { return m.w }

// blindDice are the dice of the world a seat sees: a fixed stream, so that
// an action tried on it rolls, but says nothing of the match's next roll.
var blindDice = [2]uint64{0x626c696e64, 0x6469636}

// blindConfigs returns, for each of n seats, a copy of cfg without its
// seed: the configuration the seat sees. The copies share no memory with
// cfg (the sample's configuration is shared by every match) nor with each
// other, so that a seat that writes into what it is shown changes neither
// the match nor what the other seats see.
func blindConfigs(cfg *Config, n int) []*Config {
	names, links := 0, 0
	for i := range cfg.Territories {
		names += len(cfg.Territories[i].Aliases) + len(cfg.Territories[i].Neighbors)
		links += len(cfg.neighbors[i])
	}
	confs := make([]Config, n)
	terr := make([]Territory, n*len(cfg.Territories))
	strs := make([]string, 0, n*names)
	adj := make([][]int, n*len(cfg.Territories))
	ints := make([]int, 0, n*links)
	blind := make([]*Config, n)
	for s := range blind {
		c := &confs[s]
		*c = *cfg
		c.Seed = nil
		c.Territories = terr[s*len(cfg.Territories) : (s+1)*len(cfg.Territories) : (s+1)*len(cfg.Territories)]
		c.neighbors = adj[s*len(cfg.Territories) : (s+1)*len(cfg.Territories) : (s+1)*len(cfg.Territories)]
		for i, js := range cfg.neighbors {
			at := len(ints)
			ints = append(ints, js...)
			c.neighbors[i] = ints[at:len(ints):len(ints)]
		}
		for i, t := range cfg.Territories {
			at := len(strs)
			strs = append(strs, t.Aliases...)
			t.Aliases = strs[at:len(strs):len(strs)]
			if cfg.Territories[i].Aliases == nil {
				t.Aliases = nil
			}
			at = len(strs)
			strs = append(strs, t.Neighbors...)
			t.Neighbors = strs[at:len(strs):len(strs)]
			c.Territories[i] = t
		}
		blind[s] = c
	}
	return blind
}

// board returns the world as seat sees it: the match's nations, holdings,
// turn and count of actions, copied into m.seen (no allocation once its
// slices have grown), whose configuration is the seat's, without the seed,
// and whose dice are reset to blindDice. It is copied again at every call,
// so that what a seat tried on it last time is gone.
func (m *Match) board(seat int) *World {
	if m.seen == nil {
		m.seen = &World{dice: rand.NewPCG(blindDice[0], blindDice[1]), untracked: true}
	}
	s, w := m.seen, m.w
	s.cfg = m.blind[seat]
	s.nations = append(s.nations[:0], w.nations...)
	s.held = append(s.held[:0], w.held...)
	s.seq, s.turn = w.seq, w.turn
	s.dirtyNations, s.dirtyTerritories = s.dirtyNations[:0], s.dirtyTerritories[:0]
	s.dice.Seed(blindDice[0], blindDice[1])
	return s
}

// NationName returns the name of seat's nation.
func NationName(seat int) string { return nationNames[seat] }

// nationOf returns seat's nation in the world, or -1 before it joins. The
// seats join in order, so seat s's nation is the world's nation s.
func (m *Match) nationOf(seat int) int {
	if seat >= 0 && seat < len(m.w.nations) {
		return seat
	}
	return -1
}

func (m *Match) ask(seat int, kind engine.Kind) {
	m.serial++
	r := &m.req[0]
	r.ID, r.Seat, r.Kind, r.Class = m.serial, seat, kind, engine.Ordinary
	if kind == JoinKind {
		m.choices = m.choices[:0]
		for i := range m.w.cfg.Len() {
			if m.w.held[i].Nation < 0 {
				m.choices = append(m.choices, JoinAction(nationNames[seat], m.w.cfg.Territories[i].ID))
			}
		}
		r.Choices, r.Default = m.choices, m.choices[0]
		return
	}
	r.Choices, r.Default = nil, PassAction
}

// Pending returns the one decision owed: a seat's join, or its next action.
func (m *Match) Pending() []engine.Request[Action] {
	if m.over {
		return nil
	}
	return m.req[:]
}

// TurnOf returns the seat whose turn it is, to join or to act: the game
// is played one seat at a time, and everyone may know whose turn it is.
func (m *Match) TurnOf() (seat int, ok bool) {
	if m.over {
		return 0, false
	}
	return m.req[0].Seat, true
}

// Spell returns seat's action in the board's own spelling
// (engine.MoveSpeller): its territories by their ids ("move ca:2 or" is
// move CA:2 OR) and a join's nation as the seat's own name ("join amber
// CA" is join Amber CA). An action that names no territory of the board
// is returned as it is, for Apply to refuse.
func (m *Match) Spell(seat int, a Action) Action {
	r, err := m.w.cfg.Resolve(a)
	if err != nil {
		return a
	}
	if r.Kind == Join && seat >= 0 && seat < len(nationNames) && strings.EqualFold(r.Nation, nationNames[seat]) {
		r.Nation = nationNames[seat]
	}
	return r
}

// Apply applies seat's join or action.
func (m *Match) Apply(seat int, a Action) error {
	if a.words != "" {
		var err error
		if a, err = m.w.cfg.Resolve(a); err != nil {
			return err
		}
	}
	if err := m.asked(seat, a); err != nil {
		return err
	}
	if a.Kind == Join {
		a.Nation = nationNames[seat] // asked allows it in any case; the nation is the seat's
	}
	o, err := m.w.Apply(m.players[seat], a)
	if err != nil {
		return err
	}
	if m.recentShared {
		m.recent, m.recentShared = slices.Clone(m.recent), false
	}
	if m.recent == nil {
		m.recent = make([]Outcome, recentSize)
	}
	m.acted[seat] = m.told
	m.recent[m.told%recentSize] = o
	m.told++
	m.tell(o)
	m.next()
	return nil
}

// Told returns what the last action did, its roll and losses included:
// every action of territories is public, as the referee's history tells
// it and the terminal's "since your last action" shows it to every seat
// (engine.Teller). It is false before the first action.
func (m *Match) Told() (engine.Told, bool) {
	if m.told == 0 || m.recent == nil {
		return nil, false
	}
	o := m.recent[(m.told-1)%recentSize]
	o.Last = o.TurnEnded && o.Turn >= m.turns
	o.Dice = nil // the log's, not what it did
	return o, true
}

// Answer is the last action's outcome as JSON, as arbiter territories
// answers a call: what a live match tells the seat whose move it was (its
// roll and losses), as a referee's match tells its caller.
func (m *Match) Answer() json.RawMessage {
	o, ok := m.Told()
	if !ok {
		return nil
	}
	b, err := o.MarshalJSON()
	if err != nil {
		return nil
	}
	return b
}

// asked refuses an action that does not answer the request owed: another
// seat's, or a kind of action the request does not take.
func (m *Match) asked(seat int, a Action) error {
	if m.over {
		return engine.Refuse("over", "the game is over")
	}
	r := &m.req[0]
	if seat != r.Seat {
		return engine.Refuse("not-asked", "it is seat %d's %s, not seat %d's", r.Seat+1, r.Kind, seat+1)
	}
	switch r.Kind {
	case JoinKind:
		if a.Kind != Join {
			return engine.Refuse("join-first", "found your nation first: join %s TERRITORY, on a territory with no army", nationNames[seat])
		}
		if !strings.EqualFold(a.Nation, nationNames[seat]) {
			return engine.Refuse("nation-name", "seat %d's nation is called %s: join %s TERRITORY", seat+1, nationNames[seat], nationNames[seat])
		}
	default:
		if a.Kind != Move && a.Kind != Raise && a.Kind != Attack && a.Kind != Pass {
			return engine.Refuse("not-now", "on your turn: raise, move, attack or pass, not %s", a.Kind)
		}
	}
	return nil
}

// tell notes what everyone may know of an outcome: territories taken and
// nations out.
func (m *Match) tell(o Outcome) {
	m.events = told(m.events, o, func(nation string) []int { return []int{m.seatOf(nation)} })
}

// told appends to events what everyone may know of an outcome: a
// territory emptied by an attack ("conquest") and a nation out of the game
// ("out", marked on charts). seats gives the seats of a nation, none in a
// refereed game.
func told(events []engine.Event, o Outcome, seats func(nation string) []int) []engine.Event {
	if o.Action != Attack || o.Battle == nil {
		return events
	}
	if b := o.Battle; b.Success && b.DefenderLosses == b.Defenders {
		events = append(events, engine.Event{Clock: o.Turn, Kind: "conquest", Seats: append(seats(o.Nation), seats(o.Defender)...),
			Text: fmt.Sprintf("%s empties %s of %s: %d against %d, roll %d", o.Nation, o.To, o.Defender, b.Attackers, b.Defenders, b.Roll)})
	}
	if o.Removed != "" {
		events = append(events, engine.Event{Clock: o.Turn, Kind: "out", Seats: seats(o.Removed), Mark: true,
			Text: fmt.Sprintf("%s is out of the game", o.Removed)})
	}
	return events
}

func (m *Match) seatOf(nation string) int {
	k := m.w.NationNamed(nation)
	for s, p := range m.players {
		if k >= 0 && m.w.nations[k].Player == p {
			return s
		}
	}
	return -1
}

// next asks the next decision: the next seat's join; or the first seat in
// order with actions left in this turn; or ends the game.
func (m *Match) next() {
	r := &m.req[0]
	if r.Kind == JoinKind && r.Seat+1 < m.seats {
		m.ask(r.Seat+1, JoinKind)
		return
	}
	if m.w.InGame() <= 1 {
		m.end("one nation left")
		return
	}
	if m.w.Turn() > m.turns {
		m.end(fmt.Sprintf("%d turns played", m.turns))
		return
	}
	for s := range m.seats {
		if k := m.nationOf(s); k >= 0 && m.w.nations[k].ActionsLeft() > 0 {
			m.ask(s, ActionKind)
			return
		}
	}
	// Every nation has used its actions: the rules have started the next
	// turn, so this is not reached; end rather than ask nobody.
	m.end("no nation can act")
}

// end ranks the seats: the nations still in the game first, by territories
// then armies; then those out, the later out above the earlier. A seat's
// score is its territories at the end.
func (m *Match) end(reason string) {
	m.over, m.reason = true, reason
	n := m.seats
	res := engine.Result{Scores: make([]int64, n), Winners: []int{}, Reason: reason}
	type standing struct {
		in              bool
		holdings, armys int
		out             int
	}
	st := make([]standing, n)
	for s := range n {
		k := m.nationOf(s)
		nat := &m.w.nations[k]
		st[s] = standing{in: nat.In(), holdings: m.w.Holdings(k), armys: m.w.Armies(k), out: nat.Out}
		res.Scores[s] = int64(st[s].holdings)
		if !nat.In() {
			if res.Status == nil {
				res.Status = make([]string, n)
			}
			res.Status[s] = fmt.Sprintf("out (action %d)", nat.Out)
		}
	}
	better := func(i, j int) bool {
		a, b := st[i], st[j]
		switch {
		case a.in != b.in:
			return a.in
		case !a.in:
			return a.out > b.out
		case a.holdings != b.holdings:
			return a.holdings > b.holdings
		}
		return a.armys > b.armys
	}
	res.Ranks = engine.CompetitionRanks(n, better)
	for s := range n {
		if res.Ranks[s] == 1 {
			res.Winners = append(res.Winners, s)
		}
	}
	m.result = res
}

// View returns what seat may know: the whole board, but not the dice.
func (m *Match) View(seat int) View { return View{m: m, seat: seat} }

// Over reports whether the game has ended.
func (m *Match) Over() bool { return m.over }

// Result returns the ranking.
func (m *Match) Result() engine.Result { return m.result }

// Clock is the turn now: the last, once the match has played them all
// (its rules have begun the next).
func (m *Match) Clock() int { return min(m.w.Turn(), m.turns) }

var measures = []engine.Measure{{Name: "territories", PerSeat: true}, {Name: "armies", PerSeat: true}}

// Measures names the numbers a chart shows: each nation's territories and
// armies.
func (m *Match) Measures() []engine.Measure { return measures }

// Measure returns measure k of seat's nation.
func (m *Match) Measure(k, seat int) float64 {
	n := m.nationOf(seat)
	if n < 0 {
		return 0
	}
	if k == 0 {
		return float64(m.w.Holdings(n))
	}
	return float64(m.w.Armies(n))
}

// TellStatus tells a seat's status as people read it (engine.StatusTeller):
// a nation out of the game, "out (action 48)" in the result that the
// record keeps, is "out at turn 12 (action 48)", the turn its chronicle
// gives; "" for any other status, and where the turn is not known.
func (m *Match) TellStatus(seat int, status string) string {
	k := m.nationOf(seat)
	if k < 0 || m.w.nations[k].In() || status != fmt.Sprintf("out (action %d)", m.w.nations[k].Out) {
		return ""
	}
	if turn := m.outTurn(seat); turn > 0 {
		return fmt.Sprintf("out at turn %d (action %d)", turn, m.w.nations[k].Out)
	}
	return ""
}

// outTurn is the turn in which seat's nation went out of the game, as its
// chronicle tells it; 0 while it plays.
func (m *Match) outTurn(seat int) int {
	for _, e := range m.events {
		if e.Kind == "out" && len(e.Seats) == 1 && e.Seats[0] == seat {
			return e.Clock
		}
	}
	return 0
}

// Chronicle tells the game's story: every territory emptied by an attack
// and every nation out.
func (m *Match) Chronicle() []engine.Event { return append([]engine.Event(nil), m.events...) }

// Public returns the board now: a copy that prints as text.
func (m *Match) Public() any {
	b := m.newBoard()
	b.Map = m.terr
	return b
}

// newBoard is the board now, in the match's turns: a match that has played
// its last turn is at that turn (its rules have begun the next).
func (m *Match) newBoard() Board {
	b := newBoard(m.w)
	b.Turn = m.Clock()
	for k := range b.Nations {
		if b.Nations[k].Out != 0 {
			b.Nations[k].OutTurn = m.outTurn(k) // a match's seat is its nation
		}
	}
	return b
}
