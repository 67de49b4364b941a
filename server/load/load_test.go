package load

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestNextRequestReadsWhatTheClientAnswers(t *testing.T) {
	// A client reads of an event's requests their ids and the moves that
	// answer them (the first choice, else the default), whatever their
	// fields hold; what does not parse is refused, never half read.
	data := []byte(`{"id":"m","seq":3,"view":{"requests":[1]},"requests":[` +
		`{"id":7,"seat":1,"kind":"act","choices":[{"a":"x,]}\"y"},2],"default":{"a":"z"},"deadline":"2026-11-23T12:00:00Z"},` +
		`{"id":9,"seat":1,"kind":"reply","default":[1,{"b":[]}]}],"result":{"x":1}}`)
	reqs, ok := requestsOf(data)
	if !ok {
		t.Fatal("no requests found")
	}
	type got struct {
		ID   int64
		Move json.RawMessage
	}
	var all []got
	for len(reqs) > 0 {
		id, move, rest, ok := nextRequest(reqs)
		if !ok {
			t.Fatalf("does not parse: %s", reqs)
		}
		all = append(all, got{id, move})
		reqs = rest
	}
	want := []got{{7, json.RawMessage(`{"a":"x,]}\"y"}`)}, {9, json.RawMessage(`[1,{"b":[]}]`)}}
	if len(all) != len(want) {
		t.Fatalf("read %d requests, want %d: %v", len(all), len(want), all)
	}
	for i := range want {
		if all[i].ID != want[i].ID || string(all[i].Move) != string(want[i].Move) {
			t.Errorf("request %d: %d %s; want %d %s", i, all[i].ID, all[i].Move, want[i].ID, want[i].Move)
		}
	}
	for _, bad := range []string{`[{"id":1,"default":`, `[{"id":x,"default":1}]`, `[{"default":1}]`, `[{"id":1}]`, `[{"id":1,"default":"1}]`, `[1]`} {
		if _, _, _, ok := nextRequest([]byte(bad)); ok {
			t.Errorf("%s: read as a request", bad)
		}
	}
}

func FuzzNextRequest(f *testing.F) {
	// Whatever an event holds, reading its requests never panics and
	// always moves on (a client's loop over them ends); and requests as
	// the server writes them (encoding/json, no spaces) are read with
	// their ids and first choices.
	f.Add([]byte(`{"id":"m","requests":[{"id":7,"choices":["a","b"],"default":"a"}]}`), int64(3), "conquer")
	f.Add([]byte(`{"requests":[{"id":1,"default":`), int64(-1), `x"y`)
	f.Add([]byte(`,"requests":[{"":{"":[}]}`), int64(0), "")
	f.Fuzz(func(t *testing.T, data []byte, id int64, choice string) {
		if reqs, ok := requestsOf(data); ok {
			for n := 0; len(reqs) > 0; n++ {
				_, _, rest, ok := nextRequest(reqs)
				if !ok {
					break
				}
				if len(rest) >= len(reqs) {
					t.Fatalf("read a request of %q and did not move on", reqs)
				}
				reqs = rest
			}
		}
		type request struct {
			ID      int64    `json:"id"`
			Choices []string `json:"choices"`
			Default string   `json:"default"`
		}
		if !utf8.ValidString(choice) {
			return // JSON would carry another string
		}
		event, err := json.Marshal(map[string]any{"id": "m", "requests": []request{{id, []string{choice, "other"}, "d"}, {id + 1, nil, choice}}})
		if err != nil {
			t.Fatal(err)
		}
		reqs, ok := requestsOf(event)
		if !ok {
			t.Fatalf("%s: no requests found", event)
		}
		for _, want := range []int64{id, id + 1} {
			got, move, rest, ok := nextRequest(reqs)
			var m string
			if !ok || got != want || json.Unmarshal(move, &m) != nil || m != choice {
				t.Fatalf("%s: read %d %s (%v); want %d and %q", event, got, move, ok, want, choice)
			}
			reqs = rest
		}
		if len(reqs) != 0 {
			t.Fatalf("%s: %s left after the last request", event, reqs)
		}
	})
}
