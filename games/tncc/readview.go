package tncc

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

var _ engine.ViewReader[View] = Game{}

// ReadViews returns a reader of the views a country's player is sent as
// JSON, {you, cycle, max_cycles, preset, numbers, countries, recent, offer
// or attack}, each read back into the View the player is given in
// process (engine.ViewReader): its methods, World, the search's Sample,
// and the built-in bots (the general's and the marshal's lookahead
// included) read it as they read the match's own. info is the match as
// its hello tells it: the seat, the players (whom String names) and the
// preset option, whose numbers the views must carry.
//
// A view's JSON carries the history of this cycle and the last only; the
// reader keeps what the seat's earlier views showed, so that History, Len
// and Entry hold the whole public history as they do in process: a
// living country is asked at least once a cycle, and each view's history
// begins before the last one's ended. What no view tells is why a dead
// country died, which Out says in process (and a dead country is asked
// nothing), and the names of the players, which are the hello's.
func (g Game) ReadViews(info engine.MatchInfo) (func(id int64, data []byte) (View, error), error) {
	setup := engine.Setup{Players: info.Players, Options: info.Options}
	if err := setup.Check(g.Info()); err != nil {
		return nil, err
	}
	p, err := PresetOption(setup.Options["preset"])
	if err != nil {
		return nil, err
	}
	if info.Seat < 0 || info.Seat >= setup.Seats() {
		return nil, fmt.Errorf("tncc: seat %d of a game of %d countries", info.Seat, setup.Seats())
	}
	r := &viewReader{seat: info.Seat, preset: p, players: slices.Clone(info.Players)}
	return r.read, nil
}

// viewReader reads one seat's views, each into a match of its own that
// holds what the view shows, with the history of the views before.
type viewReader struct {
	seat    int
	preset  Preset
	players []string
	// known is the public history so far, as the last view left it, and
	// cycle that view's cycle.
	known []Entry
	cycle int
}

// wireView is a view's JSON, as View.MarshalJSON writes it.
type wireView struct {
	You       *int            `json:"you"`
	Cycle     int             `json:"cycle"`
	MaxCycles int             `json:"max_cycles"`
	Preset    string          `json:"preset"`
	Numbers   json.RawMessage `json:"numbers"`
	Countries []countryJS     `json:"countries"`
	Recent    []wireEntry     `json:"recent"`
	Offer     *offerJSON      `json:"offer"`
	Attack    *Attack         `json:"attack"`
}

// wireEntry is a history entry's JSON, as Entry.MarshalJSON writes it.
type wireEntry struct {
	Cycle  int        `json:"cycle"`
	Seat   int        `json:"seat"`
	Action string     `json:"action"`
	N      *int64     `json:"n"`
	Trade  *tradeJSON `json:"trade"`
	War    *struct {
		Attacker      int    `json:"attacker"`
		Defender      int    `json:"defender"`
		Sent          int64  `json:"sent"`
		Defended      int64  `json:"defended"`
		AttackersLeft int64  `json:"attackers_left"`
		DefendersLeft int64  `json:"defenders_left"`
		Winner        string `json:"winner"`
		Loot          Stock  `json:"loot"`
	} `json:"war"`
	Refused string `json:"refused"`
}

// read reads one view.
func (r *viewReader) read(_ int64, data []byte) (View, error) {
	var j wireView
	if err := json.Unmarshal(data, &j); err != nil {
		return View{}, fmt.Errorf("tncc: view: %w", err)
	}
	n := len(r.players)
	switch {
	case j.You == nil || j.Numbers == nil || j.Countries == nil || j.Recent == nil:
		return View{}, errors.New("tncc: view: you, cycle, numbers, countries and recent are required")
	case *j.You != r.seat:
		return View{}, fmt.Errorf("tncc: view: it is country %d's; this seat is country %d", *j.You+1, r.seat+1)
	case j.Cycle < 1 || j.Cycle > r.preset.MaxCycles:
		return View{}, fmt.Errorf("tncc: view: cycle %d of a game of %d", j.Cycle, r.preset.MaxCycles)
	case j.MaxCycles != r.preset.MaxCycles:
		return View{}, fmt.Errorf("tncc: view: max_cycles %d; the hello's preset has %d", j.MaxCycles, r.preset.MaxCycles)
	case len(j.Countries) != n:
		return View{}, fmt.Errorf("tncc: view: %d countries for %d players", len(j.Countries), n)
	case j.Offer != nil && j.Attack != nil:
		return View{}, errors.New("tncc: view: an offer and an attack at once")
	}
	var numbers Preset
	if err := json.Unmarshal(j.Numbers, &numbers); err != nil {
		return View{}, fmt.Errorf("tncc: view: numbers: %w", err)
	}
	if numbers != r.preset {
		return View{}, errors.New("tncc: view: its numbers are not those of the hello's preset")
	}
	w := World{Preset: r.preset, Cycle: j.Cycle, Countries: make([]Country, n)}
	for i, c := range j.Countries {
		for k, p := range []*int64{c.Gold, c.Food, c.Citizens, c.Army, c.Land} {
			if p == nil || *p < 0 {
				return View{}, fmt.Errorf("tncc: view: countries[%d]: %s is missing or negative", i, Resource(k))
			}
			w.Countries[i].Stock[k] = *p
		}
		w.Countries[i].Dead, w.Countries[i].Died = c.Dead, c.Died
		if c.Dead != (c.Died > 0) || c.Died > j.Cycle {
			return View{}, fmt.Errorf("tncc: view: countries[%d]: dead %v in cycle %d, in cycle %d", i, c.Dead, c.Died, j.Cycle)
		}
	}
	if w.Countries[r.seat].Dead {
		return View{}, fmt.Errorf("tncc: view: country %d, the seat's, is dead and asked nothing", r.seat+1)
	}
	// The history: the entries before the last cycle as the views before
	// told them, then this cycle's and the last's.
	if j.Cycle < r.cycle {
		return View{}, fmt.Errorf("tncc: view: cycle %d, after a view of cycle %d", j.Cycle, r.cycle)
	}
	known := r.known[:0:0]
	for _, e := range r.known {
		if e.Cycle > j.Cycle-recent {
			break
		}
		known = append(known, e)
	}
	for i, x := range j.Recent {
		e, err := x.entry(n, j.Cycle)
		if err != nil {
			return View{}, fmt.Errorf("tncc: view: recent[%d]: %w", i, err)
		}
		if e.Cycle <= j.Cycle-recent || len(known) > 0 && e.Cycle < known[len(known)-1].Cycle {
			return View{}, fmt.Errorf("tncc: view: recent[%d] is of cycle %d, out of order in cycle %d", i, e.Cycle, j.Cycle)
		}
		known = append(known, e)
	}
	m := &Match{world: w, reqs: requests(), players: r.players, living: w.Living()}
	m.hist.log = make([]logEntry, 0, len(known))
	for _, e := range known {
		m.hist.add(e)
	}
	m.noteSampledDeaths()
	m.serial = int64(m.hist.len()) + 1
	switch {
	case j.Offer != nil:
		o := j.Offer
		if o.From < 0 || o.From >= n || o.From == r.seat || !o.Give.Valid() || !o.Take.Valid() || o.GiveN < 0 || o.TakeN < 0 {
			return View{}, fmt.Errorf("tncc: view: an offer from country %d of %d %v for %d %v", o.From+1, o.GiveN, o.Give, o.TakeN, o.Take)
		}
		m.next, m.phase = o.From, tradePhase
		m.action = TradeMove(r.seat, o.Give, o.GiveN, o.Take, o.TakeN)
		m.asked(r.seat, tradeRequest, m.serial)
	case j.Attack != nil:
		a := j.Attack
		if a.From < 0 || a.From >= n || a.From == r.seat || a.Sent < 0 {
			return View{}, fmt.Errorf("tncc: view: an attack from country %d with %d soldiers", a.From+1, a.Sent)
		}
		// The view tells the soldiers sent in all, never how they are
		// split: the match read back holds them on one flank, which
		// nothing shows (Attack tells the sum).
		m.next, m.phase = a.From, warPhase
		m.action = WarMove(r.seat, Flanks{0, a.Sent, 0})
		m.asked(r.seat, warRequest, m.serial)
	default:
		m.next, m.phase = r.seat, turnPhase
		m.asked(r.seat, turnRequest, m.serial)
	}
	r.known, r.cycle = known, j.Cycle
	return View{m: m, seat: r.seat}, nil
}

// entry reads a history entry of a game of n countries in cycle now.
func (x *wireEntry) entry(n, now int) (Entry, error) {
	e := Entry{Cycle: x.Cycle, Seat: x.Seat, Refused: x.Refused}
	if x.Cycle < 1 || x.Cycle > now || x.Seat < 0 || x.Seat >= n {
		return e, fmt.Errorf("cycle %d, country %d", x.Cycle, x.Seat+1)
	}
	t, err := moveNames.Parse(x.Action, "action")
	if err != nil || !MoveType(t).IsAction() || moveNames[t] != x.Action {
		return e, fmt.Errorf("action %q; want wait, recruit, trade or war", x.Action)
	}
	e.Type = MoveType(t)
	fields := x.N != nil || x.Trade != nil || x.War != nil
	switch e.Type {
	case Recruit:
		if x.N == nil || x.Trade != nil || x.War != nil {
			return e, errors.New("a recruit has its n, and nothing else")
		}
		e.N, fields = *x.N, false
	case Trade:
		o := x.Trade
		if o == nil || x.N != nil || x.War != nil || o.With < 0 || o.With >= n || o.With == x.Seat || !o.Give.Valid() || !o.Take.Valid() {
			return e, errors.New("a trade has its trade, with another country, and nothing else")
		}
		e.Offer = Offer{From: x.Seat, With: o.With, Give: o.Give, GiveN: o.GiveN, Take: o.Take, TakeN: o.TakeN}
		e.Accepted, fields = o.Accepted, false
	case War:
		b := x.War
		if b == nil || x.N != nil || x.Trade != nil || b.Attacker != x.Seat || b.Defender < 0 || b.Defender >= n || b.Defender == x.Seat {
			return e, errors.New("a war has its war, of the country that made it on another, and nothing else")
		}
		o, err := outcomeNames.Parse(b.Winner, "winner")
		if err != nil || outcomeNames[o] != b.Winner {
			return e, fmt.Errorf("a war's winner %q; want tie, attacker or defender", b.Winner)
		}
		e.Battle = Battle{Attacker: b.Attacker, Defender: b.Defender, Sent: b.Sent, Defended: b.Defended,
			AttackersLeft: b.AttackersLeft, DefendersLeft: b.DefendersLeft, Outcome: Outcome(o), Loot: b.Loot}
		fields = false
	}
	if fields {
		return e, fmt.Errorf("a %v with the fields of another action", e.Type)
	}
	if e.Refused != "" && e.Type != Wait {
		return e, fmt.Errorf("a %v that was refused; a refused action is a wait", e.Type)
	}
	return e, nil
}
