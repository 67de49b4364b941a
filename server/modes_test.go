package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
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
	// Alice acts for herself with her secret, and for nobody else; her
	// action alone, as text, is taken too.
	if a := ts.call("POST", path+"/moves", alice, map[string]any{"move": map[string]any{"action": "raise CA"}}); a.status != 200 {
		t.Errorf("alice's raise: %d %s", a.status, a.body)
	}
	if a := ts.call("POST", path+"/moves", alice, map[string]any{"move": "raise CA"}); a.status != 200 {
		t.Errorf("alice's raise as text: %d %s", a.status, a.body)
	}
	// A correction is answered as a move is, its outcome with it.
	if a := judge(map[string]any{"move": map[string]any{"player": "bob", "action": "raise UT"}}); a.status != 200 {
		t.Fatalf("bob's raise: %d %s", a.status, a.body)
	}
	a = ts.call("POST", path+"/correct", c.Judge.Secret, map[string]any{"move": map[string]any{"player": "bob", "action": "raise UT"}, "reason": "bob asked twice"})
	if out, _ := a.json["outcome"].(map[string]any); a.status != 200 || out["action"] == nil {
		t.Errorf("a correction's answer: %d %s; want its outcome", a.status, a.body)
	}
	if a := ts.call("POST", path+"/correct", c.Judge.Secret, map[string]any{"move": map[string]any{"player": "bob", "action": "raise UT"}}); a.status != 400 || a.code() != "invalid" {
		t.Errorf("a correction without its reason: %d %s; want 400 invalid", a.status, a.body)
	}
	if a := ts.call("POST", path+"/moves", alice, map[string]any{"move": map[string]any{"player": "bob", "action": "raise UT"}}); a.status != 422 || a.code() != "not-yours" {
		t.Errorf("alice acting for bob: %d %s", a.status, a.body)
	}
	if a := ts.call("POST", path+"/moves", alice, map[string]any{"move": map[string]any{"action": "raise UT"}}); a.status != 422 {
		t.Errorf("alice raising bob's territory: %d %s", a.status, a.body)
	}
	// issue_secret on a move that is no join, and by a player.
	if a := judge(map[string]any{"move": map[string]any{"player": "bob", "action": "raise UT"}, "issue_secret": true}); a.status != 400 || a.code() != "not-a-join" {
		t.Errorf("issue_secret on a raise: %d %s", a.status, a.body)
	}
	// A join that does not read is told what is wrong with it, as it is
	// without issue_secret: not that it is no join.
	if a := judge(map[string]any{"move": map[string]any{"player": "carol", "action": `join "Cascadia WA`}, "issue_secret": true}); a.status != 422 || a.code() != "not-a-move" || !strings.Contains(string(a.body), "a double quote is not closed") {
		t.Errorf("issue_secret on a join that does not read: %d %s; want 422 not-a-move, with why", a.status, a.body)
	}
	m := ts.state(c.ID, alice)
	if !strings.Contains(string(m.View), `"alice"`) || !strings.Contains(string(m.View), `"bob"`) {
		t.Errorf("the board: %s", m.View)
	}
	// The record replays, its judge's moves and all.
	rec := ts.call("GET", path+"/record", c.Judge.Secret, nil)
	g, _ := catalog.Find("territories")
	if got, err := g.Replay(rec.body); err != nil || got.Moves != 6 {
		t.Errorf("the record does not replay: %+v %v\n%s", got, err, rec.body)
	}
	if rec.status != http.StatusOK {
		t.Errorf("record: %d", rec.status)
	}
}

func TestARetriedJoinStillGivesThePlayerALink(t *testing.T) {
	// A chat bot's join with issue_secret, retried with its
	// Idempotency-Key because the answer was lost: the retry is not made
	// again, and still answers the player's link, a new one (the first is
	// kept as its hash only, and cannot be told again), which works where
	// the first, never delivered, no longer does.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "territories"})
	path := "/api/v1/matches/" + c.ID
	join := map[string]any{"move": map[string]any{"player": "carol", "action": "join Cascadia WA"}, "issue_secret": true}
	secretOf := func(a answer) string {
		p, _ := a.json["player"].(map[string]any)
		s, _ := p["secret"].(string)
		return s
	}
	first := ts.call("POST", path+"/moves", c.Judge.Secret, join, "Idempotency-Key", "join-carol")
	again := ts.call("POST", path+"/moves", c.Judge.Secret, join, "Idempotency-Key", "join-carol")
	if first.status != 200 || secretOf(first) == "" {
		t.Fatalf("the join: %d %s; want carol's secret", first.status, first.body)
	}
	if again.status != 200 || again.json["repeat"] != true || secretOf(again) == "" || secretOf(again) == secretOf(first) {
		t.Fatalf("the join again with its key: %d %s; want a repeat with a new secret for carol", again.status, again.body)
	}
	if m := ts.state(c.ID, ""); m.Seq != 1 {
		t.Errorf("the match is at move %d; want 1, the join made once", m.Seq)
	}
	if a := ts.call("GET", path, secretOf(again), nil); a.status != 200 || !strings.Contains(string(a.body), `"role":"player","name":"carol"`) {
		t.Errorf("carol's new secret: %d %.300s; want her own view", a.status, a.body)
	}
	if a := ts.call("GET", path, secretOf(first), nil); a.status != http.StatusUnauthorized {
		t.Errorf("carol's first secret: %d; want 401, the new one in its place", a.status)
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
	// none was), in their views, in the rules' refusals, which name a
	// seat as the move's JSON counts it (from 0) and as its text does (P1,
	// …), and in plans; a seat's view holds its own sheet only.
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
	// A plan names players by their names, in its text or as a touch's
	// "with"; the log keeps it by seat.
	for move, want := range map[string]string{
		`"Dan end"`:                    `is no player; the players are Ann (P1), Bob (P2), Cat (P3), P4, P5, P6`,
		`{"touch": [{"with": "Dan"}]}`: `is no player; the players are Ann (P1)`,
	} {
		body := fmt.Sprintf(`{"request": %d, "move": %s}`, m.Requests[0].ID, move)
		if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, body); a.status != 422 || !strings.Contains(string(a.body), want) {
			t.Errorf("%s: %d %s; want a refusal saying %q", move, a.status, a.body, want)
		}
	}
	for seat, move := range []string{`"bob Cat end"`, `{"touch": [{"with": "ann"}], "end": true}`} {
		q := ts.state(c.ID, c.Seats[seat].Secret).Requests[0]
		body := fmt.Sprintf(`{"request": %d, "move": %s}`, q.ID, move)
		if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[seat].Secret, body); a.status != 200 {
			t.Errorf("seat %d's plan %s: %d %s", seat, move, a.status, a.body)
		}
	}
	moves, err := ts.st.Moves(context.Background(), c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 || string(moves[0].Move) != `{"touch":[{"with":1},{"with":2}],"end":true}` || string(moves[1].Move) != `{"touch":[{"with":0}],"end":true}` {
		t.Errorf("the log: %+v; want the plans by seat", moves)
	}
}

// timedBoard is a board of three territories in a row whose turns end
// after turn_duration, on no map.
func timedBoard(duration string) string {
	return `{"map": "none", "turn_management": true, "turn_duration": "` + duration + `", "territories": [
		{"id": "A", "name": "Alpha", "neighbors": ["B"]},
		{"id": "B", "name": "Beta", "neighbors": ["A", "C"]},
		{"id": "C", "name": "Gamma", "neighbors": ["B"]}]}`
}

// turnOf is the turn of a territories referee match's board.
func turnOf(t *testing.T, ts *testServer, id string) int {
	t.Helper()
	var v struct{ Turn int }
	if err := json.Unmarshal(ts.state(id, "").View, &v); err != nil {
		t.Fatal(err)
	}
	return v.Turn
}

// startTimed has al join on A and bo on C of a timedBoard match, and al
// raise an army, his one action of turn 1; it returns how the judge acts
// for a player.
func startTimed(t *testing.T, ts *testServer, c created) func(player, action string) answer {
	t.Helper()
	act := func(player, action string) answer {
		return ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Judge.Secret, map[string]any{"move": map[string]any{"player": player, "action": action}})
	}
	for _, a := range [][2]string{{"al", "join Red A"}, {"bo", "join Blue C"}, {"al", "raise A"}} {
		if ans := act(a[0], a[1]); ans.status != 200 {
			t.Fatalf("%s %s: %d %s", a[0], a[1], ans.status, ans.body)
		}
	}
	return act
}

func TestRefereeTurnEndsAfterItsDuration(t *testing.T) {
	// "A turn ends when every nation has used its actions or after
	// turn_duration": over HTTP as with arbiter territories. The server
	// ends it when the time comes, with nobody calling, as the judge's
	// end-turn noted in the log; an idle turn is ended by the next call,
	// first, as arbiter territories ends it.
	ts := newServer(t, server.Config{})
	// A turn of a second: al's two calls below come within it on a
	// loaded machine too.
	const turn = time.Second
	c := ts.create(map[string]any{"game": "territories", "options": map[string]any{"board": timedBoard(turn.String())}})
	path := "/api/v1/matches/" + c.ID
	act := startTimed(t, ts, c)
	if ans := act("al", "raise A"); ans.code() != "no-actions-left" {
		t.Fatalf("al's second action of the turn: %d %s; want no-actions-left", ans.status, ans.body)
	}
	waitFor(t, "the turn ended by its duration", func() bool { return turnOf(t, ts, c.ID) == 2 })
	// Nobody acts in turn 2: time alone does not end it, nor fill the
	// log with empty turns (the next call would end it first).
	time.Sleep(turn + turn/2)
	if turn := turnOf(t, ts, c.ID); turn != 2 {
		t.Errorf("turn %d after an idle second; want 2, left for the next call to end", turn)
	}
	if ans := act("al", "raise A"); ans.status != 200 {
		t.Errorf("al's action in the next turn: %d %s", ans.status, ans.body)
	}
	// The log, and the replay after it, read while turn 3 runs, or once
	// the server has ended it by its duration too (a loaded machine may be
	// slow to answer): the moves before are what they check.
	moves, err := ts.st.Moves(context.Background(), c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The replay's timeline counts the turns.
	var replay struct {
		Views []struct{ Steps []struct{ Seq, Clock int } }
	}
	if a := ts.call("GET", path+"/replay?view=judge&frames=0", c.Judge.Secret, nil); a.status != 200 || json.Unmarshal(a.body, &replay) != nil || len(replay.Views) != 1 {
		t.Fatalf("the judge's replay: %d %s", a.status, a.body)
	}
	if steps := replay.Views[0].Steps; len(steps) < 7 || steps[1].Clock != 1 || steps[6].Clock != 3 {
		t.Errorf("the replay's steps %+v; want turn 1 at move 1 and turn 3 at move 6", steps)
	}
	if len(moves) < 6 || moves[3].Actor != engine.Judge || !strings.Contains(string(moves[3].Move), "end-turn") || !strings.Contains(moves[3].Note, "turn_duration") {
		t.Errorf("the log: %+v; want the judge's end-turn, noted, as move 4", moves)
	}
}

func TestRefereeActionAfterTheDurationComesInTheNextTurn(t *testing.T) {
	// An action that comes once the turn's time is up is played in the
	// next turn, as arbiter territories plays it, though the server has
	// not ended the turn yet: here its clock runs ahead of the timers.
	var ahead atomic.Int64
	ts := newServer(t, server.Config{Now: func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }})
	c := ts.create(map[string]any{"game": "territories", "options": map[string]any{"board": timedBoard("1h")}})
	path := "/api/v1/matches/" + c.ID
	act := startTimed(t, ts, c)
	ahead.Store(int64(2 * time.Hour))
	if ans := act("al", "raise A"); ans.status != 200 {
		t.Fatalf("al's action after the turn's hour: %d %s; want it played in turn 2", ans.status, ans.body)
	}
	if turn := turnOf(t, ts, c.ID); turn != 2 {
		t.Errorf("turn %d; want 2", turn)
	}
	// The judge's own end-turn once the time is up ends that turn only,
	// sent with the seq it read: played, or refused because the server
	// ended the turn first (its driver may look at the clock first).
	ahead.Store(int64(4 * time.Hour))
	read := ts.state(c.ID, "")
	var was struct{ Turn int }
	json.Unmarshal(read.View, &was)
	if ans := ts.call("POST", path+"/moves", c.Judge.Secret, map[string]any{"move": map[string]any{"action": "end-turn"}, "expect_seq": read.Seq}); ans.status != 200 && ans.code() != "moved" {
		t.Fatalf("the judge's end-turn at move %d: %d %s", read.Seq, ans.status, ans.body)
	}
	if turn := turnOf(t, ts, c.ID); turn != was.Turn+1 {
		t.Errorf("after the judge's end-turn of turn %d, whose time is up: turn %d; want %d, one turn ended", was.Turn, turn, was.Turn+1)
	}
}

func TestACorrectionAfterTheDurationComesInTheNextTurn(t *testing.T) {
	// A correction is a judge's move: once the turn's time is up, it is
	// made in the next turn, as an action is, the turn ended first.
	var ahead atomic.Int64
	ts := newServer(t, server.Config{Now: func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }})
	c := ts.create(map[string]any{"game": "territories", "options": map[string]any{"board": timedBoard("1h")}})
	startTimed(t, ts, c)
	ahead.Store(int64(2 * time.Hour))
	fix := map[string]any{"move": map[string]any{"player": "al", "action": "raise A"}, "reason": "al's raise of turn 2, told late"}
	if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/correct", c.Judge.Secret, fix); a.status != 200 {
		t.Fatalf("the correction after the turn's hour: %d %s; want it made in turn 2", a.status, a.body)
	}
	if turn := turnOf(t, ts, c.ID); turn != 2 {
		t.Errorf("turn %d; want 2", turn)
	}
	moves, err := ts.st.Moves(context.Background(), c.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 5 || !strings.Contains(moves[3].Note, "turn_duration") || moves[4].Note != fix["reason"] {
		t.Errorf("the log: %+v; want the turn's end (noted turn_duration), then the correction", moves)
	}
}

func TestCorrectionKeepsItsReason(t *testing.T) {
	// "POST /matches/{id}/correct appends a judge's move with its reason;
	// the log is never rewritten": the reason is in the match's record
	// (and so in its archive), and in the judge's replay, not in the
	// public's, for a reason may tell what the players may not know.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "zombie", "mode": "judge", "seats": []map[string]any{
		{"player": "person", "name": "Ann"}, {"player": "person", "name": "Bob"}, {"player": "person", "name": "Zed"}}})
	path := "/api/v1/matches/" + c.ID
	for _, line := range []string{"HUMAN Ann 2", "HUMAN Bob", "ZOMBIE Zed 2", "GAME_START 3"} {
		if a := ts.call("POST", path+"/moves", c.Judge.Secret, map[string]any{"move": line}); a.status != 200 {
			t.Fatalf("%q: %d %s", line, a.status, a.body)
		}
	}
	if a := ts.call("POST", path+"/correct", c.Judge.Secret, map[string]any{"move": "i Zed/v1 Ann", "reason": "forgot Zed's touch of Ann"}); a.status != 200 {
		t.Fatalf("correct: %d %s", a.status, a.body)
	}
	rec := ts.call("GET", path+"/record", c.Judge.Secret, nil)
	if rec.status != 200 || !strings.Contains(string(rec.body), `"move":"i Zed/v1 Ann","note":"forgot Zed's touch of Ann"}`) {
		t.Errorf("the record: %d\n%s\nwant the correction's line with its note", rec.status, rec.body)
	}
	if g, _ := catalog.Find("zombie"); g != nil {
		if _, err := g.Replay(rec.body); err != nil {
			t.Errorf("the record with a note does not replay: %v", err)
		}
	}
	judge := ts.call("GET", path+"/replay?view=judge&frames=0", c.Judge.Secret, nil)
	if !strings.Contains(string(judge.body), `"note":"forgot Zed's touch of Ann"`) {
		t.Errorf("the judge's replay has no note: %s", judge.body)
	}
	public := ts.call("GET", path+"/replay?view=public&frames=0", c.Judge.Secret, nil)
	if public.status != 200 || strings.Contains(string(public.body), "forgot") {
		t.Errorf("the public replay: %d %s; want it without the note", public.status, public.body)
	}
}

func TestACorrectionRetriedWithItsKeyIsMadeOnce(t *testing.T) {
	// "Idempotency-Key: K ... a retry with the same key returns the first
	// answer and never applies twice": a correction too, the judge's move
	// that a chat bot retries when its answer is lost. The same key with
	// another correction, or on a move, is another request.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "territories"})
	path := "/api/v1/matches/" + c.ID
	for _, join := range [][2]string{{"alice", "join Pacifica CA"}, {"bob", "join Deseret UT"}} {
		if a := ts.call("POST", path+"/moves", c.Judge.Secret, map[string]any{"move": map[string]any{"player": join[0], "action": join[1]}}); a.status != 200 {
			t.Fatalf("%s: %d %s", join, a.status, a.body)
		}
	}
	fix := map[string]any{"move": map[string]any{"player": "bob", "action": "raise UT"}, "reason": "bob said it twice"}
	first := ts.call("POST", path+"/correct", c.Judge.Secret, fix, "Idempotency-Key", "fix-1")
	again := ts.call("POST", path+"/correct", c.Judge.Secret, fix, "Idempotency-Key", "fix-1")
	if first.status != 200 || first.json["outcome"] == nil {
		t.Fatalf("the correction: %d %s; want it made, with its outcome", first.status, first.body)
	}
	if first.json["repeat"] != false {
		t.Errorf("the correction: %s; want it answered as a move is, repeat false", first.body)
	}
	if again.status != 200 || again.json["repeat"] != true || again.json["seq"] != first.json["seq"] {
		t.Errorf("the correction again with its key: %d %s; want the first answer (%s), repeat true", again.status, again.body, first.body)
	}
	if m := ts.state(c.ID, ""); m.Seq != 3 || !strings.Contains(string(m.View), `{"territory":"UT","nation":"Deseret","armies":4}`) {
		t.Errorf("after the correction and its retry: move %d, %s; want one raise, move 3, UT with 4 armies", m.Seq, m.View)
	}
	other := map[string]any{"move": map[string]any{"player": "bob", "action": "raise Utah"}, "reason": "bob said it twice"}
	if a := ts.call("POST", path+"/correct", c.Judge.Secret, other, "Idempotency-Key", "fix-1"); a.status != 422 || a.code() != "idempotency-key-reused" {
		t.Errorf("the key with another correction: %d %s; want 422 idempotency-key-reused", a.status, a.body)
	}
	if a := ts.call("POST", path+"/moves", c.Judge.Secret, map[string]any{"move": fix["move"]}, "Idempotency-Key", "fix-1"); a.status != 422 || a.code() != "idempotency-key-reused" {
		t.Errorf("the correction's key on a move: %d %s; want 422 idempotency-key-reused", a.status, a.body)
	}
	if m := ts.state(c.ID, ""); m.Seq != 3 {
		t.Errorf("the match is at move %d; want 3, nothing made again", m.Seq)
	}
}

func TestZombiePartyJudgeSeesTheTrueState(t *testing.T) {
	// The judge "sees everything": in a party, every player's true state
	// (human, infected or zombie, antibodies and viruses), which no seat
	// is told, not even an infected human of themself.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "zombie", "mode": "party", "seats": people(4), "judge": true})
	var judge struct {
		Overseen []struct {
			Name, State         string
			Antibodies, Viruses int64
		}
	}
	if err := json.Unmarshal(ts.state(c.ID, c.Judge.Secret).View, &judge); err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, p := range judge.Overseen {
		states[p.State]++
	}
	if len(judge.Overseen) != 4 || states["zombie"] != 1 || states["human"] != 3 {
		t.Errorf("the judge's true state: %+v; want 4 players, 1 zombie and 3 humans", judge.Overseen)
	}
	for i, s := range c.Seats {
		if v := string(ts.state(c.ID, s.Secret).View); strings.Contains(v, "overseen") {
			t.Errorf("seat %d's view has the true state: %s", i, v)
		}
	}
	if v := string(ts.state(c.ID, "").View); strings.Contains(v, "overseen") {
		t.Errorf("the public view has the true state: %s", v)
	}
	replay := ts.call("GET", "/api/v1/matches/"+c.ID+"/replay?view=judge", c.Judge.Secret, nil)
	if !strings.Contains(string(replay.body), `"overseen":[`) {
		t.Errorf("the judge's replay has no true state: %.300s", replay.body)
	}
}

func TestRefereePlayerGetsANewLink(t *testing.T) {
	// A named player who lost their link gets a new one from the judge;
	// the old one stops working. A referee match has no seats to re-issue:
	// that call says what to do instead.
	ts := newServer(t, server.Config{})
	c := ts.create(map[string]any{"game": "territories"})
	path := "/api/v1/matches/" + c.ID
	a := ts.call("POST", path+"/moves", c.Judge.Secret, map[string]any{"move": map[string]any{"player": "alice", "action": "join Pacifica CA"}, "issue_secret": true})
	old, _ := a.json["player"].(map[string]any)["secret"].(string)
	if a.status != 200 || old == "" {
		t.Fatalf("join: %d %s", a.status, a.body)
	}
	if a := ts.call("POST", path+"/seats/0/reissue", c.Judge.Secret, nil); a.status != 404 || !strings.Contains(string(a.body), "/players/NAME/reissue") {
		t.Errorf("a seat's reissue in a referee match: %d %s; want 404 saying how to reissue a player's", a.status, a.body)
	}
	if a := ts.call("POST", path+"/players/bob/reissue", c.Judge.Secret, nil); a.status != 404 || a.code() != "no-player" {
		t.Errorf("a player who has not joined: %d %s; want 404 no-player", a.status, a.body)
	}
	if a := ts.call("POST", path+"/players/alice/reissue", old, nil); a.status != 403 {
		t.Errorf("alice reissues her own: %d %s; want 403, the judge's call", a.status, a.body)
	}
	a = ts.call("POST", path+"/players/alice/reissue", c.Judge.Secret, nil)
	p, _ := a.json["player"].(map[string]any)
	fresh, _ := p["secret"].(string)
	if a.status != 200 || fresh == "" || p["name"] != "alice" || !strings.HasSuffix(p["url"].(string), "#s="+fresh) {
		t.Fatalf("alice's new link: %d %s", a.status, a.body)
	}
	if a := ts.call("POST", path+"/moves", old, map[string]any{"move": map[string]any{"action": "color red"}}); a.status != 401 {
		t.Errorf("alice's old secret: %d %s; want 401", a.status, a.body)
	}
	if a := ts.call("POST", path+"/moves", fresh, map[string]any{"move": map[string]any{"action": "color red"}}); a.status != 200 {
		t.Errorf("alice's new secret: %d %s", a.status, a.body)
	}
}

// A match that has ended still shows a seat's link, and a named player's,
// the match as theirs (their own view, "you", how it went for them): the
// judge gives a new link for either at any time, the old one then refused,
// once the match is over or aborted as while it runs. The seat's was
// given (200) where the named player's was refused (409 over).
func TestALinkIsGivenAgainOnceTheMatchHasEnded(t *testing.T) {
	ts := newServer(t, server.Config{})
	reissued := func(path, judge, old, who string) string {
		t.Helper()
		a := ts.call("POST", path, judge, nil)
		secret, _ := a.json["secret"].(string)
		if p, ok := a.json["player"].(map[string]any); ok {
			secret, _ = p["secret"].(string)
		}
		if a.status != http.StatusOK || secret == "" {
			t.Fatalf("%s's new link once the match has ended: %d %s; want 200 and a secret", who, a.status, a.body)
		}
		match := strings.Split(path, "/")[4]
		if a := ts.call("GET", "/api/v1/matches/"+match, old, nil); a.status != http.StatusUnauthorized {
			t.Errorf("%s's old link: %d %s; want 401", who, a.status, a.body)
		}
		return secret
	}
	// A seat of a match played to its end, and of one aborted.
	for _, abort := range []bool{false, true} {
		c := ts.create(map[string]any{"game": "reaj", "seats": []map[string]any{{"player": "person"}, {"player": "adapt"}}, "options": map[string]any{"turns": 1}, "judge": true})
		path := "/api/v1/matches/" + c.ID
		if abort {
			if a := ts.call("POST", path+"/abort", c.Judge.Secret, nil); a.status != http.StatusOK {
				t.Fatalf("abort: %d %s", a.status, a.body)
			}
		} else {
			q := ts.state(c.ID, c.Seats[0].Secret).Requests[0]
			if a := ts.call("POST", path+"/moves", c.Seats[0].Secret, map[string]any{"request": q.ID, "move": q.Default}); a.status != http.StatusOK {
				t.Fatalf("the one turn: %d %s", a.status, a.body)
			}
		}
		secret := reissued(path+"/seats/0/reissue", c.Judge.Secret, c.Seats[0].Secret, "seat 0")
		a := ts.call("GET", path, secret, nil)
		you, _ := a.json["you"].(map[string]any)
		if a.status != http.StatusOK || you["role"] != "seat" || you["seat"] != 0.0 || a.json["status"] == "running" || a.json["result"] == nil && !abort {
			t.Errorf("the match through seat 0's new link (aborted %v): %d %s; want the seat's, ended", abort, a.status, a.body)
		}
	}
	// A named player of a referee match that was aborted.
	c := ts.create(map[string]any{"game": "territories"})
	path := "/api/v1/matches/" + c.ID
	a := ts.call("POST", path+"/moves", c.Judge.Secret, map[string]any{"move": map[string]any{"player": "alice", "action": "join Pacifica CA"}, "issue_secret": true})
	old, _ := a.json["player"].(map[string]any)["secret"].(string)
	if a.status != http.StatusOK || old == "" {
		t.Fatalf("join: %d %s", a.status, a.body)
	}
	if a := ts.call("POST", path+"/abort", c.Judge.Secret, nil); a.status != http.StatusOK {
		t.Fatalf("abort: %d %s", a.status, a.body)
	}
	secret := reissued(path+"/players/alice/reissue", c.Judge.Secret, old, "alice")
	a = ts.call("GET", path, secret, nil)
	if you, _ := a.json["you"].(map[string]any); a.status != http.StatusOK || you["role"] != "player" || you["name"] != "alice" || a.json["status"] != "aborted" {
		t.Errorf("the match through alice's new link: %d %s; want hers, aborted", a.status, a.body)
	}
	if a := ts.call("POST", path+"/players/bob/reissue", c.Judge.Secret, nil); a.status != http.StatusNotFound || a.code() != "no-player" {
		t.Errorf("a player who never joined, once the match has ended: %d %s; want 404 no-player", a.status, a.body)
	}
	if a := ts.call("POST", path+"/moves", secret, map[string]any{"move": map[string]any{"action": "color red"}}); a.status != http.StatusConflict || a.code() != "over" {
		t.Errorf("alice's new link acts on the ended match: %d %s; want 409 over", a.status, a.body)
	}
}

// Zombie seats are called P1, P2, … by their numbers, in plans and the
// script, and a seat left unnamed goes by it: a person named P2 at seat 0
// was called P1 by the rules while the seats' list showed P2, and seat 1,
// P2 itself, had its plan touching "P2" refused as touching itself. Such a
// name is refused at creation (400 invalid, saying why and what to give
// instead), in both ways of playing, unless it is the seat's own; other
// names are as before.
func TestZombieNamesTakeNoOtherSeatsName(t *testing.T) {
	ts := newServer(t, server.Config{})
	named := func(names ...string) []map[string]any {
		seats := people(len(names))
		for i, n := range names {
			if n != "" {
				seats[i]["name"] = n
			}
		}
		return seats
	}
	for _, mode := range []string{"party", "judge"} {
		for _, c := range []struct {
			names []string
			seat  int
			says  string
		}{
			{[]string{"P2", "", ""}, 0, `the name "P2" is the game's own name of seat 1 (P2)`},
			{[]string{"Ann", "p3", "Cat"}, 1, `the name "p3" is the game's own name of seat 2 (P3)`},
			{[]string{"Ann", "Bob", "1"}, 2, `the name "1" is the game's own name of seat 0 (P1)`},
			{[]string{"P9", "Bob", "Cat"}, 0, `the name "P9" is the game's own name of seat 8 (P9)`},
		} {
			a := ts.call("POST", "/api/v1/matches", "", map[string]any{"game": "zombie", "mode": mode, "seats": named(c.names...)})
			want := fmt.Sprintf("seat %d: %s", c.seat, c.says)
			e, _ := a.json["error"].(map[string]any)
			msg, _ := e["message"].(string)
			if a.status != http.StatusBadRequest || a.code() != "invalid" || !strings.HasPrefix(msg, want) ||
				!strings.HasSuffix(msg, fmt.Sprintf("give seat %d another name, its own (P%d), or none", c.seat, c.seat+1)) {
				t.Errorf("%s, seats named %q: %d %s; want 400 invalid saying %q and what to give", mode, c.names, a.status, a.body, want)
			}
		}
		// A seat's own name, and names that are no seat's, are taken.
		for _, names := range [][]string{{"P1", "p2", "P3"}, {"Ann", "P0", "P02"}, {"", "P2", ""}} {
			if a := ts.call("POST", "/api/v1/matches", "", map[string]any{"game": "zombie", "mode": mode, "seats": named(names...)}); a.status != http.StatusCreated {
				t.Errorf("%s, seats named %q: %d %s; want 201", mode, names, a.status, a.body)
			}
		}
	}
	// Seat 1, P2 by its own name, touches seat 0 by the name the list
	// shows it: its plan is refused as touching a seat that is not there,
	// never as touching itself.
	c := ts.create(map[string]any{"game": "zombie", "mode": "party", "seats": named("Ann", "P2", "")})
	q := ts.state(c.ID, c.Seats[1].Secret).Requests[0]
	if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[1].Secret, fmt.Sprintf(`{"request": %d, "move": "Ann end"}`, q.ID)); a.status != http.StatusOK {
		t.Errorf("P2's plan touching Ann: %d %s", a.status, a.body)
	}
}
