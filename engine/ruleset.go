package engine

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// Judge is the actor for moves that no seat makes: the end of a turn in a
// live game, the game master's commands.
const Judge = -1

// Ruleset makes matches of one game (or of one named variant of it).
type Ruleset[M, V any] interface {
	// Info describes the ruleset: its name, seats, options and rules text.
	Info() Info
	// New starts a match from setup. It validates the setup (seat count,
	// options) and returns an error that names what is wrong.
	New(setup Setup) (Match[M, V], error)
}

// Match is the state of one match under way. M is the game's move type, V the
// type of what one seat may see.
//
// Matches are not safe for concurrent use; the driver that owns a match calls
// it from one goroutine at a time.
type Match[M, V any] interface {
	// Pending returns the decisions owed now. All requests returned together
	// are simultaneous: they are resolved together when the last of them is
	// applied, and until then applying one changes neither the others nor
	// anything any seat can see. The slice belongs to the match and stays
	// valid until all its requests are answered; it is empty when the match
	// is over or is waiting for moves from outside.
	Pending() []Request[M]

	// Apply validates and applies seat's move. An illegal move returns a
	// *RuleError and leaves the state unchanged.
	Apply(seat int, m M) error

	// View returns exactly what seat may know now. The view may share memory
	// with the match: it is valid until the next call to Apply.
	View(seat int) V

	// Over reports whether the match has ended.
	Over() bool

	// Result returns the final scores, ranks and winners. It is meaningful
	// only once Over reports true.
	Result() Result
}

// Publisher is implemented by matches that can show a spectator what they may
// know. Reports sample it after every round to build a match's history.
type Publisher interface {
	// Public returns a snapshot of the public state that does not share
	// memory with the match. It marshals to the game's own JSON shape and
	// formats as text for people (fmt.Stringer).
	Public() any
}

// Measure names one number that a match exposes for charts.
type Measure struct {
	Name    string `json:"name"`
	PerSeat bool   `json:"per_seat"` // one value per seat, rather than one for the whole match
}

// Measurer is implemented by matches that expose numbers over time, so that a
// report can chart any game without knowing it.
type Measurer interface {
	// Clock is the match's time for a chart's x axis: a turn or a cycle.
	Clock() int
	// Measures names the numbers, e.g. yield and population per seat.
	Measures() []Measure
	// Measure returns measure k now, for seat when the measure is per seat.
	Measure(k, seat int) float64
}

// Event is one thing that happened in a match that everyone may know: a
// war, a trade, a death. Reports list events and mark them on charts.
type Event struct {
	// Clock is the match's time when it happened (see Measurer.Clock).
	Clock int `json:"clock"`
	// Kind names the event in the game's words: "war", "trade", "death".
	Kind string `json:"kind"`
	// Text tells it to people.
	Text string `json:"text"`
	// Seats are the seats it concerns.
	Seats []int `json:"seats,omitempty"`
	// Mark asks charts to mark it on their time axis.
	Mark bool `json:"-"`
}

// Chronicler is implemented by matches that tell their public story as
// events. Reports call Chronicle once, when a match has been replayed.
type Chronicler interface {
	// Chronicle returns every public event so far, in order. It does not
	// share memory with the match.
	Chronicle() []Event
}

// StatusTeller is implemented by matches that can tell a seat's status
// (Result.Status) to people more plainly than the result's word, which a
// record keeps as it was: territories' "out (action 48)" is "out at turn
// 12 (action 48)". Reports call it once a match has been played or
// replayed.
type StatusTeller interface {
	// TellStatus returns status, the result's word for seat, as people
	// read it; "" keeps the word.
	TellStatus(seat int, status string) string
}

// MoveReader is implemented by matches that read a move sent from outside
// with what they know of themselves: a zombie party's players named by the
// names their seats were given. A host reads a move with ReadMove when the
// match has it, else with encoding/json; the move read is the game's own,
// and is written to the log as the game writes it.
type MoveReader[M any] interface {
	ReadMove(data []byte) (M, error)
}

// MoveSpeller is implemented by matches whose moves may name things in
// more than one spelling: territories reads a territory by its id, name or
// alias in any case ("ca", "California"). A host that reads a move sent
// from outside has it spelt by Spell before it applies it, and writes the
// move spelt to its log, so that the log, the events and the record keep
// each move one way, the board's: the Runner spells every move of a match
// it watches or times (one with a player it does not take for Bounded: a
// program, a person), arbiter serve every move sent to it; in a match of
// Bounded players alone, untimed, the moves are applied as they are.
// Spell returns a move it cannot spell (a territory that is none) as it
// is, for Apply to refuse in its words.
type MoveSpeller[M any] interface {
	Spell(seat int, move M) M
}

// KindReader is implemented by a game's move type (by its pointer) whose
// JSON takes a shape of its own for each kind of request: TNCC's action, and
// its answers to a trade offer and to a war. A host that knows the request
// a move answers, and could not read the move, reads it again with
// UnmarshalKind to say why: a move of the wrong shape is told the shape of
// the request's kind, not the fields of every kind.
type KindReader interface {
	// UnmarshalKind reads data as UnmarshalJSON does; only its errors
	// differ, in naming what a move of kind is. A move of another kind is
	// read, and left for the rules to refuse.
	UnmarshalKind(kind Kind, data []byte) error
}

// MoveShapeError returns err, the error of reading data as a move of M,
// worded for a move answering a request of kind when M reads its JSON by
// kind (KindReader); else err itself.
func MoveShapeError[M any](kind Kind, data []byte, err error) error {
	var again M
	if r, ok := any(&again).(KindReader); ok && kind != "" {
		if worded := r.UnmarshalKind(kind, data); worded != nil {
			return worded
		}
	}
	return err
}

// Overseer is implemented by matches that hide part of their state from
// every seat, even from the seat it concerns (a zombie game's infected
// humans): Overseen is that state, for the judge's eyes only. A live
// match's judge sees it beside every seat's view.
type Overseer interface {
	// Overseen returns the state no seat sees, for the judge; it marshals
	// to JSON and does not share memory with the match.
	Overseen() any
}

// Teller is implemented by matches whose moves are public information:
// every move, and what it did, is everyone's to know (territories, whose
// every action, its dice included, is in the public history, as the
// referee's history tells it). A host shows such a match's moves, and what
// each did, to every viewer: a replay seen as the public or as another
// seat, a spectator's event stream. The moves of a match that is no
// Teller, or whose Told says false, stay its mover's and the judge's (a
// zombie plan, a TNCC war's flanks, a choice made at once with others).
type Teller interface {
	// Told returns what the last move applied did, as everyone may know
	// it, and false before the first move or when that move is not public.
	// It does not share memory with the match.
	Told() (Told, bool)
}

// Told is what a public move did: JSON for programs (the game's own, as
// its referee answers the move: an attack's roll and losses) and words for
// people (String).
type Told interface {
	json.Marshaler
	fmt.Stringer
}

// Info describes a ruleset to people and to hosts.
type Info struct {
	Name    string // registry name, e.g. "ajveciv"
	Variant string // named variant of the rules, e.g. "original"
	Title   string // one line for people
	Version string // rules version, written in match records

	MinSeats, MaxSeats int
	// Clock is the word for the match's time, as Measurer.Clock counts it:
	// "turn", "cycle". Empty means "turn".
	Clock string
	// Score says what a seat's score counts, for reports and help texts:
	// "yield plus population", "cycles survived".
	Score string

	// DefaultPlayers is the --players value used when none is given.
	DefaultPlayers string
	// Players lists the player names the game understands, for help texts.
	Players []string
	Options []Option
	Presets []string
	// PresetValues holds each preset's numbers, in the order of Presets,
	// as JSON writes them for programs (arbiter games --json).
	PresetValues []any
	// Rules is the rule book as players read it.
	Rules string
}

// OptionKind is the type of an option's value.
type OptionKind int

// Option kinds.
const (
	IntOption OptionKind = iota
	BoolOption
	StringOption
)

// Option is a setting a ruleset declares; the CLI turns each into a flag.
type Option struct {
	Name    string
	Usage   string
	Kind    OptionKind
	Default string
	// Min and Max bound an IntOption (inclusive).
	Min, Max int
	// SeatMax, if set, bounds an IntOption by the number of seats too: at
	// most SeatMax(seats) in a game of that many, as a zombie game draws at
	// most the seats - 2 zombies. Max is then its bound at the most seats.
	SeatMax func(seats int) int
	// SeatWhy says why SeatMax bounds it, for messages: "so that at least
	// 2 humans play".
	SeatWhy string
	// File, if set, names a second way to give a StringOption: a flag that
	// reads the value from a file, such as "config" for a preset in YAML.
	// Load turns the file's content into the option's value, or says what
	// is wrong with it.
	File      string
	FileUsage string
	Load      func(data []byte) (string, error)
	// Warn, if set, says in one line what a valid value allows but a game
	// is unlikely to want (a board with territories nobody can reach), or
	// "". Programs that read options tell it before play.
	Warn func(value string) string
}

// Range returns the values an IntOption allows in a game of seats players,
// and says so for a message: "allowed 1 to 62", or, when SeatMax bounds it,
// "allowed 1 to 3 with 5 seats" ("allowed only 1 with 3 seats"), then
// SeatWhy after a comma. Seats 0
// means the number is not known yet, and a number of seats SeatMax allows
// no value for is the seats' own error: Min to Max, for both, as for seats
// whose SeatMax is Max or more.
func (o Option) Range(seats int) (lo, hi int, allowed string) {
	lo, hi, bounded := o.bounds(seats)
	with := ""
	if bounded {
		with = fmt.Sprintf(" with %d seats", seats)
		if o.SeatWhy != "" {
			with += ", " + o.SeatWhy
		}
	}
	if lo == hi {
		return lo, hi, fmt.Sprintf("allowed only %d%s", lo, with)
	}
	return lo, hi, fmt.Sprintf("allowed %d to %d%s", lo, hi, with)
}

// bounds is Range without its words, as every match's setup reads it:
// bounded says SeatMax lowered hi.
func (o Option) bounds(seats int) (lo, hi int, bounded bool) {
	lo, hi = o.Min, o.Max
	if o.SeatMax != nil && seats > 0 {
		if top := o.SeatMax(seats); top >= lo && top < hi {
			return lo, top, true
		}
	}
	return lo, hi, false
}

// Setup is everything a match starts from, apart from the ruleset itself.
type Setup struct {
	Seed    uint64            `json:"seed"`
	Players []string          `json:"players"` // one name per seat
	Options map[string]string `json:"options,omitempty"`
}

// Seats returns the number of seats.
func (s Setup) Seats() int { return len(s.Players) }

// Check returns an error unless the setup fits info: its seats (CheckSeats)
// and its options (CheckOptions).
func (s Setup) Check(info Info) error {
	if err := s.CheckSeats(info); err != nil {
		return err
	}
	return s.CheckOptions(info)
}

// CheckSeats returns an error unless the setup has between min and max seats.
func (s Setup) CheckSeats(info Info) error {
	if n := len(s.Players); n < info.MinSeats || n > info.MaxSeats {
		players := "players"
		if n == 1 {
			players = "player"
		}
		return fmt.Errorf("%s: %d %s; the game takes %d to %d", info.Name, n, players, info.MinSeats, info.MaxSeats)
	}
	return nil
}

// Int returns the value of an IntOption, checked against the declared options
// of info: unknown names, malformed numbers and values out of range (for the
// setup's seats, Option.Range) are errors.
func (s Setup) Int(info Info, name string) (int, error) {
	opt, text, err := s.option(info, name, IntOption)
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(text)
	if err != nil {
		return 0, fmt.Errorf("option %s: %q is not a whole number", name, text)
	}
	if lo, hi, _ := opt.bounds(s.Seats()); v < lo || v > hi {
		_, _, allowed := opt.Range(s.Seats())
		return 0, fmt.Errorf("option %s: %d is out of range; %s", name, v, allowed)
	}
	return v, nil
}

// Bool returns the value of a BoolOption, checked as Int does.
func (s Setup) Bool(info Info, name string) (bool, error) {
	_, text, err := s.option(info, name, BoolOption)
	if err != nil {
		return false, err
	}
	v, err := strconv.ParseBool(text)
	if err != nil {
		return false, fmt.Errorf("option %s: %q is not true or false", name, text)
	}
	return v, nil
}

// CheckOptions returns an error naming the first option in s that info does
// not declare.
func (s Setup) CheckOptions(info Info) error {
	known := 0
	for name := range s.Options {
		if _, ok := info.option(name); ok {
			known++
		}
	}
	if known == len(s.Options) {
		return nil
	}
	names := make([]string, 0, len(s.Options))
	for name := range s.Options {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := info.option(name); !ok {
			return fmt.Errorf("%s has no option %q; options: %s", info.Name, name, info.optionNames())
		}
	}
	return nil
}

func (s Setup) option(info Info, name string, kind OptionKind) (*Option, string, error) {
	opt, ok := info.option(name)
	if !ok || opt.Kind != kind {
		return nil, "", fmt.Errorf("%s declares no such option %q", info.Name, name)
	}
	text, ok := s.Options[name]
	if !ok {
		text = opt.Default
	}
	return opt, text, nil
}

func (info Info) option(name string) (*Option, bool) {
	for i := range info.Options {
		if o := &info.Options[i]; o.Name == name {
			return o, true
		}
	}
	return nil, false
}

func (info Info) optionNames() string {
	if len(info.Options) == 0 {
		return "none"
	}
	s := ""
	for i, o := range info.Options {
		if i > 0 {
			s += ", "
		}
		s += o.Name
	}
	return s
}
