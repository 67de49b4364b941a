package zombie

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/engine"

	"github.com/arbiter-games/arbiter/internal/wrap"
)

// Message is a PRIVATE message: what a player is told about themself at
// the start and after every turn. Identity is Human or Zombie, never
// Infected.
type Message struct {
	Turn       int   `json:"turn"` // 0: at the start
	Identity   State `json:"-"`
	Antibodies int64 `json:"antibodies"`
	Viruses    int64 `json:"viruses"`
}

// Zombie reports whether the player was told they are a zombie.
func (m Message) Zombie() bool { return m.Identity == Zombie }

// MarshalJSON writes {"turn", "identity": "human" | "zombie", "antibodies",
// "viruses"}.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	return json.Marshal(struct {
		plain
		Identity string `json:"identity"`
	}{plain(m), m.Identity.Identity().String()})
}

// Announcement is a PUBLIC announcement: numbers only, never names.
type Announcement struct {
	Turn          int   `json:"turn"` // 0: at the start
	Zombies       int   `json:"zombies"`
	Humans        int   `json:"humans"`
	MaxAntibodies int64 `json:"max_antibodies"`
	MaxViruses    int64 `json:"max_viruses"`
}

// announcedJSON is an announcement as JSON: the start's tells the
// counts only, as its PUBLIC line does (R27: the highest antibodies and
// viruses come with the turns' announcements).
type announcedJSON struct {
	Turn          int    `json:"turn"`
	Zombies       int    `json:"zombies"`
	Humans        int    `json:"humans"`
	MaxAntibodies *int64 `json:"max_antibodies,omitempty"`
	MaxViruses    *int64 `json:"max_viruses,omitempty"`
}

func (a Announcement) asJSON() announcedJSON {
	j := announcedJSON{Turn: a.Turn, Zombies: a.Zombies, Humans: a.Humans}
	if a.Turn > 0 {
		j.MaxAntibodies, j.MaxViruses = &a.MaxAntibodies, &a.MaxViruses
	}
	return j
}

// MarshalJSON writes {"turn", "zombies", "humans", "max_antibodies",
// "max_viruses"}, the last two after a turn only.
func (a Announcement) MarshalJSON() ([]byte, error) { return json.Marshal(a.asJSON()) }

func announcement(e *Event) Announcement {
	return Announcement{Turn: e.Turn, Zombies: e.Zombies, Humans: e.Humans, MaxAntibodies: e.MaxAntibodies, MaxViruses: e.MaxViruses}
}

// View is what one seat may know: its own PRIVATE messages and the PUBLIC
// announcements, the roster's names, the turn. Everything it shows passes
// through Visible, the judge's one redaction point. It is read-only and
// valid until the match moves on.
type View struct {
	m    *Match
	seat int
}

// You returns the viewer's seat, from 0.
func (v View) You() int { return v.seat }

// Name returns the viewer's name: the one its person was given, else the
// roster's P1, P2, … (see seatNames).
func (v View) Name() string { return v.m.name(v.seat) }

// Seats returns the number of players.
func (v View) Seats() int { return v.m.n }

// Turn returns the turn being planned, from 1.
func (v View) Turn() int { return v.m.judge.Turn() }

// MaxTurns returns the turns the game lasts at most.
func (v View) MaxTurns() int { return int(v.m.judge.MaxTurns()) }

// Me returns the viewer's latest PRIVATE message: what they are and hold
// now, as far as they are told.
func (v View) Me() Message {
	ev := v.m.judge.Events()
	for i := len(ev) - 1; i >= 0; i-- {
		if e := &ev[i]; e.Kind == Told && Visible(e, v.seat) {
			return message(e)
		}
	}
	return Message{}
}

func message(e *Event) Message {
	return Message{Turn: e.Turn, Identity: e.Identity.Identity(), Antibodies: e.Antibodies, Viruses: e.Viruses}
}

// Public returns the latest PUBLIC announcement.
func (v View) Public() Announcement { return v.m.lastPublic() }

// Messages returns the viewer's PRIVATE messages, oldest first: the one at
// the start, then one after every turn.
func (v View) Messages() []Message {
	var out []Message
	for i, ev := 0, v.m.judge.Events(); i < len(ev); i++ {
		if e := &ev[i]; e.Kind == Told && Visible(e, v.seat) {
			out = append(out, message(e))
		}
	}
	return out
}

// Announcements returns the PUBLIC announcements, oldest first.
func (v View) Announcements() []Announcement {
	var out []Announcement
	for i, ev := 0, v.m.judge.Events(); i < len(ev); i++ {
		if e := &ev[i]; e.Kind == Announced && Visible(e, v.seat) {
			out = append(out, announcement(e))
		}
	}
	return out
}

// Lines returns every output line the viewer may see so far, as
// `arbiter zombie run --private` prints them, with the players' names.
func (v View) Lines() []string {
	t := v.m.transcript()
	var out []string
	for i := range t.Events {
		if e := &t.Events[i]; Visible(e, v.seat) {
			out = append(out, t.Line(e))
		}
	}
	return out
}

// Epilogue is what the viewer was told after their last plan, once the
// game is over (player.Epilogue): the last turn's lines, from its TURN END
// to GAME OVER, under "After turn N you were told:". It is "" while the
// game goes on.
func (v View) Epilogue() string {
	if !v.m.Over() {
		return ""
	}
	t := v.m.transcript()
	from := -1
	for i := len(t.Events) - 1; i >= 0; i-- {
		if t.Events[i].Kind == TurnEnded {
			from = i
			break
		}
	}
	if from < 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "After turn %d you were told:\n", t.Events[from].Turn)
	for i := from; i < len(t.Events); i++ {
		if e := &t.Events[i]; Visible(e, v.seat) {
			b.WriteString("  " + t.Line(e) + "\n")
		}
	}
	return b.String()
}

// Side says, once the game is over, which side won and which the viewer
// was on (player.Sider), as the result has it: a zombie from the start, a
// zombie since a turn, or human (never infected). "The humans won, P2 the
// last survivor; you were a zombie from the start". It is "" while the
// game goes on.
func (v View) Side() string {
	if !v.m.Over() {
		return ""
	}
	r := v.m.judge.Result()
	p := &v.m.judge.players[v.seat]
	var won string
	switch r.Outcome {
	case ZombiesWin:
		won = "The zombies won"
	case HumansWinSurvivor:
		if r.Survivor == v.seat {
			return "The humans won; you were the last survivor"
		}
		won = "The humans won, " + v.m.name(r.Survivor) + " the last survivor"
	case HumansWinMaxTurns:
		won = fmt.Sprintf("The humans won, all %d turns played", v.MaxTurns())
	default:
		return ""
	}
	switch {
	case p.State == Zombie && p.from == Zombie:
		return won + "; you were a zombie from the start"
	case p.State == Zombie:
		return fmt.Sprintf("%s; you became a zombie in turn %d", won, p.turned)
	}
	return won + "; you were human"
}

// Check says why the viewer may not make plan p now, or nil. It is the
// terminal's check: the refusal names players as a person writes them (P1,
// P2, …, and their names), never by a seat number from 0, which only a
// plan's JSON uses (Apply's refusals give both).
func (v View) Check(p Plan) error { return v.m.check(v.seat, p, true) }

// String shows the view to a person at a terminal: the players, the lines
// they have been told, and how to write a plan. It fits 80 columns.
func (v View) String() string {
	var b strings.Builder
	you := SeatName(v.seat)
	if n := v.Name(); n != you {
		you = n + " (" + you + ")"
	}
	fmt.Fprintf(&b, "You are %s, one of %d players (P1 to P%d). Turn %d of %d.\n", you, v.Seats(), v.Seats(), v.Turn(), v.MaxTurns())
	names := make([]string, v.Seats())
	for s := range names {
		who := "you"
		if s != v.seat && s < len(v.m.entrants) {
			who = engine.DisplayName(v.m.entrants[s])
		}
		names[s] = SeatName(s) + string(wrap.NoBreak) + who // a seat stays on the line of its player
	}
	wrap.Write(&b, "Players: "+strings.Join(names, ", "), "", "  ", wrap.Width)
	b.WriteString("What you have been told:\n")
	for _, l := range v.Lines() {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("Plan your turn: the players to touch (P2, P2/p with precaution, P2/v2\n")
	b.WriteString("applying 2 viruses), then as you wish guard=p or guard=v<k>,\n")
	b.WriteString("cure=first|last|both, end.\n")
	return b.String()
}

// Help tells a person how to write a plan and what a touch does.
func (v View) Help() string {
	return `A plan: the players you touch, in order, each at most once:
  P2        a plain touch
  P2/p      with precaution (a human pays 1 antibody; protects this touch)
  P2/v3     applying 3 viruses (a zombie, from the viruses it holds)
then, as you wish:
  guard=p   precaution (guard=v2: 2 viruses) toward touches you did not ask
  cure=first, cure=last or cure=both   pay 1 antibody to cure (an infected
            player becomes human again), before or after your own touches
  end       end your turn after your touches: nobody can touch you then
Humans touching humans gain an antibody each; a human touched by a zombie
or an infected player is infected unless it used precaution. Nobody is
told they are infected. The whole rules: arbiter rules zombie.
`
}

// viewJSON is a view's JSON form for programs.
type viewJSON struct {
	You           int            `json:"you"`
	Name          string         `json:"name"`
	Seats         int            `json:"seats"`
	Turn          int            `json:"turn"`
	MaxTurns      int            `json:"max_turns"`
	Me            Message        `json:"me"`
	Messages      []Message      `json:"messages"`
	Announcements []Announcement `json:"announcements"`
}

// MarshalJSON writes what the seat may know: {you, name, seats, turn,
// max_turns, me, messages, announcements}.
func (v View) MarshalJSON() ([]byte, error) {
	return json.Marshal(viewJSON{You: v.seat, Name: v.Name(), Seats: v.Seats(), Turn: v.Turn(), MaxTurns: v.MaxTurns(),
		Me: v.Me(), Messages: v.Messages(), Announcements: v.Announcements()})
}

// Complete completes a plan a person has partly typed, for the terminal's
// tab key: the other seats (P2, P2/p, and P2/v as a zombie), then guard=,
// cure= and end. It returns whole lines.
func (v View) Complete(line string) []string {
	fields := strings.Fields(line)
	if line == "" || strings.HasSuffix(line, " ") {
		fields = append(fields, "")
	}
	last := strings.ToLower(fields[len(fields)-1])
	head := strings.Join(fields[:len(fields)-1], " ")
	if head != "" {
		head += " "
	}
	zombie := v.Me().Zombie()
	var words []string
	for i := range v.Seats() {
		if i == v.seat {
			continue
		}
		name := SeatName(i)
		words = append(words, name, name+"/p")
		if zombie {
			words = append(words, name+"/v")
		}
	}
	words = append(words, "guard=p", "cure=first", "cure=last", "cure=both", "end")
	if zombie {
		words = append(words, "guard=v")
	}
	var out []string
	for _, w := range words {
		if strings.HasPrefix(strings.ToLower(w), last) {
			out = append(out, head+w)
		}
	}
	return out
}
