package zombie

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/engine"
)

// Op is what a command does: its keyword, whichever alias wrote it.
type Op uint8

// The commands of a script (arbiter rules zombie).
const (
	// OpUnknown is a line whose first word is no keyword (E_UNKNOWN_COMMAND).
	OpUnknown Op = iota
	OpHuman
	OpZombie
	OpGameStart
	OpInteract
	OpCure
	OpEndTurn
	OpNextTurn
)

var opNames = [...]string{OpUnknown: "?", OpHuman: "HUMAN", OpZombie: "ZOMBIE", OpGameStart: "GAME_START",
	OpInteract: "INTERACT", OpCure: "CURE", OpEndTurn: "END_TURN", OpNextTurn: "NEXT_TURN"}

// String returns the command's keyword as scripts write it in full.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op(" + strconv.Itoa(int(o)) + ")"
}

// keywords are every keyword and alias of the script, in any case.
var keywords = [...]struct {
	word string
	op   Op
}{
	{"HUMAN", OpHuman}, {"ZOMBIE", OpZombie}, {"GAME_START", OpGameStart},
	{"INTERACT", OpInteract}, {"TOUCH", OpInteract}, {"I", OpInteract}, {"T", OpInteract},
	{"CURE", OpCure}, {"ANTIDOTE", OpCure}, {"C", OpCure}, {"A", OpCure},
	{"END_TURN", OpEndTurn}, {"END", OpEndTurn}, {"E", OpEndTurn},
	{"NEXT_TURN", OpNextTurn}, {"NEXT_ROUND", OpNextTurn}, {"NT", OpNextTurn}, {"NR", OpNextTurn},
}

// commandWords are the keywords a typo may be of: the aliases of three
// letters or more too.
var commandWords = []string{"HUMAN", "ZOMBIE", "GAME_START", "INTERACT", "TOUCH", "CURE", "ANTIDOTE", "END_TURN", "NEXT_TURN", "NEXT_ROUND"}

// Command is one command of a script, typed.
type Command struct {
	Op Op
	// Name is the player of HUMAN, ZOMBIE, CURE and END_TURN.
	Name string
	// Count is a roster line's own starting antibodies (HUMAN) or viruses
	// (ZOMBIE), when HasCount.
	Count    int64
	HasCount bool
	// Sides are the two players of INTERACT, with their modifiers.
	Sides [2]Side
	// MaxTurns is GAME_START's max_turns, at most TurnLimit; 0 means the
	// default, 5.
	MaxTurns int64
	// Antibodies and Viruses are GAME_START's start_antibodies and
	// start_viruses (default 0).
	Antibodies, Viruses int64
	// Bad, when not empty, says what is wrong with the command's words:
	// the judge refuses it with E_ARGS, or E_UNKNOWN_COMMAND for OpUnknown,
	// after the checks that come first.
	Bad string
}

// HumanCommand returns HUMAN name, with the default starting antibodies.
func HumanCommand(name string) Command { return Command{Op: OpHuman, Name: name} }

// ZombieCommand returns ZOMBIE name, with the default starting viruses.
func ZombieCommand(name string) Command { return Command{Op: OpZombie, Name: name} }

// StartCommand returns GAME_START max_turns antibodies=a viruses=v.
func StartCommand(maxTurns, antibodies, viruses int64) Command {
	return Command{Op: OpGameStart, MaxTurns: maxTurns, Antibodies: antibodies, Viruses: viruses}
}

// InteractCommand returns INTERACT x y.
func InteractCommand(x, y Side) Command { return Command{Op: OpInteract, Sides: [2]Side{x, y}} }

// CureCommand returns CURE name.
func CureCommand(name string) Command { return Command{Op: OpCure, Name: name} }

// EndTurnCommand returns END_TURN name.
func EndTurnCommand(name string) Command { return Command{Op: OpEndTurn, Name: name} }

// NextTurnCommand is NEXT_TURN.
var NextTurnCommand = Command{Op: OpNextTurn}

// String returns the command as a script line, in full words; ParseLine
// reads it back as the same command.
func (c Command) String() string {
	var b strings.Builder
	b.WriteString(c.Op.String())
	switch c.Op {
	case OpHuman, OpZombie:
		b.WriteString(" " + c.Name)
		if c.HasCount {
			b.WriteString(" " + strconv.FormatInt(c.Count, 10))
		}
	case OpGameStart:
		turns := c.MaxTurns
		if turns == 0 {
			turns = DefaultMaxTurns
		}
		b.WriteString(" " + strconv.FormatInt(turns, 10))
		b.WriteString(" antibodies=" + strconv.FormatInt(c.Antibodies, 10))
		b.WriteString(" viruses=" + strconv.FormatInt(c.Viruses, 10))
	case OpInteract:
		b.WriteString(" " + c.Sides[0].String() + " " + c.Sides[1].String())
	case OpCure, OpEndTurn:
		b.WriteString(" " + c.Name)
	}
	return b.String()
}

// maxWords bounds the words a line keeps; no command takes more than four.
const maxWords = 6

// words is a line split on white space, comments dropped.
type words struct {
	w [maxWords]string
	n int // words found, which may be more than kept
}

func (ws *words) split(line string) {
	ws.n = 0
	i := 0
	for i < len(line) {
		// Skip white space.
		for i < len(line) {
			c := line[i]
			if c < utf8.RuneSelf {
				if c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\v' && c != '\f' {
					break
				}
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(line[i:])
			if !unicode.IsSpace(r) {
				break
			}
			i += size
		}
		if i >= len(line) {
			return
		}
		if line[i] == '#' {
			return // a comment runs to the end of the line
		}
		start := i
		for i < len(line) {
			c := line[i]
			if c < utf8.RuneSelf {
				if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f' {
					break
				}
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(line[i:])
			if unicode.IsSpace(r) {
				break
			}
			i += size
		}
		if ws.n < maxWords {
			ws.w[ws.n] = line[start:i]
		}
		ws.n++
	}
}

// ParseLine reads one line of a script (arbiter rules zombie). ok is false when the
// line holds no command: it is empty or a comment. A first word that is no
// keyword gives OpUnknown; arguments that do not parse give the command with
// Bad set, so that the judge can make its phase check first.
func ParseLine(line string) (c Command, ok bool) {
	var ws words
	ws.split(line)
	return parseWords(&ws)
}

func parseWords(ws *words) (c Command, ok bool) {
	if ws.n == 0 {
		return Command{}, false
	}
	first := ws.w[0]
	for _, k := range keywords {
		if len(k.word) == len(first) && strings.EqualFold(k.word, first) {
			c.Op = k.op
			break
		}
	}
	args := ws.w[1:min(ws.n, maxWords)]
	nargs := ws.n - 1
	switch c.Op {
	case OpUnknown:
		const commands = "HUMAN, ZOMBIE, GAME_START, INTERACT (TOUCH, i, t), CURE (ANTIDOTE, c, a), END_TURN (END, e), NEXT_TURN (NEXT_ROUND, nt, nr)"
		if near := engine.Nearest(first, commandWords); near != "" {
			c.Bad = "unknown command " + strconv.Quote(first) + "; did you mean " + near + "? The commands are " + commands
		} else {
			c.Bad = "unknown command " + strconv.Quote(first) + "; the commands are " + commands
		}
	case OpHuman, OpZombie:
		what := "antibodies"
		if c.Op == OpZombie {
			what = "viruses"
		}
		if nargs < 1 || nargs > 2 {
			c.Bad = c.Op.String() + " takes a name and optionally its starting " + what + ": " + c.Op.String() + " <name> [<" + what + ">]"
			break
		}
		c.Name = args[0]
		if !validName(c.Name) {
			c.Bad = CheckName(c.Name).Error()
			break
		}
		if nargs == 2 {
			n, err := parseCount(args[1])
			if err != "" {
				c.Bad = "starting " + what + ": " + err
				break
			}
			c.Count, c.HasCount = n, true
		}
	case OpGameStart:
		c.Bad = c.parseStart(args, nargs)
	case OpInteract:
		if nargs != 2 {
			c.Bad = "INTERACT takes two players: INTERACT <side> <side>, where a side is name, name/p, name/v or name/v<k>"
			break
		}
		for i := range 2 {
			s, err := parseSide(args[i])
			if err != "" {
				c.Bad = err
				break
			}
			c.Sides[i] = s
		}
	case OpCure, OpEndTurn:
		if nargs != 1 {
			c.Bad = c.Op.String() + " takes one player: " + c.Op.String() + " <name>"
			break
		}
		c.Name = args[0]
	case OpNextTurn:
		if nargs != 0 {
			c.Bad = "NEXT_TURN takes no arguments"
		}
	}
	return c, true
}

// parseStart reads GAME_START [<max_turns>] [antibodies=<n>] [viruses=<n>],
// each at most once, and returns what is wrong, if anything.
func (c *Command) parseStart(args []string, nargs int) string {
	const usage = "; GAME_START [<max_turns>] [antibodies=<n>] [viruses=<n>], each at most once"
	if nargs > 3 {
		return "GAME_START takes at most three arguments" + usage
	}
	var seenTurns, seenA, seenV bool
	for _, a := range args {
		key, value, isOption := strings.Cut(a, "=")
		if !isOption {
			if seenTurns {
				return "a second max_turns " + strconv.Quote(a) + usage
			}
			n, err := parseCount(a)
			if err != "" || n < 1 || n > TurnLimit {
				if strings.Trim(a, "0123456789") != "" {
					return "max_turns: " + strconv.Quote(a) + " is not a whole number from 1 to " + strconv.Itoa(TurnLimit)
				}
				return "max_turns is " + a + "; allowed 1 to " + strconv.Itoa(TurnLimit)
			}
			c.MaxTurns, seenTurns = n, true
			continue
		}
		var seen *bool
		var into *int64
		switch {
		case strings.EqualFold(key, "antibodies"):
			seen, into = &seenA, &c.Antibodies
		case strings.EqualFold(key, "viruses"):
			seen, into = &seenV, &c.Viruses
		default:
			return "unknown option " + strconv.Quote(key) + usage
		}
		if *seen {
			return "option " + key + " given twice" + usage
		}
		n, err := parseCount(value)
		if err != "" {
			return key + ": " + err
		}
		*into, *seen = n, true
	}
	return ""
}

// parseSide reads name, name/p, name/v or name/v<k> (k ≥ 1), in any case.
func parseSide(s string) (Side, string) {
	name, mod, hasMod := strings.Cut(s, "/")
	if name == "" {
		return Side{}, "side " + strconv.Quote(s) + " has no player name"
	}
	side := Side{Name: name}
	if !hasMod {
		return side, ""
	}
	bad := func() string {
		return "bad modifier " + strconv.Quote("/"+mod) + " on " + name + "; a side is name, name/p (precaution), name/v (1 virus) or name/v<k> (k ≥ 1 viruses)"
	}
	switch {
	case mod == "p" || mod == "P":
		side.Precaution = true
	case mod == "v" || mod == "V":
		side.Viruses = 1
	case len(mod) > 1 && (mod[0] == 'v' || mod[0] == 'V'):
		k, err := parseCount(mod[1:])
		if err != "" {
			return Side{}, bad()
		}
		if k < 1 {
			return Side{}, "a zombie applies at least 1 virus; " + name + "/v0 is not allowed"
		}
		side.Viruses = k
	default:
		return Side{}, bad()
	}
	return side, ""
}

// parseCount reads a whole number from 0 to MaxCount, digits only.
func parseCount(s string) (int64, string) {
	if s == "" {
		return 0, "a number is missing"
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, strconv.Quote(s) + " is not a whole number from 0 to " + strconv.Itoa(MaxCount)
		}
		n = n*10 + int64(c-'0')
		if n > MaxCount {
			return 0, s + " is too large; at most " + strconv.Itoa(MaxCount)
		}
	}
	return n, ""
}
