package zombie

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// Contact is one interaction a seat asks for: the partner's seat (from 0)
// and the modifier the seat brings to it.
type Contact struct {
	With int `json:"with"`
	Modifier
}

// Plan is one seat's turn in `arbiter play zombie`: the interactions it
// asks for, in order; the guard it shows to interactions it did not ask
// for; whether it cures first (before any interaction) or last (after its
// own interactions); and whether it ends its turn once its own interactions
// are done, so that nobody can touch it any more that turn.
//
// How the plans of a turn become script commands is the match's business;
// see Match.
type Plan struct {
	Touch     []Contact
	Guard     Modifier
	CureFirst bool
	CureLast  bool
	End       bool
}

// planJSON is a plan's JSON form.
type planJSON struct {
	Touch     []Contact `json:"touch"`
	Guard     *Modifier `json:"guard,omitempty"`
	CureFirst bool      `json:"cure_first,omitempty"`
	CureLast  bool      `json:"cure_last,omitempty"`
	End       bool      `json:"end,omitempty"`
}

// MarshalJSON writes {"touch": [{"with": 1, "precaution": true}, {"with": 3,
// "viruses": 2}], "guard": {"precaution": true}, "cure_first": true,
// "cure_last": true, "end": true}, leaving out what is not asked for.
func (p Plan) MarshalJSON() ([]byte, error) {
	j := planJSON{Touch: p.Touch, CureFirst: p.CureFirst, CureLast: p.CureLast, End: p.End}
	if j.Touch == nil {
		j.Touch = []Contact{}
	}
	if !p.Guard.None() {
		g := p.Guard
		j.Guard = &g
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a plan's JSON strictly: unknown keys are errors. A
// JSON string is the plan's text form (see UnmarshalText): "P2/p P4
// guard=p cure=last end" is the same plan as its object.
func (p *Plan) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '"' {
		var text string
		if err := json.Unmarshal(t, &text); err != nil {
			return fmt.Errorf("plan: %w", err)
		}
		if err := p.UnmarshalText([]byte(text)); err != nil {
			return fmt.Errorf("plan %q: %w", text, err)
		}
		return nil
	}
	var j planJSON
	if err := engine.DecodeJSON(b, &j); err != nil {
		return fmt.Errorf("plan: %w; or the plan's text as a string, such as \"P2/p P4 guard=p cure=last end\"", err)
	}
	*p = Plan{Touch: j.Touch, CureFirst: j.CureFirst, CureLast: j.CureLast, End: j.End}
	if j.Guard != nil {
		p.Guard = *j.Guard
	}
	return nil
}

// String writes the plan's text form: the sides to touch, then guard=,
// cure= and end when asked for:
//
//	P2/p P4 guard=p cure=last end
func (p Plan) String() string {
	var b strings.Builder
	for i, c := range p.Touch {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(SeatName(c.With) + c.suffix())
	}
	word := func(s string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	if !p.Guard.None() {
		word("guard=" + strings.TrimPrefix(p.Guard.suffix(), "/"))
	}
	switch {
	case p.CureFirst && p.CureLast:
		word("cure=both")
	case p.CureFirst:
		word("cure=first")
	case p.CureLast:
		word("cure=last")
	}
	if p.End {
		word("end")
	}
	return b.String()
}

// UnmarshalText reads a plan's text form (see String): sides P<n>, P<n>/p,
// P<n>/v or P<n>/v<k> (n is the seat, from 1; the P may be left out), and
// guard=p, guard=v<k>, cure=first, cure=last, cure=both, end.
func (p *Plan) UnmarshalText(text []byte) error {
	var out Plan
	fields := strings.Fields(string(text))
	if len(fields) == 0 {
		return errors.New("an empty plan; name at least one player to touch, such as P2 or P2/p, then guard=p, cure=first|last|both, end as you wish")
	}
	for _, f := range fields {
		key, value, isOption := strings.Cut(f, "=")
		switch {
		case strings.EqualFold(f, "end"):
			out.End = true
		case isOption && strings.EqualFold(key, "guard"):
			s, bad := parseSide("guard/" + value)
			if bad != "" {
				return fmt.Errorf("guard=%s: want guard=p (precaution) or guard=v<k> (k viruses)", value)
			}
			out.Guard = s.Modifier
		case isOption && strings.EqualFold(key, "cure"):
			switch strings.ToLower(value) {
			case "first":
				out.CureFirst = true
			case "last":
				out.CureLast = true
			case "both":
				out.CureFirst, out.CureLast = true, true
			default:
				return fmt.Errorf("cure=%s: want cure=first, cure=last or cure=both", value)
			}
		case isOption:
			return fmt.Errorf("unknown option %q; the options are guard=, cure= and end", key)
		default:
			s, bad := parseSide(f)
			if bad != "" {
				return errors.New(bad)
			}
			seat, ok := ParseSeatName(s.Name)
			if !ok {
				return fmt.Errorf("%q is no seat; name players P1, P2, … (or 1, 2, …)", s.Name)
			}
			out.Touch = append(out.Touch, Contact{With: seat, Modifier: s.Modifier})
		}
	}
	*p = out
	return nil
}

// SeatName is the roster name of seat i (from 0) in `arbiter play zombie`:
// P1, P2, …
func SeatName(i int) string { return "P" + strconv.Itoa(i+1) }

// ParseSeatName reads P<n> or <n> (n from 1, any case) as a seat from 0.
func ParseSeatName(s string) (int, bool) {
	if len(s) > 0 && (s[0] == 'P' || s[0] == 'p') {
		s = s[1:]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxSeats || strconv.Itoa(n) != s {
		return 0, false
	}
	return n - 1, true
}

// clone returns a copy of p that shares no memory with it.
func (p Plan) clone() Plan {
	p.Touch = append([]Contact(nil), p.Touch...)
	return p
}
