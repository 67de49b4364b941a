package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/server"
)

func TestZombieJudgeMode(t *testing.T) {
	// "judge (the judge enters the script's commands, as arbiter zombie run
	// reads them; players' pages show their identity, counts and private
	// messages, read-only)."
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "zombie", "mode": "judge", "seats": []map[string]any{
		{"player": "person", "name": "Ann"}, {"player": "person", "name": "Bob"}, {"player": "person", "name": "Cat"}, {"player": "person", "name": "Zed"}}})
	if c.Judge == nil {
		t.Fatal("a judge's game without a judge")
	}
	path := "/api/v1/matches/" + c.ID
	say := func(line string) answer {
		return ts.call("POST", path+"/moves", c.Judge.Secret, map[string]any{"move": line})
	}
	for _, line := range []string{"HUMAN Ann 2", "HUMAN Bob 1", "HUMAN Cat", "ZOMBIE Zed 2", "GAME_START 3", "i Zed/v1 Ann", "i Bob Cat", "NEXT_TURN"} {
		if a := say(line); a.status != 200 {
			t.Fatalf("%q: %d %s", line, a.status, a.body)
		}
	}
	// A refused line is the rules' refusal, with the script's code.
	if a := say("i Ann Ann"); a.status != 422 || a.code() != "E_SELF_INTERACTION" {
		t.Errorf("a self-interaction: %d %s", a.status, a.body)
	}
	if a := say("HUMAN Dan"); a.status != 422 || a.code() != "no-seat" && a.code() != "E_ALREADY_STARTED" {
		t.Errorf("enrolling a name with no seat: %d %s", a.status, a.body)
	}
	// Players only read: a seat's move is refused.
	if a := ts.call("POST", path+"/moves", c.Seats[0].Secret, map[string]any{"move": "NEXT_TURN"}); a.status != 400 {
		t.Errorf("a player's move: %d %s", a.status, a.body)
	}
	// Ann was touched by a zombie's virus: she is infected, which her sheet
	// never says; Zed's sheet says zombie; nobody else's does.
	ann := string(ts.state(c.ID, c.Seats[0].Secret).View)
	zed := string(ts.state(c.ID, c.Seats[3].Secret).View)
	public := string(ts.state(c.ID, "").View)
	judge := string(ts.state(c.ID, c.Judge.Secret).View)
	if strings.Contains(ann, "infected") || strings.Contains(ann, "Zed") || !strings.Contains(ann, `"player":"Ann"`) {
		t.Errorf("Ann's sheet: %s", ann)
	}
	if !strings.Contains(zed, `"identity":"zombie"`) {
		t.Errorf("Zed's sheet does not say zombie: %s", zed)
	}
	if strings.Contains(public, "zombie\"") || strings.Contains(public, "Ann") {
		t.Errorf("the public view tells who is who: %s", public)
	}
	if !strings.Contains(judge, `"final"`) {
		t.Errorf("the judge's view is not the whole transcript: %s", judge)
	}
}

func TestTerritoriesRefereeMode(t *testing.T) {
	// "Territories live is the referee: the judge (the consuming
	// application) acts for named players; a judge's join may also issue
	// that nation's own secret, so the player can act from their page."
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "territories", "seats": []map[string]any{}})
	if c.Judge == nil {
		t.Fatal("the referee's game has no judge")
	}
	path := "/api/v1/matches/" + c.ID
	judge := func(body map[string]any) answer { return ts.call("POST", path+"/moves", c.Judge.Secret, body) }
	a := judge(map[string]any{"move": map[string]any{"player": "alice", "action": "join Pacifica CA"}, "issue_secret": true})
	if a.status != 200 {
		t.Fatalf("join: %d %s", a.status, a.body)
	}
	p, _ := a.json["player"].(map[string]any)
	alice, _ := p["secret"].(string)
	if alice == "" || p["name"] != "alice" {
		t.Fatalf("no secret for alice: %s", a.body)
	}
	if a := judge(map[string]any{"move": map[string]any{"player": "bob", "action": "join Deseret UT"}}); a.status != 200 {
		t.Fatalf("bob's join: %d %s", a.status, a.body)
	}
	// Alice acts for herself with her secret, and for nobody else.
	if a := ts.call("POST", path+"/moves", alice, map[string]any{"move": map[string]any{"action": "raise CA"}}); a.status != 200 {
		t.Errorf("alice's raise: %d %s", a.status, a.body)
	}
	if a := ts.call("POST", path+"/moves", alice, map[string]any{"move": map[string]any{"player": "bob", "action": "raise UT"}}); a.status != 422 || a.code() != "not-yours" {
		t.Errorf("alice acting for bob: %d %s", a.status, a.body)
	}
	if a := ts.call("POST", path+"/moves", alice, map[string]any{"move": map[string]any{"action": "raise UT"}}); a.status != 422 {
		t.Errorf("alice raising bob's territory: %d %s", a.status, a.body)
	}
	// issue_secret on a move that is no join, and by a player.
	if a := judge(map[string]any{"move": map[string]any{"player": "bob", "action": "raise UT"}, "issue_secret": true}); a.status != 400 {
		t.Errorf("issue_secret on a raise: %d %s", a.status, a.body)
	}
	m := ts.state(c.ID, alice)
	if !strings.Contains(string(m.View), `"alice"`) || !strings.Contains(string(m.View), `"bob"`) {
		t.Errorf("the board: %s", m.View)
	}
	// The record replays, its judge's moves and all.
	rec := ts.call("GET", path+"/record", c.Judge.Secret, nil)
	g, _ := catalog.Find("territories")
	if got, err := g.Replay(rec.body); err != nil || got.Moves != 3 {
		t.Errorf("the record does not replay: %+v %v\n%s", got, err, rec.body)
	}
	if rec.status != http.StatusOK {
		t.Errorf("record: %d", rec.status)
	}
}

func TestZombiePartyTakesAPlanAsText(t *testing.T) {
	// docs/protocol.md: "A move may be that text as a JSON string ... in
	// it, seats count from 1 (P2 is {"with": 1}); the log keeps the
	// object."
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "zombie", "mode": "party", "judge": true, "seats": people(3)})
	m := ts.state(c.ID, c.Seats[0].Secret)
	a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": m.Requests[0].ID, "move": "P2 end"})
	if a.status != 200 {
		t.Fatalf("a plan as text: %d %s", a.status, a.body)
	}
	rec := ts.call("GET", "/api/v1/matches/"+c.ID+"/record", c.Judge.Secret, nil)
	if want := `"move":{"touch":[{"with":1}],"end":true}`; !strings.Contains(string(rec.body), want) {
		t.Errorf("the record:\n%s\nwant the plan as %s", rec.body, want)
	}
	m = ts.state(c.ID, c.Seats[1].Secret)
	a = ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[1].Secret, map[string]any{"request": m.Requests[0].ID, "move": "P2/q"})
	if a.status != 422 || !strings.Contains(string(a.body), `plan \"P2/q\"`) {
		t.Errorf("a plan whose text does not read: %d %s", a.status, a.body)
	}
}

func TestZombiePartyGoesByNames(t *testing.T) {
	// A party's seats go by the names given at creation (P4, P5, P6 when
	// none was), in their views and in the rules' refusals, which name a
	// seat as the move's JSON counts it (from 0) and as its text does (P1,
	// …); a seat's view holds its own sheet only.
	ts := newServer(t, server.Config{})
	seats := people(6)
	for i, name := range []string{"Ann", "Bob", "Cat"} {
		seats[i]["name"] = name
	}
	c := ts.create(map[string]any{"game": "zombie", "mode": "party", "seats": seats})
	for i, want := range []string{"Ann", "Bob", "Cat", "P4", "P5", "P6"} {
		view := string(ts.state(c.ID, c.Seats[i].Secret).View)
		if !strings.Contains(view, `"name":"`+want+`"`) {
			t.Errorf("seat %d's view: %s; want it named %s", i, view, want)
		}
		for k, other := range []string{"Ann", "Bob", "Cat"} {
			if k != i && strings.Contains(view, other) {
				t.Errorf("seat %d's view names %s: %s", i, other, view)
			}
		}
	}
	m := ts.state(c.ID, c.Seats[0].Secret)
	for move, want := range map[string]string{
		`{"touch": [{"with": 9}]}`: "there is no seat 9 (P10); the seats are 0 to 5 (P1 to P6: Ann, Bob, Cat, P4, P5, P6)",
		`"P10"`:                    "there is no seat 9 (P10)",
		`{"touch": [{"with": 0}]}`: "Ann (seat 0, P1) cannot touch themself",
	} {
		body := fmt.Sprintf(`{"request": %d, "move": %s}`, m.Requests[0].ID, move)
		a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, body)
		if a.status != 422 || !strings.Contains(string(a.body), want) {
			t.Errorf("%s: %d %s; want a refusal saying %q", move, a.status, a.body, want)
		}
	}
}
