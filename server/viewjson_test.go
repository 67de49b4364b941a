package server

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
)

func TestViewJSONIsJSON(t *testing.T) {
	// The hand-written JSON of a match's view is what encoding/json writes.
	seat := 2
	at := time.Date(2026, 11, 23, 12, 0, 0, 5, time.UTC)
	views := []matchView{
		{ID: "m1", Game: "reaj", Status: "running", Seq: 4, You: youView{Role: "spectator"}, Seats: []seatView{}, View: json.RawMessage(`{}`), Requests: []requestView{}},
		{ID: "m\"2", Game: "zombie", Mode: "party", Status: "over", Seq: 9, You: youView{Role: "seat", Seat: &seat, Name: "Ann\u2028\x01\xff<&>\\\"é", Out: "your country died in cycle 3"}, Judge: true, Seeded: true, TurnOf: &seat,
			Seats: []seatView{{Seat: 0, Player: "person", Person: true}, {Seat: 1, Player: "http://x/<b>", Resigned: true}},
			View:  json.RawMessage(`{"a":[1,2,{"b":"c"}]}`),
			Requests: []requestView{{ID: 7, Seat: 2, Kind: "war answer", Default: json.RawMessage(`{"flanks":[0,0,0]}`), Deadline: &at},
				{ID: 8, Seat: 2, Kind: "turn", Choices: []json.RawMessage{json.RawMessage(`"conquer"`), json.RawMessage(`"adapt"`)}, Default: json.RawMessage(`"adapt"`)}},
			Result: &engine.Result{Scores: []int64{1, 0}, Ranks: []int{1, 2}, Winners: []int{0}, Reason: "x"}},
		{ID: "m3", Game: "territories", Mode: "seats", Status: "running", Seq: 5, You: youView{Role: "spectator"}, Seats: []seatView{}, View: json.RawMessage(`{}`), Requests: []requestView{},
			Told: &catalog.Told{Outcome: json.RawMessage(`{"action":"attack","roll":14}`), Text: "seat 1 (Amber) attacks Basalt in UT from NV: 3 against 2, roll 14 > 8: success; Basalt loses 2 armies & UT is <unclaimed>"}},
	}
	for _, v := range views {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got := v.appendJSON(nil)
		var compact bytes.Buffer
		if err := json.Compact(&compact, got); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, got)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
		// An event is written into one buffer of the size its view
		// foretells: no string here but the odd one needs escaping.
		if v.You.Name == "" && len(got) > v.sizeJSON() {
			t.Errorf("%d bytes of JSON, foretold %d", len(got), v.sizeJSON())
		}
	}
}

func TestMoveAnswerIsJSON(t *testing.T) {
	// The answer to a move, written by hand, is what encoding/json writes.
	for _, ack := range []struct {
		seq    int64
		repeat bool
		answer json.RawMessage
	}{{1, false, nil}, {123456789, true, nil}, {7, false, json.RawMessage(`{"action":"attack","roll":15}`)}} {
		rec := httptest.NewRecorder()
		answerMove(rec, ack.seq, ack.repeat, ack.answer)
		m := map[string]any{"seq": ack.seq, "repeat": ack.repeat}
		if ack.answer != nil {
			m["outcome"] = ack.answer
		}
		want, _ := json.Marshal(m)
		if got := rec.Body.String(); got != string(want)+"\n" || rec.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s (%s); want %s", got, rec.Header().Get("Content-Type"), want)
		}
		if ack.repeat {
			continue
		}
		// The answer sent as soon as the move is stored needs a connection
		// that takes a deadline; to any other writer it writes nothing, and
		// leaves the answer to the handler. (Over HTTP, every test of a
		// move reads it.)
		rec = httptest.NewRecorder()
		if answerMoveNow(rec, ack.seq, ack.answer, time.Second) || rec.Body.Len() > 0 || rec.Flushed {
			t.Errorf("at once, to a writer without deadlines: %q written", rec.Body.String())
		}
	}
}
