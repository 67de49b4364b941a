package territories

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	rules "github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/store"
)

// olderVersion is the newest schema of the game files of the layout before
// the live store.
const olderVersion = 3

// convert turns the game file of the layout before the live store at path
// (schema version 1, 2 or 3, which identify found) into a store of live
// matches holding its game, in place and in one transaction: a crash
// leaves the file as it was or converted, never half of it. The log of
// actions becomes the match's moves; the actions, nations and holdings
// tables, the rules' state, the map and the action the map files show are
// kept as they were (migrations/00001_projection.sql says where), so that
// the game reads, replays and draws as before, differences from its log
// included. A game that another process converted meanwhile is left as it
// is; one made under other rules, or by a later Arbiter, is refused and
// left untouched.
func convert(ctx context.Context, path string, o Options) error {
	db, err := openDB(path, o)
	if err != nil {
		return err
	}
	defer db.Close()
	err = retryBusy(ctx, o, path, func() error {
		return inTx(ctx, db, func(tx *sql.Tx) error { return convertTx(ctx, tx, path) })
	})
	if err != nil {
		return err
	}
	// Copy the new header into the file when no reader holds the old one,
	// so that other programs see the new application id soon.
	db.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
	return nil
}

// olderGame is a game file of the layout before, as read.
type olderGame struct {
	cfg                 *rules.Config
	mapSVG              []byte
	created             string
	seq, mapSeq         int64
	world, turnStarted  string
	actions             []olderAction
	nations, holdingRow [][]any
}

// olderAction is one row of the older actions table.
type olderAction struct {
	seq                               int64
	player, action, dice, outcome, at string
	request                           string
}

func convertTx(ctx context.Context, tx *sql.Tx, path string) error {
	have, err := tableNames(ctx, tx)
	if err != nil {
		return err
	}
	if !have["game"] {
		if have["matches"] {
			return nil // converted by another process meanwhile
		}
		return fmt.Errorf("%s: %w: it is another application's SQLite database (no territories tables)", path, ErrNoGame)
	}
	g, err := readOlder(ctx, tx, path)
	if err != nil {
		return err
	}
	for _, q := range []string{`DROP TABLE holdings`, `DROP TABLE nations`, `DROP TABLE actions`, `DROP TABLE state`, `DROP TABLE game`, `DROP TABLE goose_db_version`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("converting the game to the live store: %w", err)
		}
	}
	if err := store.MigrateTx(ctx, tx, store.Schema(), "goose_db_version", false); err != nil {
		return fmt.Errorf("converting the game to the live store: %w", err)
	}
	if err := store.MigrateTx(ctx, tx, tableMigrations(), versionTable, false); err != nil {
		return fmt.Errorf("converting the game to the live store: %w", err)
	}
	if err := g.write(ctx, tx); err != nil {
		return fmt.Errorf("converting the game to the live store: %w", err)
	}
	_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID))
	return err
}

// tableNames returns the tables of the database.
func tableNames(ctx context.Context, tx *sql.Tx) (map[string]bool, error) {
	names, err := column(ctx, tx, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out, nil
}

// column returns the first column of a query's rows, as text.
func column(ctx context.Context, tx *sql.Tx, query string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// readOlder reads a game file of the layout before, at any of its schema
// versions: version 1 has no request ids, map_seq or turn_started.
func readOlder(ctx context.Context, tx *sql.Tx, path string) (*olderGame, error) {
	var v sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(version_id) FROM goose_db_version`).Scan(&v); err != nil {
		return nil, err
	}
	if v.Int64 > olderVersion {
		return nil, fmt.Errorf("%s: the database has schema version %d, newer than this Arbiter's %d; use a newer Arbiter", path, v.Int64, olderVersion)
	}
	g := &olderGame{}
	var version, config string
	if err := tx.QueryRowContext(ctx, `SELECT rules_version, config, map_svg, created FROM game WHERE id = 1`).Scan(&version, &config, &g.mapSVG, &g.created); err != nil {
		return nil, fmt.Errorf("%s: reading the game: %w", path, err)
	}
	if version != rules.RulesVersion {
		return nil, fmt.Errorf("%s: the game was made under territories rules version %q; this Arbiter has %q", path, version, rules.RulesVersion)
	}
	var err error
	if g.cfg, err = rules.ParseConfig([]byte(config)); err != nil {
		return nil, fmt.Errorf("%s: the stored configuration: %w", path, err)
	}
	stateCols, err := column(ctx, tx, `SELECT name FROM pragma_table_info('state')`)
	if err != nil {
		return nil, err
	}
	query := `SELECT seq, world, 0, '' FROM state WHERE id = 1`
	if contains(stateCols, "map_seq") && contains(stateCols, "turn_started") {
		query = `SELECT seq, world, map_seq, COALESCE(turn_started, '') FROM state WHERE id = 1`
	}
	if err := tx.QueryRowContext(ctx, query).Scan(&g.seq, &g.world, &g.mapSeq, &g.turnStarted); err != nil {
		return nil, fmt.Errorf("%s: reading the game's state: %w", path, err)
	}
	if g.actions, err = readActions(ctx, tx); err != nil {
		return nil, fmt.Errorf("%s: reading the log: %w", path, err)
	}
	if g.nations, err = rowValues(ctx, tx, `SELECT name, player, color, joined, out, actions_left FROM nations ORDER BY name`); err != nil {
		return nil, fmt.Errorf("%s: reading the nations: %w", path, err)
	}
	if g.holdingRow, err = rowValues(ctx, tx, `SELECT territory, nation, armies FROM holdings ORDER BY territory`); err != nil {
		return nil, fmt.Errorf("%s: reading the holdings: %w", path, err)
	}
	return g, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// readActions reads the older log, with its request ids from version 2
// on.
func readActions(ctx context.Context, tx *sql.Tx) ([]olderAction, error) {
	cols, err := column(ctx, tx, `SELECT name FROM pragma_table_info('actions')`)
	if err != nil {
		return nil, err
	}
	request := `''`
	if contains(cols, "request") {
		request = `COALESCE(request, '')`
	}
	rows, err := tx.QueryContext(ctx, `SELECT seq, player, action, dice, outcome, at, `+request+` FROM actions ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []olderAction
	for rows.Next() {
		var a olderAction
		if err := rows.Scan(&a.seq, &a.player, &a.action, &a.dice, &a.outcome, &a.at, &a.request); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// rowValues returns a query's rows as the database's values.
func rowValues(ctx context.Context, tx *sql.Tx, query string) ([][]any, error) {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, rows.Err()
}

// write stores the game as a match of the live store, its actions its
// moves, and its tables as they were.
func (g *olderGame) write(ctx context.Context, tx *sql.Tx) error {
	m, err := newMatch(g.cfg)
	if err != nil {
		return err
	}
	if t, err := time.Parse(time.RFC3339Nano, g.created); err == nil {
		m.Created = t
	}
	m.Updated = m.Created
	moves := make([]store.Move, len(g.actions))
	for i, a := range g.actions {
		at, err := time.Parse(time.RFC3339Nano, a.at)
		if err != nil {
			return fmt.Errorf("action %d: its time %q: %w", a.seq, a.at, err)
		}
		moves[i] = store.Move{Seq: a.seq, Actor: engine.Judge, Request: -1, Move: callJSON(a.player, a.action), At: at, Key: a.request}
		if a.request != "" {
			moves[i].KeyHash = keyHash(moves[i].Move)
		}
		m.Updated = at
	}
	if err := store.ImportTx(ctx, tx, m, moves); err != nil {
		return err
	}
	if err := insertGame(ctx, tx, m.ID, g.mapSVG, g.seq, g.world, g.turnStarted, g.mapSeq); err != nil {
		return err
	}
	for _, a := range g.actions {
		if _, err := tx.ExecContext(ctx, insertActionSQL, m.ID, a.seq, a.player, a.action, a.dice, a.outcome, a.at); err != nil {
			return fmt.Errorf("action %d: %w", a.seq, err)
		}
	}
	for _, n := range g.nations {
		if _, err := tx.ExecContext(ctx, `INSERT INTO nations (match_id, name, player, color, joined, out, actions_left) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			append([]any{m.ID}, n...)...); err != nil {
			return fmt.Errorf("nation %v: %w", n[0], err)
		}
	}
	for _, h := range g.holdingRow {
		if _, err := tx.ExecContext(ctx, `INSERT INTO holdings (match_id, territory, nation, armies) VALUES ($1, $2, $3, $4)`,
			append([]any{m.ID}, h...)...); err != nil {
			return fmt.Errorf("holding %v: %w", h[0], err)
		}
	}
	return nil
}

// callJSON is the move of the judge's call for player: the JSON of a
// rules.Call, written from the action's text.
func callJSON(player, action string) json.RawMessage {
	b, _ := json.Marshal(struct {
		Player string `json:"player,omitempty"`
		Action string `json:"action"`
	}{player, action})
	return b
}

// keyHash is the hash kept with a move's request id: SHA-256 of the move.
func keyHash(move []byte) string {
	h := sha256.Sum256(move)
	return hex.EncodeToString(h[:])
}
