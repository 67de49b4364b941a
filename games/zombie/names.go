package zombie

import (
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

// noSeat refuses a contact with seat, which is not one: the seats are 0 to
// n-1, P1 to Pn, and their players' names when any has one.
func (m *Match) noSeat(seat int) string {
	s := "there is no seat " + strconv.Itoa(seat)
	if seat >= 0 {
		s += " (" + SeatName(seat) + ")"
	}
	s += fmt.Sprintf("; the seats are 0 to %d (P1 to P%d", m.n-1, m.n)
	named := false
	for i := range m.n {
		named = named || m.name(i) != SeatName(i)
	}
	if named {
		list := make([]string, m.n)
		for i := range list {
			list[i] = m.name(i)
		}
		s += ": " + strings.Join(list, ", ")
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
