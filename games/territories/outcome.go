package territories

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Outcome is what an accepted action did: the referee's answer to the
// player, in text (String) and JSON (MarshalJSON). Only the fields of its
// Action count.
type Outcome struct {
	// Seq numbers the action among all accepted ones, from 1.
	Seq    int
	Action Kind
	Player string
	// Nation is the acting nation (for a join, the new one).
	Nation string
	// Territory is the territory of a join or a raise, by id.
	Territory string
	// From and To are a move's or an attack's territories, by id.
	From, To string
	// Armies is a join's first army, the armies in a raised territory
	// after the raise, or the armies moved.
	Armies int
	// Color is the colour dealt on a join, or chosen.
	Color Color
	// Released says a move left From with no army.
	Released bool
	// Battle is an attack's numbers; Defender the attacked nation; Removed
	// the nation that lost its last army in it, or "".
	Battle   *Battle
	Defender string
	Removed  string
	// Turn is the turn the action was made in, ActionsLeft the nation's
	// actions left in it afterwards, TurnEnded whether it ended the turn;
	// only under turn management.
	Turn        int
	ActionsLeft int
	TurnEnded   bool
	// Last says that the turn it ended was the match's last (a match of
	// so many turns; a refereed game has no last turn). The match sets it
	// on what it tells people; it is not kept.
	Last bool `json:"-"`
	// Dice are the draws the action made, in order: a join's colour, an
	// attack's roll. The log keeps them, and a replay must draw the same.
	Dice []int
}

// outcomeJSON is an outcome's JSON: the fields of its action only. An
// attack always carries its battle's numbers and removed (null for none).
type outcomeJSON struct {
	Seq            int             `json:"seq,omitempty"`
	Action         string          `json:"action"`
	Player         string          `json:"player"`
	Nation         string          `json:"nation,omitempty"`
	Territory      string          `json:"territory,omitempty"`
	From           string          `json:"from,omitempty"`
	To             string          `json:"to,omitempty"`
	Armies         *int            `json:"armies,omitempty"`
	Color          Color           `json:"color,omitempty"`
	Released       *bool           `json:"released,omitempty"`
	Defender       string          `json:"defender,omitempty"`
	Attackers      *int            `json:"attackers,omitempty"`
	Defenders      *int            `json:"defenders,omitempty"`
	Roll           *int            `json:"roll,omitempty"`
	Threshold      *int            `json:"threshold,omitempty"`
	Success        *bool           `json:"success,omitempty"`
	AttackerLosses *int            `json:"attacker_losses,omitempty"`
	DefenderLosses *int            `json:"defender_losses,omitempty"`
	Removed        json.RawMessage `json:"removed,omitempty"`
	Turn           *int            `json:"turn,omitempty"`
	ActionsLeft    *int            `json:"actions_left,omitempty"`
	TurnEnded      *bool           `json:"turn_ended,omitempty"`
}

// MarshalJSON writes the outcome for the calling application: action,
// player and the action's own fields; an attack's battle numbers and the
// nation removed (or null).
func (o Outcome) MarshalJSON() ([]byte, error) {
	j := outcomeJSON{Seq: o.Seq, Action: o.Action.String(), Player: o.Player, Nation: o.Nation}
	switch o.Action {
	case Join:
		j.Territory, j.Armies, j.Color = o.Territory, &o.Armies, o.Color
	case SetColor:
		j.Color = o.Color
	case Raise:
		j.Territory, j.Armies = o.Territory, &o.Armies
	case Move:
		j.From, j.To, j.Armies, j.Released = o.From, o.To, &o.Armies, &o.Released
	case Attack:
		j.From, j.To, j.Defender = o.From, o.To, o.Defender
		if b := o.Battle; b != nil {
			j.Attackers, j.Defenders, j.Roll, j.Threshold = &b.Attackers, &b.Defenders, &b.Roll, &b.Threshold
			j.Success, j.AttackerLosses, j.DefenderLosses = &b.Success, &b.AttackerLosses, &b.DefenderLosses
		}
		j.Removed = json.RawMessage("null")
		if o.Removed != "" {
			j.Removed, _ = json.Marshal(o.Removed)
		}
	}
	if o.Turn > 0 {
		j.Turn, j.TurnEnded = &o.Turn, &o.TurnEnded
		if o.Nation != "" {
			j.ActionsLeft = &o.ActionsLeft
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes (the dice are kept apart).
func (o *Outcome) UnmarshalJSON(b []byte) error {
	var j outcomeJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	k, err := kindNamed(j.Action)
	if err != nil {
		return err
	}
	v := Outcome{Seq: j.Seq, Action: k, Player: j.Player, Nation: j.Nation, Territory: j.Territory, From: j.From, To: j.To,
		Color: j.Color, Defender: j.Defender}
	v.Armies = deref(j.Armies)
	v.Released = j.Released != nil && *j.Released
	if k == Attack && j.Roll != nil {
		v.Battle = &Battle{Attackers: deref(j.Attackers), Defenders: deref(j.Defenders), Roll: deref(j.Roll), Threshold: deref(j.Threshold),
			Success: j.Success != nil && *j.Success, AttackerLosses: deref(j.AttackerLosses), DefenderLosses: deref(j.DefenderLosses)}
		v.Battle.Y = Fight(v.Battle.Attackers, v.Battle.Defenders, v.Battle.Roll).Y
	}
	if len(j.Removed) > 0 && string(j.Removed) != "null" {
		if err := json.Unmarshal(j.Removed, &v.Removed); err != nil {
			return fmt.Errorf("removed: %w", err)
		}
	}
	v.Turn, v.ActionsLeft = deref(j.Turn), deref(j.ActionsLeft)
	v.TurnEnded = j.TurnEnded != nil && *j.TurnEnded
	*o = v
	return nil
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func kindNamed(s string) (Kind, error) {
	for k := Join; k <= EndTurn; k++ {
		if kindNames[k] == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown action %q", s)
}

// String tells the outcome in one line for people.
func (o Outcome) String() string {
	var b strings.Builder
	who := o.Player
	if o.Nation != "" && o.Action != Join {
		who = fmt.Sprintf("%s (%s)", o.Player, o.Nation)
	}
	switch o.Action {
	case Join:
		fmt.Fprintf(&b, "%s founds %s at %s with %s, colour %s", o.Player, o.Nation, o.Territory, armies(o.Armies), o.Color)
	case SetColor:
		fmt.Fprintf(&b, "%s takes the colour %s", who, o.Color)
	case Raise:
		fmt.Fprintf(&b, "%s raises an army in %s, which now has %s", who, o.Territory, armies(o.Armies))
	case Move:
		fmt.Fprintf(&b, "%s moves %s from %s to %s", who, armies(o.Armies), o.From, o.To)
		if o.Released {
			fmt.Fprintf(&b, "; %s is left empty", o.From)
		}
	case Attack:
		fmt.Fprintf(&b, "%s attacks %s in %s from %s", who, o.Defender, o.To, o.From)
		if bt := o.Battle; bt != nil {
			fmt.Fprintf(&b, ": %d against %d, roll %d", bt.Attackers, bt.Defenders, bt.Roll)
			if bt.Success {
				cmp := ">"
				if bt.Roll <= bt.Threshold {
					cmp = "≤" // a success on 19 or 20 against the formula
				}
				fmt.Fprintf(&b, " %s %d: success; %s loses %s", cmp, bt.Threshold, o.Defender, armies(bt.DefenderLosses))
				if bt.DefenderLosses == bt.Defenders {
					fmt.Fprintf(&b, " and %s is unclaimed", o.To)
				}
			} else {
				cmp := "≤"
				if bt.Roll > bt.Threshold {
					cmp = ">" // a failure on 1 against the formula
				}
				fmt.Fprintf(&b, " %s %d: failure; %s loses %s", cmp, bt.Threshold, o.Nation, armies(bt.AttackerLosses))
				if bt.AttackerLosses > 0 && bt.AttackerLosses == bt.Attackers {
					fmt.Fprintf(&b, " and %s is unclaimed", o.From)
				}
			}
		}
		if o.Removed != "" {
			fmt.Fprintf(&b, "; %s is out of the game", o.Removed)
		}
	case Pass:
		fmt.Fprintf(&b, "%s passes the rest of turn %d", who, o.Turn)
	case EndTurn:
		fmt.Fprintf(&b, "the judge ends turn %d", o.Turn)
	default:
		return o.Action.String()
	}
	if o.Turn > 0 {
		switch {
		case o.TurnEnded && o.Last:
			b.WriteString("; that was the last turn")
		case o.TurnEnded:
			fmt.Fprintf(&b, "; turn %d begins", o.Turn+1)
		case o.Nation != "" && o.Action != Pass:
			fmt.Fprintf(&b, " (turn %d: %s left)", o.Turn, plural(o.ActionsLeft, "action"))
		}
	}
	return b.String()
}
