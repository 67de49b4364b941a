package zombie

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// EventKind is what an event tells: one kind of output line (arbiter rules zombie).
type EventKind uint8

// The kinds of event.
const (
	// Started is GAME START max_turns=<n>.
	Started EventKind = iota + 1
	// Told is a PRIVATE message to one player.
	Told
	// Announced is a PUBLIC announcement: at the start, or after a turn.
	Announced
	// TurnEnded is TURN <t> END.
	TurnEnded
	// Ended is GAME OVER, with the judge's Result.
	Ended
	// Refused is an ERROR line: a command the judge refused.
	Refused
)

// Event is one line of the judge's output, typed. Which fields are set
// depends on Kind.
type Event struct {
	Kind EventKind
	// Turn is the turn a TurnEnded, Told or Announced event closes; 0 for
	// the messages at GAME_START.
	Turn int
	// MaxTurns is the max_turns of Started.
	MaxTurns int64
	// Player is the roster index of Told's player; Identity, Antibodies and
	// Viruses are what they are told.
	Player              int
	Identity            State
	Antibodies, Viruses int64
	// Zombies, Humans, MaxAntibodies and MaxViruses are an announcement's
	// numbers (the highest counts only after a turn).
	Zombies, Humans           int
	MaxAntibodies, MaxViruses int64
	// Line, Code and Text are a Refused command's line number in the
	// script, its error code and what was wrong.
	Line int
	Code Code
	Text string
}

// Outcome is how a game ended .
type Outcome uint8

// The outcomes.
const (
	NoOutcome Outcome = iota
	ZombiesWin
	HumansWinSurvivor
	HumansWinMaxTurns
)

var outcomeNames = [...]string{NoOutcome: "NONE", ZombiesWin: "ZOMBIES_WIN",
	HumansWinSurvivor: "HUMANS_WIN_SURVIVOR", HumansWinMaxTurns: "HUMANS_WIN_MAX_TURNS"}

// String returns the outcome's name: ZOMBIES_WIN, HUMANS_WIN_SURVIVOR,
// HUMANS_WIN_MAX_TURNS.
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "outcome(" + strconv.Itoa(int(o)) + ")"
}

// Result is how a game ended: the outcome, the last survivor or the
// ranking at max turns.
type Result struct {
	Outcome Outcome
	// Survivor is the last survivor's roster index, or -1.
	Survivor int
	// Ranking ranks every non-zombie by antibodies (HumansWinMaxTurns).
	Ranking []Ranked
}

// Ranked is one place of the max-turns ranking.
type Ranked struct {
	Rank       int
	Player     int
	Antibodies int64
}

// Transcript is a judged script: everything the judge said, in order, and
// the final state. Write it with WriteText or WriteJSON; give one player
// their own view with WritePrivate or WritePrivateJSON.
type Transcript struct {
	Phase    Phase
	Turn     int
	MaxTurns int64
	// Players is the roster with every player's true final state.
	Players []Player
	Events  []Event
	Result  Result
	// Errors is the number of ERROR lines.
	Errors int
}

// Transcript returns what the judge has said so far and the state now. It
// shares the events with the judge.
func (j *Judge) Transcript() *Transcript {
	t := &Transcript{Phase: j.phase, Turn: j.turn, MaxTurns: j.maxTurns, Events: j.events, Result: j.result,
		Players: make([]Player, len(j.players))}
	for i := range j.players {
		t.Players[i] = j.players[i].Player
	}
	for i := range j.events {
		if j.events[i].Kind == Refused {
			t.Errors++
		}
	}
	return t
}

// Lookup returns the roster index of name, in any case.
func (t *Transcript) Lookup(name string) (int, bool) {
	key := foldName(name)
	for i := range t.Players {
		if foldName(t.Players[i].Name) == key {
			return i, true
		}
	}
	return -1, false
}

// everyone is the audience of the judge's own output: every line.
const everyone = -1

// Visible reports whether player may see event e: the one redaction point
// of every view. A player sees GAME START, TURN END, GAME OVER, the PUBLIC
// announcements and their own PRIVATE messages; never another player's
// message nor an ERROR line (whose text may name a zombie). A player's own
// message says human or zombie, never infected. Pass -1 for the
// judge, who sees everything.
func Visible(e *Event, player int) bool {
	if player == everyone {
		return true
	}
	switch e.Kind {
	case Started, Announced, TurnEnded, Ended:
		return true
	case Told:
		return e.Player == player
	}
	return false
}

// WriteText writes the judge's output line for line (arbiter rules zombie): every
// event, then FINAL and one STATE line per player.
func (t *Transcript) WriteText(w io.Writer) error { return t.writeText(w, everyone) }

// WritePrivate writes what player (a roster index) may know: GAME START,
// their own PRIVATE lines, the PUBLIC lines, TURN END, GAME OVER and FINAL;
// no ERROR or STATE line, and never the word infected.
func (t *Transcript) WritePrivate(w io.Writer, player int) error {
	if player < 0 || player >= len(t.Players) {
		return fmt.Errorf("zombie: no player %d in a roster of %d", player, len(t.Players))
	}
	return t.writeText(w, player)
}

func (t *Transcript) writeText(w io.Writer, who int) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var b []byte
	for i := range t.Events {
		e := &t.Events[i]
		if !Visible(e, who) {
			continue
		}
		b = t.appendEvent(b[:0], e)
		b = append(b, '\n')
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	b = append(b[:0], "FINAL status="...)
	b = append(b, t.Phase.String()...)
	b = append(b, " turn="...)
	b = strconv.AppendInt(b, int64(t.Turn), 10)
	b = append(b, '\n')
	if who == everyone {
		for i := range t.Players {
			p := &t.Players[i]
			b = append(b, "STATE "...)
			b = append(b, p.Name...)
			b = append(b, ' ')
			b = append(b, p.State.String()...)
			b = appendCounts(b, p.Antibodies, p.Viruses)
			b = append(b, '\n')
		}
	}
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

func appendCounts(b []byte, a, v int64) []byte {
	b = append(b, " antibodies="...)
	b = strconv.AppendInt(b, a, 10)
	b = append(b, " viruses="...)
	return strconv.AppendInt(b, v, 10)
}

// Line returns event e as its output line, without the newline.
func (t *Transcript) Line(e *Event) string { return string(t.appendEvent(nil, e)) }

func (t *Transcript) appendEvent(b []byte, e *Event) []byte {
	switch e.Kind {
	case Started:
		b = append(b, "GAME START max_turns="...)
		b = strconv.AppendInt(b, e.MaxTurns, 10)
	case Told:
		b = append(b, "PRIVATE "...)
		b = append(b, t.Players[e.Player].Name...)
		b = append(b, ' ')
		b = append(b, e.Identity.Identity().String()...)
		b = appendCounts(b, e.Antibodies, e.Viruses)
	case Announced:
		if e.Turn == 0 {
			b = append(b, "PUBLIC start zombies="...)
			b = strconv.AppendInt(b, int64(e.Zombies), 10)
			b = append(b, " humans="...)
			b = strconv.AppendInt(b, int64(e.Humans), 10)
			break
		}
		b = append(b, "PUBLIC turn="...)
		b = strconv.AppendInt(b, int64(e.Turn), 10)
		b = append(b, " zombies="...)
		b = strconv.AppendInt(b, int64(e.Zombies), 10)
		b = append(b, " humans="...)
		b = strconv.AppendInt(b, int64(e.Humans), 10)
		b = append(b, " max_antibodies="...)
		b = strconv.AppendInt(b, e.MaxAntibodies, 10)
		b = append(b, " max_viruses="...)
		b = strconv.AppendInt(b, e.MaxViruses, 10)
	case TurnEnded:
		b = append(b, "TURN "...)
		b = strconv.AppendInt(b, int64(e.Turn), 10)
		b = append(b, " END"...)
	case Ended:
		b = append(b, "GAME OVER: "...)
		switch r := &t.Result; r.Outcome {
		case ZombiesWin:
			b = append(b, "ZOMBIES WIN"...)
		case HumansWinSurvivor:
			b = append(b, "HUMANS WIN last_survivor="...)
			b = append(b, t.Players[r.Survivor].Name...)
		case HumansWinMaxTurns:
			b = append(b, "HUMANS WIN max_turns ranking="...)
			for i, x := range r.Ranking {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(x.Rank), 10)
				b = append(b, ':')
				b = append(b, t.Players[x.Player].Name...)
				b = append(b, ':')
				b = strconv.AppendInt(b, x.Antibodies, 10)
			}
		}
	case Refused:
		b = append(b, "ERROR line "...)
		b = strconv.AppendInt(b, int64(e.Line), 10)
		b = append(b, ' ')
		b = append(b, e.Code...)
		if e.Text != "" {
			b = append(b, ": "...)
			b = append(b, e.Text...)
		}
	}
	return b
}

// The JSON document of a transcript (see WriteJSON).
type (
	transcriptJSON struct {
		// Player is the viewer of a private view.
		Player        string             `json:"player,omitempty"`
		Status        string             `json:"status"`
		Turn          int                `json:"turn"`
		MaxTurns      int64              `json:"max_turns,omitempty"`
		Announcements []announcementJSON `json:"announcements"`
		Private       []privateJSON      `json:"private"`
		Errors        []errorJSON        `json:"errors,omitempty"`
		Result        *resultJSON        `json:"result"`
		Final         []stateJSON        `json:"final,omitempty"`
	}
	announcementJSON struct {
		Kind          string `json:"kind"` // "start", "turn"
		Turn          int    `json:"turn,omitempty"`
		Zombies       int    `json:"zombies"`
		Humans        int    `json:"humans"`
		MaxAntibodies *int64 `json:"max_antibodies,omitempty"`
		MaxViruses    *int64 `json:"max_viruses,omitempty"`
	}
	privateJSON struct {
		Name     string        `json:"name"`
		Messages []messageJSON `json:"messages"`
	}
	messageJSON struct {
		Turn       int    `json:"turn"` // 0: at GAME_START
		Identity   string `json:"identity"`
		Antibodies int64  `json:"antibodies"`
		Viruses    int64  `json:"viruses"`
	}
	errorJSON struct {
		Line int    `json:"line"`
		Code Code   `json:"code"`
		Text string `json:"text"`
	}
	resultJSON struct {
		Outcome  string       `json:"outcome"`
		Text     string       `json:"text"`
		Survivor string       `json:"survivor,omitempty"`
		Ranking  []rankedJSON `json:"ranking,omitempty"`
	}
	rankedJSON struct {
		Rank       int    `json:"rank"`
		Name       string `json:"name"`
		Antibodies int64  `json:"antibodies"`
	}
	stateJSON struct {
		Name       string `json:"name"`
		State      string `json:"state"`
		Antibodies int64  `json:"antibodies"`
		Viruses    int64  `json:"viruses"`
	}
)

// WriteJSON writes the judge's output as one JSON document: status, turn
// and max_turns; the announcements in order; every player's private
// messages (turn 0 is GAME_START); the errors with their line numbers; the
// result; and every player's true final state.
func (t *Transcript) WriteJSON(w io.Writer) error { return t.writeJSON(w, everyone) }

// WritePrivateJSON writes what player may know as JSON: the same document
// with only their own messages, and no errors or final states.
func (t *Transcript) WritePrivateJSON(w io.Writer, player int) error {
	if player < 0 || player >= len(t.Players) {
		return fmt.Errorf("zombie: no player %d in a roster of %d", player, len(t.Players))
	}
	return t.writeJSON(w, player)
}

func (t *Transcript) writeJSON(w io.Writer, who int) error {
	doc := transcriptJSON{Status: t.Phase.String(), Turn: t.Turn, MaxTurns: t.MaxTurns,
		Announcements: []announcementJSON{}, Private: []privateJSON{}}
	if who == everyone {
		doc.Errors = []errorJSON{}
		doc.Final = []stateJSON{}
		for i := range t.Players {
			p := &t.Players[i]
			doc.Private = append(doc.Private, privateJSON{Name: p.Name, Messages: []messageJSON{}})
			doc.Final = append(doc.Final, stateJSON{Name: p.Name, State: p.State.String(), Antibodies: p.Antibodies, Viruses: p.Viruses})
		}
	} else if who >= 0 && who < len(t.Players) {
		doc.Player = t.Players[who].Name
		doc.Private = append(doc.Private, privateJSON{Name: doc.Player, Messages: []messageJSON{}})
	}
	for i := range t.Events {
		e := &t.Events[i]
		if !Visible(e, who) {
			continue
		}
		switch e.Kind {
		case Announced:
			a := announcementJSON{Kind: "start", Zombies: e.Zombies, Humans: e.Humans}
			if e.Turn > 0 {
				a.Kind, a.Turn = "turn", e.Turn
				ma, mv := e.MaxAntibodies, e.MaxViruses
				a.MaxAntibodies, a.MaxViruses = &ma, &mv
			}
			doc.Announcements = append(doc.Announcements, a)
		case Told:
			k := e.Player
			if who != everyone {
				k = 0
			}
			doc.Private[k].Messages = append(doc.Private[k].Messages, messageJSON{Turn: e.Turn,
				Identity: e.Identity.Identity().String(), Antibodies: e.Antibodies, Viruses: e.Viruses})
		case Refused:
			doc.Errors = append(doc.Errors, errorJSON{Line: e.Line, Code: e.Code, Text: e.Text})
		case Ended:
			r := &resultJSON{Outcome: t.Result.Outcome.String(), Text: t.Line(e)}
			if s := t.Result.Survivor; s >= 0 && s < len(t.Players) {
				r.Survivor = t.Players[s].Name
			}
			for _, x := range t.Result.Ranking {
				r.Ranking = append(r.Ranking, rankedJSON{Rank: x.Rank, Name: t.Players[x.Player].Name, Antibodies: x.Antibodies})
			}
			doc.Result = r
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
