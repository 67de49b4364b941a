package territories

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// View is what a seat sees when it decides: the whole board and what it is
// asked, but not the dice. Nothing a view offers holds the match's random
// generator or its seed, so no seat can tell the next battle's roll. It is
// valid until the match moves on.
type View struct {
	m    *Match
	seat int
}

// You returns the viewer's seat.
func (v View) You() int { return v.seat }

// Kind returns what the viewer is asked: JoinKind or ActionKind.
func (v View) Kind() engine.Kind { return v.m.req[0].Kind }

// World returns a copy of the game as the seat may see it: the nations,
// the holdings and the turn, on the configuration without its seed. Try
// actions on it, or on a Clone of it, freely: its dice are not the
// match's (an attack tried on it rolls, but its roll says nothing of the
// match's next one), and it is copied afresh at every call.
func (v View) World() *World { return v.m.board() }

// Config returns the map's territories and numbers, without the seed.
func (v View) Config() *Config { return v.m.seen.cfg }

// Nation returns the viewer's nation in the world, or -1 before it joins.
func (v View) Nation() int { return v.m.nationOf(v.seat) }

// NationOfSeat returns seat's nation in the world, or -1.
func (v View) NationOfSeat(seat int) int { return v.m.nationOf(seat) }

// Player returns the viewer's player name in the world ("seat 2").
func (v View) Player() string { return v.m.players[v.seat] }

// Legal returns every action the viewer may take now, in a fixed order:
// for a join, one per free territory; for an action, every raise, move
// (each number of armies) and attack, then pass.
func (v View) Legal() []Action {
	if v.Kind() == JoinKind {
		return slices.Clone(v.m.choices)
	}
	return v.m.w.Legal(v.Nation())
}

// Legal returns every move, raise and attack nation k may make now, then
// pass when turn management is on; nil when it may not act.
func (w *World) Legal(k int) []Action {
	if k < 0 || !w.nations[k].In() || !w.Started() || (w.cfg.TurnManagement && w.nations[k].ActionsLeft() == 0) {
		return nil
	}
	var out []Action
	cfg := w.cfg
	for i, h := range w.held {
		if h.Nation != k {
			continue
		}
		id := cfg.Territories[i].ID
		if h.Armies < cfg.MaxArmies {
			out = append(out, RaiseAction(id))
		}
		for _, j := range cfg.neighbors[i] {
			to := w.held[j]
			switch {
			case to.Nation >= 0 && to.Nation != k:
				out = append(out, AttackAction(id, cfg.Territories[j].ID))
			default:
				for n := 1; n <= h.Armies && to.Armies+n <= cfg.MaxArmies; n++ {
					out = append(out, MoveAction(id, n, cfg.Territories[j].ID))
				}
			}
		}
	}
	if w.cfg.TurnManagement {
		out = append(out, PassAction)
	}
	return out
}

// Check says why the rules would refuse a, or nil: a person is told why
// and asked again.
func (v View) Check(a Action) error {
	if err := v.m.asked(v.seat, a); err != nil {
		return err
	}
	_, err := v.m.board().Clone().Apply(v.Player(), a)
	return err
}

// Complete completes a partly typed action for a person at a terminal.
func (v View) Complete(line string) []string {
	var out []string
	for _, a := range v.Legal() {
		if s := a.String(); strings.HasPrefix(strings.ToLower(s), strings.ToLower(line)) {
			out = append(out, s)
		}
	}
	return out
}

// String shows the board and the question, for a person.
func (v View) String() string {
	var b strings.Builder
	b.WriteString(newBoard(v.m.w).String())
	me := nationNames[v.seat]
	if v.Kind() == JoinKind {
		fmt.Fprintf(&b, "You are seat %d. Found %s on a free territory: join %s TERRITORY.\n", v.seat+1, me, me)
		return b.String()
	}
	k := v.Nation()
	fmt.Fprintf(&b, "You are %s (seat %d), with %s left in turn %d: raise TERRITORY, move FROM[:N] TO, attack FROM TO, or pass.\n",
		me, v.seat+1, plural(v.m.w.nations[k].ActionsLeft(), "action"), v.m.w.Turn())
	return b.String()
}

// MarshalJSON writes what the viewer sees: the seat, the question, and the
// board.
func (v View) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Seat  int         `json:"seat"`
		Kind  engine.Kind `json:"kind"`
		Board Board       `json:"board"`
	}{v.seat, v.Kind(), newBoard(v.m.w)})
}

// Board is the board at one moment, for spectators and reports: a copy
// that prints as text and marshals as JSON.
type Board struct {
	Turn     int           `json:"turn"`
	Nations  []BoardNation `json:"nations"`
	Holdings []holdingJSON `json:"holdings"`
}

// BoardNation is one nation on a Board.
type BoardNation struct {
	Name        string `json:"name"`
	Player      string `json:"player"`
	Color       Color  `json:"color"`
	Territories int    `json:"territories"`
	Armies      int    `json:"armies"`
	Out         int    `json:"out,omitempty"`
}

func newBoard(w *World) Board {
	b := Board{Turn: w.turn, Nations: make([]BoardNation, len(w.nations)), Holdings: []holdingJSON{}}
	for k, n := range w.nations {
		b.Nations[k] = BoardNation{n.Name, n.Player, n.Color, w.Holdings(k), w.Armies(k), n.Out}
	}
	for i, h := range w.held {
		if h.Nation >= 0 {
			b.Holdings = append(b.Holdings, holdingJSON{w.cfg.Territories[i].ID, w.nations[h.Nation].Name, h.Armies})
		}
	}
	return b
}

// String shows each nation with its territories and armies.
func (b Board) String() string {
	var s strings.Builder
	if b.Turn > 0 {
		fmt.Fprintf(&s, "turn %d\n", b.Turn)
	}
	if len(b.Nations) == 0 {
		s.WriteString("no nations yet\n")
	}
	for _, n := range b.Nations {
		var held []string
		for _, h := range b.Holdings {
			if h.Nation == n.Name {
				held = append(held, fmt.Sprintf("%s %d", h.Territory, h.Armies))
			}
		}
		if n.Out != 0 {
			fmt.Fprintf(&s, "%-10s %-10s %s  out of the game (action %d)\n", n.Name, n.Player, n.Color, n.Out)
			continue
		}
		fmt.Fprintf(&s, "%-10s %-10s %s  %s, %s: %s\n", n.Name, n.Player, n.Color, plural(n.Territories, "territory"), plural(n.Armies, "army"), strings.Join(held, ", "))
	}
	return s.String()
}
