package territories

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/arbiter-games/arbiter/engine"
)

var _ engine.ViewReader[View] = Game{}

// ReadViews returns a reader of the views a seat's player is sent as JSON,
// {seat, kind, nation, actions_left, max_armies, map, board}, each read
// back into the View the player is given in process (engine.ViewReader):
// World, Config, Legal, Check, the search's Sample and the built-in bots
// read it as they read the match's own. info is the match as its hello
// tells it: the seat, the players and the options (the board, whose
// configuration the view's map must be, and the turns).
//
// The board is whole in the JSON: the nations, every holding, the turn;
// and the request's id counts the actions accepted before it (World's
// Seq). What the JSON does not tell is how many actions the other nations
// have left in the turn: the nations before the seat's in the turn's
// order have none; each nation after it is given ⌈holdings ÷
// holdings_per_action⌉ as it held at the seat's first action of the turn,
// which is what it has unless a nation before the seat took a territory
// of its in the turn (never for the first seat), and the seat's own count
// is the view's. Nor does it tell what happened since the seat's last
// action, which String shows in process, or in which turn a nation went
// out of the game (String says the action only). The names of the players
// are the hello's.
func (g Game) ReadViews(info engine.MatchInfo) (func(id int64, data []byte) (View, error), error) {
	m, err := newMatch(engine.Setup{Players: info.Players, Options: info.Options})
	if err != nil {
		return nil, err
	}
	if info.Seat < 0 || info.Seat >= m.seats {
		return nil, fmt.Errorf("territories: seat %d of a game of %d seats", info.Seat, m.seats)
	}
	// The match's own configuration holds the seed, here 0: the views
	// read back have the seat's, which has none.
	cfg := *m.w.cfg
	cfg.Seed = nil
	mapJSON, err := json.Marshal(mapOf(&cfg))
	if err != nil {
		return nil, err
	}
	r := &viewReader{info: info, cfg: &cfg, blind: blindConfigs(&cfg, 1)[0], mapJSON: string(mapJSON), seats: m.seats}
	return r.read, nil
}

// viewReader reads one seat's views, each into a match of its own that
// holds what the view shows, and remembers of the turn what its later
// views need: how many actions each nation had at its start.
type viewReader struct {
	info engine.MatchInfo
	// cfg is the configuration the views read back play on, blind the
	// seat's copy of it that they hand out (View.Config), the same from
	// one view to the next as in process.
	cfg, blind *Config
	mapJSON    string
	seats      int
	// turn is the turn of the last view of an action, and allowed the
	// actions each nation had in it, as the seat's first view of the turn
	// showed them.
	turn    int
	allowed []int
}

// wireView is a view's JSON, as View.MarshalJSON writes it.
type wireView struct {
	Seat        *int            `json:"seat"`
	Kind        engine.Kind     `json:"kind"`
	Nation      string          `json:"nation"`
	ActionsLeft int             `json:"actions_left"`
	MaxArmies   int             `json:"max_armies"`
	Map         json.RawMessage `json:"map"`
	Board       *struct {
		Turn     int           `json:"turn"`
		Nations  []BoardNation `json:"nations"`
		Holdings []holdingJSON `json:"holdings"`
	} `json:"board"`
}

// read reads the view of request id.
func (r *viewReader) read(id int64, data []byte) (View, error) {
	var j wireView
	if err := json.Unmarshal(data, &j); err != nil {
		return View{}, fmt.Errorf("territories: view: %w", err)
	}
	seat := r.info.Seat
	switch {
	case j.Seat == nil || j.Board == nil || j.Map == nil:
		return View{}, errors.New("territories: view: seat, kind, nation, map and board are required")
	case *j.Seat != seat:
		return View{}, fmt.Errorf("territories: view: it is seat %d's; this seat is seat %d", *j.Seat+1, seat+1)
	case j.Nation != nationNames[seat]:
		return View{}, fmt.Errorf("territories: view: the nation is %q; seat %d's is %s", j.Nation, seat+1, nationNames[seat])
	case j.MaxArmies != r.cfg.MaxArmies || !sameJSON(j.Map, r.mapJSON):
		return View{}, errors.New("territories: view: its map is not the board of the hello's options")
	case j.Kind != JoinKind && j.Kind != ActionKind:
		return View{}, fmt.Errorf("territories: view: kind %q; want %q or %q", j.Kind, JoinKind, ActionKind)
	case j.Board.Turn < 1:
		return View{}, fmt.Errorf("territories: view: turn %d; turns count from 1", j.Board.Turn)
	case id < 1:
		return View{}, fmt.Errorf("territories: view: request %d; requests count from 1, one per action accepted", id)
	}
	nations := j.Board.Nations
	switch {
	case j.Kind == JoinKind && (len(nations) != seat || id != int64(seat)+1 || j.ActionsLeft != 0):
		return View{}, fmt.Errorf("territories: view: seat %d's join, request %d, with %d nations and %d actions left; the seats join in order, first", seat+1, id, len(nations), j.ActionsLeft)
	case j.Kind == ActionKind && (len(nations) != r.seats || j.ActionsLeft < 1 || id <= int64(r.seats)):
		return View{}, fmt.Errorf("territories: view: an action, request %d, with %d nations of %d seats and %d actions left", id, len(nations), r.seats, j.ActionsLeft)
	}
	held := make([]int, len(nations))
	for _, h := range j.Board.Holdings {
		for k := range nations {
			if nations[k].Name == h.Nation {
				held[k]++
			}
		}
	}
	first := j.Kind == ActionKind && j.Board.Turn != r.turn
	if first {
		// The seat's first action of the turn: no nation after it has
		// acted in it, and it has all its own actions.
		r.turn, r.allowed = j.Board.Turn, make([]int, len(nations))
		for k := range nations {
			r.allowed[k] = ceilDiv(held[k], r.cfg.HoldingsPerAction)
		}
		r.allowed[seat] = j.ActionsLeft
	}
	s := snapshot{Seq: int(id - 1), Turn: j.Board.Turn, Nations: make([]nationJSON, len(nations)), Holdings: j.Board.Holdings}
	dice, _ := rand.NewPCG(blindDice[0], blindDice[1]).MarshalBinary()
	s.Dice = dice
	for k, n := range nations {
		if n.Name != nationNames[k] || n.Player != seatPlayer(k) {
			return View{}, fmt.Errorf("territories: view: nation %d is %s of %s; seat %d's is %s of %s", k+1, n.Name, n.Player, k+1, nationNames[k], seatPlayer(k))
		}
		if n.Territories != held[k] || n.Out != 0 && held[k] != 0 || n.Out < 0 || n.Out >= int(id) {
			return View{}, fmt.Errorf("territories: view: nation %s holds %d territories, %d by the holdings, out at action %d", n.Name, n.Territories, held[k], n.Out)
		}
		x := nationJSON{Name: n.Name, Player: n.Player, Color: n.Color, Joined: k + 1, Out: n.Out}
		switch {
		case n.Out != 0:
		case j.Kind == JoinKind || j.Board.Turn == 1 && k > seat:
			x.Allowed = ceilDiv(1, r.cfg.HoldingsPerAction) // as it joined
		case k < seat:
			x.Allowed, x.Used = r.allowed[k], r.allowed[k] // it has acted in the turn
		case k == seat:
			x.Allowed, x.Used = r.allowed[k], r.allowed[k]-j.ActionsLeft
		default:
			x.Allowed = r.allowed[k]
		}
		if x.Allowed < x.Used || x.Used < 0 {
			return View{}, fmt.Errorf("territories: view: %d actions left of the %d it had in turn %d", j.ActionsLeft, r.allowed[k], r.turn)
		}
		s.Nations[k] = x
	}
	state, err := json.Marshal(s)
	if err != nil {
		return View{}, err
	}
	w, err := LoadWorld(r.cfg, state)
	if err != nil {
		return View{}, fmt.Errorf("territories: view: %w", err)
	}
	m, err := newMatch(engine.Setup{Players: r.info.Players, Options: r.info.Options})
	if err != nil {
		return View{}, err
	}
	w.untracked = true
	m.w = w
	m.blind[seat] = r.blind
	m.serial = id - 1
	m.ask(seat, j.Kind)
	if j.Kind == JoinKind && len(m.choices) == 0 {
		return View{}, errors.New("territories: view: a join with no free territory")
	}
	return View{m: m, seat: seat}, nil
}

// seatPlayer is the world's player of seat: "seat 1" for seat 0.
func seatPlayer(seat int) string { return fmt.Sprintf("seat %d", seat+1) }

// sameJSON reports whether data is want, the same JSON but for spaces.
func sameJSON(data json.RawMessage, want string) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	var w any
	_ = json.Unmarshal([]byte(want), &w)
	c, _ := json.Marshal(w)
	return string(b) == string(c)
}
