package territories

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	rules "github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/store"
)

// The writes of the territories tables (migrations/00001_projection.sql),
// the same for a game file and for arbiter serve's matches.
const (
	insertActionSQL = `INSERT INTO actions (match_id, seq, player, action, dice, outcome, at) VALUES ($1, $2, $3, $4, $5, $6, $7)`
	upsertNationSQL = `INSERT INTO nations (match_id, name, player, color, joined, out, actions_left) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (match_id, name) DO UPDATE SET color = excluded.color, out = excluded.out, actions_left = excluded.actions_left`
	upsertHoldingSQL = `INSERT INTO holdings (match_id, territory, nation, armies) VALUES ($1, $2, $3, $4)
		ON CONFLICT (match_id, territory) DO UPDATE SET nation = excluded.nation, armies = excluded.armies`
	deleteHoldingSQL = `DELETE FROM holdings WHERE match_id = $1 AND territory = $2`
	saveGameSQL      = `UPDATE territories_states SET seq = $1, world = $2, turn_started = $3 WHERE match_id = $4`
)

// The statements of a writer, by index.
const (
	insertAction = iota
	upsertNation
	upsertHolding
	deleteHolding
	saveGame
	statementCount
)

var statementSQL = [statementCount]string{insertActionSQL, upsertNationSQL, upsertHoldingSQL, deleteHoldingSQL, saveGameSQL}

// writer writes the territories tables of one match in a transaction,
// with statements prepared on the database when it has them.
type writer struct {
	ctx      context.Context
	tx       *sql.Tx
	match    string
	prepared *[statementCount]*sql.Stmt // nil: the SQL is sent as text
	inTx     [statementCount]*sql.Stmt
}

func (w *writer) exec(which int, args ...any) error {
	if w.prepared == nil {
		_, err := w.tx.ExecContext(w.ctx, statementSQL[which], args...)
		return err
	}
	if w.inTx[which] == nil {
		w.inTx[which] = w.tx.StmtContext(w.ctx, w.prepared[which])
	}
	_, err := w.inTx[which].ExecContext(w.ctx, args...)
	return err
}

// logged is an accepted action as the actions table keeps it.
type logged struct {
	player, action string
	outcome        rules.Outcome
	at             string // when set: the time to write, else the move's
}

// action writes one accepted action.
func (w *writer) action(seq int64, l logged, at time.Time) error {
	dice, err := json.Marshal(append([]int{}, l.outcome.Dice...))
	if err != nil {
		return err
	}
	out, err := json.Marshal(l.outcome)
	if err != nil {
		return err
	}
	stamp := l.at
	if stamp == "" {
		stamp = at.UTC().Format(time.RFC3339Nano)
	}
	if err := w.exec(insertAction, w.match, seq, l.player, l.action, string(dice), string(out), stamp); err != nil {
		return fmt.Errorf("writing action %d: %w", seq, err)
	}
	return nil
}

// rows are the nations and holdings an action changed, as they are after
// it: what the tables must say.
type rows struct {
	nations  []nationRow
	holdings []holdingRow
}

type nationRow struct {
	name, player, color string
	joined              int
	out, left           any // NULL or a number
}

type holdingRow struct {
	territory, nation string // nation "": unclaimed, no row
	armies            int
}

// changed returns the rows of the nations and territories that w's
// actions have changed since they were last asked for (World.Dirty).
func changed(w *rules.World) rows {
	nations, territories := w.Dirty()
	cfg := w.Config()
	var r rows
	for _, k := range nations {
		n := w.Nation(k)
		row := nationRow{name: n.Name, player: n.Player, color: string(n.Color), joined: n.Joined}
		if n.Out != 0 {
			row.out = n.Out
		}
		if cfg.TurnManagement {
			row.left = n.ActionsLeft()
		}
		r.nations = append(r.nations, row)
	}
	for _, i := range territories {
		h := w.Holding(i)
		row := holdingRow{territory: cfg.Territory(i).ID, armies: h.Armies}
		if h.Nation >= 0 {
			row.nation = w.Nation(h.Nation).Name
		}
		r.holdings = append(r.holdings, row)
	}
	return r
}

// rows writes the changed nations and holdings.
func (w *writer) rows(r rows) error {
	for _, n := range r.nations {
		if err := w.exec(upsertNation, w.match, n.name, n.player, n.color, n.joined, n.out, n.left); err != nil {
			return fmt.Errorf("writing nation %s: %w", n.name, err)
		}
	}
	for _, h := range r.holdings {
		var err error
		if h.nation == "" {
			err = w.exec(deleteHolding, w.match, h.territory)
		} else {
			err = w.exec(upsertHolding, w.match, h.territory, h.nation, h.armies)
		}
		if err != nil {
			return fmt.Errorf("writing the holding of %s: %w", h.territory, err)
		}
	}
	return nil
}

// Moved returns the projection of a move of match id, for a store's
// referee (store.Referee.Project): w is the match's world just after the
// move, o the move's outcome, and mv the move, whose time is set when the
// projection runs. It writes the action with its dice and answer, and the
// nations and holdings the move changed, in the move's transaction.
func Moved(id string, w *rules.World, o rules.Outcome, mv *store.Move) func(ctx context.Context, tx *sql.Tx) error {
	l := logged{player: o.Player, outcome: o, action: resolved(w.Config(), mv.Move)}
	r := changed(w)
	return func(ctx context.Context, tx *sql.Tx) error {
		wr := &writer{ctx: ctx, tx: tx, match: id}
		if err := wr.action(mv.Seq, l, mv.At); err != nil {
			return err
		}
		return wr.rows(r)
	}
}

// resolved returns a call's action as the rules read it, territories by
// id: what the actions table keeps.
func resolved(cfg *rules.Config, move json.RawMessage) string {
	var c rules.Call
	if err := json.Unmarshal(move, &c); err != nil {
		return string(move)
	}
	if a, err := cfg.Resolve(c.Action); err == nil {
		return a.String()
	}
	return c.Action.String()
}
