package territories

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
)

// Referee is territories as its referee runs it, an engine.Ruleset: no
// seats and no turns asked; the judge (engine.Judge, the application that
// drives the game, a chat bot) makes every move, each an action of a named
// player, as arbiter territories does: {"player": "alice", "action": "join
// Pacifica CA"}. Players come as they join. It is how the game is played
// live in "referee" mode. The game is over when it has started and one
// nation is left.
type Referee struct{}

var refereeInfo = engine.Info{
	Name:     "territories",
	Variant:  "referee",
	Title:    info.Title,
	Version:  RulesVersion,
	MinSeats: 0,
	MaxSeats: 0,
	Clock:    "turn",
	Options: []engine.Option{
		{Name: "board", Usage: `the map's territories and numbers: "sample" (eleven states of the American West) or a configuration's JSON`,
			Kind: engine.StringOption, Default: "sample", File: "config", FileUsage: "a configuration of your own (YAML or JSON)", Load: loadBoard, Warn: boardWarning},
	},
	Rules: rulesText,
}

// Info describes the ruleset.
func (Referee) Info() engine.Info { return refereeInfo }

// New starts a game on the board option's map, its dice drawn from the
// setup's seed.
func (Referee) New(setup engine.Setup) (engine.Match[Call, Board], error) {
	if err := setup.Check(refereeInfo); err != nil {
		return nil, err
	}
	board := Sample()
	if b, ok := setup.Options["board"]; ok && b != "sample" {
		var err error
		if board, err = ParseConfig([]byte(b)); err != nil {
			return nil, fmt.Errorf("option board: %w", err)
		}
	}
	cfg := *board
	seed := setup.Seed
	cfg.Seed = &seed
	w := NewWorld(&cfg)
	return &Refereed{w: w, terr: mapOf(w.cfg)}, nil
}

// Call is one action of a named player, a move of the judge's: its JSON is
// {"player": "alice", "action": "raise CA"}; the judge's own end-turn has
// no player.
type Call struct {
	Player string `json:"player,omitempty"`
	Action Action `json:"action"`
}

// UnmarshalJSON reads a call: its fields, exactly, and an action. A field
// it has not (a misspelt "acton") is refused, naming the fields, where it
// would be dropped and the call refused as no action at all.
func (c *Call) UnmarshalJSON(b []byte) error {
	type plain Call
	var p plain
	if err := engine.DecodeJSON(b, &p); err != nil {
		var action string
		if json.Unmarshal(b, &action) == nil {
			// The action alone, as arbiter territories takes it, without
			// the player who makes it.
			return fmt.Errorf(`a call names the player who acts beside the action: {"player": "alice", "action": %q} (the judge's end-turn: {"action": "end-turn"})`, action)
		}
		return err
	}
	if p.Action.Kind == 0 {
		return fmt.Errorf(`a call has an action, the player's: {"player": "alice", "action": "raise CA"} (the judge's end-turn: {"action": "end-turn"})`)
	}
	*c = Call(p)
	return nil
}

// Refereed is a game of the Referee ruleset under way.
type Refereed struct {
	w         *World
	last      Outcome
	events    []engine.Event // conquests and nations out, of no seat
	mapDigest string         // see digest
	terr      []mapJSON      // the board's territories, made once for its views (see Board.Map)
	// turnFrom is the action that began the turn under way, by ending
	// the one before; 0 in the first turn, which begins at the first
	// action (as arbiter territories counts turn_duration).
	turnFrom int
}

// Pending returns nothing: every action comes from outside.
func (m *Refereed) Pending() []engine.Request[Call] { return nil }

// Spell returns a call with its action's territories by their ids, the
// board's spelling, as the log keeps it (engine.MoveSpeller): "raise ca"
// is raise CA, as arbiter territories stores it. A call that names no
// territory of the board is returned as it is, for Apply to refuse.
func (m *Refereed) Spell(_ int, c Call) Call {
	if a, err := m.w.cfg.Resolve(c.Action); err == nil {
		c.Action = a
	}
	return c
}

// Apply applies a judge's call: the named player's action, or the judge's
// end-turn. Seats make no move (there are none).
func (m *Refereed) Apply(seat int, c Call) error {
	if seat != engine.Judge {
		return engine.Refuse("judge-only", "a refereed game's actions come from its judge, for named players")
	}
	a, err := m.w.cfg.Resolve(c.Action)
	if err != nil {
		return err
	}
	o, err := m.w.Apply(c.Player, a)
	if err != nil {
		return err
	}
	m.last = o
	if o.TurnEnded {
		m.turnFrom = o.Seq
	}
	m.events = told(m.events, o, func(string) []int { return nil })
	return nil
}

// Timed reports whether time ends the game's turns: turn management with
// a turn_duration.
func (m *Refereed) Timed() bool {
	return m.w.cfg.TurnManagement && m.w.cfg.TurnDuration > 0
}

// Due returns the judge's end-turn that is due once the turn_duration has
// passed since action since (the action that began the turn under way:
// the first action, or the one that ended the turn before), and false
// while no turn is timed: before the first action, with no nation in the
// game, or once the game is over. It is what arbiter territories does at
// the first call after the duration, for a live match's host to do when
// the time comes. Idle says nobody has acted in the turn yet: a host that
// ends turns as time passes leaves such a turn to the next call, which
// ends it first, rather than fill the log with empty turns.
func (m *Refereed) Due() (since int64, wait time.Duration, end Call, idle, ok bool) {
	if !m.Timed() || m.w.Seq() == 0 || m.w.InGame() == 0 || m.Over() {
		return 0, 0, Call{}, false, false
	}
	idle = m.turnFrom > 0 && m.w.Seq() == m.turnFrom
	return int64(max(m.turnFrom, 1)), time.Duration(m.w.cfg.TurnDuration), Call{Action: EndTurnAction}, idle, true
}

// Chronicle tells the game's public story: each territory emptied by an
// attack, and each nation out of the game (see engine.Chronicler).
func (m *Refereed) Chronicle() []engine.Event { return append([]engine.Event(nil), m.events...) }

// Last returns the outcome of the last action applied: the referee's answer.
func (m *Refereed) Last() Outcome { return m.last }

// Answer is the last action's outcome as JSON, as arbiter territories
// answers a call: what the caller of a live match's move is told.
func (m *Refereed) Answer() json.RawMessage {
	if m.last.Seq == 0 {
		return nil
	}
	b, err := json.Marshal(m.last)
	if err != nil {
		return nil
	}
	return b
}

// Told returns what the last action did: every action of territories is
// public, as arbiter territories history tells it (engine.Teller). It is
// false before the first action.
func (m *Refereed) Told() (engine.Told, bool) {
	if m.last.Seq == 0 {
		return nil, false
	}
	o := m.last
	o.Dice = nil
	return o, true
}

// World returns the game's world, dice included: the judge's.
func (m *Refereed) World() *World { return m.w }

// View returns the board, with the last action's outcome: nothing in
// territories is hidden.
func (m *Refereed) View(int) Board { return m.board() }

// Public returns the board, with the last action's outcome.
func (m *Refereed) Public() any { return m.board() }

func (m *Refereed) board() Board {
	b := newBoard(m.w)
	b.Map = m.terr
	if m.last.Seq > 0 {
		last := m.last
		b.Last = &last
	}
	return b
}

// Over reports whether one nation is left of a game that has started with
// two or more: a game of one nation so far (min_nations 0 or 1, the
// others yet to join) goes on.
func (m *Refereed) Over() bool { return m.w.Started() && len(m.w.nations) >= 2 && m.w.InGame() == 1 }

// Result says which nation holds the map; a refereed game has no seats to
// score.
func (m *Refereed) Result() engine.Result {
	res := engine.Result{Scores: []int64{}, Ranks: []int{}, Winners: []int{}}
	for k := range m.w.nations {
		if m.w.nations[k].Out == 0 {
			res.Reason = m.w.nations[k].Name + " (" + m.w.nations[k].Player + ") is the last nation"
		}
	}
	return res
}

// Clock is the game's turn.
func (m *Refereed) Clock() int { return m.w.Turn() }

// Plays reports whether player has joined the game (their nation may be
// out since).
func (m *Refereed) Plays(player string) bool { return m.w.NationOf(player) >= 0 }

// Joiner returns the player a judge's call makes join, if it is a join.
func Joiner(c Call) (string, bool) {
	if c.Action.Kind != Join || strings.TrimSpace(c.Player) == "" {
		return "", false
	}
	return c.Player, true
}
