package territories

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// matchSnapshot is the full state of a match: what its hash is made of,
// and what Restore resumes it from. Beyond the world with its dice, it
// holds whose decision is owed (a seat's join or its next action) and the
// request's id, how a finished game ended, and the chronicle's events;
// and, so that it is restored under its own setup only, its seats, turns
// and a digest of its map (see boardDigest).
type matchSnapshot struct {
	Game   string          `json:"game"`
	Seats  int             `json:"seats"`
	Turns  int             `json:"turns"`
	Board  string          `json:"board"`
	World  json.RawMessage `json:"world"`
	Seat   int             `json:"seat"`
	Kind   engine.Kind     `json:"kind"`
	Serial int64           `json:"serial"`
	Over   bool            `json:"over,omitempty"`
	Reason string          `json:"reason,omitempty"`
	Events []engine.Event  `json:"events,omitempty"`
	// Told counts the actions accepted; Recent are the latest of them
	// (up to recentSize), oldest first, for people's views; Acted is, per
	// seat, Told when its last action was accepted.
	Told   int            `json:"told,omitempty"`
	Recent []outcomeState `json:"recent,omitempty"`
	Acted  []int          `json:"acted,omitempty"`
}

// outcomeState is an outcome whole, as a snapshot keeps it: every field,
// not only those of its action.
type outcomeState Outcome

// snapshotGame names the game in its snapshots.
const snapshotGame = "territories"

// MarshalJSON returns a snapshot of the full state (see matchSnapshot).
// It holds the dice, and so every roll to come: it is for storage only,
// never for a seat's or a spectator's eyes.
func (m *Match) MarshalJSON() ([]byte, error) {
	w, err := m.w.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return json.Marshal(matchSnapshot{Game: snapshotGame, Seats: m.seats, Turns: m.turns, Board: digest(&m.mapDigest, m.w.cfg),
		World: w, Seat: m.req[0].Seat, Kind: m.req[0].Kind, Serial: m.serial, Over: m.over, Reason: m.reason, Events: m.events,
		Told: m.told, Recent: m.latest(), Acted: m.acted})
}

// latest returns the outcomes the match keeps, oldest first.
func (m *Match) latest() []outcomeState {
	var out []outcomeState
	for k := max(m.told-recentSize, 0); k < m.told; k++ {
		out = append(out, outcomeState(m.recent[k%recentSize]))
	}
	return out
}

// restoreRecent restores the latest outcomes and when each seat acted.
func (m *Match) restoreRecent(s *matchSnapshot) error {
	if s.Told < 0 || len(s.Recent) != min(s.Told, recentSize) {
		return fmt.Errorf("%d outcomes kept of %d told; want the latest %d", len(s.Recent), s.Told, min(max(s.Told, 0), recentSize))
	}
	if s.Acted != nil && len(s.Acted) != m.seats {
		return fmt.Errorf("acted has %d seats; the game has %d", len(s.Acted), m.seats)
	}
	for seat, k := range s.Acted {
		if k < 0 || k > s.Told {
			return fmt.Errorf("acted[%d] is %d; want 0 to %d", seat, k, s.Told)
		}
		m.acted[seat] = k
	}
	m.told = s.Told
	for i, o := range s.Recent {
		m.recent[(s.Told-len(s.Recent)+i)%recentSize] = Outcome(o)
	}
	return nil
}

// Restore resumes the match of setup from a snapshot made by MarshalJSON
// (see engine.Restorer). The snapshot holds the dice: it is for storage
// only.
func (g Game) Restore(setup engine.Setup, data []byte) (engine.Match[Action, View], error) {
	return g.RestoreMatch(setup, data)
}

// RestoreMatch is Restore with the concrete type.
func (Game) RestoreMatch(setup engine.Setup, data []byte) (*Match, error) {
	var s matchSnapshot
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, engine.SnapshotProblem(snapshotGame, data, err)
	}
	if s.Game != snapshotGame {
		return nil, fmt.Errorf("territories: the snapshot is of a %q match, not of territories", s.Game)
	}
	m, err := newMatch(setup)
	if err != nil {
		return nil, err
	}
	if s.Seats != m.seats || s.Turns != m.turns || s.Board != digest(&m.mapDigest, m.w.cfg) {
		return nil, fmt.Errorf("territories: the snapshot is of a game of %d seats and %d turns on map %s; the setup's has %d and %d on map %s",
			s.Seats, s.Turns, s.Board, m.seats, m.turns, m.mapDigest)
	}
	if m.w, err = LoadWorld(m.w.cfg, s.World); err != nil {
		return nil, fmt.Errorf("territories: snapshot: %w", err)
	}
	m.w.untracked = true
	if err := m.restoreSeats(); err != nil {
		return nil, fmt.Errorf("territories: snapshot: %w", err)
	}
	if err := m.restoreEvents(s.Events); err != nil {
		return nil, fmt.Errorf("territories: snapshot: %w", err)
	}
	if err := m.restoreRequest(&s); err != nil {
		return nil, fmt.Errorf("territories: snapshot: %w", err)
	}
	if err := m.restoreRecent(&s); err != nil {
		return nil, fmt.Errorf("territories: snapshot: %w", err)
	}
	return m, nil
}

// restoreSeats checks that the world's nations are the seats', joined in
// seat order, each under its seat's nation name.
func (m *Match) restoreSeats() error {
	if len(m.w.nations) > m.seats {
		return fmt.Errorf("%d nations for %d seats", len(m.w.nations), m.seats)
	}
	for k := range m.w.nations {
		n := &m.w.nations[k]
		if n.Player != m.players[k] || !strings.EqualFold(n.Name, nationNames[k]) {
			return fmt.Errorf("nation %d is %s of %q; the seats join in order, seat %d as %s", k+1, n.Name, n.Player, k+1, nationNames[k])
		}
	}
	return nil
}

// restoreEvents restores the chronicle: conquests and nations out, of
// the seats.
func (m *Match) restoreEvents(events []engine.Event) error {
	for i, e := range events {
		if e.Kind != "conquest" && e.Kind != "out" {
			return fmt.Errorf("events[%d]: kind %q; want conquest or out", i, e.Kind)
		}
		for _, s := range e.Seats {
			if s < 0 || s >= m.seats {
				return fmt.Errorf("events[%d]: seat %d; seats are 0 to %d", i, s, m.seats-1)
			}
		}
		e.Mark = e.Kind == "out"
		m.events = append(m.events, e)
	}
	return nil
}

// restoreRequest restores the decision owed, or the end of the game: a
// seat's join while seats are joining, in order; then the action of the
// first seat with actions left in the turn.
func (m *Match) restoreRequest(s *matchSnapshot) error {
	joined, w := len(m.w.nations), m.w
	if s.Seat < 0 || s.Seat >= m.seats || s.Serial < 1 {
		return fmt.Errorf("seat %d, request %d; seats are 0 to %d, requests from 1", s.Seat, s.Serial, m.seats-1)
	}
	switch {
	case s.Kind == JoinKind && !s.Over && joined != s.Seat:
		return fmt.Errorf("seat %d is asked to join after %d nations", s.Seat, joined)
	case s.Kind == JoinKind && s.Over && s.Seat != m.seats-1:
		return fmt.Errorf("the game ended at seat %d's join, not the last seat's", s.Seat)
	case s.Kind != JoinKind && s.Kind != ActionKind:
		return fmt.Errorf("kind %q; want %s or %s", s.Kind, JoinKind, ActionKind)
	case (s.Kind == ActionKind || s.Over) && joined != m.seats:
		return fmt.Errorf("%d of %d seats have joined, and the game is past its joins", joined, m.seats)
	}
	if s.Kind == JoinKind && !s.Over && w.Holdings(-1) == 0 {
		return fmt.Errorf("seat %d is asked to join, and no territory is free", s.Seat)
	}
	m.serial = s.Serial - 1
	m.ask(s.Seat, s.Kind)
	if s.Over {
		want := m.ending()
		if want == "" || s.Reason != want {
			return fmt.Errorf("the game ended for %q; its world says %q", s.Reason, want)
		}
		m.end(want)
		return nil
	}
	if s.Reason != "" {
		return fmt.Errorf("a game under way has no end (%q)", s.Reason)
	}
	if s.Kind == ActionKind {
		if want := m.ending(); want != "" {
			return fmt.Errorf("the game is under way, but its world says it ended: %s", want)
		}
		if first := m.firstToAct(); first != s.Seat {
			return fmt.Errorf("seat %d is asked to act; the first seat with actions left is %d", s.Seat, first)
		}
	}
	return nil
}

// ending returns why the game is over once every seat has joined (see
// next), or "" while it goes on.
func (m *Match) ending() string {
	switch {
	case m.w.InGame() <= 1:
		return "one nation left"
	case m.w.Turn() > m.turns:
		return fmt.Sprintf("%d turns played", m.turns)
	case m.firstToAct() < 0:
		return "no nation can act"
	}
	return ""
}

// firstToAct returns the first seat with actions left in the turn, or -1.
func (m *Match) firstToAct() int {
	for s := range m.seats {
		if k := m.nationOf(s); k >= 0 && m.w.nations[k].ActionsLeft() > 0 {
			return s
		}
	}
	return -1
}

// digest returns the digest of cfg (see boardDigest), made once into
// *cached.
func digest(cached *string, cfg *Config) string {
	if *cached == "" {
		*cached = boardDigest(cfg)
	}
	return *cached
}

// boardDigest names a map and its numbers in snapshots: the first 64 bits
// of the SHA-256 of its configuration's JSON, without the seed.
func boardDigest(cfg *Config) string {
	d := *cfg
	d.Seed = nil
	sum := sha256.Sum256(d.JSON())
	return hex.EncodeToString(sum[:8])
}

// refereeSnapshot is the full state of a refereed game: the world with its
// dice (as LoadWorld reads it), the digest of its map, and the last
// action's outcome, which the board shows (not its dice: the log has them).
type refereeSnapshot struct {
	Game   string          `json:"game"`
	Board  string          `json:"board"`
	World  json.RawMessage `json:"world"`
	Last   *Outcome        `json:"last,omitempty"`
	Events []engine.Event  `json:"events,omitempty"`
	// TurnFrom is the action that began the turn under way (Refereed's
	// turnFrom); none in the first turn.
	TurnFrom int `json:"turn_from,omitempty"`
}

// refereeGame names the refereed game in its snapshots.
const refereeGame = "territories (referee)"

// MarshalJSON is the full state: the world with its dice, and so every
// roll to come. It is for storage only.
func (m *Refereed) MarshalJSON() ([]byte, error) {
	w, err := m.w.MarshalJSON()
	if err != nil {
		return nil, err
	}
	s := refereeSnapshot{Game: refereeGame, Board: digest(&m.mapDigest, m.w.cfg), World: w, Events: m.events, TurnFrom: m.turnFrom}
	if m.last.Seq > 0 {
		s.Last = &m.last
	}
	return json.Marshal(s)
}

// Restore resumes the game of setup from a snapshot made by MarshalJSON
// (see engine.Restorer). It is for storage only.
func (r Referee) Restore(setup engine.Setup, data []byte) (engine.Match[Call, Board], error) {
	var s refereeSnapshot
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, engine.SnapshotProblem(refereeGame, data, err)
	}
	if s.Game != refereeGame {
		return nil, fmt.Errorf("%s: the snapshot is of a %q match, not of %s", refereeGame, s.Game, refereeGame)
	}
	m, err := r.New(setup)
	if err != nil {
		return nil, err
	}
	g := m.(*Refereed)
	if d := digest(&g.mapDigest, g.w.cfg); s.Board != d {
		return nil, fmt.Errorf("%s: the snapshot is of a game on map %s; the setup's is on map %s", refereeGame, s.Board, d)
	}
	if g.w, err = LoadWorld(g.w.cfg, s.World); err != nil {
		return nil, fmt.Errorf("%s: snapshot: %w", refereeGame, err)
	}
	if s.Last != nil {
		g.last = *s.Last
	}
	if s.TurnFrom < 0 || s.TurnFrom > g.w.Seq() {
		return nil, fmt.Errorf("%s: snapshot: turn_from %d; the game is at action %d", refereeGame, s.TurnFrom, g.w.Seq())
	}
	g.turnFrom = s.TurnFrom
	for i, e := range s.Events {
		if e.Kind != "conquest" && e.Kind != "out" || len(e.Seats) > 0 {
			return nil, fmt.Errorf("%s: snapshot: events[%d]: %s of seats %v; want a conquest or a nation out, of no seat", refereeGame, i, e.Kind, e.Seats)
		}
		e.Mark = e.Kind == "out"
		g.events = append(g.events, e)
	}
	return g, nil
}
