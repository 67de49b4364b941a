package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/store"
)

// errRulesGone is the refusal of a match whose game or rules version this
// Arbiter does not have: it is never replayed under other rules.
var errRulesGone = errors.New("rules gone")

// rules makes the live matches of stored matches from the catalog.
type rules struct {
	external player.External
}

// Live implements store.Rules.
func (r rules) Live(ctx context.Context, m *store.Match) (store.Live, error) {
	l, err := r.live(ctx, m)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// quiet makes the live match of m without its bots, for replays.
func (r rules) quiet(ctx context.Context, m *store.Match) (catalog.Live, error) {
	return r.make(ctx, m, true)
}

// live is Live with the catalog's type.
func (r rules) live(ctx context.Context, m *store.Match) (catalog.Live, error) {
	return r.make(ctx, m, false)
}

// Restore implements store.Restorer: the live match of m restored from
// one of its snapshots.
func (r rules) Restore(ctx context.Context, m *store.Match, snapshot []byte) (store.Live, error) {
	return r.restore(ctx, m, false, snapshot)
}

func (r rules) make(ctx context.Context, m *store.Match, quiet bool) (catalog.Live, error) {
	return r.restore(ctx, m, quiet, nil)
}

// restore makes the live match of m, as it stood before its first move,
// or after the move of snapshot when one is given.
func (r rules) restore(ctx context.Context, m *store.Match, quiet bool, snapshot []byte) (catalog.Live, error) {
	g, err := catalog.Find(m.Game)
	if err != nil {
		return nil, fmt.Errorf("%w: match %s is a game of %s, which this Arbiter does not host", errRulesGone, m.ID, m.Game)
	}
	lg, ok := g.(catalog.LiveGame)
	if !ok {
		return nil, fmt.Errorf("%w: %s cannot be played live", errRulesGone, m.Game)
	}
	var cfg matchConfig
	if err := json.Unmarshal(m.Config, &cfg); err != nil {
		return nil, fmt.Errorf("match %s: its settings: %w", m.ID, err)
	}
	setup := m.Setup
	setup.Players = cfg.Specs // the seats as created: bots are made again from them
	ls := catalog.LiveSetup{Setup: setup, Mode: m.Mode, External: r.external, Quiet: quiet, Names: cfg.Names}
	var live catalog.Live
	if snapshot != nil {
		if live, err = lg.RestoreLive(ctx, ls, snapshot); err != nil {
			return nil, fmt.Errorf("match %s: its snapshot: %w", m.ID, err)
		}
	} else {
		live, err = lg.NewLive(ctx, ls)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: match %s cannot be made again: %v", errRulesGone, m.ID, err)
	}
	if info := live.Info(); info.Version != m.RulesVersion || info.Variant != m.Variant {
		live.Close()
		return nil, fmt.Errorf("%w: match %s was started under %s rules version %q (%s); this Arbiter has version %q (%s), and a match is never replayed under other rules: play it with the Arbiter it started with",
			errRulesGone, m.ID, m.Game, m.RulesVersion, m.Variant, info.Version, info.Variant)
	}
	return live, nil
}
