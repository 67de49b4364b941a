package zombie

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// Judging is the Zombie Game run by its judge, as an engine.Ruleset: the
// judge (engine.Judge) enters the script's commands one line at a time, as
// arbiter zombie run reads them, and the seats are the players, who only
// read their sheets (their PRIVATE lines and the PUBLIC ones). It is how
// the game is played live in "judge" mode.
//
// The seats are named by the setup's players (a seat named "person", or
// not named, is P1, P2, ... by its number); the judge enrols each of them
// (HUMAN Ann, ZOMBIE Bob) under that name, in any case, and a command that
// enrols a name no seat has is refused. A seat's sheet is empty until its
// player is enrolled. Seats owe no decision: Pending is always empty.
type Judging struct{}

var scriptInfo = engine.Info{
	Name:     "zombie",
	Variant:  "judge",
	Title:    info.Title,
	Version:  RulesVersion,
	MinSeats: MinSeats,
	MaxSeats: MaxSeats,
	Clock:    "turn",
	Rules:    info.Rules,
}

// Info describes the ruleset.
func (Judging) Info() engine.Info { return scriptInfo }

// New starts a judge's game.
func (Judging) New(setup engine.Setup) (engine.Match[Line, Sheet], error) {
	if err := setup.CheckSeats(scriptInfo); err != nil {
		return nil, err
	}
	if err := setup.CheckOptions(scriptInfo); err != nil {
		return nil, err
	}
	names := append([]string(nil), setup.Players...)
	for i, name := range names {
		if name == "" || name == "person" {
			names[i] = SeatName(i) // a seat left unnamed is P1, P2, ...
		}
	}
	seen := map[string]bool{}
	for i, name := range names {
		if err := checkName(name); err != nil {
			return nil, fmt.Errorf("zombie: seat %d: %w", i, err)
		}
		key := foldName(name)
		if seen[key] {
			return nil, fmt.Errorf("zombie: two seats are called %s (names are told apart without case)", name)
		}
		seen[key] = true
	}
	return &Judged{judge: NewJudge(), names: names}, nil
}

// checkName refuses a seat's name that the script cannot write.
func checkName(name string) error {
	c, ok := ParseLine("HUMAN " + name)
	if !ok || c.Bad != "" || c.Name != name {
		return fmt.Errorf("%q is not a player name of the script (a letter, then letters, digits, _ or -)", name)
	}
	return nil
}

// Line is one line of a judge's script, as JSON a string: "i Ann Bob",
// "NEXT_TURN".
type Line string

// Judged is a game run by its judge: an engine.Match of the Judging ruleset.
type Judged struct {
	judge *Judge
	names []string // the seats' players
	cmds  []Command
}

// Pending returns nothing: the judge's lines answer no request.
func (m *Judged) Pending() []engine.Request[Line] { return nil }

// Apply applies the judge's line; seats make no move. A refused line is a
// rule error with the script's code (E_PHASE, ...), and changes nothing.
func (m *Judged) Apply(seat int, l Line) error {
	if seat != engine.Judge {
		return engine.Refuse("judge-only", "in a game run by its judge, only the judge moves; players read their sheets")
	}
	if n := strings.Count(strings.TrimSpace(string(l)), "\n") + 1; n > 1 {
		return engine.Refuse("one-line", "a move is one line of the script, and this one has %d; send each line as a move of its own, in order", n)
	}
	c, ok := ParseLine(string(l))
	if !ok {
		return engine.Refuse("no-command", "%q holds no command; the commands are HUMAN, ZOMBIE, GAME_START, INTERACT, CURE, END_TURN, NEXT_TURN", string(l))
	}
	if (c.Op == OpHuman || c.Op == OpZombie) && c.Bad == "" && m.seatOf(c.Name) < 0 {
		return engine.Refuse("no-seat", "%s has no seat in this game; the seats are %s", c.Name, strings.Join(m.names, ", "))
	}
	if err := m.judge.Do(c); err != nil {
		var r *Refusal
		if errors.As(err, &r) {
			return engine.Refuse(string(r.Code), "%s", r.Error())
		}
		return err
	}
	m.cmds = append(m.cmds, c)
	return nil
}

// seatOf returns the seat called name, in any case, or -1.
func (m *Judged) seatOf(name string) int {
	key := foldName(name)
	for i, n := range m.names {
		if foldName(n) == key {
			return i
		}
	}
	return -1
}

// rosterOf returns the roster index of seat's player, or -1 before it is
// enrolled.
func (m *Judged) rosterOf(seat int) int {
	if seat < 0 || seat >= len(m.names) {
		return -1
	}
	i, ok := m.judge.Lookup(m.names[seat])
	if !ok {
		return -1
	}
	return i
}

// Sheet is what a seat reads: its own PRIVATE messages and the PUBLIC
// announcements, as arbiter zombie run --private --json writes them; the
// judge's sheet is the whole transcript. It marshals to that JSON.
type Sheet struct {
	m   *Judged
	who int // a roster index, everyone, or nobody
}

// nobody is the audience of the public view: no PRIVATE line at all.
const nobody = -2

// View returns seat's sheet; engine.Judge gets the whole transcript.
func (m *Judged) View(seat int) Sheet {
	if seat == engine.Judge {
		return Sheet{m: m, who: everyone}
	}
	r := m.rosterOf(seat)
	if r < 0 {
		return Sheet{m: m, who: nobody}
	}
	return Sheet{m: m, who: r}
}

// Public returns the public announcements only.
func (m *Judged) Public() any { return Sheet{m: m, who: nobody} }

// MarshalJSON writes the sheet: the transcript's JSON document, compact,
// as json.Marshal writes it.
func (s Sheet) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := s.m.judge.Transcript().writeJSON(&b, s.who); err != nil {
		return nil, err
	}
	return json.Marshal(json.RawMessage(b.Bytes()))
}

// String writes the sheet as the script's output lines.
func (s Sheet) String() string {
	var b bytes.Buffer
	s.m.judge.Transcript().writeText(&b, s.who)
	return b.String()
}

// Over reports whether the game has ended.
func (m *Judged) Over() bool { return m.judge.Phase() == Over }

// Result returns the result as a match of the seats: who won, with the
// ranks and status of Match's results.
func (m *Judged) Result() engine.Result {
	n := len(m.names)
	roster := make([]int, n)
	for s := range roster {
		roster[s] = m.rosterOf(s)
	}
	return judgedResult(m.judge, roster)
}
