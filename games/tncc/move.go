package tncc

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// MoveType says what a move is: one of the four actions of a turn, or an
// answer owed to another country's action.
type MoveType uint8

// The move types. The first four are actions; the rest answer them.
const (
	Wait    MoveType = iota // skip the turn
	Recruit                 // citizens become army (or back, when negative)
	Trade                   // offer an exchange to another country
	War                     // attack another country on three flanks
	Accept                  // answer a trade: yes
	Decline                 // answer a trade: no
	Defend                  // answer a war: the defending flanks
	numMoveTypes
)

var moveNames = engine.Names{"wait", "recruit", "trade", "war", "accept", "decline", "defend"}

// String returns the move type's name.
func (t MoveType) String() string {
	if t < numMoveTypes {
		return moveNames[t]
	}
	return fmt.Sprintf("MoveType(%d)", uint8(t))
}

// IsAction reports whether t is one of the four actions of a turn.
func (t MoveType) IsAction() bool { return t <= War }

// Flanks are the soldiers on the left, front and right flanks.
type Flanks [3]int64

// Total returns the soldiers on all three flanks.
func (f Flanks) Total() int64 { return f[0] + f[1] + f[2] }

// UnmarshalJSON reads [LEFT, FRONT, RIGHT]: exactly three whole numbers (a
// Go array would take two, or four, silently).
func (f *Flanks) UnmarshalJSON(b []byte) error {
	var v []int64
	if err := json.Unmarshal(b, &v); err != nil || len(v) != 3 {
		return fmt.Errorf("flanks: want [LEFT, FRONT, RIGHT], three whole numbers, like [10, 0, 30]; have %s", b)
	}
	*f = Flanks(v)
	return nil
}

// Move is a turn's action or an answer. Only the fields of its Type count:
//
//	wait
//	recruit N                                  N
//	trade WITH GIVE GIVE_N TAKE TAKE_N         With, Give, GiveN, Take, TakeN
//	war TARGET L F R                           Target, Flanks
//	accept | decline                           (a trade's answer)
//	defend L F R                               Flanks (a war's answer)
//
// Countries are seats, from 0 in Go and JSON, from 1 in text for people.
type Move struct {
	Type   MoveType
	Give   Resource // trade: what the offerer hands over
	Take   Resource // trade: what the offerer receives
	With   int      // trade: the partner
	Target int      // war: the defender
	N      int64    // recruit
	GiveN  int64    // trade
	TakeN  int64    // trade
	Flanks Flanks   // war and defend
}

// Moves, for building them in Go.
var (
	WaitMove    = Move{Type: Wait}
	AcceptMove  = Move{Type: Accept}
	DeclineMove = Move{Type: Decline}
)

// RecruitMove turns n citizens into army (n < 0: army back into citizens).
func RecruitMove(n int64) Move { return Move{Type: Recruit, N: n} }

// TradeMove offers country with giveN of give for takeN of take.
func TradeMove(with int, give Resource, giveN int64, take Resource, takeN int64) Move {
	return Move{Type: Trade, With: with, Give: give, GiveN: giveN, Take: take, TakeN: takeN}
}

// WarMove attacks target with the soldiers of f.
func WarMove(target int, f Flanks) Move { return Move{Type: War, Target: target, Flanks: f} }

// DefendMove answers a war with the soldiers of f.
func DefendMove(f Flanks) Move { return Move{Type: Defend, Flanks: f} }

// String writes the move as a person types it, countries from 1:
// "recruit 50", "trade 2 gold 100 food 200", "war 2 10 0 30".
func (m Move) String() string {
	switch m.Type {
	case Recruit:
		return "recruit " + strconv.FormatInt(m.N, 10)
	case Trade:
		return fmt.Sprintf("trade %d %v %d %v %d", m.With+1, m.Give, m.GiveN, m.Take, m.TakeN)
	case War:
		return fmt.Sprintf("war %d %d %d %d", m.Target+1, m.Flanks[0], m.Flanks[1], m.Flanks[2])
	case Defend:
		return fmt.Sprintf("defend %d %d %d", m.Flanks[0], m.Flanks[1], m.Flanks[2])
	}
	return m.Type.String()
}

// ParseMove reads a move as String writes it. Countries count from 1.
// "yes"/"no" are accept/decline, and three bare numbers a defence.
func ParseMove(s string) (Move, error) { return parseMove(s, moveWords, "moves: "+moveSyntax, nil) }

// parseMove is ParseMove, whose refusal of a move that is none says what
// may be played, as moves says, and offers the nearest of words; and whose
// refusal of a country that is none says which may be picked, as others
// says for a verb ("trade with", "attack"), when others is not nil.
func parseMove(s string, words []string, moves string, others func(verb string) string) (Move, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return Move{}, fmt.Errorf("empty move; %s", moves)
	}
	if len(f) == 3 {
		if _, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			f = append([]string{"defend"}, f...)
		}
	}
	word := strings.ToLower(f[0])
	switch word {
	case "yes", "y":
		word = "accept"
	case "no", "n":
		word = "decline"
	}
	i, err := moveNames.Parse(word, "move")
	if err != nil {
		if near := engine.Nearest(word, words); near != "" {
			return Move{}, fmt.Errorf("unknown move %q; did you mean %s? %s", f[0], strings.Join(append([]string{near}, f[1:]...), " "), upper(moves))
		}
		return Move{}, fmt.Errorf("unknown move %q; %s", f[0], moves)
	}
	t := MoveType(i)
	args := f[1:]
	want := [...]int{Wait: 0, Recruit: 1, Trade: 5, War: 4, Accept: 0, Decline: 0, Defend: 3}[t]
	if len(args) != want {
		return Move{}, fmt.Errorf("%s takes %d %s: %s", t, want, plural(want, "argument"), syntaxOf(t))
	}
	num := func(k int, what string) (int64, error) {
		v, err := strconv.ParseInt(args[k], 10, 64)
		var ne *strconv.NumError
		if errors.As(err, &ne) && ne.Err == strconv.ErrRange || err == nil && (v > MaxAmount || v < -MaxAmount) {
			return 0, fmt.Errorf("%s: %s is out of range; amounts are whole numbers from %d to %d (%s)", what, args[k], -int64(MaxAmount), int64(MaxAmount), syntaxOf(t))
		}
		if err != nil {
			return 0, fmt.Errorf("%s: %q is not a whole number (%s)", what, args[k], syntaxOf(t))
		}
		return v, nil
	}
	country := func(k int) (int, error) {
		v, err := strconv.Atoi(args[k])
		if err != nil || v < 1 || v > MaxCountries {
			if others != nil {
				verb := map[MoveType]string{Trade: "trade with", War: "attack"}[t]
				return 0, fmt.Errorf("%q is not a country; %s. A %s is %s", args[k], others(verb), t, syntaxOf(t))
			}
			return 0, fmt.Errorf("%q is not a country; countries are numbered from 1 (%s)", args[k], syntaxOf(t))
		}
		return v - 1, nil
	}
	m := Move{Type: t}
	var errs [5]error
	switch t {
	case Recruit:
		m.N, errs[0] = num(0, "N")
	case Trade:
		m.With, errs[0] = country(0)
		m.Give, errs[1] = ParseResource(args[1])
		m.GiveN, errs[2] = num(2, "GIVE_N")
		m.Take, errs[3] = ParseResource(args[3])
		m.TakeN, errs[4] = num(4, "TAKE_N")
	case War:
		m.Target, errs[0] = country(0)
		for k := range 3 {
			m.Flanks[k], errs[k+1] = num(k+1, flankNames[k])
		}
	case Defend:
		for k := range 3 {
			m.Flanks[k], errs[k] = num(k, flankNames[k])
		}
	}
	for _, err := range errs {
		if err != nil {
			return Move{}, err
		}
	}
	return m, nil
}

var flankNames = [3]string{"LEFT", "FRONT", "RIGHT"}

// moveWords are the words a move begins with, for the closest to a typo;
// actionWords, an action.
var (
	moveWords   = []string{"wait", "recruit", "trade", "war", "yes", "no", "accept", "decline", "defend"}
	actionWords = moveWords[:4]
)

// upper returns s with its first letter in upper case, to begin a sentence.
func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

const moveSyntax = "wait; recruit N; trade COUNTRY GIVE GIVE_N TAKE TAKE_N; war COUNTRY LEFT FRONT RIGHT; " +
	"and, as answers, yes, no, or LEFT FRONT RIGHT"

func syntaxOf(t MoveType) string {
	switch t {
	case Recruit:
		return "recruit N: N citizens become soldiers, or back when N is negative"
	case Trade:
		return "trade COUNTRY GIVE GIVE_N TAKE TAKE_N, e.g. trade 2 gold 100 food 200"
	case War:
		return "war COUNTRY LEFT FRONT RIGHT, e.g. war 2 10 0 30"
	case Defend:
		return "LEFT FRONT RIGHT, e.g. 5 5 5"
	}
	return t.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// moveJSON is a move's JSON shape, as the rules' world JSON writes actions
// ({"type": "war", "target": 1, "flanks": [10, 0, 30]}) and answers
// ({"accept": true}, {"flanks": [5, 5, 5]}) alike.
type moveJSON struct {
	Type   string    `json:"type,omitempty"`
	N      *int64    `json:"n,omitempty"`
	With   *int      `json:"with,omitempty"`
	Give   *Resource `json:"give,omitempty"`
	GiveN  *int64    `json:"give_n,omitempty"`
	Take   *Resource `json:"take,omitempty"`
	TakeN  *int64    `json:"take_n,omitempty"`
	Target *int      `json:"target,omitempty"`
	Flanks *Flanks   `json:"flanks,omitempty"`
	Accept *bool     `json:"accept,omitempty"`
}

// MarshalJSON writes the move in the world JSON's shape: actions with their
// type, a trade's answer as {"accept": bool}, a defence as {"flanks": [...]}.
func (m Move) MarshalJSON() ([]byte, error) {
	var j moveJSON
	switch m.Type {
	case Accept, Decline:
		yes := m.Type == Accept
		j.Accept = &yes
	case Defend:
		j.Flanks = &m.Flanks
	default:
		j.Type = m.Type.String()
	}
	switch m.Type {
	case Recruit:
		j.N = &m.N
	case Trade:
		j.With, j.Give, j.GiveN, j.Take, j.TakeN = &m.With, &m.Give, &m.GiveN, &m.Take, &m.TakeN
	case War:
		j.Target, j.Flanks = &m.Target, &m.Flanks
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a move written by MarshalJSON; every field its type
// needs is required and no other is allowed.
func (m *Move) UnmarshalJSON(b []byte) error {
	var j moveJSON
	if err := engine.DecodeJSON(b, &j); err != nil {
		return err
	}
	v, err := j.move()
	if err != nil {
		return err
	}
	*m = v
	return nil
}

func (j *moveJSON) move() (Move, error) {
	var m Move
	switch {
	case j.Accept != nil:
		if j.Type != "" || j.Flanks != nil {
			return m, fmt.Errorf("an answer to a trade is {\"accept\": true} or {\"accept\": false}, with nothing else")
		}
		m.Type = Decline
		if *j.Accept {
			m.Type = Accept
		}
		return m, j.only()
	case j.Type == "":
		if j.Flanks == nil {
			return m, fmt.Errorf(`a move needs "type" (wait, recruit, trade, war); an answer is {"accept": bool} or {"flanks": [l, f, r]}`)
		}
		m.Type, m.Flanks = Defend, *j.Flanks
		j.Flanks = nil
		return m, j.only()
	}
	i, err := moveNames.Parse(j.Type, "action")
	if err != nil || !MoveType(i).IsAction() || moveNames[i] != j.Type {
		return m, fmt.Errorf("type: %q is not an action; actions: wait, recruit, trade, war", j.Type)
	}
	m.Type = MoveType(i)
	need := func(ok bool, field string) error {
		if !ok {
			return fmt.Errorf("%s needs %q: %s", m.Type, field, syntaxOfJSON(m.Type))
		}
		return nil
	}
	switch m.Type {
	case Recruit:
		if err := need(j.N != nil, "n"); err != nil {
			return m, err
		}
		m.N, j.N = *j.N, nil
	case Trade:
		for _, c := range []struct {
			ok    bool
			field string
		}{{j.With != nil, "with"}, {j.Give != nil, "give"}, {j.GiveN != nil, "give_n"}, {j.Take != nil, "take"}, {j.TakeN != nil, "take_n"}} {
			if err := need(c.ok, c.field); err != nil {
				return m, err
			}
		}
		m.With, m.Give, m.GiveN, m.Take, m.TakeN = *j.With, *j.Give, *j.GiveN, *j.Take, *j.TakeN
		j.With, j.Give, j.GiveN, j.Take, j.TakeN = nil, nil, nil, nil, nil
	case War:
		if err := need(j.Target != nil, "target"); err != nil {
			return m, err
		}
		if err := need(j.Flanks != nil, "flanks"); err != nil {
			return m, err
		}
		m.Target, m.Flanks = *j.Target, *j.Flanks
		j.Target, j.Flanks = nil, nil
	}
	j.Type = ""
	if err := j.only(); err != nil {
		return m, fmt.Errorf("%s: %w", m.Type, err)
	}
	return m, nil
}

// only returns an error if any field is left once the move's own are taken.
func (j *moveJSON) only() error {
	left := map[string]bool{"type": j.Type != "", "n": j.N != nil, "with": j.With != nil, "give": j.Give != nil,
		"give_n": j.GiveN != nil, "take": j.Take != nil, "take_n": j.TakeN != nil, "target": j.Target != nil, "flanks": j.Flanks != nil}
	for _, k := range []string{"type", "n", "with", "give", "give_n", "take", "take_n", "target", "flanks"} {
		if left[k] {
			return fmt.Errorf("%q does not belong to this move", k)
		}
	}
	return nil
}

// UnmarshalKind reads a move's JSON as UnmarshalJSON does, as the move of a
// request of kind (engine.KindReader): a move of the wrong shape is told
// the shape of that kind alone, an action's at a turn and an answer's to a
// trade or a war, not the fields of every move. A move of another kind is
// read: the rules refuse it where it is played.
func (m *Move) UnmarshalKind(kind engine.Kind, data []byte) error {
	err := engine.DecodeJSON(data, m)
	if err == nil {
		return nil
	}
	shape, ok := kindShapes[kind]
	if !ok || !json.Valid(data) {
		return err
	}
	if twice, cased := engine.KeyFaults(data, &moveJSON{}); twice != nil || cased != nil {
		return err // a key given twice, a field in another case: told as they are
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil || fields == nil {
		return fmt.Errorf("want %s: %s; got a JSON %s", shape.what, shape.forms, cmp.Or(engine.JSONKind(data), "value"))
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(shape.fields, k) {
			return fmt.Errorf("%q is no field of %s; want %s", k, shape.what, shape.forms)
		}
	}
	if _, ok := fields[shape.fields[0]]; !ok {
		return fmt.Errorf("%s needs %q: %s", shape.what, shape.fields[0], shape.forms)
	}
	return err
}

// kindShape is what the move of a kind of request is: its fields, the
// first of them the one it always has, and its forms in JSON.
type kindShape struct {
	what   string
	fields []string
	forms  string
}

var kindShapes = map[engine.Kind]kindShape{
	TurnKind: {"an action", []string{"type", "n", "with", "give", "give_n", "take", "take_n", "target", "flanks"},
		`{"type": "wait"}, ` + syntaxOfJSON(Recruit) + ", " + syntaxOfJSON(Trade) + " or " + syntaxOfJSON(War)},
	TradeAnswerKind: {"an answer to a trade offer", []string{"accept"}, `{"accept": true} or {"accept": false}`},
	WarAnswerKind:   {"an answer to a war", []string{"flanks"}, `{"flanks": [LEFT, FRONT, RIGHT]}, the soldiers on each flank, like {"flanks": [10, 0, 30]}`},
}

func syntaxOfJSON(t MoveType) string {
	switch t {
	case Recruit:
		return `{"type": "recruit", "n": 50}`
	case Trade:
		return `{"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 200}`
	case War:
		return `{"type": "war", "target": 1, "flanks": [10, 0, 30]}`
	}
	return `{"type": "wait"}`
}

// MarshalText writes the move as String does, for people.
func (m Move) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a move as ParseMove does, for people.
func (m *Move) UnmarshalText(b []byte) error {
	v, err := ParseMove(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}
