package territories

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	rules "github.com/arbiter-games/arbiter/games/territories"
)

// World returns the game as the last committed action left it.
func (r *Referee) World(ctx context.Context) (*rules.World, error) {
	var world string
	if err := r.db.QueryRowContext(ctx, `SELECT world FROM state WHERE id = 1`).Scan(&world); err != nil {
		return nil, explain(r.path, fmt.Errorf("%s: reading the game's state: %w", r.path, err))
	}
	return rules.LoadWorld(r.cfg, []byte(world))
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
	log, err := history(ctx, r.db, after)
	return log, explain(r.path, err)
}

func history(ctx context.Context, db *sql.DB, after int) ([]Entry, error) {
	rows, err := db.QueryContext(ctx, `SELECT seq, player, action, dice, outcome, at, COALESCE(request, '') FROM actions WHERE seq > ? ORDER BY seq`, after)
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
	return tables(ctx, r.db)
}

func tables(ctx context.Context, db *sql.DB) (nations, holdings Table, err error) {
	nations, err = dump(ctx, db, `SELECT name, player, color, joined, out, actions_left FROM nations ORDER BY name`)
	if err == nil {
		holdings, err = dump(ctx, db, `SELECT territory, nation, armies FROM holdings ORDER BY territory`)
	}
	return nations, holdings, err
}

func dump(ctx context.Context, db *sql.DB, query string) (Table, error) {
	rows, err := db.QueryContext(ctx, query)
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
	rows, err := r.db.QueryContext(ctx, `PRAGMA integrity_check`)
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
	err := r.db.QueryRowContext(ctx, `SELECT map_seq FROM state WHERE id = 1`).Scan(&seq)
	return seq, err
}
