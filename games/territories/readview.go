package territories

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

var _ engine.ViewReader[View] = Game{}

// ReadViews returns a reader of the views a seat's player is sent as JSON
// (docs/protocol.md), each read back into the View the player is given in
// process (engine.ViewReader): World, Config, Legal, Check, String, the
// search's Sample and the built-in bots read it as they read the match's
// own. info is the match as its hello tells it: the seat, the players and
// the options (the board, whose configuration the view's map must be, and
// the turns).
//
// The JSON holds all a view holds: the board whole (the nations with
// their actions in the turn and the turn any went out, every holding, the
// turn), what happened since the seat's last action, and the request's id,
// which counts the actions accepted before it (World's Seq). The names of
// the players are the hello's.
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
// holds what the view shows.
type viewReader struct {
	info engine.MatchInfo
	// cfg is the configuration the views read back play on, blind the
	// seat's copy of it that they hand out (View.Config), the same from
	// one view to the next as in process.
	cfg, blind *Config
	mapJSON    string
	seats      int
}

// wireView is a view's JSON, as View.MarshalJSON writes it; what a view
// must have is a pointer, nil when the JSON has not it.
type wireView struct {
	Seat        *int            `json:"seat"`
	Kind        engine.Kind     `json:"kind"`
	Nation      string          `json:"nation"`
	ActionsLeft int             `json:"actions_left"`
	MaxArmies   int             `json:"max_armies"`
	Map         json.RawMessage `json:"map"`
	Board       *struct {
		Turn     int           `json:"turn"`
		Nations  []wireNation  `json:"nations"`
		Holdings []holdingJSON `json:"holdings"`
	} `json:"board"`
	LastActionSeq   *int      `json:"last_action_seq"`
	SinceLastAction []Outcome `json:"since_last_action"`
}

// wireNation is a nation of a view's board (viewNation).
type wireNation struct {
	Name        string `json:"name"`
	Player      string `json:"player"`
	Color       Color  `json:"color"`
	Territories int    `json:"territories"`
	Armies      int    `json:"armies"`
	Out         int    `json:"out"`
	OutTurn     int    `json:"out_turn"`
	Allowed     *int   `json:"allowed"`
	Used        *int   `json:"used"`
	Passed      *bool  `json:"passed"`
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
	case j.LastActionSeq == nil || j.SinceLastAction == nil:
		return View{}, errors.New("territories: view: last_action_seq and since_last_action are required (an arbiter older than this reader sends neither)")
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
	s := snapshot{Seq: int(id - 1), Turn: j.Board.Turn, Nations: make([]nationJSON, len(nations)), Holdings: j.Board.Holdings}
	dice, _ := rand.NewPCG(blindDice[0], blindDice[1]).MarshalBinary()
	s.Dice = dice
	var events []engine.Event
	for k, n := range nations {
		if n.Name != nationNames[k] || n.Player != seatPlayer(k) {
			return View{}, fmt.Errorf("territories: view: nation %d is %s of %s; seat %d's is %s of %s", k+1, n.Name, n.Player, k+1, nationNames[k], seatPlayer(k))
		}
		if n.Territories != held[k] || n.Out != 0 && held[k] != 0 || n.Out < 0 || n.Out >= int(id) {
			return View{}, fmt.Errorf("territories: view: nation %s holds %d territories, %d by the holdings, out at action %d", n.Name, n.Territories, held[k], n.Out)
		}
		if (n.Out == 0) != (n.OutTurn == 0) || n.OutTurn < 0 || n.OutTurn > j.Board.Turn {
			return View{}, fmt.Errorf("territories: view: nation %s out at action %d in turn %d; a nation out of the game went out in a turn so far, one in it in none", n.Name, n.Out, n.OutTurn)
		}
		if n.Allowed == nil || n.Used == nil || n.Passed == nil {
			return View{}, fmt.Errorf("territories: view: nation %s: allowed, used and passed are required (an arbiter older than this reader sends none)", n.Name)
		}
		s.Nations[k] = nationJSON{Name: n.Name, Player: n.Player, Color: n.Color, Joined: k + 1, Out: n.Out,
			Allowed: *n.Allowed, Used: *n.Used, Passed: *n.Passed}
		if n.Out != 0 {
			events = append(events, engine.Event{Clock: n.OutTurn, Kind: "out", Seats: []int{k}, Mark: true, Text: fmt.Sprintf("%s is out of the game", n.Name)})
		}
	}
	// The chronicle's events are in the order the nations went out.
	slices.SortFunc(events, func(a, b engine.Event) int { return nations[a.Seats[0]].Out - nations[b.Seats[0]].Out })
	state, err := json.Marshal(s)
	if err != nil {
		return View{}, err
	}
	w, err := LoadWorld(r.cfg, state)
	if err != nil {
		return View{}, fmt.Errorf("territories: view: %w", err)
	}
	if k := seat; k < len(w.nations) && w.nations[k].ActionsLeft() != j.ActionsLeft {
		n := &w.nations[k]
		return View{}, fmt.Errorf("territories: view: %d actions left, where %s has used %d of %d (passed %v)", j.ActionsLeft, n.Name, n.Used, n.Allowed, n.Passed)
	}
	m, err := newMatch(engine.Setup{Players: r.info.Players, Options: r.info.Options})
	if err != nil {
		return View{}, err
	}
	if err := r.readRecent(m, seat, int(id-1), *j.LastActionSeq, j.Kind, j.SinceLastAction); err != nil {
		return View{}, err
	}
	w.untracked = true
	m.w = w
	m.events = events
	m.blind[seat] = r.blind
	m.serial = id - 1
	m.ask(seat, j.Kind)
	if j.Kind == JoinKind && len(m.choices) == 0 {
		return View{}, errors.New("territories: view: a join with no free territory")
	}
	return View{m: m, seat: seat}, nil
}

// readRecent puts into m what happened since seat's last action, whose
// seq is last (0 for none, at a join), of the told actions accepted so
// far: the outcomes since, the latest recentSize, and when it acted.
func (r *viewReader) readRecent(m *Match, seat, told, last int, kind engine.Kind, since []Outcome) error {
	switch {
	case kind == JoinKind && last != 0:
		return fmt.Errorf("territories: view: a join, whose seat's last action is action %d; a seat's first action is its join", last)
	case kind == ActionKind && (last < seat+1 || last > told):
		return fmt.Errorf("territories: view: the seat's last action is action %d, of %d so far; its join was action %d", last, told, seat+1)
	}
	acted := max(last-1, 0) // the outcomes before the seat's last
	from := max(acted, told-recentSize)
	if len(since) != told-from {
		return fmt.Errorf("territories: view: %d actions since the seat's last, action %d, of %d so far; want the %d from action %d", len(since), last, told, told-from, from+1)
	}
	for i, o := range since {
		if o.Seq != from+i+1 {
			return fmt.Errorf("territories: view: action %d since the seat's last is numbered %d; want %d", i+1, o.Seq, from+i+1)
		}
		if o.Seq == last && o.Player != seatPlayer(seat) {
			return fmt.Errorf("territories: view: the seat's last action, action %d, is %s's", last, o.Player)
		}
		m.recent[(from+i)%recentSize] = o
	}
	m.told, m.acted[seat] = told, acted
	return nil
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
