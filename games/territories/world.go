package territories

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/engine"
)

// Judge is the player name of actions no player makes: the end of a turn.
const Judge = ""

// Nation is one player's nation. Its record stays when it is out of the
// game.
type Nation struct {
	Name   string
	Player string
	Color  Color
	// Joined is the number of the action that founded it (from 1).
	Joined int
	// Out is the number of the battle that took its last army, 0 while it
	// is in the game.
	Out int
	// Allowed and Used count its actions in this turn, and Passed says it
	// gave up the rest; only under turn management.
	Allowed, Used int
	Passed        bool
}

// In reports whether the nation is still in the game.
func (n *Nation) In() bool { return n.Out == 0 }

// ActionsLeft returns the actions the nation has left in this turn under
// turn management.
func (n *Nation) ActionsLeft() int {
	if n.Passed || n.Out != 0 {
		return 0
	}
	return max(n.Allowed-n.Used, 0)
}

// Holding is who holds a territory and with how many armies. Nation is -1
// and Armies 0 when the territory is unclaimed.
type Holding struct {
	Nation int
	Armies int
}

// World is the state of a game of territories: the nations, who holds each
// territory, the dice and the turn. Apply is the rules; nothing else
// changes a World. A World is not safe for concurrent use.
type World struct {
	cfg     *Config
	nations []Nation
	held    []Holding // by territory
	dice    *rand.PCG
	seq     int // accepted actions
	turn    int // from 1 under turn management; 0 without

	// What the last actions changed, for a store that writes only that;
	// untracked worlds (a match's, whose store keeps moves, not rows) keep
	// nothing.
	dirtyNations     []int
	dirtyTerritories []int
	untracked        bool
}

// NewWorld starts a game on cfg: no nations, every territory unclaimed, the
// dice seeded from cfg.Seed.
func NewWorld(cfg *Config) *World {
	w := &World{cfg: cfg, held: make([]Holding, cfg.Len()), dice: engine.NewRNG(cfg.SeedValue())}
	for i := range w.held {
		w.held[i].Nation = -1
	}
	if cfg.TurnManagement {
		w.turn = 1
	}
	return w
}

// Config returns the game's configuration.
func (w *World) Config() *Config { return w.cfg }

// Seq returns the number of actions accepted so far.
func (w *World) Seq() int { return w.seq }

// Turn returns the turn under turn management, from 1; 0 without it.
func (w *World) Turn() int { return w.turn }

// Nations returns the number of nations that have joined, in or out.
func (w *World) Nations() int { return len(w.nations) }

// Nation returns nation k, in the order they joined.
func (w *World) Nation(k int) *Nation { return &w.nations[k] }

// Holding returns who holds territory i.
func (w *World) Holding(i int) Holding { return w.held[i] }

// NationOf returns the nation of player, or -1.
func (w *World) NationOf(player string) int {
	for k := range w.nations {
		if w.nations[k].Player == player {
			return k
		}
	}
	return -1
}

// NationNamed returns the nation called name in any case, or -1.
func (w *World) NationNamed(name string) int {
	for k := range w.nations {
		if strings.EqualFold(w.nations[k].Name, name) {
			return k
		}
	}
	return -1
}

// Holdings returns the number of territories nation k holds.
func (w *World) Holdings(k int) int {
	n := 0
	for _, h := range w.held {
		if h.Nation == k {
			n++
		}
	}
	return n
}

// Armies returns the armies of nation k on the whole map.
func (w *World) Armies(k int) int {
	n := 0
	for _, h := range w.held {
		if h.Nation == k {
			n += h.Armies
		}
	}
	return n
}

// InGame returns the number of nations still in the game.
func (w *World) InGame() int {
	n := 0
	for k := range w.nations {
		if w.nations[k].In() {
			n++
		}
	}
	return n
}

// Started reports whether min_nations have joined, so that move, raise and
// attack are allowed.
func (w *World) Started() bool { return len(w.nations) >= w.cfg.MinNations }

// Clone returns a deep copy of w, dice included, for bots that look ahead.
func (w *World) Clone() *World {
	c := *w
	c.nations = slices.Clone(w.nations)
	c.held = slices.Clone(w.held)
	d := *w.dice
	c.dice = &d
	c.dirtyNations, c.dirtyTerritories = nil, nil
	return &c
}

// Dirty returns the nations and territories that accepted actions have
// changed since the last call, and forgets them. A store writes those rows.
func (w *World) Dirty() (nations, territories []int) {
	nations, territories = w.dirtyNations, w.dirtyTerritories
	w.dirtyNations, w.dirtyTerritories = nil, nil
	slices.Sort(nations)
	slices.Sort(territories)
	return slices.Compact(nations), slices.Compact(territories)
}

func (w *World) touchNation(k int) {
	if !w.untracked {
		w.dirtyNations = append(w.dirtyNations, k)
	}
}

func (w *World) touchTerritory(i int) {
	if !w.untracked {
		w.dirtyTerritories = append(w.dirtyTerritories, i)
	}
}

// Apply validates player's action and applies it. A refused action returns
// a *engine.RuleError that says why, and changes nothing: not even the dice,
// which are drawn only once an action is known to be legal. player is the
// caller's name for the person or program acting; Judge for end-turn.
func (w *World) Apply(player string, a Action) (Outcome, error) {
	if a.words != "" {
		var err error
		if a, err = w.cfg.Resolve(a); err != nil {
			return Outcome{}, err
		}
	}
	o := Outcome{Action: a.Kind, Player: player, Turn: w.turn}
	var err error
	switch a.Kind {
	case EndTurn:
		err = w.endTurn(player)
	case Join:
		err = w.join(player, a, &o)
	case SetColor, Move, Raise, Attack, Pass:
		err = w.act(player, a, &o)
	default:
		err = engine.Refuse("unknown-action", "unknown action; the actions are %s", actionSyntax)
	}
	if err != nil {
		return Outcome{}, err
	}
	w.settle(a.Kind, &o)
	return o, nil
}

// settle counts an accepted action: its number, the nation it put out,
// and under turn management the actions left and the turn's end.
func (w *World) settle(kind Kind, o *Outcome) {
	w.seq++
	o.Seq = w.seq
	if o.Removed != "" {
		w.nations[w.NationNamed(o.Removed)].Out = w.seq
	}
	if w.cfg.TurnManagement {
		if k := w.NationNamed(o.Nation); k >= 0 && o.Nation != "" {
			o.ActionsLeft = w.nations[k].ActionsLeft()
		}
		if kind == EndTurn || w.turnDone() {
			w.newTurn()
			o.TurnEnded = true
		}
	}
}

// order is a nation's pass, raise, move or attack with its territories
// resolved to the map's indices (a raise's territory is from); armies are
// a move's, 0 for all.
type order struct {
	kind     Kind
	from, to int
	armies   int
}

// play applies nation k's order by the same rules as Apply, for bots that
// play many games forward: the nation is in the game and its territories
// are resolved already.
func (w *World) play(k int, od order) (Outcome, error) {
	o := Outcome{Action: od.kind, Player: w.nations[k].Player, Nation: w.nations[k].Name, Turn: w.turn}
	if err := w.perform(k, od, &o); err != nil {
		return Outcome{}, err
	}
	w.settle(od.kind, &o)
	return o, nil
}

func (w *World) endTurn(player string) error {
	if player != Judge {
		return engine.Refuse("judge-only", "end-turn is the judge's action, made with no player; a nation ends its own turn with pass")
	}
	if !w.cfg.TurnManagement {
		return engine.Refuse("no-turns", "there are no turns in this game: turn_management is off in its configuration")
	}
	return nil
}

func (w *World) join(player string, a Action, o *Outcome) error {
	if err := checkPlayer(player); err != nil {
		return err
	}
	if k := w.NationOf(player); k >= 0 {
		n := &w.nations[k]
		if !n.In() {
			return engine.Refuse("player-has-nation", "%s already played %s, which is out of the game; a player joins once", player, n.Name)
		}
		return engine.Refuse("player-has-nation", "%s already plays %s; a player has one nation", player, n.Name)
	}
	if err := checkName(a.Nation); err != nil {
		return engine.Refuse("bad-name", "the nation's name: %v", err)
	}
	if k := w.NationNamed(a.Nation); k >= 0 {
		return engine.Refuse("nation-exists", "there is already a nation called %s (played by %s); choose another name", w.nations[k].Name, w.nations[k].Player)
	}
	t, err := w.cfg.Lookup(a.Territory)
	if err != nil {
		return err
	}
	if h := w.held[t]; h.Nation >= 0 {
		var free []string
		for i := range w.held {
			if w.held[i].Nation < 0 {
				free = append(free, w.cfg.Territories[i].ID)
			}
		}
		where := "every territory is held: a nation joins once one is left with no army"
		switch {
		case len(free) > 12:
			where = "the territories with none are " + strings.Join(free[:12], ", ") + fmt.Sprintf(" and %d more", len(free)-12)
		case len(free) > 0:
			where = "the territories with none are " + strings.Join(free, ", ")
		}
		return engine.Refuse("occupied", "%s is held by %s with %s; a nation joins on a territory with no army: %s", w.name(t), w.nations[h.Nation].Name, armies(h.Armies), where)
	}
	if len(w.nations) >= MaxTerritories {
		return engine.Refuse("full", "the game has %d nations, the most it takes", MaxTerritories)
	}
	color := w.dealColor(o)
	k := len(w.nations)
	n := Nation{Name: a.Nation, Player: player, Color: color, Joined: w.seq + 1}
	if w.cfg.TurnManagement {
		n.Allowed = ceilDiv(1, w.cfg.HoldingsPerAction)
	}
	w.nations = append(w.nations, n)
	w.held[t] = Holding{Nation: k, Armies: w.cfg.InitialArmies}
	w.touchNation(k)
	w.touchTerritory(t)
	o.Nation, o.Territory, o.Armies, o.Color = n.Name, w.cfg.Territories[t].ID, w.cfg.InitialArmies, color
	return nil
}

// dealColor draws a colour no nation uses: one of the palette's free
// colours, or once they are all taken any colour.
func (w *World) dealColor(o *Outcome) Color {
	var free []Color
	for _, c := range palette {
		if !w.colorUsed(c, -1) {
			free = append(free, c)
		}
	}
	if len(free) > 0 {
		i := int(engine.Below(w.dice, uint64(len(free))))
		o.Dice = append(o.Dice, i)
		return free[i]
	}
	for {
		v := int(engine.Below(w.dice, 1<<24))
		o.Dice = append(o.Dice, v)
		c := hexColor(v>>16, v>>8&0xff, v&0xff)
		if !w.colorUsed(c, -1) {
			return c
		}
	}
}

// colorUsed reports whether a nation other than except has colour c.
func (w *World) colorUsed(c Color, except int) bool {
	for k := range w.nations {
		if k != except && w.nations[k].Color == c {
			return true
		}
	}
	return false
}

// act applies an action of a nation already in the game.
func (w *World) act(player string, a Action, o *Outcome) error {
	if err := checkPlayer(player); err != nil {
		return err
	}
	k := w.NationOf(player)
	if k < 0 {
		for i := range w.nations {
			if n := &w.nations[i]; strings.EqualFold(n.Player, player) {
				// A name typed in another case: players' names are
				// read as written, so this is someone else.
				return engine.Refuse("unknown-player", "%s has no nation, but %s (in another case) plays %s: a player's name is read exactly as written, in its case; else %s joins first: join NATION TERRITORY", player, n.Player, n.Name, player)
			}
		}
		return engine.Refuse("unknown-player", "%s has no nation; join first: join NATION TERRITORY", player)
	}
	n := &w.nations[k]
	if !n.In() {
		return engine.Refuse("nation-out", "%s's nation %s is out of the game: it lost its last army in action %d", player, n.Name, n.Out)
	}
	o.Nation = n.Name
	switch a.Kind {
	case SetColor:
		return w.color(k, a.Color, o)
	case Pass:
		return w.perform(k, order{kind: Pass}, o)
	}
	// Move, raise, attack: the territories, then whether the game allows
	// an action now, then the action's own rules.
	var from, to int
	var err error
	if a.Kind == Raise {
		from, err = w.cfg.Lookup(a.Territory)
	} else {
		from, err = w.cfg.Lookup(a.From)
		if err == nil {
			to, err = w.cfg.Lookup(a.To)
		}
	}
	if err != nil {
		return err
	}
	return w.perform(k, order{kind: a.Kind, from: from, to: to, armies: a.Armies}, o)
}

// perform applies nation k's order, a pass, raise, move or attack, once
// its territories are known: whether the game allows it now, then the
// action's own rules.
func (w *World) perform(k int, od order, o *Outcome) error {
	n := &w.nations[k]
	if od.kind == Pass {
		if !w.cfg.TurnManagement {
			return engine.Refuse("no-turns", "there are no turns to pass in this game: turn_management is off in its configuration")
		}
		if n.ActionsLeft() == 0 {
			return w.noActionsLeft(k)
		}
		n.Passed = true
		w.touchNation(k)
		return nil
	}
	from, to := od.from, od.to
	var err error
	if !w.Started() {
		return engine.Refuse("not-started", "the game has not started: it starts when %d nations have joined, and %d have; until then only join and color", w.cfg.MinNations, len(w.nations))
	}
	if w.cfg.TurnManagement && n.ActionsLeft() == 0 {
		return w.noActionsLeft(k)
	}
	if err := w.mustHold(k, from); err != nil {
		return err
	}
	switch od.kind {
	case Raise:
		err = w.raise(from, o)
	case Move:
		err = w.move(k, from, to, od.armies, o)
	case Attack:
		err = w.attack(k, from, to, o)
	}
	if err != nil {
		return err
	}
	if w.cfg.TurnManagement {
		n.Used++
		w.touchNation(k)
	}
	return nil
}

func (w *World) noActionsLeft(k int) error {
	var waiting []string
	for j := range w.nations {
		if w.nations[j].ActionsLeft() > 0 {
			waiting = append(waiting, w.nations[j].Name)
		}
	}
	end := "after turn_duration, or when the judge ends it"
	if len(waiting) > 0 {
		end = fmt.Sprintf("when %s %s used %s actions or passed, %s", strings.Join(waiting, ", "), map[bool]string{true: "has", false: "have"}[len(waiting) == 1],
			map[bool]string{true: "its", false: "their"}[len(waiting) == 1], end)
	}
	n := &w.nations[k]
	verb := fmt.Sprintf("has used its %s", plural(n.Allowed, "action"))
	if n.Passed {
		verb = "passed"
	}
	return engine.Refuse("no-actions-left", "%s %s in turn %d; the turn ends %s", n.Name, verb, w.turn, end)
}

func (w *World) color(k int, c Color, o *Outcome) error {
	if _, err := ParseColor(string(c)); err != nil || len(c) != 7 {
		return engine.Refuse("bad-color", "%q is not a colour; want %s", c, colorForms)
	}
	for j := range w.nations {
		if j != k && w.nations[j].Color == c {
			return engine.Refuse("color-used", "%s is %s's colour; choose one no other nation uses", c, w.nations[j].Name)
		}
	}
	w.nations[k].Color = c
	w.touchNation(k)
	o.Color = c
	return nil
}

// mustHold refuses unless nation k has an army in territory i.
func (w *World) mustHold(k, i int) error {
	h := w.held[i]
	switch {
	case h.Nation == k:
		return nil
	case h.Nation < 0:
		return engine.Refuse("not-yours", "%s has no army; %s acts only from its own territories (%s)", w.name(i), w.nations[k].Name, w.heldBy(k))
	}
	return engine.Refuse("not-yours", "%s is held by %s, not by %s; %s acts only from its own territories (%s)", w.name(i), w.nations[h.Nation].Name, w.nations[k].Name, w.nations[k].Name, w.heldBy(k))
}

// neighbours refuses unless territories i and j border each other.
func (w *World) neighbours(i, j int) error {
	if i == j {
		return engine.Refuse("not-neighbours", "%s is not its own neighbour; it borders %s", w.name(i), w.borders(i))
	}
	if !w.cfg.Adjacent(i, j) {
		return engine.Refuse("not-neighbours", "%s and %s are not neighbours; %s borders %s", w.name(i), w.name(j), w.cfg.Territories[i].ID, w.borders(i))
	}
	return nil
}

func (w *World) raise(i int, o *Outcome) error {
	h := &w.held[i]
	if h.Armies >= w.cfg.MaxArmies {
		return engine.Refuse("over-cap", "%s already has %s, the most a territory holds (max_armies)", w.name(i), armies(h.Armies))
	}
	h.Armies++
	w.touchTerritory(i)
	o.Territory, o.Armies = w.cfg.Territories[i].ID, h.Armies
	return nil
}

func (w *World) move(k, from, to, n int, o *Outcome) error {
	if err := w.neighbours(from, to); err != nil {
		return err
	}
	src, dst := &w.held[from], &w.held[to]
	if n == 0 {
		n = src.Armies
	}
	if n > src.Armies {
		return engine.Refuse("not-enough-armies", "%s has %s; you asked to move %d", w.name(from), armies(src.Armies), n)
	}
	switch {
	case dst.Nation >= 0 && dst.Nation != k:
		return engine.Refuse("occupied", "%s is held by %s; armies move only into a territory with no army or one of your own (attack it instead)", w.name(to), w.nations[dst.Nation].Name)
	case dst.Armies+n > w.cfg.MaxArmies:
		room := w.cfg.MaxArmies - dst.Armies
		allowed := "it has no room for more"
		if room > 0 {
			allowed = fmt.Sprintf("move at most %d: move %s:%d %s", room, w.cfg.Territories[from].ID, room, w.cfg.Territories[to].ID)
		}
		return engine.Refuse("over-cap", "%s has %s; %d more would make %d, over the most a territory holds, %d (max_armies); %s", w.name(to), armies(dst.Armies), n, dst.Armies+n, w.cfg.MaxArmies, allowed)
	}
	src.Armies -= n
	dst.Nation, dst.Armies = k, dst.Armies+n
	if src.Armies == 0 {
		src.Nation = -1
		o.Released = true
	}
	w.touchTerritory(from)
	w.touchTerritory(to)
	o.From, o.To, o.Armies = w.cfg.Territories[from].ID, w.cfg.Territories[to].ID, n
	return nil
}

func (w *World) attack(k, from, to int, o *Outcome) error {
	if err := w.neighbours(from, to); err != nil {
		return err
	}
	def := w.held[to]
	switch {
	case def.Nation < 0:
		return engine.Refuse("empty-territory", "%s has no army to attack; move into it instead", w.name(to))
	case def.Nation == k:
		return engine.Refuse("own-territory", "%s is %s's own; a nation attacks another nation's army", w.name(to), w.nations[k].Name)
	}
	x := 1 + int(engine.Below(w.dice, Die))
	o.Dice = append(o.Dice, x)
	b := Fight(w.held[from].Armies, def.Armies, x)
	o.Battle = &b
	o.From, o.To, o.Defender = w.cfg.Territories[from].ID, w.cfg.Territories[to].ID, w.nations[def.Nation].Name
	w.lose(from, b.AttackerLosses)
	w.lose(to, b.DefenderLosses)
	for _, j := range []int{k, def.Nation} {
		if w.Holdings(j) == 0 {
			o.Removed = w.nations[j].Name
			w.touchNation(j)
		}
	}
	return nil
}

// lose takes n armies from territory i, which is unclaimed once it has none.
func (w *World) lose(i, n int) {
	if n == 0 {
		return
	}
	h := &w.held[i]
	h.Armies -= n
	if h.Armies <= 0 {
		*h = Holding{Nation: -1}
	}
	w.touchTerritory(i)
}

// turnDone reports whether every nation in the game has used its actions
// or passed (and there is at least one).
func (w *World) turnDone() bool {
	some := false
	for k := range w.nations {
		n := &w.nations[k]
		if !n.In() {
			continue
		}
		if n.ActionsLeft() > 0 {
			return false
		}
		some = true
	}
	return some
}

// newTurn starts the next turn: each nation in the game gets ⌈holdings ÷
// holdings_per_action⌉ actions.
func (w *World) newTurn() {
	w.turn++
	for k := range w.nations {
		n := &w.nations[k]
		if !n.In() {
			continue
		}
		n.Allowed, n.Used, n.Passed = ceilDiv(w.Holdings(k), w.cfg.HoldingsPerAction), 0, false
		w.touchNation(k)
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func checkPlayer(player string) error {
	if player == Judge {
		return engine.Refuse("no-player", "name the player who acts; every action but end-turn is a player's")
	}
	if err := checkName(player); err != nil {
		return engine.Refuse("bad-name", "the player's name: %v", err)
	}
	return nil
}

// CheckCaller says what is wrong with player making action a, before the
// rules see it, or nil: end-turn is the judge's (player Judge), every
// other action a player's, whose name is printable text of at most 64
// characters without surrounding spaces, double quotes or backslashes. A
// program reading calls from outside refuses these as invalid input.
func CheckCaller(player string, a Action) error {
	switch {
	case a.Kind == EndTurn && player != Judge:
		return fmt.Errorf("end-turn is the judge's action, made with no player (not %q)", player)
	case a.Kind == EndTurn:
		return nil
	case player == Judge:
		return fmt.Errorf("name the player who makes the %s; only end-turn is the judge's", a.Kind)
	}
	if err := checkName(player); err != nil {
		return fmt.Errorf("the player's name: %w", err)
	}
	return nil
}

// name writes territory i for people: "CA (California)".
func (w *World) name(i int) string {
	t := &w.cfg.Territories[i]
	return t.ID + " (" + t.Name + ")"
}

// borders lists territory i's neighbours' ids.
func (w *World) borders(i int) string {
	ids := make([]string, 0, len(w.cfg.neighbors[i]))
	for _, j := range w.cfg.neighbors[i] {
		ids = append(ids, w.cfg.Territories[j].ID)
	}
	if len(ids) == 0 {
		return "nothing"
	}
	return strings.Join(ids, ", ")
}

// heldBy lists the territories of nation k.
func (w *World) heldBy(k int) string {
	var ids []string
	for i, h := range w.held {
		if h.Nation == k {
			ids = append(ids, w.cfg.Territories[i].ID)
		}
	}
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

func armies(n int) string { return plural(n, "army") }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, word[:len(word)-1])
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// RulesVersion is written in every game and match record; it changes
// whenever a rule changes what a recorded game would replay to.
const RulesVersion = "1"
