package zombie

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// seatNames returns each seat's name as its player and the others read it:
// the name its person was given at creation (a live party's "Ann"), else
// the roster's P1, P2, … A player that is a program, not a person, has no
// name of its own: a built-in bot ("sensible"), a person's seat left
// unnamed ("person"), a person at the terminal ("repl"), a program or a
// URL. Nor has a name of the roster's form that is another seat's (P2 at
// seat 1). Two seats given one name (told apart without case) are each
// told apart by their roster name: "Sam (P1)", "Sam (P4)".
//
// The names are for people only: the judge's roster, the script and the
// record's result keep P1, P2, …, so a record replays the same whatever
// its seats are called.
func seatNames(players []string) []string {
	names := make([]string, len(players))
	count := map[string]int{}
	for i, p := range players {
		p = strings.TrimSpace(p)
		if !personsName(p, i) {
			names[i] = SeatName(i)
			continue
		}
		names[i] = p
		count[strings.ToLower(p)]++
	}
	for i, n := range names {
		if count[strings.ToLower(n)] > 1 {
			names[i] = n + " (" + SeatName(i) + ")"
		}
	}
	return names
}

// CheckNewName refuses name, given to seat's person as a new match is made,
// when it is the game's own name of another seat: P2 (in any case, or 2)
// at seat 0. Seats are called by their numbers, P1, P2, …, in plans and in
// the script (a seat left unnamed goes by it), so a person called so at
// another seat would be taken for that seat: a party's plans read "P2" as
// seat 1, while the seats' list shows the person of seat 0 as P2, and seat
// 1's plan touching them is refused as touching itself. A seat's own name
// (P1 at seat 0) is no other's. Only new matches are checked: a record made
// before keeps its names, and replays as it did.
func CheckNewName(seat int, name string) error {
	other, ok := ParseSeatName(strings.TrimSpace(name))
	if !ok || other == seat {
		return nil
	}
	return fmt.Errorf("the name %q is the game's own name of seat %d (%s): seats are called P1, P2, … by their numbers, in plans and in the script (a seat left unnamed goes by it), so a person called so at seat %d would be taken for seat %d; give seat %d another name, its own (%s), or none",
		name, other, SeatName(other), seat, other, seat, SeatName(seat))
}

// CheckNewName refuses a name given to seat's person in a new match
// (CheckNewName).
func (Game) CheckNewName(seat int, name string) error { return CheckNewName(seat, name) }

// CheckNewName refuses a name given to seat's person in a new match
// (CheckNewName).
func (Judging) CheckNewName(seat int, name string) error { return CheckNewName(seat, name) }

// personsName reports whether player p of seat is a person's own name (see
// seatNames).
func personsName(p string, seat int) bool {
	switch {
	case p == "", p == "person", p == "repl", p == SeatName(seat):
		return false
	case strings.HasPrefix(p, "exec:"), strings.Contains(p, "://"):
		return false
	}
	if _, ok := ParseSeatName(p); ok {
		return false
	}
	for _, bot := range roster {
		if p == bot.Name {
			return false
		}
	}
	return true
}

// name returns seat's name (see seatNames); P1, P2, … for a match made
// without names.
func (m *Match) name(seat int) string {
	if seat >= 0 && seat < len(m.names) {
		return m.names[seat]
	}
	return SeatName(seat)
}

// PlayerName returns the name of seat's player (from 0), as the players
// read it: the name given to the seat's person, else P1, P2, … (see
// seatNames).
func (m *Match) PlayerName(seat int) string { return m.name(seat) }

// who names seat in a refusal, both ways a mover may have written it: by
// its number from 0 (a plan's JSON) and by its roster name from P1 (the
// plan's text), with its player's name when it has one: "Ann (seat 0,
// P1)", "P4 (seat 3)".
func (m *Match) who(seat int) string {
	if n := m.name(seat); n != SeatName(seat) {
		return fmt.Sprintf("%s (seat %d, %s)", n, seat, SeatName(seat))
	}
	return fmt.Sprintf("%s (seat %d)", SeatName(seat), seat)
}

// called names seat for a person, who writes plans in P1, P2, …: "P4",
// or with its player's name when it has one, "Ann (P1)".
func (m *Match) called(seat int) string {
	if n := m.name(seat); n != SeatName(seat) {
		return fmt.Sprintf("%s (%s)", n, SeatName(seat))
	}
	return SeatName(seat)
}

// noPlayer refuses a person's contact with seat, which is not one, in the
// words of a plan's text: "there is no P9; the players are P1 to P5", with
// their players' names when any has one.
func (m *Match) noPlayer(seat int) string {
	s := "there is no such player"
	if seat >= 0 {
		s = "there is no " + SeatName(seat)
	}
	s += fmt.Sprintf("; the players are P1 to P%d", m.n)
	if list := m.named(); list != "" {
		s += " (" + list + ")"
	}
	return s
}

// named lists the players' names, "Ann, Bob, Cat, P4, P5", when any has a
// name of its own; else "".
func (m *Match) named() string {
	named := false
	for i := range m.n {
		named = named || m.name(i) != SeatName(i)
	}
	if !named {
		return ""
	}
	list := make([]string, m.n)
	for i := range list {
		list[i] = m.name(i)
	}
	return strings.Join(list, ", ")
}

// noSeat refuses a contact with seat, which is not one: the seats are 0 to
// n-1, P1 to Pn, and their players' names when any has one.
func (m *Match) noSeat(seat int) string {
	s := "there is no seat " + strconv.Itoa(seat)
	if seat >= 0 {
		s += " (" + SeatName(seat) + ")"
	}
	s += fmt.Sprintf("; the seats are 0 to %d (P1 to P%d", m.n-1, m.n)
	if list := m.named(); list != "" {
		s += ": " + list
	}
	return s + ")"
}

// transcript returns the judge's transcript with the players' names (see
// seatNames) in place of the roster's: the lines a person reads.
func (m *Match) transcript() *Transcript {
	t := *m.judge.Transcript()
	t.Players = append([]Player(nil), t.Players...)
	for i := range t.Players {
		t.Players[i].Name = m.name(i)
	}
	return &t
}

// ReadMove reads a plan sent to the match (engine.MoveReader), its players
// named as a plan's text names them (P2, 2) or by the names their seats
// were given (Bob, Bob/p), in its text or as a touch's "with": a party's
// players go by their names. The plan read names seats by number.
func (m *Match) ReadMove(data []byte) (Plan, error) {
	var p Plan
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '"' {
		var text string
		if err := json.Unmarshal(t, &text); err != nil {
			return p, fmt.Errorf("plan: %w", err)
		}
		fields := strings.Fields(text)
		for i, f := range fields {
			if strings.Contains(f, "=") || strings.EqualFold(f, "end") {
				continue
			}
			name, suffix, _ := strings.Cut(f, "/")
			seat, err := m.seatNamed(name)
			if err != nil {
				return p, fmt.Errorf("plan %q: %w", text, err)
			}
			fields[i] = SeatName(seat)
			if suffix != "" || strings.HasSuffix(f, "/") {
				fields[i] += "/" + suffix
			}
		}
		if err := p.UnmarshalText([]byte(strings.Join(fields, " "))); err != nil {
			return p, fmt.Errorf("plan %q: %w", text, err)
		}
		return p, nil
	}
	// An object: a touch's "with" may be a name.
	var loose struct {
		Touch []map[string]json.RawMessage `json:"touch"`
	}
	if json.Unmarshal(data, &loose) == nil && len(loose.Touch) > 0 {
		changed := false
		for _, t := range loose.Touch {
			var name string
			if json.Unmarshal(t["with"], &name) != nil {
				continue
			}
			seat, err := m.seatNamed(name)
			if err != nil {
				return p, fmt.Errorf("plan: touch.with: %w", err)
			}
			t["with"] = json.RawMessage(strconv.Itoa(seat))
			changed = true
		}
		if changed {
			var whole map[string]json.RawMessage
			if err := json.Unmarshal(data, &whole); err != nil {
				return p, fmt.Errorf("plan: %w", err)
			}
			touch, err := json.Marshal(loose.Touch)
			if err != nil {
				return p, err
			}
			whole["touch"] = touch
			if data, err = json.Marshal(whole); err != nil {
				return p, err
			}
		}
	}
	err := json.Unmarshal(data, &p)
	return p, err
}

// seatNamed returns the seat a plan names: P<n> or <n> (from 1), or the
// name the seat was given, in any case.
func (m *Match) seatNamed(name string) (int, error) {
	if seat, ok := ParseSeatName(name); ok {
		return seat, nil
	}
	for s := range m.n {
		if strings.EqualFold(m.name(s), name) {
			return s, nil
		}
	}
	names := make([]string, m.n)
	for s := range names {
		// A name two seats share is already told by its seat: "Bob (P2)".
		names[s] = m.name(s)
		if tag := " (" + SeatName(s) + ")"; names[s] != SeatName(s) && !strings.HasSuffix(names[s], tag) {
			names[s] += tag
		}
	}
	return 0, fmt.Errorf("%q is no player; the players are %s", name, strings.Join(names, ", "))
}
