package load

import (
	"encoding/json"
	"testing"
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
