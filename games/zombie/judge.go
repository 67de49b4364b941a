package zombie

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// DefaultMaxTurns is max_turns when GAME_START gives none.
const DefaultMaxTurns = 5

// TurnLimit bounds max_turns wherever it is given: GAME_START, config.yml
// and arbiter play's --turns. A match of bots plays every turn it is
// allowed unless a side wins first, keeping each in its record and report,
// and the searcher plays every game it samples forward to max_turns, so a
// game of 1000 turns is already long (about a minute for a searcher's
// seat); an evening with a game master never comes near it.
const TurnLimit = 1000

// Judge is the Zombie Game's state machine: the roster, every
// player's true state, the turn, and who has met and ended this turn. It
// emits what it tells people as [Event] values. A Judge is not safe for
// concurrent use.
type Judge struct {
	phase    Phase
	players  []member
	index    map[string]int // folded name → roster index
	maxTurns int64
	turn     int
	met      map[uint64]int // pair → the turn it last interacted in
	open     int            // players who have not ended this turn
	idle     int            // players with no interaction this turn
	rostered int            // ZOMBIE lines in the roster
	// opened and idlers list those players in roster order, so that no
	// command costs time in proportion to the roster (a script of a
	// million players must not take hours).
	opened, idlers roll
	// closed is set when the last END_TURN ended a turn and no command has
	// been accepted since: a NEXT_TURN now does nothing.
	closed bool
	result Result
	events []Event
}

// member is a player with what the judge keeps about them during a turn.
type member struct {
	Player
	key      string // folded name
	hasCount bool   // the roster line gave the starting count
	ended    bool
	partners int // interactions this turn
	// from is the player's state at GAME_START; turned is the turn in which
	// an infected player became a zombie.
	from   State
	turned int
}

// NewJudge returns a judge before GAME_START, with an empty roster.
func NewJudge() *Judge {
	return &Judge{index: map[string]int{}, met: map[uint64]int{}}
}

// Phase returns where the game is.
func (j *Judge) Phase() Phase { return j.phase }

// Turn returns the open turn while the game is in progress, the last ended
// turn once it is over, and 0 before GAME_START.
func (j *Judge) Turn() int { return j.turn }

// MaxTurns returns the game's max_turns, or 0 before GAME_START.
func (j *Judge) MaxTurns() int64 { return j.maxTurns }

// Players returns the number of players in the roster.
func (j *Judge) Players() int { return len(j.players) }

// Player returns player i of the roster, with their true state.
func (j *Judge) Player(i int) Player { return j.players[i].Player }

// Lookup returns the roster index of name, in any case.
func (j *Judge) Lookup(name string) (int, bool) {
	i, ok := j.index[foldName(name)]
	return i, ok
}

// Ended reports whether player i has ended the turn.
func (j *Judge) Ended(i int) bool { return j.players[i].ended }

// Partners returns how many interactions player i has had this turn.
func (j *Judge) Partners(i int) int { return j.players[i].partners }

// Met reports whether players i and k have interacted this turn.
func (j *Judge) Met(i, k int) bool {
	t, ok := j.met[pairKey(i, k)]
	return ok && t == j.turn
}

// Result returns how the game ended; its Outcome is NoOutcome until then.
func (j *Judge) Result() Result { return j.result }

// Events returns everything the judge has said, in order. The slice is the
// judge's own: do not change it.
func (j *Judge) Events() []Event { return j.events }

// Exec applies c, read from line n of a script; a refused command becomes an
// ERROR event for that line. It reports whether c was accepted.
func (j *Judge) Exec(n int, c Command) bool {
	r := j.do(&c)
	if r == nil {
		return true
	}
	j.events = append(j.events, Event{Kind: Refused, Line: n, Code: r.Code, Text: r.Text})
	return false
}

// Do applies c, or refuses it with a *Refusal and changes nothing.
// Unlike Exec, a refusal is not written among the events.
func (j *Judge) Do(c Command) error {
	if r := j.do(&c); r != nil {
		return r
	}
	return nil
}

func (j *Judge) do(c *Command) *Refusal {
	if c.Op == OpUnknown {
		return &Refusal{Code: CodeUnknownCommand, Text: c.Bad}
	}
	if c.Op == OpNextTurn && c.Bad == "" && j.closed {
		// R24: a NEXT_TURN right after the END_TURN that ended a turn is
		// accepted and does nothing, "so scripts that close every turn with
		// NEXT_TURN stay valid": the last turn's too, though that END_TURN
		// ended the game (the rule for this case comes before R32's
		// general one).
		j.closed = false
		return nil
	}
	if r := j.checkPhase(c.Op); r != nil {
		return r
	}
	if c.Bad != "" {
		return &Refusal{Code: CodeArgs, Text: c.Bad}
	}
	var r *Refusal
	switch c.Op {
	case OpHuman, OpZombie:
		r = j.enrol(c)
	case OpGameStart:
		r = j.start(c)
	case OpInteract:
		r = j.interact(c.Sides)
	case OpCure:
		r = j.cure(c.Name)
	case OpEndTurn:
		return j.endTurn(c.Name) // sets closed itself
	case OpNextTurn:
		return j.nextTurn()
	default:
		return refuse(CodeUnknownCommand, "unknown command %d", c.Op)
	}
	if r == nil {
		j.closed = false
	}
	return r
}

// checkPhase is the first check of every command.
func (j *Judge) checkPhase(op Op) *Refusal {
	switch {
	case j.phase == Over:
		return refuse(CodeGameOver, "the game is over (%s); no command is accepted after the end", j.result.Outcome)
	case op == OpHuman || op == OpZombie || op == OpGameStart:
		if j.phase != Setup {
			return refuse(CodeAlreadyStarted, "%s is allowed only before GAME_START; the game is in turn %d", op, j.turn)
		}
	case j.phase == Setup:
		return refuse(CodeNotStarted, "%s is allowed only after GAME_START; the roster is being written", op)
	}
	return nil
}

// enrol adds a HUMAN or ZOMBIE line's player to the roster.
func (j *Judge) enrol(c *Command) *Refusal {
	key := foldName(c.Name)
	if i, ok := j.index[key]; ok {
		return refuse(CodeDuplicatePlayer, "the roster already has %s; names are compared without case", j.players[i].Name)
	}
	m := member{Player: Player{Name: c.Name, State: Human}, key: key, hasCount: c.HasCount}
	if c.Op == OpZombie {
		m.State = Zombie
		j.rostered++
		if c.HasCount {
			m.Viruses = c.Count
		}
	} else if c.HasCount {
		m.Antibodies = c.Count
	}
	m.from = m.State
	j.index[key] = len(j.players)
	j.players = append(j.players, m)
	return nil
}

// start is GAME_START.
func (j *Judge) start(c *Command) *Refusal {
	zombies := j.rostered
	if humans := len(j.players) - zombies; zombies < 1 || humans < 2 {
		return refuse(CodeSetup, "the roster has %s and %s; a game needs at least 1 zombie and at least 2 humans", counted(zombies, "zombie", "zombies"), counted(humans, "human", "humans"))
	}
	j.maxTurns = c.MaxTurns
	if j.maxTurns == 0 {
		j.maxTurns = DefaultMaxTurns
	}
	for i := range j.players {
		p := &j.players[i]
		switch {
		case p.hasCount:
		case p.State == Zombie:
			p.Viruses = c.Viruses
		default:
			p.Antibodies = c.Antibodies
		}
	}
	j.phase, j.turn = InProgress, 1
	j.newTurn()
	j.events = append(j.events, Event{Kind: Started, MaxTurns: j.maxTurns})
	j.tell(0)
	z, h := j.count()
	j.events = append(j.events, Event{Kind: Announced, Zombies: z, Humans: h})
	return nil
}

// tell sends every player their PRIVATE message, in roster order.
func (j *Judge) tell(turn int) {
	for i := range j.players {
		p := &j.players[i]
		j.events = append(j.events, Event{Kind: Told, Turn: turn, Player: i, Identity: p.State.Identity(),
			Antibodies: p.Antibodies, Viruses: p.Viruses})
	}
}

// count returns the number of zombies and of humans, infected included.
func (j *Judge) count() (zombies, humans int) {
	for i := range j.players {
		if j.players[i].State == Zombie {
			zombies++
		}
	}
	return zombies, len(j.players) - zombies
}

func pairKey(i, k int) uint64 {
	if i > k {
		i, k = k, i
	}
	return uint64(i)<<32 | uint64(k)
}

// lookup finds a player of a command, or refuses with E_UNKNOWN_PLAYER.
func (j *Judge) lookup(name string) (int, *Refusal) {
	// Fold into a buffer on the stack: the map lookup of string(b) does not
	// copy it.
	var buf [32]byte
	if i, ok := j.index[string(appendFolded(buf[:0], name))]; ok {
		return i, nil
	}
	names := make([]string, len(j.players))
	for i := range j.players {
		names[i] = j.players[i].Name
	}
	if near := engine.Nearest(name, names); near != "" {
		return -1, refuse(CodeUnknownPlayer, "no player %q in the roster; did you mean %s? The players are %s", name, near, j.names())
	}
	return -1, refuse(CodeUnknownPlayer, "no player %q in the roster; the players are %s", name, j.names())
}

func (j *Judge) names() string {
	const most = 20
	var b strings.Builder
	for i := range j.players {
		if i == most {
			b.WriteString(", and " + strconv.Itoa(len(j.players)-most) + " more")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(j.players[i].Name)
	}
	return b.String()
}

// interact is INTERACT, checked in R36's order and resolved by R13.
func (j *Judge) interact(sides [2]Side) *Refusal {
	x, r := j.lookup(sides[0].Name)
	if r != nil {
		return r
	}
	y, r := j.lookup(sides[1].Name)
	if r != nil {
		return r
	}
	px, py := &j.players[x], &j.players[y]
	if x == y {
		return refuse(CodeSelfInteraction, "%s cannot interact with themself; an interaction involves two different players", px.Name)
	}
	for _, p := range [2]*member{px, py} {
		if p.ended {
			return refuse(CodePlayerEnded, "%s has ended turn %d and cannot take part in any more interactions this turn", p.Name, j.turn)
		}
	}
	key := pairKey(x, y)
	if t, ok := j.met[key]; ok && t == j.turn {
		return refuse(CodeAlreadyInteracted, "%s and %s have already interacted in turn %d; a pair interacts at most once a turn", px.Name, py.Name, j.turn)
	}
	if r := checkModifier(px, sides[0].Modifier); r != nil {
		return r
	}
	if r := checkModifier(py, sides[1].Modifier); r != nil {
		return r
	}
	touch(&px.Player, &py.Player, sides[0].Modifier, sides[1].Modifier)
	j.met[key] = j.turn
	for i, p := range [2]*member{px, py} {
		if p.partners == 0 {
			j.idle--
			j.idlers.remove([2]int{x, y}[i])
		}
		p.partners++
	}
	return nil
}

// checkModifier checks one side's modifier (R11, R12, R36 step 7).
func checkModifier(p *member, m Modifier) *Refusal {
	switch {
	case m.Precaution && p.State == Zombie:
		return refuse(CodeZombieAction, "%s is a zombie and cannot apply precaution; only humans can", p.Name)
	case m.Precaution && p.Antibodies < 1:
		return refuse(CodeNoAntibody, "%s has no antibody to pay for precaution; precaution costs 1", p.Name)
	case m.Viruses > 0 && p.State != Zombie:
		return refuse(CodeNotZombie, "%s is not a zombie and cannot apply viruses; only zombies can", p.Name)
	case m.Viruses > p.Viruses:
		return refuse(CodeNotEnoughVirus, "%s applies %s but has %d", p.Name, counted(m.Viruses, "virus", "viruses"), p.Viruses)
	}
	return nil
}

// cure is CURE.
func (j *Judge) cure(name string) *Refusal {
	i, r := j.lookup(name)
	if r != nil {
		return r
	}
	p := &j.players[i]
	switch {
	case p.State == Zombie:
		return refuse(CodeZombieAction, "%s is a zombie and cannot cure; only humans can", p.Name)
	case p.Antibodies < 1:
		return refuse(CodeNoAntibody, "%s has no antibody to pay for a cure; a cure costs 1", p.Name)
	}
	p.Antibodies--
	p.State = Human
	return nil
}

// endTurn is END_TURN.
func (j *Judge) endTurn(name string) *Refusal {
	i, r := j.lookup(name)
	if r != nil {
		return r
	}
	p := &j.players[i]
	switch {
	case p.ended:
		return refuse(CodeAlreadyEnded, "%s has already ended turn %d", p.Name, j.turn)
	case p.partners == 0:
		return refuse(CodeNoInteraction, "%s has had no interaction in turn %d; a player ends the turn after at least one", p.Name, j.turn)
	}
	if j.open == 2 {
		// After this, one player is left; they must have a partner.
		k := j.opened.head
		if k == i {
			k = j.opened.next[k]
		}
		if q := &j.players[k]; q.partners == 0 {
			return refuse(CodeDeadlock, "if %s ended the turn, %s, with no interaction yet, would have no partner left who has not ended it", p.Name, q.Name)
		}
	}
	p.ended = true
	j.open--
	j.opened.remove(i)
	j.closed = false
	if j.open == 0 {
		j.closeTurn()
		j.closed = true
	}
	return nil
}

// nextTurn is NEXT_TURN.
func (j *Judge) nextTurn() *Refusal {
	if j.closed {
		j.closed = false
		return nil
	}
	if j.idle > 0 {
		const most = 20
		var idle []string
		for i := j.idlers.head; i >= 0 && len(idle) < most; i = j.idlers.next[i] {
			idle = append(idle, j.players[i].Name)
		}
		if j.idle > most {
			idle = append(idle, "and "+strconv.Itoa(j.idle-most)+" more")
		}
		return refuse(CodeNoInteraction, "no interaction in turn %d for %s; every player interacts at least once before the turn ends", j.turn, strings.Join(idle, ", "))
	}
	j.closeTurn()
	return nil
}

// closeTurn runs the end-of-turn steps of R25.
func (j *Judge) closeTurn() {
	for i := range j.players {
		p := &j.players[i]
		if p.State != Infected {
			continue
		}
		// 1. Every infected player loses 1 antibody (never below 0).
		if p.Antibodies > 0 {
			p.Antibodies--
		}
		// 2. Every infected player now at 0 becomes a zombie.
		if p.Antibodies == 0 {
			p.State, p.Viruses, p.turned = Zombie, 0, j.turn
		}
	}
	// 3. and 4. The messages.
	j.events = append(j.events, Event{Kind: TurnEnded, Turn: j.turn})
	j.tell(j.turn)
	z, h := j.count()
	var maxA, maxV int64
	for i := range j.players {
		maxA = max(maxA, j.players[i].Antibodies)
		maxV = max(maxV, j.players[i].Viruses)
	}
	j.events = append(j.events, Event{Kind: Announced, Turn: j.turn, Zombies: z, Humans: h, MaxAntibodies: maxA, MaxViruses: maxV})
	// 5. The game-end check.
	if j.judge(h) {
		j.phase = Over
		j.events = append(j.events, Event{Kind: Ended, Turn: j.turn})
		return
	}
	// 6. The next turn.
	j.turn++
	j.newTurn()
}

// newTurn clears every player's partners and ended flag.
func (j *Judge) newTurn() {
	for i := range j.players {
		j.players[i].ended, j.players[i].partners = false, 0
	}
	j.open, j.idle = len(j.players), len(j.players)
	j.opened.fill(len(j.players))
	j.idlers.fill(len(j.players))
}

// roll is a list of roster indices in roster order, from which players
// are removed one by one during a turn.
type roll struct {
	head       int   // -1 when empty
	next, prev []int // -1 at the ends
}

// fill makes the list 0, 1, …, n-1.
func (r *roll) fill(n int) {
	if cap(r.next) < n {
		r.next, r.prev = make([]int, n), make([]int, n)
	}
	r.next, r.prev = r.next[:n], r.prev[:n]
	for i := range n {
		r.next[i], r.prev[i] = i+1, i-1
	}
	if n > 0 {
		r.next[n-1] = -1
	}
	r.head = -1
	if n > 0 {
		r.head = 0
	}
}

// remove takes i, which is in the list, out of it.
func (r *roll) remove(i int) {
	n, p := r.next[i], r.prev[i]
	if p >= 0 {
		r.next[p] = n
	} else {
		r.head = n
	}
	if n >= 0 {
		r.prev[n] = p
	}
}

// judge decides whether the game is over at the end of a turn with h
// humans (infected included) left, in the order R28, R29, R30.
func (j *Judge) judge(h int) bool {
	switch {
	case h == 0:
		j.result = Result{Outcome: ZombiesWin, Survivor: -1}
	case h == 1:
		for i := range j.players {
			if j.players[i].State != Zombie {
				j.result = Result{Outcome: HumansWinSurvivor, Survivor: i}
			}
		}
	case int64(j.turn) >= j.maxTurns:
		j.result = Result{Outcome: HumansWinMaxTurns, Survivor: -1, Ranking: j.ranking()}
	default:
		return false
	}
	return true
}

// ranking ranks every non-zombie by antibodies, high to low, with
// competition ranking; ties keep roster order.
func (j *Judge) ranking() []Ranked {
	var out []Ranked
	for i := range j.players {
		if p := &j.players[i]; p.State != Zombie {
			out = append(out, Ranked{Player: i, Antibodies: p.Antibodies})
		}
	}
	slices.SortStableFunc(out, func(a, b Ranked) int { return cmp.Compare(b.Antibodies, a.Antibodies) })
	for i := range out {
		out[i].Rank = i + 1
		if i > 0 && out[i].Antibodies == out[i-1].Antibodies {
			out[i].Rank = out[i-1].Rank
		}
	}
	return out
}
