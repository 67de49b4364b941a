package catalog_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/store"
)

// A served match of territories reads a territory by its id, name or alias
// in any case, as arbiter territories does, and keeps each action in its
// log in the board's spelling (territories by their ids), as arbiter
// territories stores it; a seat's join names its nation as the seat's own.
func TestServedActionsKeepTheBoardsSpelling(t *testing.T) {
	ctx := context.Background()
	st, ref := liveStore(t)

	submit := func(id string, actor int, move string) {
		t.Helper()
		if _, err := ref.Submit(ctx, store.Submission{Match: id, Actor: actor, Request: -1, ExpectSeq: -1, Move: json.RawMessage(move)}); err != nil && !engine.IsRuleError(err) {
			t.Fatalf("%s: %s: %v", id, move, err)
		}
	}
	logged := func(id string) []string {
		t.Helper()
		moves, err := st.Moves(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, mv := range moves {
			out = append(out, string(mv.Move))
		}
		return out
	}

	referee := &store.Match{ID: "ref", Game: "territories", Variant: "referee", RulesVersion: territories.RulesVersion, Mode: "referee",
		Setup: engine.Setup{Seed: 3, Options: map[string]string{"board": "sample"}}, Config: json.RawMessage(`{}`)}
	if err := st.Create(ctx, referee, nil); err != nil {
		t.Fatal(err)
	}
	submit("ref", engine.Judge, `{"player": "alice", "action": "join Pacifica ca"}`)
	submit("ref", engine.Judge, `{"player": "bob", "action": "join Deseret nevada"}`)
	submit("ref", engine.Judge, `{"player": "alice", "action": "move cali:1 or"}`)
	submit("ref", engine.Judge, `{"player": "alice", "action": "raise new mexico"}`) // refused: not alice's
	want := []string{
		`{"player":"alice","action":"join Pacifica CA"}`,
		`{"player":"bob","action":"join Deseret NV"}`,
		`{"player":"alice","action":"move CA:1 OR"}`,
	}
	if got := logged("ref"); !slices.Equal(got, want) {
		t.Errorf("the referee's log:\n%q\nwant\n%q", got, want)
	}

	seats := &store.Match{ID: "seats", Game: "territories", RulesVersion: territories.RulesVersion, Mode: "seats",
		Setup: engine.Setup{Seed: 3, Players: []string{catalog.Person, catalog.Person}}, Config: json.RawMessage(`{}`)}
	if err := st.Create(ctx, seats, nil); err != nil {
		t.Fatal(err)
	}
	submit("seats", 0, `"join amber ca"`)
	submit("seats", 1, `"join BASALT nv"`)
	want = []string{`"join Amber CA"`, `"join Basalt NV"`}
	if got := logged("seats"); !slices.Equal(got, want) {
		t.Errorf("the seats' log:\n%q\nwant\n%q", got, want)
	}
}
