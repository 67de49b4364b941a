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
	// words are the arguments of an action that were more words than
	// its form takes, as String writes them: a name of several words
	// written without quotes (raise New Mexico, join New Spain New
	// Mexico), which only the map can tell apart. Config.Resolve reads
	// them into the fields above.
	words string
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
	if a.words != "" {
		return a.Kind.String() + " " + a.words
	}
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

// jsonKind names what a JSON value that is no action's text is, as the
// refusal says it: "a JSON object", ..., "nothing".
func jsonKind(b []byte) string {
	switch k := engine.JSONKind(b); k {
	case "":
		return "nothing"
	case "string":
		return "a JSON string that is not valid" // a valid one was read
	default:
		return "a JSON " + k
	}
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
	// More words than the form takes, none empty: names of several words
	// written without quotes, for the map to tell apart (Config.Resolve).
	loose := func(n int) (Action, bool) {
		if len(args) <= n || slices.ContainsFunc(args, func(a string) bool { return strings.TrimSpace(a) == "" }) {
			return Action{}, false
		}
		q := make([]string, len(args))
		for i, a := range args {
			if q[i] = a; strings.IndexFunc(a, unicode.IsSpace) >= 0 {
				q[i] = `"` + a + `"`
			}
		}
		return Action{Kind: map[string]Kind{"join": Join, "move": Move, "raise": Raise, "attack": Attack}[word], words: strings.Join(q, " ")}, true
	}
	switch word {
	case "join", "move", "raise", "attack":
		n := 2
		if word == "raise" {
			n = 1
		}
		if a, ok := loose(n); ok {
			return a, nil
		}
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
// refusal of a territory that names nothing (with the closest names). An
// action of more words than its form takes is read by the map first:
// where the words can be split into its names in one way only.
func (c *Config) Resolve(a Action) (Action, error) {
	if a.words != "" {
		var err error
		if a, err = c.split(a); err != nil {
			return Action{}, err
		}
	}
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

// split reads the words of an action that has more of them than its form
// takes (Action.words) as the names it takes: a territory's name of
// several words written without quotes (raise New Mexico, move AZ:2 New
// Mexico), or a nation's (join New Spain CA). The words must split into
// names of the map one way only; else the refusal says how the words read
// and how to write them in quotes.
func (c *Config) split(a Action) (Action, error) {
	words, err := splitWords(a.words)
	if err != nil || len(words) < 2 {
		return Action{}, engine.Refuse("bad-action", "%s %s: the words do not read (write a name of several words in double quotes)", a.Kind, a.words)
	}
	name := func(w []string) string { return strings.Join(w, " ") }
	known := func(s string) bool {
		_, err := c.Lookup(s)
		return err == nil
	}
	var found []Action
	switch a.Kind {
	case Raise:
		t := name(words)
		if !known(t) {
			return Action{}, c.unknown(t)
		}
		return RaiseAction(t), nil
	case Join:
		// The territory is the last words; the nation's name, any name,
		// those before.
		var badName error
		for k := 1; k < len(words); k++ {
			nation, t := name(words[:k]), name(words[k:])
			if !known(t) {
				continue
			}
			if err := checkName(nation); err != nil {
				badName = err
				continue
			}
			found = append(found, JoinAction(nation, t))
		}
		if len(found) == 0 && badName != nil {
			return Action{}, engine.Refuse("bad-name", "join: the nation's name: %v", badName)
		}
	case Move, Attack:
		for k := 1; k < len(words); k++ {
			from, n := name(words[:k]), 0
			if a.Kind == Move {
				var ok bool
				if from, n, ok = cutArmies(from); !ok {
					continue
				}
			}
			if to := name(words[k:]); known(from) && known(to) {
				found = append(found, Action{Kind: a.Kind, From: from, Armies: n, To: to})
			}
		}
	}
	forms := map[Kind]string{Join: "join NATION TERRITORY", Move: "move FROM[:N] TO", Attack: "attack FROM TO"}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		for k := 1; a.Kind == Move && k < len(words)-1; k++ {
			// move CA 2 OR, move New Mexico 2 Texas: the number of armies
			// between the two.
			n, err := strconv.Atoi(words[k])
			from, fromErr := c.Lookup(name(words[:k]))
			to, toErr := c.Lookup(name(words[k+1:]))
			if err == nil && n >= 1 && n <= MaxArmiesLimit && fromErr == nil && toErr == nil {
				return Action{}, engine.Refuse("bad-action", "move %s: did you mean %s? The number of armies follows the territory they leave, after a colon: move FROM[:N] TO",
					a.words, MoveAction(c.Territories[from].ID, n, c.Territories[to].ID))
			}
		}
		what, unknown := "no territory is named by its last words", words[len(words)-1:]
		if a.Kind != Join {
			// The name that is not one: what follows the longest
			// beginning that is (or precedes the longest end that is).
			what, unknown = "the words are not two territories", words
			for k := len(words) - 1; k >= 1 && len(unknown) == len(words); k-- {
				from := name(words[:k])
				if a.Kind == Move {
					from, _, _ = cutArmies(from)
				}
				switch {
				case known(from):
					unknown = words[k:]
				case known(name(words[len(words)-k:])):
					unknown = words[:len(words)-k]
				}
			}
		}
		ref := name(unknown)
		if a.Kind == Move && &unknown[0] == &words[0] {
			ref, _, _ = cutArmies(ref)
		}
		return Action{}, engine.Refuse("unknown-territory", "%s %s: %s (%v); write %s, with a name of several words in double quotes",
			a.Kind, a.words, what, c.unknown(ref), forms[a.Kind])
	}
	reads := make([]string, len(found))
	for i, f := range found {
		reads[i] = f.String()
	}
	return Action{}, engine.Refuse("ambiguous", "%s %s reads as %s; write a name of several words in double quotes", a.Kind, a.words, strings.Join(reads, " or as "))
}

// cutArmies cuts a move's ":N" off the end of from, the name before it
// and N returned (0 without one); ok is false when what follows the colon
// is no number of armies.
func cutArmies(from string) (name string, n int, ok bool) {
	i := strings.LastIndexByte(from, ':')
	if i < 0 {
		return from, 0, true
	}
	v, err := strconv.Atoi(from[i+1:])
	if err != nil || v < 1 || v > MaxArmiesLimit {
		return from, 0, false
	}
	return strings.TrimSpace(from[:i]), v, true
}
