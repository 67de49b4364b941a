package catalog_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/store"
	tstore "github.com/arbiter-games/arbiter/store/territories"
	"github.com/google/go-cmp/cmp"
)

// liveRules makes the live matches of stored matches from the catalog, as
// arbiter serve does, without bots.
type liveRules struct{}

func (liveRules) Live(ctx context.Context, m *store.Match) (store.Live, error) {
	g, err := catalog.Find(m.Game)
	if err != nil {
		return nil, err
	}
	return g.(catalog.LiveGame).NewLive(ctx, catalog.LiveSetup{Setup: m.Setup, Mode: m.Mode, Quiet: true})
}

// refereeCalls are the judge's calls of a game of territories' referee,
// some of them refused by the rules.
var refereeCalls = []string{
	"alice join Pacifica CA", "bob join Deseret NV", "carol join Cascadia WA",
	"alice color red", "bob raise XX", "alice raise CA", "alice raise CA",
	"bob move NV:1 UT", "alice attack CA NV", "alice attack CA NV", "alice attack CA NV",
	"carol move WA OR", "alice attack CA UT", "bob raise UT",
}

// projectionTables reads the territories tables of match id as text: the
// actions without their times, the nations, the holdings.
func projectionTables(t *testing.T, db *sql.DB, id string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for name, q := range map[string]string{
		"actions":  `SELECT seq, player, action, dice, outcome FROM actions WHERE match_id = $1 ORDER BY seq`,
		"nations":  `SELECT name, player, color, joined, COALESCE(out, 0), COALESCE(actions_left, -1) FROM nations WHERE match_id = $1 ORDER BY name`,
		"holdings": `SELECT territory, nation, armies FROM holdings WHERE match_id = $1 ORDER BY territory`,
	} {
		rows, err := db.Query(q, id)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = fmt.Sprint(v)
			}
			out[name] = append(out[name], strings.Join(parts, " | "))
		}
		rows.Close()
	}
	return out
}

func TestTerritoriesProjection(t *testing.T) {
	// arbiter serve's matches of territories' referee get the tables a
	// game file of arbiter territories has, written by the same projector
	// in each move's transaction and keyed by match: the same calls give
	// the same actions, nations and holdings. A match removed takes its
	// rows with it.
	ctx := context.Background()
	st, ref := liveStore(t)
	if err := catalog.Project(ctx, ref); err != nil {
		t.Fatal(err)
	}
	ids := []string{"m1", "m2"}
	for _, id := range ids {
		m := &store.Match{ID: id, Game: "territories", Variant: "referee", RulesVersion: territories.RulesVersion, Mode: "referee",
			Setup: engine.Setup{Seed: 3, Options: map[string]string{"board": "sample"}}, Config: json.RawMessage(`{}`)}
		if err := st.Create(ctx, m, nil); err != nil {
			t.Fatal(err)
		}
	}
	cfg := territories.Sample().WithSeed(3)
	file, err := tstore.Create(ctx, filepath.Join(t.TempDir(), "game.db"), cfg, territories.SampleMap(), tstore.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for i, line := range refereeCalls {
		player, text, _ := strings.Cut(line, " ")
		a, err := territories.ParseAction(text)
		if err != nil {
			t.Fatal(err)
		}
		move, _ := json.Marshal(territories.Call{Player: player, Action: a})
		for _, id := range ids[:1+i%2] { // m2 has every other call
			_, err := ref.Submit(ctx, store.Submission{Match: id, Actor: engine.Judge, Request: -1, ExpectSeq: -1, Move: move})
			if err != nil && !engine.IsRuleError(err) {
				t.Fatal(err)
			}
		}
		if _, err := file.Submit(ctx, tstore.Call{Player: player, Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	fileDB, err := sql.Open("sqlite", file.Path()+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer fileDB.Close()
	serveDB, err := sql.Open("sqlite", st.Target()+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer serveDB.Close()
	want := projectionTables(t, fileDB, file.Match())
	if len(want["actions"]) < 10 || len(want["nations"]) != 3 || len(want["holdings"]) < 3 {
		t.Fatalf("the game file's tables: %v", want)
	}
	if d := cmp.Diff(want, projectionTables(t, serveDB, "m1")); d != "" {
		t.Errorf("arbiter serve's tables differ from the game file's (-file +serve):\n%s", d)
	}
	m2 := projectionTables(t, serveDB, "m2")
	if len(m2["nations"]) == 0 || cmp.Equal(m2, want) {
		t.Errorf("m2, which had every other call, has %v", m2)
	}
	if err := st.Delete(ctx, "m2"); err != nil {
		t.Fatal(err)
	}
	if left := projectionTables(t, serveDB, "m2"); len(left) != 0 {
		t.Errorf("a deleted match left rows: %v", left)
	}
	if d := cmp.Diff(want, projectionTables(t, serveDB, "m1")); d != "" {
		t.Errorf("deleting m2 changed m1's rows:\n%s", d)
	}
}

// liveStore opens a store of arbiter serve's in a temporary SQLite file,
// with a referee of the catalog's live matches on it; both close when the
// test ends.
func liveStore(t *testing.T) (*store.Store, *store.Referee) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "serve.db"), store.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ref := store.NewReferee(st, liveRules{})
	t.Cleanup(func() { ref.Close() })
	return st, ref
}
