package territories

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/engine"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// View is what a seat sees when it decides: the whole board and what it is
// asked, but not the dice. Nothing a view offers holds the match's random
// generator or its seed, so no seat can tell the next battle's roll. It is
// valid until the match moves on.
type View struct {
	m    *Match
	seat int
}

// You returns the viewer's seat.
func (v View) You() int { return v.seat }

// Kind returns what the viewer is asked: JoinKind or ActionKind.
func (v View) Kind() engine.Kind { return v.m.req[0].Kind }

// World returns a copy of the game as the seat may see it: the nations,
// the holdings and the turn, on the configuration without its seed. Try
// actions on it, or on a Clone of it, freely: its dice are not the
// match's (an attack tried on it rolls, but its roll says nothing of the
// match's next one), and it is copied afresh at every call.
//
// The copy is made into the same memory at every call, without
// allocating: a World kept from an earlier call is the one returned now,
// reset to the match's state, along with what was tried on it. To keep a
// world while trying actions on another, Clone it.
func (v View) World() *World { return v.m.board(v.seat) }

// Config returns the map's territories and numbers, without the seed: the
// seat's own copy, which the seat's World plays on too. Writing into it
// changes neither the match nor what the other seats see.
func (v View) Config() *Config { return v.m.blind[v.seat] }

// Nation returns the viewer's nation in the world, or -1 before it joins.
func (v View) Nation() int { return v.m.nationOf(v.seat) }

// NationOfSeat returns seat's nation in the world, or -1.
func (v View) NationOfSeat(seat int) int { return v.m.nationOf(seat) }

// Player returns the viewer's player name in the world ("seat 2").
func (v View) Player() string { return v.m.players[v.seat] }

// Legal returns every action the viewer may take now, in a fixed order:
// for a join, one per free territory; for an action, every raise, move
// (each number of armies) and attack, then pass.
func (v View) Legal() []Action {
	if v.Kind() == JoinKind {
		return slices.Clone(v.m.choices)
	}
	return v.m.w.Legal(v.Nation())
}

// AppendLegal appends to dst the actions Legal returns, in the same order,
// and returns the extended slice: a bot that keeps dst from one decision
// to the next (dst[:0]) lists them without allocating.
func (v View) AppendLegal(dst []Action) []Action {
	if v.Kind() == JoinKind {
		return append(dst, v.m.choices...)
	}
	return v.m.w.actions(dst, v.Nation(), true)
}

// Legal returns every move, raise and attack nation k may make now, then
// pass when turn management is on; nil when it may not act.
func (w *World) Legal(k int) []Action { return w.actions(nil, k, true) }

// AppendLegal appends to dst the actions Legal(k) returns, in the same
// order, and returns the extended slice: a bot that looks ahead keeps dst
// and lists each world's actions without allocating.
func (w *World) AppendLegal(dst []Action, k int) []Action { return w.actions(dst, k, true) }

// Out tells a person that their nation is out of the game, in which turn
// and who took its last army (player.Knockout); it is "" while the nation
// plays, and before it is founded.
func (v View) Out() string {
	m := v.m
	k := v.Nation()
	if k < 0 || m.w.nations[k].In() {
		return ""
	}
	n := &m.w.nations[k]
	for i := m.told - 1; i >= max(0, m.told-recentSize); i-- {
		if o := &m.recent[i%recentSize]; o.Removed == n.Name {
			return fmt.Sprintf("Your nation %s is out of the game in turn %d: %s took its last army, in %s", n.Name, o.Turn, o.Nation, o.To)
		}
	}
	for _, e := range m.events {
		if e.Kind == "out" && len(e.Seats) == 1 && e.Seats[0] == v.seat {
			return fmt.Sprintf("Your nation %s is out of the game in turn %d: it lost its last army", n.Name, e.Clock)
		}
	}
	return fmt.Sprintf("Your nation %s is out of the game: it lost its last army in action %d", n.Name, n.Out)
}

// Check says why the rules would refuse a, or nil: a person is told why
// and asked again.
func (v View) Check(a Action) error {
	if err := v.m.asked(v.seat, a); err != nil {
		return err
	}
	_, err := v.m.board(v.seat).Clone().Apply(v.Player(), a)
	return err
}

// Complete completes a partly typed action for a person at a terminal.
func (v View) Complete(line string) []string {
	var out []string
	for _, a := range v.Legal() {
		if s := a.String(); strings.HasPrefix(strings.ToLower(s), strings.ToLower(line)) {
			out = append(out, s)
		}
	}
	return out
}

// String shows a person what they need to decide: what happened since
// their last action (every action, and every battle with its roll), the
// nations with their players, the map as text with each territory's
// holder, armies and neighbours, their neighbours, and the question.
func (v View) String() string {
	var b strings.Builder
	m := v.m
	me := nationNames[v.seat]
	v.writeRecent(&b)
	v.writeNations(&b)
	v.writeMap(&b)
	if v.Kind() == JoinKind {
		wrap.Write(&b, fmt.Sprintf("You are seat %d, and your nation is %s (its name is given). Found it on a free territory: type the territory's id, name or alias (CA, California, Cali).", v.seat+1, me), "", "", wrap.Width)
		return b.String()
	}
	v.writeNeighbours(&b)
	k := v.Nation()
	fmt.Fprintf(&b, "Turn %d. You are %s (seat %d), with %s left:\n%s.\n",
		m.w.Turn(), me, v.seat+1, plural(m.w.nations[k].ActionsLeft(), "action"), turnSyntax)
	return b.String()
}

// writeNations writes each nation: its seat and player, and what it holds.
func (v View) writeNations(b *strings.Builder) {
	w := v.m.w
	if len(w.nations) == 0 {
		b.WriteString("Nations: none yet.\n")
		return
	}
	b.WriteString("Nations:\n")
	for k := range w.nations {
		n := &w.nations[k]
		seat := -1
		for s := range v.m.seats {
			if v.m.players[s] == n.Player {
				seat = s
			}
		}
		who := n.Player
		if seat >= 0 && seat < len(v.m.names) {
			who = fmt.Sprintf("seat %d %s", seat+1, engine.DisplayName(v.m.names[seat]))
			if seat == v.seat {
				who = fmt.Sprintf("seat %d you", seat+1)
			}
		}
		first := "  " + fit(n.Name, 6) + " " + fit(who, 22) + " "
		if !n.In() {
			if turn := v.m.outTurn(seat); seat >= 0 && turn > 0 {
				fmt.Fprintf(b, "%sout of the game at turn %d (action %d)\n", first, turn, n.Out)
			} else {
				fmt.Fprintf(b, "%sout of the game (action %d)\n", first, n.Out)
			}
			continue
		}
		var held []string
		for i, h := range w.held {
			if h.Nation == k {
				held = append(held, fmt.Sprintf("%s%c%d", w.cfg.Territories[i].ID, wrap.NoBreak, h.Armies)) // a territory stays with its armies
			}
		}
		wrap.Write(b, fmt.Sprintf("%s, %s: %s", plural(w.Holdings(k), "territory"), plural(w.Armies(k), "army"), strings.Join(held, ", ")),
			first, strings.Repeat(" ", wrap.Cells(first)), wrap.Width)
	}
}

// writeRecent tells what happened since the viewer's last action, its own
// last action included: at most the latest recentSize actions.
func (v View) writeRecent(b *strings.Builder) {
	m := v.m
	from, to := v.sinceLast()
	if from == to {
		return
	}
	if hidden := from - m.acted[v.seat]; hidden > 0 {
		fmt.Fprintf(b, "Since your last action (the %d before these are not shown):\n", hidden)
	} else {
		b.WriteString("Since your last action:\n")
	}
	for k := from; k < to; k++ {
		o := m.recent[k%recentSize]
		o.Last = o.TurnEnded && o.Turn >= m.turns
		wrap.Write(b, o.String(), "  ", "    ", wrap.Width)
	}
}

// sinceLast returns the outcomes the viewer is told of, from its last
// action on (that one included), as the numbers from and to of m.recent:
// outcomes from to to-1, the latest recentSize at most; from == to when
// there are none.
func (v View) sinceLast() (from, to int) {
	m := v.m
	from, to = m.acted[v.seat], m.told
	if to == 0 || from >= to {
		return to, to
	}
	return max(from, to-recentSize), to
}

// lastActionSeq is the number (Outcome.Seq, from 1) of the viewer's last
// action: 0 before its first, and in a match that has told no action. A
// seat whose nation is founded has acted, and acted[seat] is the number
// of outcomes told before its last action (a match tells every action it
// accepts).
func (v View) lastActionSeq() int {
	if v.Nation() < 0 || v.m.told == 0 {
		return 0
	}
	return v.m.acted[v.seat] + 1
}

// writeMap writes the map as text: each territory's id and name, who holds
// it with how many armies, and its neighbours.
func (v View) writeMap(b *strings.Builder) {
	w, cfg := v.m.w, v.m.w.cfg
	width := len("territory")
	for i := range cfg.Territories {
		width = max(width, wrap.Cells(cfg.Territories[i].ID)+1+min(wrap.Cells(cfg.Territories[i].Name), 16))
	}
	holders := len("held by")
	for k := range w.nations {
		holders = max(holders, min(wrap.Cells(w.nations[k].Name), 16))
	}
	fmt.Fprintf(b, "Map:\n  %s  %s %6s  neighbours\n", wrap.PadRight("territory", width), wrap.PadRight("held by", holders), "armies")
	for i := range cfg.Territories {
		t := &cfg.Territories[i]
		name := t.ID + " " + cut(t.Name, 16)
		holder, armies := "-", ""
		if h := w.held[i]; h.Nation >= 0 {
			holder, armies = w.nations[h.Nation].Name, fmt.Sprint(h.Armies)
		}
		near := make([]string, len(cfg.neighbors[i]))
		for k, j := range cfg.neighbors[i] {
			near[k] = cfg.Territories[j].ID
		}
		fmt.Fprintf(b, "  %s  %s %6s  %s\n", wrap.PadRight(name, width), fit(holder, holders), armies, strings.Join(near, " "))
	}
}

// writeNeighbours writes the nations whose armies border the viewer's, and
// where.
func (v View) writeNeighbours(b *strings.Builder) {
	w, cfg := v.m.w, v.m.w.cfg
	k := v.Nation()
	var lines []string
	for n := range w.nations {
		if n == k || !w.nations[n].In() {
			continue
		}
		var fronts []string
		for i, h := range w.held {
			if h.Nation != n {
				continue
			}
			for _, j := range cfg.neighbors[i] {
				if w.held[j].Nation == k {
					fronts = append(fronts, fmt.Sprintf("%s %d next to your %s %d", cfg.Territories[i].ID, h.Armies, cfg.Territories[j].ID, w.held[j].Armies))
				}
			}
		}
		if len(fronts) > 0 {
			var line strings.Builder
			wrap.Write(&line, fmt.Sprintf("%s: %s", w.nations[n].Name, strings.Join(fronts, "; ")), "  ", "    ", wrap.Width)
			lines = append(lines, strings.TrimSuffix(line.String(), "\n"))
		}
	}
	if len(lines) == 0 {
		b.WriteString("Your neighbours: no nation borders yours.\n")
		return
	}
	b.WriteString("Your neighbours:\n" + strings.Join(lines, "\n") + "\n")
}

// ChoiceName names a choice for a person: a join by its territory alone.
func (v View) ChoiceName(a Action) string {
	if a.Kind == Join {
		return a.Territory
	}
	return a.String()
}

// Parse reads a person's answer: at the join, a territory by its id, name
// or alias (CA, California, Cali), with or without "join" and the nation's
// name before it; otherwise an action as the referee reads it, returned in
// the board's spelling (territories by their ids).
func (v View) Parse(line string) (Action, error) {
	if v.Kind() != JoinKind {
		var a Action
		err := a.UnmarshalText([]byte(line))
		if f := strings.Fields(line); err != nil && len(f) > 0 && !isActionWord(f[0]) && !strings.EqualFold(f[0], kindNames[Join]) {
			return a, unknownTurnAction(f)
		}
		if err == nil {
			a = v.m.Spell(v.seat, a) // the record keeps the board's spelling
		}
		return a, err
	}
	me := nationNames[v.seat]
	rest := strings.TrimSpace(line)
	if f := strings.Fields(rest); len(f) > 1 && strings.EqualFold(f[0], "join") {
		rest = strings.TrimSpace(rest[len(f[0]):])
	}
	cfg := v.m.w.cfg
	if i, err := cfg.Lookup(rest); err == nil {
		return JoinAction(me, cfg.Territories[i].ID), nil
	}
	if f := strings.Fields(rest); len(f) > 0 && isActionWord(f[0]) {
		return Action{}, fmt.Errorf("%s is an action of a nation in the game, and %s has not joined yet: name a free territory to found it on (%s, or its number)", strings.ToLower(f[0]), me, freeExample(cfg, v.m.w))
	}
	if f := strings.Fields(rest); len(f) > 1 {
		tail := strings.TrimSpace(rest[len(f[0]):])
		i, err := cfg.Lookup(tail)
		mine := strings.EqualFold(strings.Trim(f[0], `"`), me)
		switch {
		case err == nil && mine:
			return JoinAction(me, cfg.Territories[i].ID), nil
		case err == nil:
			return Action{}, fmt.Errorf("your nation is %s (each seat's is named for it): join %s, or just %s", me, cfg.Territories[i].ID, cfg.Territories[i].ID)
		case mine:
			return Action{}, err
		case !startsName(cfg, f[0]):
			// A nation's name of the person's own, as in join Foo
			// Califronia: the complaint is of the territory alone.
			return Action{}, fmt.Errorf("your nation is %s, named for your seat (no need to name it): type the territory alone; %w", me, err)
		}
	}
	_, err := cfg.Lookup(rest)
	return Action{}, err
}

// startsName reports whether word is the first word of a territory's name
// or alias of more than one word (New, of New Mexico).
func startsName(cfg *Config, word string) bool {
	w := strings.ToLower(word) + " "
	for i := range cfg.Territories {
		t := &cfg.Territories[i]
		for _, n := range append([]string{t.Name}, t.Aliases...) {
			if strings.HasPrefix(strings.ToLower(n), w) {
				return true
			}
		}
	}
	return false
}

// turnWords are the actions a seat may take on its turn, and turnSyntax
// their forms, as a person types them.
var (
	turnWords  = []string{kindNames[Raise], kindNames[Move], kindNames[Attack], kindNames[Pass]}
	turnSyntax = "raise TERRITORY, move FROM[:N] TO, attack FROM TO, or pass"
)

// unknownTurnAction refuses a line whose first word f[0] is no action: with
// the action it looks like a typo of, and the actions a seat may take on
// its turn (not the judge's, nor those of a nation's founding).
func unknownTurnAction(f []string) error {
	if near := engine.Nearest(f[0], turnWords); near != "" {
		return fmt.Errorf("unknown action %q; did you mean %s? Your actions now: %s", f[0], strings.Join(append([]string{near}, f[1:]...), " "), turnSyntax)
	}
	return fmt.Errorf("unknown action %q; your actions now: %s", f[0], turnSyntax)
}

// isActionWord reports whether word names an action other than join.
func isActionWord(word string) bool {
	w := strings.ToLower(word)
	return w == "colour" || w != kindNames[Join] && w != "" && slices.Contains(kindNames[:], w)
}

// freeExample names a territory with no army, for a message.
func freeExample(cfg *Config, w *World) string {
	for i := range cfg.Territories {
		if w.Holding(i).Nation < 0 {
			return cfg.Territories[i].ID
		}
	}
	return cfg.Territories[0].ID
}

// Help tells a person the actions, and how a battle is decided.
func (v View) Help() string {
	if v.Kind() == JoinKind {
		return fmt.Sprintf("Name a free territory (one with no army) by its id, name or alias: your\nnation starts there with %s.\n", armies(v.m.w.cfg.InitialArmies))
	}
	return fmt.Sprintf(`Actions (each costs one of your actions this turn, except pass):
  raise T        one more army in your territory T (at most %d in one)
  move F[:N] T   N armies (all without :N) from F to a neighbour T that is
                 unclaimed or yours
  attack F T     your army in F attacks the nation in the neighbouring T
  pass           give up the rest of your turn
A battle: a = armies in F, b = armies in T, a d20 roll x. The attack succeeds
when x > (b - a)*2 + 10 (always on 19 or 20, never on 1); then the defender
loses max(1, floor(x/2 + a - b - 5)) armies, else the attacker may lose some.
The whole rules: arbiter rules territories.
`, v.m.w.cfg.MaxArmies)
}

// mapJSON is a territory of the map as a view's JSON gives it.
type mapJSON struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Neighbors []string `json:"neighbors"`
}

// mapOf returns cfg's territories as a view's JSON gives them, each with
// its neighbours' ids.
func mapOf(cfg *Config) []mapJSON {
	terr := make([]mapJSON, len(cfg.Territories))
	for i := range cfg.Territories {
		t := &cfg.Territories[i]
		terr[i] = mapJSON{ID: t.ID, Name: t.Name, Neighbors: make([]string, len(cfg.neighbors[i]))}
		for k, j := range cfg.neighbors[i] {
			terr[i].Neighbors[k] = cfg.Territories[j].ID
		}
	}
	return terr
}

// viewJSON is a seat's view as JSON (docs/protocol.md).
type viewJSON struct {
	Seat        int         `json:"seat"`
	Kind        engine.Kind `json:"kind"`
	Nation      string      `json:"nation"`
	ActionsLeft int         `json:"actions_left"`
	MaxArmies   int         `json:"max_armies"`
	Map         []mapJSON   `json:"map"`
	Board       viewBoard   `json:"board"`
	// LastActionSeq and SinceLastAction are what String tells of what
	// happened since the seat's last action: its seq (0 before its
	// first), and the outcomes from it on, the latest recentSize.
	LastActionSeq   int       `json:"last_action_seq"`
	SinceLastAction []Outcome `json:"since_last_action"`
}

// viewBoard is the board as a seat's view gives it: the public board's,
// with more of each nation.
type viewBoard struct {
	Turn     int           `json:"turn"`
	Nations  []viewNation  `json:"nations"`
	Holdings []holdingJSON `json:"holdings"`
}

// viewNation is a nation as a seat's view gives it: the public board's
// BoardNation, the turn it went out of the game (out_turn, with out), and
// its actions in the turn (Nation's Allowed, Used and Passed), which the
// seat's World holds: the actions left of every nation (allowed − used,
// none once it passed or is out) say who acts after the seat in the turn,
// and how often.
type viewNation struct {
	Name        string `json:"name"`
	Player      string `json:"player"`
	Color       Color  `json:"color"`
	Territories int    `json:"territories"`
	Armies      int    `json:"armies"`
	Out         int    `json:"out,omitempty"`
	OutTurn     int    `json:"out_turn,omitempty"`
	Allowed     int    `json:"allowed"`
	Used        int    `json:"used"`
	Passed      bool   `json:"passed"`
}

// MarshalJSON writes what the viewer sees: the seat, the question, the
// seat's nation and its actions left this turn, the map (each territory's
// neighbours) with its max_armies, the board (each nation's actions in the
// turn, and the turn in which a nation out of the game went out,
// included), and what happened since the seat's last action. Every action
// of territories is public, its roll included (Match.Told); the dice that
// rolled it are not in any of this.
func (v View) MarshalJSON() ([]byte, error) {
	m := v.m
	cfg := m.w.cfg
	left := 0
	if k := v.Nation(); k >= 0 {
		left = m.w.nations[k].ActionsLeft()
	}
	b := m.newBoard()
	board := viewBoard{Turn: b.Turn, Nations: make([]viewNation, len(b.Nations)), Holdings: b.Holdings}
	for k, n := range b.Nations {
		w := &m.w.nations[k]
		board.Nations[k] = viewNation{Name: n.Name, Player: n.Player, Color: n.Color, Territories: n.Territories, Armies: n.Armies,
			Out: n.Out, OutTurn: n.OutTurn, Allowed: w.Allowed, Used: w.Used, Passed: w.Passed}
	}
	from, to := v.sinceLast()
	since := make([]Outcome, 0, to-from)
	for k := from; k < to; k++ {
		since = append(since, m.recent[k%recentSize])
	}
	return json.Marshal(viewJSON{Seat: v.seat, Kind: v.Kind(), Nation: nationNames[v.seat], ActionsLeft: left, MaxArmies: cfg.MaxArmies,
		Map: mapOf(cfg), Board: board, LastActionSeq: v.lastActionSeq(), SinceLastAction: since})
}

// Board is the board at one moment, for spectators and reports: a copy
// that prints as text and marshals as JSON.
type Board struct {
	Turn     int           `json:"turn"`
	Nations  []BoardNation `json:"nations"`
	Holdings []holdingJSON `json:"holdings"`
	// Last is a refereed game's last accepted action, as the referee
	// answered it (an attack's roll, losses and the nation removed), for
	// the application that reads the board after its call; nil before
	// the first.
	Last *Outcome `json:"last,omitempty"`
	// Map is a refereed game's territories, each with its id, name and
	// neighbours' ids, as a seat's view gives them: the board's, a
	// sample's or one of the judge's own, which has no map drawn; and a
	// game of seats' on a board of one's own; nil (left out) on the
	// sample board of a game of seats, whose pages draw its map.
	Map []mapJSON `json:"map,omitempty"`
}

// BoardNation is one nation on a Board.
type BoardNation struct {
	Name        string `json:"name"`
	Player      string `json:"player"`
	Color       Color  `json:"color"`
	Territories int    `json:"territories"`
	Armies      int    `json:"armies"`
	Out         int    `json:"out,omitempty"`
	// OutTurn is the turn in which the nation went out, where it is known
	// (a match's board), for its text; 0 otherwise. It is not in the
	// board's JSON; a seat's view gives it, as out_turn.
	OutTurn int `json:"-"`
}

func newBoard(w *World) Board {
	b := Board{Turn: w.turn, Nations: make([]BoardNation, len(w.nations)), Holdings: []holdingJSON{}}
	for k, n := range w.nations {
		b.Nations[k] = BoardNation{Name: n.Name, Player: n.Player, Color: n.Color, Territories: w.Holdings(k), Armies: w.Armies(k), Out: n.Out}
	}
	for i, h := range w.held {
		if h.Nation >= 0 {
			b.Holdings = append(b.Holdings, holdingJSON{w.cfg.Territories[i].ID, w.nations[h.Nation].Name, h.Armies})
		}
	}
	return b
}

// boardWidth is the widest a line of the board (Board.String) is: 80
// columns, less the indent of a report.
const boardWidth = wrap.Width - 2

// String shows each nation with its territories and armies, in lines of
// at most boardWidth cells: its name and its player, each in a column as
// wide as the longest (at least 10, at most 16 cells, a longer one cut),
// its colour, then what it holds, wrapped under itself.
func (b Board) String() string {
	var s strings.Builder
	if b.Turn > 0 {
		fmt.Fprintf(&s, "turn %d\n", b.Turn)
	}
	if len(b.Nations) == 0 {
		s.WriteString("no nations yet\n")
	}
	names, players := 10, 10
	for _, n := range b.Nations {
		names = max(names, min(wrap.Cells(n.Name), 16))
		players = max(players, min(wrap.Cells(n.Player), 16))
	}
	for _, n := range b.Nations {
		var held []string
		for _, h := range b.Holdings {
			if h.Nation == n.Name {
				held = append(held, fmt.Sprintf("%s%c%d", h.Territory, wrap.NoBreak, h.Armies)) // a territory stays with its armies
			}
		}
		first := fit(n.Name, names) + " " + fit(n.Player, players) + " " + string(n.Color) + "  "
		switch {
		case n.OutTurn > 0: // wrapped: 16 + 16 cells of names leave 36
			wrap.Write(&s, fmt.Sprintf("out of the game at turn %d (action %d)", n.OutTurn, n.Out),
				first, strings.Repeat(" ", wrap.Cells(first)), boardWidth)
			continue
		case n.Out != 0:
			fmt.Fprintf(&s, "%sout of the game (action %d)\n", first, n.Out)
			continue
		}
		wrap.Write(&s, fmt.Sprintf("%s, %s: %s", plural(n.Territories, "territory"), plural(n.Armies, "army"), strings.Join(held, ", ")),
			first, strings.Repeat(" ", wrap.Cells(first)), boardWidth)
	}
	return s.String()
}

// cut returns s, or its start and "…" when it is wider than width cells:
// width cells at most, cut between grapheme clusters.
func cut(s string, width int) string {
	if wrap.Cells(s) <= width {
		return s
	}
	return wrap.Head(s, width-1) + "…"
}

// fit returns s cut to width cells (see cut) and padded to them: s in a
// column of that width, aligned left.
func fit(s string, width int) string { return wrap.PadRight(cut(s, width), width) }
