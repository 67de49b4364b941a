package territories

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	rules "github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/store"
)

// World returns the game as the last committed action left it.
func (r *Referee) World(ctx context.Context) (*rules.World, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var w *rules.World
	err := retryBusy(ctx, r.o, r.path, func() error {
		var err error
		w, _, err = r.current(ctx, false)
		return err
	})
	if err != nil {
		r.world = nil
		return nil, explain(r.path, err)
	}
	return w.Clone(), nil
}

// Entry is one accepted action in the log.
type Entry struct {
	Seq    int    `json:"seq"`
	Player string `json:"player"`
	// Action is the action as the rules read it, territories by id.
	Action string `json:"action"`
	// Dice are the draws it made, in order.
	Dice []int `json:"dice"`
	// Outcome is the answer it was given, as JSON.
	Outcome json.RawMessage `json:"outcome"`
	At      time.Time       `json:"at"`
	Request string          `json:"request,omitempty"`
}

// History returns the log's actions after action after (0: all), oldest
// first.
func (r *Referee) History(ctx context.Context, after int) ([]Entry, error) {
	log, err := history(ctx, r.read, r.id, after)
	return log, explain(r.path, err)
}

func history(ctx context.Context, db *sql.DB, match string, after int) ([]Entry, error) {
	rows, err := db.QueryContext(ctx, `SELECT a.seq, a.player, a.action, a.dice, a.outcome, a.at, COALESCE(m.idem_key, '')
		FROM actions a LEFT JOIN moves m ON m.match_id = a.match_id AND m.seq = a.seq WHERE a.match_id = $1 AND a.seq > $2 ORDER BY a.seq`, match, after)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		var dice, outcome, at string
		if err := rows.Scan(&e.Seq, &e.Player, &e.Action, &dice, &outcome, &at, &e.Request); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(dice), &e.Dice); err != nil {
			return nil, fmt.Errorf("action %d: dice %q: %w", e.Seq, dice, err)
		}
		e.Outcome = json.RawMessage(outcome)
		e.At, _ = time.Parse(time.RFC3339Nano, at)
		out = append(out, e)
	}
	return out, rows.Err()
}

// Table is the rows of a table, each column as text (NULL as "NULL"), in
// the table's key order.
type Table [][]string

// Tables returns the nations and holdings tables as other programs read
// them.
func (r *Referee) Tables(ctx context.Context) (nations, holdings Table, err error) {
	return readTables(ctx, r.read, r.id)
}

// The territories tables of a match as other programs read them, by name,
// for Tables and Verify.
var tableQueries = []struct{ name, query string }{
	{"actions", `SELECT a.seq, a.player, a.action, a.dice, a.outcome, a.at, NULLIF(m.idem_key, '')
		FROM actions a LEFT JOIN moves m ON m.match_id = a.match_id AND m.seq = a.seq WHERE a.match_id = $1 ORDER BY a.seq`},
	{"nations", `SELECT name, player, color, joined, out, actions_left FROM nations WHERE match_id = $1 ORDER BY name`},
	{"holdings", `SELECT territory, nation, armies FROM holdings WHERE match_id = $1 ORDER BY territory`},
	{"state", `SELECT seq, world FROM territories_states WHERE match_id = $1`},
}

func readTables(ctx context.Context, db *sql.DB, match string) (nations, holdings Table, err error) {
	nations, err = dump(ctx, db, tableQueries[1].query, match)
	if err == nil {
		holdings, err = dump(ctx, db, tableQueries[2].query, match)
	}
	return nations, holdings, err
}

func dump(ctx context.Context, db *sql.DB, query string, args ...any) (Table, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var t Table
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = "NULL"
			if v.Valid {
				row[i] = v.String
			}
		}
		t = append(t, row)
	}
	return t, rows.Err()
}

// IntegrityCheck runs SQLite's PRAGMA integrity_check: "ok" for a sound
// file, else the problems it found.
func (r *Referee) IntegrityCheck(ctx context.Context) (string, error) {
	rows, err := r.read.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return "", err
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n"), rows.Err()
}

// MapSeq returns the action the map files show.
func (r *Referee) MapSeq(ctx context.Context) (int, error) {
	var seq int
	err := r.read.QueryRowContext(ctx, `SELECT map_seq FROM territories_states WHERE match_id = $1`, r.id).Scan(&seq)
	return seq, err
}

// StoredMap returns the map kept beside match id in st: the SVG a game
// file's init was given (territories_maps), which the file's board names
// only by its path. It is nil for a match with none (every match of
// arbiter serve: its board carries its own map, if any).
func StoredMap(ctx context.Context, st *store.Store, id string) ([]byte, error) {
	var svg string
	err := st.QueryRow(ctx, `SELECT svg FROM territories_maps WHERE match_id = $1`, id).Scan(&svg)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the map of match %s: %w", id, err)
	}
	return []byte(svg), nil
}
