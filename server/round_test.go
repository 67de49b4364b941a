package server_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/server"
)

// A seat's answer that leaves its round open (the others of a
// simultaneous round still owe theirs) is told to nobody but its mover and
// the judge until the round resolves: not by its views, and not by the
// match's move number either, in any call (GET, the list, the event
// stream and its resumption, the replay, expect_seq), before or after a
// restart. Before, a seat polling the match saw its number go up as each
// other seat answered.
func TestNobodyCountsTheAnswersOfARoundUnderWay(t *testing.T) {
	db := filepath.Join(t.TempDir(), "live.db")
	ts := startServer(t, db, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(3), "options": map[string]any{"turns": 2}, "judge": true})
	s := []string{c.Seats[0].Secret, c.Seats[1].Secret, c.Seats[2].Secret}
	// answer sends seat's answer, with an Idempotency-Key of its own, and
	// checks the answer's number: the move as seat knows it once it has
	// answered, want.
	bodies := map[int]map[string]any{}
	answer := func(ts *testServer, seat int, extra map[string]any, want int64) {
		t.Helper()
		q := ts.state(c.ID, s[seat]).Requests[0]
		body := map[string]any{"request": q.ID, "move": q.Default}
		for k, v := range extra {
			body[k] = v
		}
		bodies[seat] = body
		a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s[seat], body, "Idempotency-Key", "k")
		if a.status != http.StatusOK {
			t.Fatalf("seat %d's answer: %d %s", seat, a.status, a.body)
		}
		if a.json["seq"] != float64(want) {
			t.Errorf("seat %d's answer is %v; want move %d, its own reading of the match", seat, a.json, want)
		}
	}
	// again sends seat's answer again, with its key: a repeat, counted
	// as seat knows the match now.
	again := func(ts *testServer, seat int, want int64) {
		t.Helper()
		a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s[seat], bodies[seat], "Idempotency-Key", "k")
		if a.status != http.StatusOK || a.json["repeat"] != true || a.json["seq"] != float64(want) {
			t.Errorf("seat %d's answer sent again: %d %v; want a repeat at move %d", seat, a.status, a.json, want)
		}
	}
	// want is each reader's move number: anyone, seats 0 to 2, the judge.
	check := func(ts *testServer, when string, want ...int64) {
		t.Helper()
		for i, secret := range []string{"", s[0], s[1], s[2], c.Judge.Secret} {
			if got := ts.state(c.ID, secret).Seq; got != want[i] {
				t.Errorf("%s: reader %d (anyone, seats 0 to 2, the judge) sees move %d; want %d", when, i, got, want[i])
			}
		}
		if got, listed := listedSeq(ts, c.ID); listed && got != want[0] {
			t.Errorf("%s: the list says move %d; want %d", when, got, want[0])
		}
		for i, secret := range []string{"", s[2]} {
			ctx, cancel := context.WithCancel(context.Background())
			first := <-ts.follow(ctx, c.ID, secret, -1)
			cancel()
			w := map[int]int64{0: want[0], 1: want[3]}[i]
			if first.id != itoa(w) {
				t.Errorf("%s: reader %d's stream begins at move %s; want %d", when, i, first.id, w)
			}
			if got := resume(ts, c.ID, secret, w+1); got != http.StatusBadRequest {
				t.Errorf("%s: reader %d resumes after move %d: %d; want 400, the match is at move %d for it", when, i, w+1, got, w)
			}
		}
		for i, secret := range []string{"", s[0], s[1], s[2]} {
			var v viewerAnswer
			json.Unmarshal(ts.call("GET", "/api/v1/matches/"+c.ID+"/replay?frames=0", secret, nil).body, &v)
			if int64(v.Moves) != want[i] {
				t.Errorf("%s: reader %d's replay (anyone, seats 0 to 2) has %d moves; want %d", when, i, v.Moves, want[i])
			}
			for _, view := range v.Views {
				for _, step := range view.Steps {
					if int64(step.Seq) > want[i] {
						t.Errorf("%s: reader %d's replay shows move %d in %s; it is told of %d", when, i, step.Seq, view.ID, want[i])
					}
				}
			}
		}
	}
	check(ts, "at the start", 0, 0, 0, 0, 0)
	answer(ts, 0, nil, 1)
	check(ts, "seat 0 answered", 0, 1, 0, 0, 1)
	// Seat 1 sends the move it sees with its answer: the match has not
	// moved on for it. Its own answer is its move 1, as seat 0's is
	// seat 0's: neither its answer's number nor its reading of the match
	// counts seat 0's answer before it.
	answer(ts, 1, map[string]any{"expect_seq": 0}, 1)
	again(ts, 1, 1)
	check(ts, "seats 0 and 1 answered", 0, 1, 1, 0, 2)
	ts.stop()
	ts = startServer(t, db, server.Config{})
	check(ts, "after a restart", 0, 1, 1, 0, 2)
	// Seat 1's stream resumed after the move it saw last has missed
	// nothing: its next event is the round's end; resumed from the start,
	// its own answer comes first, as move 1.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := map[int64]<-chan event{1: ts.follow(ctx, c.ID, s[1], 1), 0: ts.follow(ctx, c.ID, s[1], 0)}
	answer(ts, 2, map[string]any{"expect_seq": 0}, 3)
	check(ts, "the round resolved", 3, 3, 3, 3, 3)
	// Once the round has resolved, everyone is told every answer, and
	// where the log has it.
	again(ts, 1, 2)
	for after, want := range map[int64][]string{1: {"3"}, 0: {"1", "3"}} {
		var got []string
		for ev := range streams[after] {
			got = append(got, ev.id)
			if len(got) == len(want) {
				break
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("seat 1's stream resumed after move %d: events %v; want %v", after, got, want)
		}
	}
}

// resume opens the event stream after move after, and answers its status.
func resume(ts *testServer, id, secret string, after int64) int {
	ts.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/v1/matches/"+id+"/events?after="+itoa(after), nil)
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// A TNCC country's trade or war waits for its answer, which only the two
// countries and the judge are told is owed: to everyone else the match is
// still at the move before the offer (its turn lasts, turn_of says the
// same), in every call and event, before and after a restart, until the
// answer comes. Before, the match's number went up with the offer, and
// its event came with nothing changed, while the turn stayed the
// offerer's: a sign that an answer was owed.
func TestNobodyElseIsToldOfAnOfferBeforeItsAnswer(t *testing.T) {
	db := filepath.Join(t.TempDir(), "live.db")
	ts := startServer(t, db, server.Config{})
	c := ts.create(map[string]any{"game": "tncc", "seats": people(3), "judge": true})
	s := []string{c.Seats[0].Secret, c.Seats[1].Secret, c.Seats[2].Secret}
	readers := []string{"", s[0], s[1], s[2], c.Judge.Secret}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Streams open before the offer, of anyone and of seat 2.
	streams := []<-chan event{ts.follow(ctx, c.ID, "", -1), ts.follow(ctx, c.ID, s[2], -1)}
	for i, st := range streams {
		if ev := <-st; ev.id != "0" {
			t.Fatalf("stream %d begins at move %s; want 0", i, ev.id)
		}
	}
	move := func(ts *testServer, seat int, mv map[string]any) {
		t.Helper()
		q := ts.state(c.ID, s[seat]).Requests[0]
		body := map[string]any{"request": q.ID, "move": q.Default}
		if mv != nil {
			body["move"] = mv
		}
		if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s[seat], body); a.status != http.StatusOK {
			t.Fatalf("seat %d's move: %d %s", seat, a.status, a.body)
		}
	}
	// want is each reader's move number: anyone, seats 0 to 2, the judge.
	check := func(ts *testServer, when string, want ...int64) {
		t.Helper()
		for i, secret := range readers {
			m := ts.state(c.ID, secret)
			if m.Seq != want[i] {
				t.Errorf("%s: reader %d (anyone, seats 0 to 2, the judge) sees move %d; want %d", when, i, m.Seq, want[i])
			}
			if i < 4 {
				var v viewerAnswer
				json.Unmarshal(ts.call("GET", "/api/v1/matches/"+c.ID+"/replay?frames=0", secret, nil).body, &v)
				if int64(v.Moves) != want[i] {
					t.Errorf("%s: reader %d's replay has %d moves; want %d", when, i, v.Moves, want[i])
				}
			}
		}
		if got, listed := listedSeq(ts, c.ID); listed && got != want[0] {
			t.Errorf("%s: the list says move %d; want %d", when, got, want[0])
		}
		for _, i := range []int{0, 3} {
			if got := resume(ts, c.ID, readers[i], want[i]+1); got != http.StatusBadRequest {
				t.Errorf("%s: reader %d resumes after move %d: %d; want 400", when, i, want[i]+1, got)
			}
		}
	}
	// probe is seat 2's refusal of an answer to request id, not its own,
	// with the id written X.
	probe := func(id int64) string {
		t.Helper()
		a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", s[2], map[string]any{"request": id, "move": map[string]any{"type": "wait"}})
		if a.status < 400 {
			t.Fatalf("seat 2 answered request %d, not its own: %d %s", id, a.status, a.body)
		}
		return strings.ReplaceAll(string(a.body), itoa(id), "X")
	}
	turn := ts.state(c.ID, s[0]).Requests[0].ID
	before := probe(turn)
	move(ts, 0, map[string]any{"type": "trade", "with": 1, "give": "gold", "give_n": 100, "take": "food", "take_n": 200})
	check(ts, "seat 0 offered a trade to seat 1", 0, 1, 1, 0, 1)
	// Nor does a refusal tell seat 2: seat 0's turn reads as it did, and
	// seat 1's answer owed as a request never asked.
	if after := probe(turn); after != before {
		t.Errorf("seat 2's refusal of seat 0's request: %s before the offer, %s after", before, after)
	}
	owed := ts.state(c.ID, s[1]).Requests[0].ID
	if got, never := probe(owed), probe(owed+100); got != never {
		t.Errorf("seat 2's refusal of the answer seat 1 owes: %s; of a request never asked: %s", got, never)
	}
	move(ts, 1, nil) // accepted
	check(ts, "seat 1 answered", 2, 2, 2, 2, 2)
	for i, st := range streams {
		if ev := <-st; ev.id != "2" {
			t.Errorf("stream %d's next event is of move %s; want 2, the answer", i, ev.id)
		}
	}
	// A resumed stream of anyone makes no event of the offer either.
	var got []string
	for ev := range ts.follow(ctx, c.ID, "", 0) {
		if got = append(got, ev.id); len(got) == 1 {
			break
		}
	}
	if !slices.Equal(got, []string{"2"}) {
		t.Errorf("anyone's stream resumed after move 0: events %v; want [2]", got)
	}
	// Seat 1's turn: it offers seat 2 a trade, across a restart.
	move(ts, 1, map[string]any{"type": "trade", "with": 2, "give": "food", "give_n": 100, "take": "gold", "take_n": 50})
	check(ts, "seat 1 offered a trade to seat 2", 2, 2, 3, 3, 3)
	ts.stop()
	ts = startServer(t, db, server.Config{})
	check(ts, "after a restart", 2, 2, 3, 3, 3)
	move(ts, 2, nil) // accepted
	check(ts, "seat 2 answered", 4, 4, 4, 4, 4)
}

// listedSeq returns the move number the list of matches gives match id,
// as anyone reads it, and whether it is listed.
func listedSeq(ts *testServer, id string) (int64, bool) {
	ts.t.Helper()
	var list struct {
		Matches []struct {
			ID  string
			Seq int64
		}
	}
	json.Unmarshal(ts.call("GET", "/api/v1/matches", "", nil).body, &list)
	for _, m := range list.Matches {
		if m.ID == id {
			return m.Seq, true
		}
	}
	return 0, false
}

// The list of matches gives no number for a match under way that it
// cannot load: the stored number counts every answer of the round under
// way, which nobody but their movers is told of yet.
func TestListGivesNoNumberForAMatchItCannotLoad(t *testing.T) {
	db := filepath.Join(t.TempDir(), "live.db")
	ts := startServer(t, db, server.Config{})
	c := ts.create(map[string]any{"game": "reaj", "seats": people(3)})
	q := ts.state(c.ID, c.Seats[0].Secret).Requests[0]
	if a := ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": q.ID, "move": q.Default}); a.status != http.StatusOK {
		t.Fatalf("seat 0's answer: %d %s", a.status, a.body)
	}
	if seq, ok := listedSeq(ts, c.ID); !ok || seq != 0 {
		t.Fatalf("listed at move %d (%v); want 0, the round's start", seq, ok)
	}
	ts.stop()
	damage(t, db, `UPDATE moves SET move = '"nonsense"' WHERE match_id = ?`, c.ID)
	ts = startServer(t, db, server.Config{})
	var list struct{ Matches []map[string]any }
	a := ts.call("GET", "/api/v1/matches", "", nil)
	json.Unmarshal(a.body, &list)
	if len(list.Matches) != 1 || list.Matches[0]["id"] != c.ID || list.Matches[0]["seq"] != nil {
		t.Errorf("the list: %d %s; want the match with seq null", a.status, a.body)
	}
}

// damage runs statement on the SQLite database at path, as a hand or a
// fault of the disk would change it.
func damage(t *testing.T, path, statement string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(statement, args...); err != nil {
		t.Fatal(err)
	}
}
