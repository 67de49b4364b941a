package server_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/server"
)

// undocumented returns the paths of the fields of value, an answer as
// encoding/json reads it, that schema (of the OpenAPI document, whose
// components are schemas) does not name, at any depth where it names
// fields; "" names the top.
func undocumented(schemas map[string]any, schema map[string]any, value any, path string) []string {
	if ref, ok := schema["$ref"].(string); ok {
		s, _ := schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		return undocumented(schemas, s, value, path)
	}
	var out []string
	switch v := value.(type) {
	case map[string]any:
		props, ok := schema["properties"].(map[string]any)
		if !ok {
			return nil // an object of any fields
		}
		for k, x := range v {
			p, ok := props[k].(map[string]any)
			if !ok {
				out = append(out, path+"."+k)
				continue
			}
			out = append(out, undocumented(schemas, p, x, path+"."+k)...)
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, x := range v {
				out = append(out, undocumented(schemas, items, x, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestOpenAPIDescribesTheAnswers(t *testing.T) {
	// The OpenAPI document names every field of the answers the calls
	// give: a territories match's "told" (what its last move did), a
	// replay step's "told", a move's "outcome" and a join's "player".
	ts := newServer(t, server.Config{})
	var doc struct {
		Components struct{ Schemas map[string]any }
	}
	if err := json.Unmarshal(ts.call("GET", "/api/v1/openapi.json", "", nil).body, &doc); err != nil {
		t.Fatal(err)
	}
	schemas := doc.Components.Schemas
	check := func(what, schema string, a answer) {
		t.Helper()
		if a.status != 200 {
			t.Fatalf("%s: %d %s", what, a.status, a.body)
		}
		var v any
		if err := json.Unmarshal(a.body, &v); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		s, _ := schemas[schema].(map[string]any)
		if missing := undocumented(schemas, s, v, ""); len(missing) > 0 {
			t.Errorf("%s: the OpenAPI document's %s does not name %s", what, schema, strings.Join(missing, ", "))
		}
	}
	// A game of seats: a seat's move is answered with its outcome, and
	// the match and its replay tell everyone what it did.
	c := ts.create(map[string]any{"game": "territories", "mode": "seats", "seats": people(2), "seed": 7})
	q := ts.state(c.ID, c.Seats[0].Secret).Requests[0]
	check("a seat's move", "Seq", ts.call("POST", "/api/v1/matches/"+c.ID+"/moves", c.Seats[0].Secret, map[string]any{"request": q.ID, "move": "join Amber NV"}))
	check("the match", "Match", ts.call("GET", "/api/v1/matches/"+c.ID, "", nil))
	check("the replay", "Viewer", ts.call("GET", "/api/v1/matches/"+c.ID+"/replay?view=public&frames=0", "", nil))
	// The referee: a join that gives the player a secret, and a
	// correction.
	r := ts.create(map[string]any{"game": "territories", "seats": []map[string]any{}})
	check("a join with issue_secret", "Seq", ts.call("POST", "/api/v1/matches/"+r.ID+"/moves", r.Judge.Secret,
		map[string]any{"move": map[string]any{"player": "alice", "action": "join Pacifica CA"}, "issue_secret": true}))
	check("a correction", "Seq", ts.call("POST", "/api/v1/matches/"+r.ID+"/correct", r.Judge.Secret,
		map[string]any{"move": map[string]any{"player": "bob", "action": "join Deseret NV"}, "reason": "bob joined at the table"}))
}
