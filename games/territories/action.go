package territories

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/arbiter-games/arbiter/engine"
)

// Kind says what an action does.
type Kind uint8

// The kinds of action. Join, SetColor, Move, Raise and Attack are the referee's;
// Pass and EndTurn exist for turn management.
const (
	Join     Kind = iota + 1 // a new nation with an army at a territory
	SetColor                 // set the nation's colour
	Move                     // armies from a territory to a neighbour
	Raise                    // one more army where the nation has one
	Attack                   // a battle against a neighbour
	Pass                     // turn management: give up the turn's remaining actions
	EndTurn                  // turn management: the judge ends the turn
)

var kindNames = [...]string{Join: "join", SetColor: "color", Move: "move", Raise: "raise", Attack: "attack", Pass: "pass", EndTurn: "end-turn"}

// String returns the kind's word: "join", "attack", "end-turn".
func (k Kind) String() string {
	if k >= Join && k <= EndTurn {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Costs reports whether the action uses one of the nation's actions for the
// turn under turn management: move, raise and attack do.
func (k Kind) Costs() bool { return k == Move || k == Raise || k == Attack }

// actionSyntax is every action's form, for error messages.
const actionSyntax = `join NATION TERRITORY, color COLOR, move FROM[:N] TO, raise TERRITORY, attack FROM TO, pass, end-turn`

// maxActionLen bounds an action's text.
const maxActionLen = 512

// Action is one thing a player asks the referee to do. Territories are
// named as the player typed them (an id, a name or an alias); the rules
// resolve them. Only the fields of the action's Kind count:
//
//	join NATION TERRITORY    Nation, Territory
//	color COLOR              Color (six lowercase hex digits)
//	move FROM[:N] TO         From, Armies (0: all), To
//	raise TERRITORY          Territory
//	attack FROM TO           From, To
//	pass | end-turn
type Action struct {
	Kind      Kind
	Nation    string
	Territory string
	From, To  string
	Armies    int
	Color     Color
}

// JoinAction makes a join.
func JoinAction(nation, territory string) Action {
	return Action{Kind: Join, Nation: nation, Territory: territory}
}

// ColorAction makes a colour change.
func ColorAction(c Color) Action { return Action{Kind: SetColor, Color: c} }

// MoveAction moves n armies (0: all) from one territory to another.
func MoveAction(from string, n int, to string) Action {
	return Action{Kind: Move, From: from, Armies: n, To: to}
}

// RaiseAction raises one army in a territory.
func RaiseAction(territory string) Action { return Action{Kind: Raise, Territory: territory} }

// AttackAction attacks to from from.
func AttackAction(from, to string) Action { return Action{Kind: Attack, From: from, To: to} }

// The actions without arguments.
var (
	PassAction    = Action{Kind: Pass}
	EndTurnAction = Action{Kind: EndTurn}
)

// String writes the action as a player types it, quoting names with spaces:
// `join "New Spain" CA`, "move CA:2 NV", "attack CA NV".
func (a Action) String() string {
	switch a.Kind {
	case Join:
		return "join " + quote(a.Nation) + " " + quote(a.Territory)
	case SetColor:
		return "color " + string(a.Color)
	case Move:
		from := quote(a.From)
		if a.Armies > 0 {
			from += ":" + strconv.Itoa(a.Armies)
		}
		return "move " + from + " " + quote(a.To)
	case Raise:
		return "raise " + quote(a.Territory)
	case Attack:
		return "attack " + quote(a.From) + " " + quote(a.To)
	}
	return a.Kind.String()
}

func quote(s string) string {
	if s == "" || strings.IndexFunc(s, unicode.IsSpace) >= 0 || strings.ContainsRune(s, ':') {
		return `"` + s + `"`
	}
	return s
}

// MarshalText writes the action's String, its form in records and JSON.
func (a Action) MarshalText() ([]byte, error) {
	if a.Kind < Join || a.Kind > EndTurn {
		return nil, fmt.Errorf("territories: no such action kind %d", a.Kind)
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads an action as ParseAction does.
func (a *Action) UnmarshalText(b []byte) error {
	v, err := ParseAction(string(b))
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// UnmarshalJSON reads an action from its text as a JSON string; null is
// left alone, as encoding/json leaves it. Anything else is refused with
// the form an action takes.
func (a *Action) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	var text string
	if err := json.Unmarshal(b, &text); err != nil {
		return fmt.Errorf("an action is its text as a JSON string, such as \"raise CA\", \"move NV:2 UT\", \"attack CA NV\" or \"pass\"; got %s", jsonKind(b))
	}
	return a.UnmarshalText([]byte(text))
}

// jsonKind names the kind of a JSON value: a number, an object, ...
func jsonKind(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '{':
		return "a JSON object"
	case '[':
		return "a JSON array"
	case 't', 'f':
		return "a JSON bool"
	case '"':
		return "a JSON string that is not valid"
	}
	return "a JSON number"
}

// ParseAction reads an action as String writes it. Words are separated by
// spaces; a word with spaces is written in double quotes.
func ParseAction(s string) (Action, error) {
	if len(s) > maxActionLen {
		return Action{}, fmt.Errorf("action of %d bytes; at most %d", len(s), maxActionLen)
	}
	fields, err := splitWords(s)
	if err != nil {
		return Action{}, err
	}
	return ParseFields(fields)
}

// splitWords splits s into words at spaces; double quotes group a word
// that holds spaces, as a shell does (without escapes).
func splitWords(s string) ([]string, error) {
	var out []string
	var b strings.Builder
	in, quoted, inQuote := false, false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQuote = !inQuote
			in, quoted = true, true
		case unicode.IsSpace(r) && !inQuote:
			if in {
				out = append(out, b.String())
				b.Reset()
				in, quoted = false, false
			}
		default:
			b.WriteRune(r)
			in = true
		}
	}
	if inQuote {
		return nil, errors.New("a double quote is not closed")
	}
	if in || quoted {
		out = append(out, b.String())
	}
	return out, nil
}

// ParseFields reads an action already split into words, as a command line
// gives it: the kind, then its arguments.
func ParseFields(f []string) (Action, error) {
	if len(f) == 0 {
		return Action{}, fmt.Errorf("empty action; the actions are %s", actionSyntax)
	}
	word := strings.ToLower(f[0])
	args := f[1:]
	want := func(n int, form string) error {
		if len(args) > n && n > 0 {
			// move new mexico arizona: a name of two words, unquoted.
			return fmt.Errorf("%s takes %s; got %s after %s (put a name of several words in double quotes, or give a territory by its id)", word, form, plural(len(args), "word"), word)
		}
		if len(args) != n {
			return fmt.Errorf("%s takes %s; got %s after %s", word, form, plural(len(args), "word"), word)
		}
		for _, a := range args {
			if strings.TrimSpace(a) == "" {
				return fmt.Errorf("%s takes %s; an argument is empty", word, form)
			}
		}
		return nil
	}
	switch word {
	case "join":
		if err := want(2, "a nation's name and a territory: join NATION TERRITORY"); err != nil {
			return Action{}, err
		}
		if err := checkName(args[0]); err != nil {
			return Action{}, fmt.Errorf("join: the nation's name: %w", err)
		}
		return JoinAction(args[0], args[1]), nil
	case "color", "colour":
		if len(args) == 0 {
			return Action{}, fmt.Errorf("color takes a colour: %s", colorForms)
		}
		c, err := ParseColor(strings.Join(args, " "))
		if err != nil {
			return Action{}, fmt.Errorf("color: %w", err)
		}
		return ColorAction(c), nil
	case "move":
		if err := want(2, "where from and where to: move FROM[:N] TO"); err != nil {
			return Action{}, err
		}
		from, n := args[0], 0
		if i := strings.LastIndexByte(from, ':'); i >= 0 {
			v, err := strconv.Atoi(from[i+1:])
			if err != nil || v < 1 || v > MaxArmiesLimit {
				return Action{}, fmt.Errorf("move %s: after the colon, the number of armies to move, 1 to %d (or no colon: all of them)", from, MaxArmiesLimit)
			}
			from, n = from[:i], v
			if strings.TrimSpace(from) == "" {
				return Action{}, fmt.Errorf("move %s: name the territory before the colon", args[0])
			}
		}
		return MoveAction(from, n, args[1]), nil
	case "raise":
		if err := want(1, "a territory: raise TERRITORY"); err != nil {
			return Action{}, err
		}
		return RaiseAction(args[0]), nil
	case "attack":
		if err := want(2, "where from and where to: attack FROM TO"); err != nil {
			return Action{}, err
		}
		return AttackAction(args[0], args[1]), nil
	case "pass", "end-turn":
		if err := want(0, "nothing"); err != nil {
			return Action{}, err
		}
		if word == "pass" {
			return PassAction, nil
		}
		return EndTurnAction, nil
	}
	if near := engine.Nearest(word, kindNames[:]); near != "" {
		// The line as it would be, unless a word of it needs quotes.
		mean := strings.Join(append([]string{near}, f[1:]...), " ")
		if slices.ContainsFunc(f[1:], func(a string) bool { return a == "" || strings.ContainsFunc(a, unicode.IsSpace) }) {
			mean = near
		}
		return Action{}, fmt.Errorf("unknown action %q; did you mean %s? The actions are %s", f[0], mean, actionSyntax)
	}
	return Action{}, fmt.Errorf("unknown action %q; the actions are %s", f[0], actionSyntax)
}

// Resolve returns a with its territories named by their ids, or the
// refusal of a territory that names nothing (with the closest names).
func (c *Config) Resolve(a Action) (Action, error) {
	ref := func(s *string) error {
		i, err := c.Lookup(*s)
		if err != nil {
			return err
		}
		*s = c.Territories[i].ID
		return nil
	}
	var err error
	switch a.Kind {
	case Join, Raise:
		err = ref(&a.Territory)
	case Move, Attack:
		if err = ref(&a.From); err == nil {
			err = ref(&a.To)
		}
	}
	return a, err
}
