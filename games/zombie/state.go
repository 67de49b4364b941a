package zombie

import (
	"fmt"
	"strconv"
)

// State is what a player truly is: a human (H), an infected human (I) or a
// zombie (Z). Players are only ever told "human" or "zombie".
type State uint8

// The player states.
const (
	Human State = iota
	Infected
	Zombie
)

var stateNames = [...]string{Human: "human", Infected: "infected", Zombie: "zombie"}

// String returns the judge's word for the state: human, infected, zombie.
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "state(" + strconv.Itoa(int(s)) + ")"
}

// Identity returns what the player is told they are: an infected player is
// told Human.
func (s State) Identity() State {
	if s == Infected {
		return Human
	}
	return s
}

// Phase is where a game is: before GAME_START, under way, or over.
type Phase uint8

// The game phases.
const (
	Setup Phase = iota
	InProgress
	Over
)

var phaseNames = [...]string{Setup: "setup", InProgress: "in_progress", Over: "over"}

// String returns the phase as the FINAL line writes it.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase(" + strconv.Itoa(int(p)) + ")"
}

// Code is the error code of a refused command, as an ERROR line prints it.
type Code string

// The error codes of the judge (arbiter rules zombie).
const (
	CodeUnknownCommand    Code = "E_UNKNOWN_COMMAND"
	CodeArgs              Code = "E_ARGS"
	CodeDuplicatePlayer   Code = "E_DUPLICATE_PLAYER"
	CodeSetup             Code = "E_SETUP"
	CodeAlreadyStarted    Code = "E_ALREADY_STARTED"
	CodeNotStarted        Code = "E_NOT_STARTED"
	CodeGameOver          Code = "E_GAME_OVER"
	CodeUnknownPlayer     Code = "E_UNKNOWN_PLAYER"
	CodeSelfInteraction   Code = "E_SELF_INTERACTION"
	CodePlayerEnded       Code = "E_PLAYER_ENDED"
	CodeAlreadyInteracted Code = "E_ALREADY_INTERACTED"
	CodeZombieAction      Code = "E_ZOMBIE_ACTION"
	CodeNoAntibody        Code = "E_NO_ANTIBODY"
	CodeNotZombie         Code = "E_NOT_ZOMBIE"
	CodeNotEnoughVirus    Code = "E_NOT_ENOUGH_VIRUS"
	CodeAlreadyEnded      Code = "E_ALREADY_ENDED"
	CodeNoInteraction     Code = "E_NO_INTERACTION"
	CodeDeadlock          Code = "E_DEADLOCK"
)

// Codes lists every error code, in the order the rules list them.
var Codes = []Code{
	CodeUnknownCommand, CodeArgs, CodeDuplicatePlayer, CodeSetup, CodeAlreadyStarted, CodeNotStarted,
	CodeGameOver, CodeUnknownPlayer, CodeSelfInteraction, CodePlayerEnded, CodeAlreadyInteracted,
	CodeZombieAction, CodeNoAntibody, CodeNotZombie, CodeNotEnoughVirus, CodeAlreadyEnded,
	CodeNoInteraction, CodeDeadlock,
}

// Refusal is a command the judge refused: its code and what was wrong and
// what is allowed. A refused command changes nothing.
type Refusal struct {
	Code Code
	Text string
}

// Error returns the code and the reason, as an ERROR line shows them.
func (r *Refusal) Error() string { return string(r.Code) + ": " + r.Text }

func refuse(code Code, format string, args ...any) *Refusal {
	return &Refusal{Code: code, Text: fmt.Sprintf(format, args...)}
}

// Player is one player of the roster as the judge knows them.
type Player struct {
	Name       string `json:"name"`
	State      State  `json:"-"`
	Antibodies int64  `json:"antibodies"`
	Viruses    int64  `json:"viruses"`
}

// MaxCount bounds every number a script or config may give (antibodies,
// viruses, max_turns, which TurnLimit bounds further): counts then stay
// far from overflowing however long a game runs.
const MaxCount = 1_000_000_000

// CheckName returns an error unless name is a valid player name.
func CheckName(name string) error {
	if !validName(name) {
		return fmt.Errorf("%q is not a player name; a name starts with a letter and has only letters, digits, _, . and -", name)
	}
	return nil
}

// validName matches R1's pattern ^[A-Za-z][A-Za-z0-9_.-]*$ without the
// regexp machinery: it is on the hot path of long scripts.
func validName(name string) bool {
	if name == "" || !isLetter(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !isLetter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// foldName is a name's key for case-insensitive comparison:
// ASCII lower case, since names are ASCII; other bytes are kept, so a
// name that is not ASCII never matches one that is. It allocates only when
// the name has capitals.
func foldName(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c >= 'A' && c <= 'Z' {
			return string(appendFolded(make([]byte, 0, len(name)), name))
		}
	}
	return name
}

// appendFolded appends name in ASCII lower case to b.
func appendFolded(b []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// Modifier is what one side brings to an interaction: precaution, or
// k ≥ 1 viruses, or nothing (the zero value).
type Modifier struct {
	Precaution bool  `json:"precaution,omitempty"`
	Viruses    int64 `json:"viruses,omitempty"`
}

// Precaution is the modifier of a side that applies precaution.
var Precaution = Modifier{Precaution: true}

// Viruses returns the modifier of a zombie that applies k viruses.
func Viruses(k int64) Modifier { return Modifier{Viruses: k} }

// None reports whether m is no modifier at all.
func (m Modifier) None() bool { return !m.Precaution && m.Viruses == 0 }

// suffix is the modifier as a script side writes it: "", "/p" or "/v<k>".
func (m Modifier) suffix() string {
	switch {
	case m.Precaution:
		return "/p"
	case m.Viruses > 0:
		return "/v" + strconv.FormatInt(m.Viruses, 10)
	}
	return ""
}

// String returns the modifier in words: "precaution", "3 viruses", "none".
func (m Modifier) String() string {
	switch {
	case m.Precaution:
		return "precaution"
	case m.Viruses == 1:
		return "1 virus"
	case m.Viruses > 0:
		return strconv.FormatInt(m.Viruses, 10) + " viruses"
	}
	return "none"
}

// Side is one side of an INTERACT command: a player's name and their
// modifier.
type Side struct {
	Name string
	Modifier
}

// String returns the side as a script writes it: Ann, Ann/p, Zed/v3.
func (s Side) String() string { return s.Name + s.suffix() }
