package zombie

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/engine"
)

var _ engine.ViewReader[View] = Game{}

// ReadViews returns a reader of the views a seat's player is sent as JSON,
// {you, name, seats, turn, max_turns, me, messages, announcements}, each
// read back into the View the player is given in process
// (engine.ViewReader): its methods, the search's Sample and the built-in
// bots read it as they read the match's own. info is the match as its
// hello tells it: the seat, the players (whom the view names as the match
// does) and the options.
//
// A view read back is made of the view alone, as a sample is: the seat's
// own PRIVATE messages and the PUBLIC announcements, the lines a seat sees
// (Lines), its own state as it was told it (which Check reads). It holds
// nothing of the other seats, nor whether the seat is infected, which no
// view tells. A view is sent only while the game goes on, so Side and
// Epilogue, which speak once it is over, say nothing.
func (Game) ReadViews(info engine.MatchInfo) (func(id int64, data []byte) (View, error), error) {
	setup := engine.Setup{Players: info.Players, Options: info.Options}
	if err := setup.Check(Game{}.Info()); err != nil {
		return nil, err
	}
	turns, err := setup.Int(Game{}.Info(), "turns")
	if err != nil {
		return nil, err
	}
	n := setup.Seats()
	if info.Seat < 0 || info.Seat >= n {
		return nil, fmt.Errorf("zombie: seat %d of a game of %d players", info.Seat, n)
	}
	r := &viewReader{seat: info.Seat, n: n, turns: turns, entrants: slices.Clone(info.Players), names: seatNames(info.Players)}
	return r.read, nil
}

// viewReader reads one seat's views, each into a match of its own that
// holds what the view shows and nothing else.
type viewReader struct {
	seat, n, turns int
	entrants       []string
	names          []string
}

// wireView is a view's JSON, as View.MarshalJSON writes it.
type wireView struct {
	You           *int               `json:"you"`
	Name          string             `json:"name"`
	Seats         int                `json:"seats"`
	Turn          int                `json:"turn"`
	MaxTurns      int                `json:"max_turns"`
	Me            *wireMessage       `json:"me"`
	Messages      []wireMessage      `json:"messages"`
	Announcements []wireAnnouncement `json:"announcements"`
}

// wireMessage is a PRIVATE message's JSON.
type wireMessage struct {
	Turn       int    `json:"turn"`
	Identity   string `json:"identity"`
	Antibodies int64  `json:"antibodies"`
	Viruses    int64  `json:"viruses"`
}

// wireAnnouncement is a PUBLIC announcement's JSON.
type wireAnnouncement struct {
	Turn          int    `json:"turn"`
	Zombies       int    `json:"zombies"`
	Humans        int    `json:"humans"`
	MaxAntibodies *int64 `json:"max_antibodies"`
	MaxViruses    *int64 `json:"max_viruses"`
}

// message reads a message of turn.
func (w *wireMessage) message(turn int) (Message, error) {
	m := Message{Turn: w.Turn, Antibodies: w.Antibodies, Viruses: w.Viruses}
	switch w.Identity {
	case "human":
		m.Identity = Human
	case "zombie":
		m.Identity = Zombie
	default:
		return m, fmt.Errorf("identity %q; want human or zombie", w.Identity)
	}
	switch {
	case w.Turn != turn:
		return m, fmt.Errorf("turn %d, where turn %d's comes", w.Turn, turn)
	case w.Antibodies < 0 || w.Viruses < 0:
		return m, fmt.Errorf("%d antibodies and %d viruses", w.Antibodies, w.Viruses)
	}
	return m, nil
}

// read reads one view.
func (r *viewReader) read(_ int64, data []byte) (View, error) {
	var j wireView
	if err := json.Unmarshal(data, &j); err != nil {
		return View{}, fmt.Errorf("zombie: view: %w", err)
	}
	switch {
	case j.You == nil || j.Me == nil || j.Messages == nil || j.Announcements == nil:
		return View{}, errors.New("zombie: view: you, me, messages and announcements are required")
	case *j.You != r.seat:
		return View{}, fmt.Errorf("zombie: view: it is %s's; this seat is %s", SeatName(*j.You), SeatName(r.seat))
	case j.Seats != r.n:
		return View{}, fmt.Errorf("zombie: view: %d seats; the hello names %d players", j.Seats, r.n)
	case j.Name != r.names[r.seat]:
		return View{}, fmt.Errorf("zombie: view: the seat is called %q; the hello's players call it %q", j.Name, r.names[r.seat])
	case j.MaxTurns != r.turns:
		return View{}, fmt.Errorf("zombie: view: max_turns %d; the hello's options say %d", j.MaxTurns, r.turns)
	case j.Turn < 1 || j.Turn > r.turns:
		return View{}, fmt.Errorf("zombie: view: turn %d of a game of %d", j.Turn, r.turns)
	case len(j.Messages) != j.Turn || len(j.Announcements) != j.Turn:
		return View{}, fmt.Errorf("zombie: view: %d messages and %d announcements in turn %d; a seat is told one of each at the start and after every turn", len(j.Messages), len(j.Announcements), j.Turn)
	}
	jd := &Judge{phase: InProgress, index: make(map[string]int, r.n), maxTurns: int64(j.MaxTurns), turn: j.Turn, met: map[uint64]int{}}
	jd.players = make([]member, r.n)
	for p := range jd.players {
		name := SeatName(p)
		jd.players[p] = member{Player: Player{Name: name}, key: foldName(name)}
		jd.index[foldName(name)] = p
	}
	jd.events = make([]Event, 0, 3*j.Turn+1)
	jd.events = append(jd.events, Event{Kind: Started, MaxTurns: jd.maxTurns})
	var last Message
	for t := range j.Turn {
		msg, err := j.Messages[t].message(t)
		if err != nil {
			return View{}, fmt.Errorf("zombie: view: messages[%d]: %w", t, err)
		}
		a := j.Announcements[t]
		switch {
		case a.Turn != t:
			return View{}, fmt.Errorf("zombie: view: announcements[%d] is of turn %d", t, a.Turn)
		case a.Zombies < 0 || a.Humans < 0 || a.Zombies+a.Humans != r.n:
			return View{}, fmt.Errorf("zombie: view: announcements[%d]: %d zombies and %d humans among %d players", t, a.Zombies, a.Humans, r.n)
		case (t == 0) != (a.MaxAntibodies == nil) || (t == 0) != (a.MaxViruses == nil):
			return View{}, fmt.Errorf("zombie: view: announcements[%d]: the highest antibodies and viruses come with every announcement after a turn, and only then", t)
		}
		if t > 0 {
			jd.events = append(jd.events, Event{Kind: TurnEnded, Turn: t})
		}
		jd.events = append(jd.events, Event{Kind: Told, Turn: t, Player: r.seat, Identity: msg.Identity, Antibodies: msg.Antibodies, Viruses: msg.Viruses})
		e := Event{Kind: Announced, Turn: t, Zombies: a.Zombies, Humans: a.Humans}
		if t > 0 {
			e.MaxAntibodies, e.MaxViruses = *a.MaxAntibodies, *a.MaxViruses
		}
		jd.events = append(jd.events, e)
		last = msg
	}
	me, err := j.Me.message(j.Turn - 1)
	switch {
	case err != nil:
		return View{}, fmt.Errorf("zombie: view: me: %w", err)
	case me != last:
		return View{}, errors.New("zombie: view: me is not the last of the messages")
	}
	// The seat's own state, as it was told it: all Check reads.
	p := &jd.players[r.seat]
	p.State, p.Antibodies, p.Viruses = me.Identity, me.Antibodies, me.Viruses
	jd.newTurn()
	m := &Match{judge: jd, n: r.n, entrants: r.entrants, names: r.names}
	return View{m: m, seat: r.seat}, nil
}
