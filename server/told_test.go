package server_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/server"
)

// toldStep is a replay's step with what it says of its move.
type toldStep struct {
	Seq  int
	Seat *int
	Move json.RawMessage
	Told *struct {
		Outcome map[string]any
		Text    string
	}
}

// steps returns the steps of the match's replay (frames=0) through view,
// as secret may ask for it.
func (ts *testServer) steps(id, secret, view string) []toldStep {
	ts.t.Helper()
	a := ts.call("GET", "/api/v1/matches/"+id+"/replay?view="+view+"&frames=0", secret, nil)
	if a.status != 200 {
		ts.t.Fatalf("replay as %s: %d %s", view, a.status, a.body)
	}
	var v struct {
		Views []struct{ Steps []toldStep }
	}
	if err := json.Unmarshal(a.body, &v); err != nil || len(v.Views) != 1 {
		ts.t.Fatalf("replay as %s: %v %s", view, err, a.body)
	}
	return v.Views[0].Steps
}

func TestTerritoriesActionsAreToldToEveryone(t *testing.T) {
	// Territories' actions are public information, as in the original
	// referee (its history is every accepted action with its dice) and at
	// the terminal (a seat is told every action since its last, every
	// battle with its roll): the replay shows every move, and what it did,
	// to the public and to every seat; the event stream and the match's
	// GET carry the last move's outcome as "told". Before, the public and
	// the other seat read "Seat 2 (greedy) moved", and a battle's roll and
	// losses reached nobody but the judge.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "territories", "mode": "seats", "seats": people(2), "seed": 7})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	public := ts.follow(ctx, c.ID, "", -1)
	play := func(seat int, move string) {
		t.Helper()
		m := ts.state(c.ID, c.Seats[seat].Secret)
		if len(m.Requests) != 1 {
			t.Fatalf("seat %d owes %d requests", seat+1, len(m.Requests))
		}
		if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[seat].Secret, map[string]any{"request": m.Requests[0].ID, "move": move}); a.status != 200 {
			t.Fatalf("seat %d's %s: %d %s", seat+1, move, a.status, a.body)
		}
	}
	play(0, "join Amber NV")
	play(1, "join Basalt UT")
	play(0, "attack NV UT")
	for _, x := range []struct{ who, secret, view string }{{"the public", "", "public"}, {"seat 2", c.Seats[1].Secret, "seat:1"}} {
		steps := ts.steps(c.ID, x.secret, x.view)
		if len(steps) != 4 {
			t.Fatalf("%s: %d steps; want the start and 3 moves", x.who, len(steps))
		}
		for _, st := range steps[1:] {
			if st.Seat == nil || st.Move == nil || st.Told == nil || st.Told.Text == "" {
				t.Fatalf("%s: step %d of seat %v: move %s, told %+v; want the move and what it did", x.who, st.Seq, st.Seat, st.Move, st.Told)
			}
		}
		st := steps[3]
		if string(st.Move) != `"attack NV UT"` || *st.Seat != 0 {
			t.Errorf("%s: the attack is seat %d's move %s", x.who, *st.Seat, st.Move)
		}
		if _, ok := st.Told.Outcome["roll"]; !ok || st.Told.Outcome["defender"] != "Basalt" || !strings.HasPrefix(st.Told.Text, "seat 1 (Amber) attacks Basalt in UT from NV: 3 against 3, roll ") {
			t.Errorf("%s: the attack is told as %+v; want its roll and losses", x.who, st.Told)
		}
	}
	// The match as anyone reads it, and each event of the stream, carry
	// what the last move did.
	a := ts.call("GET", "/api/v1/matches/"+c.ID, "", nil)
	var got struct {
		Seq  int64
		Told *struct {
			Outcome map[string]any
			Text    string
		}
	}
	json.Unmarshal(a.body, &got)
	if got.Told == nil || got.Told.Outcome["action"] != "attack" || !strings.Contains(got.Told.Text, "roll") {
		t.Errorf("GET as anyone: told %+v; want the attack's outcome", got.Told)
	}
	// The stream's events up to the last move's, however long they take
	// to come on a loaded machine.
	var told []string
	for timeout := time.After(time.Minute); ; {
		var ev event
		ok := true
		select {
		case ev, ok = <-public:
		case <-timeout:
			t.Fatalf("the spectator's stream told %q in a minute; want the three moves", told)
		}
		if !ok {
			t.Fatalf("the spectator's stream closed after telling %q; want the three moves", told)
		}
		if ev.name != "move" {
			continue
		}
		var m struct{ Told *struct{ Text string } }
		json.Unmarshal([]byte(ev.data), &m)
		if m.Told != nil {
			told = append(told, m.Told.Text)
		}
		if ev.id == strconv.FormatInt(got.Seq, 10) {
			break
		}
	}
	cancel()
	if len(told) != 3 || !strings.HasPrefix(told[0], "seat 1 founds Amber at NV") || !strings.HasPrefix(told[2], "seat 1 (Amber) attacks Basalt") {
		t.Errorf("the spectator's events tell %q; want the three moves", told)
	}
}

func TestHiddenMovesStayHidden(t *testing.T) {
	// The moves of the games that hide them stay their movers' and the
	// judge's: a zombie plan, a TNCC move (its war's flanks), an AjveCiv
	// choice made at once with others, even once its round is revealed.
	// No step of another's replay carries them, and no view is "told"
	// what a move did.
	ts := newServer(t, server.Config{})
	for _, g := range []map[string]any{
		{"game": "zombie", "seats": append(people(1), map[string]any{"player": "sensible"}, map[string]any{"player": "spreader"}, map[string]any{"player": "cautious"}, map[string]any{"player": "random"}), "options": map[string]any{"zombies": 1, "turns": 3}},
		{"game": "tncc", "seats": append(people(1), map[string]any{"player": "blitz"}, map[string]any{"player": "war"}), "options": map[string]any{"preset": `{"base":"default","gold_for_war":50,"max_cycles":6}`}},
		{"game": "ajveciv", "seats": append(people(1), map[string]any{"player": "basic.conquer"}), "options": map[string]any{"turns": 3}},
	} {
		t.Run(g["game"].(string), func(t *testing.T) {
			g["judge"] = true
			c := ts.create(g)
			s0 := c.Seats[0].Secret
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			public := ts.follow(ctx, c.ID, "", -1)
			own := ts.follow(ctx, c.ID, s0, -1)
			for moves := 0; moves < 4; moves++ {
				m := ts.waitState(c.ID, s0, func(m matchState) bool { return len(m.Requests) > 0 || m.Status != "running" })
				if m.Status != "running" {
					break
				}
				if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s0, map[string]any{"request": m.Requests[0].ID, "move": m.Requests[0].Default}); a.status != 200 {
					t.Fatalf("move: %d %s", a.status, a.body)
				}
			}
			time.Sleep(50 * time.Millisecond) // the bots' moves
			bots := 0
			for _, st := range ts.steps(c.ID, c.Judge.Secret, "judge") {
				if st.Seat != nil && *st.Seat != 0 && st.Move != nil {
					bots++
				}
			}
			if bots == 0 {
				t.Fatalf("no bot's move was made")
			}
			for _, x := range []struct{ who, secret, view string }{{"the public", "", "public"}, {"seat 1", s0, "seat:0"}} {
				for _, st := range ts.steps(c.ID, x.secret, x.view) {
					if st.Told != nil {
						t.Errorf("%s is told what move %d did: %+v", x.who, st.Seq, st.Told)
					}
					if st.Move != nil && (x.view == "public" || st.Seat == nil || *st.Seat != 0) {
						t.Errorf("%s sees move %d of seat %v: %s", x.who, st.Seq, st.Seat, st.Move)
					}
				}
			}
			for _, x := range []string{"", s0} {
				if a := ts.call("GET", "/api/v1/matches/"+c.ID, x, nil); strings.Contains(string(a.body), `"told"`) {
					t.Errorf("GET as %q is told a move: %.300s", x, a.body)
				}
			}
			cancel()
			for i, stream := range []<-chan event{public, own} {
				for ev := range stream {
					if strings.Contains(ev.data, `"told"`) {
						t.Errorf("stream %d: an event tells a move: %.300s", i, ev.data)
					}
				}
			}
		})
	}
}

func TestTerritoriesSeatIsAnsweredWhatItsActionDid(t *testing.T) {
	// A seat's action is answered with its outcome, as a referee's
	// caller's is: the roll and the losses of an attack, for the page
	// (or the program) that sent it, before the bots move on.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "territories", "mode": "seats", "seats": people(2), "seed": 7})
	var last answer
	for _, x := range []struct {
		seat int
		move string
	}{{0, "join Amber NV"}, {1, "join Basalt UT"}, {0, "attack NV UT"}} {
		m := ts.state(c.ID, c.Seats[x.seat].Secret)
		last = ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[x.seat].Secret, map[string]any{"request": m.Requests[0].ID, "move": x.move})
		if last.status != 200 {
			t.Fatalf("%s: %d %s", x.move, last.status, last.body)
		}
		if o, _ := last.json["outcome"].(map[string]any); o == nil || o["player"] != "seat "+strconv.Itoa(x.seat+1) {
			t.Errorf("%s is answered %s; want its outcome", x.move, last.body)
		}
	}
	o := last.json["outcome"].(map[string]any)
	for _, k := range []string{"roll", "threshold", "success", "attacker_losses", "defender_losses", "removed"} {
		if _, ok := o[k]; !ok {
			t.Errorf("the attack's outcome has no %s: %s", k, last.body)
		}
	}
}
