package catalog

import (
	"context"
	"database/sql"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/store"
	tstore "github.com/arbiter-games/arbiter/store/territories"
)

// Project has a referee of live matches write the games' own tables for
// SQL readers (territories' actions, nations and holdings) in the
// transaction of each move of their matches, after bringing those tables
// up to date in the referee's store. A game's projector lives in
// store/<game>; this is where it is wired to the games.
func Project(ctx context.Context, ref *store.Referee) error {
	if err := tstore.Migrate(ctx, ref.Store()); err != nil {
		return err
	}
	ref.Project = project
	return nil
}

// project is store.Referee.Project: the projection of a move of a live
// match made by the catalog, if its game has one.
func project(m *store.Match, live store.Live, mv *store.Move) func(context.Context, *sql.Tx) error {
	p, ok := live.(projected)
	if !ok {
		return nil
	}
	return p.projection(m.ID, mv)
}

// projected is a live match whose game has a projection.
type projected interface {
	projection(id string, mv *store.Move) func(context.Context, *sql.Tx) error
}

// projection returns the projection of the move just applied to the
// match, or nil when its game has none.
func (l *liveMatch[M, V]) projection(id string, mv *store.Move) func(context.Context, *sql.Tx) error {
	if l.h.project == nil {
		return nil
	}
	return l.h.project(id, l.m, mv)
}

// territoriesProjection is the projection of a move of territories'
// referee: the action, and the nations and holdings it changed.
func territoriesProjection(id string, m engine.Match[territories.Call, territories.Board], mv *store.Move) func(context.Context, *sql.Tx) error {
	r, ok := m.(*territories.Refereed)
	if !ok {
		return nil
	}
	return tstore.Moved(id, r.World(), r.Last(), mv)
}
