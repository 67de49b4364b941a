package catalog

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
)

func (l *liveMatch[M, V]) Snapshot() ([]byte, error) {
	j, ok := l.m.(json.Marshaler)
	if !ok {
		return nil, fmt.Errorf("%s: the match has no snapshot", l.h.rules.Info().Name)
	}
	return j.MarshalJSON()
}

func (h *hosted[M, V]) RestoreLive(_ context.Context, s LiveSetup, snapshot []byte) (Live, error) {
	m, err := h.mode(s.Mode)
	if err != nil {
		return nil, err
	}
	if m.game == nil {
		return h.restoreLive(s, snapshot)
	}
	return m.game.restoreLive(s, snapshot)
}

// restoreLive resumes a live match of h's own ruleset from its snapshot.
func (h *hosted[M, V]) restoreLive(s LiveSetup, snapshot []byte) (Live, error) {
	rs, ok := h.rules.(engine.Restorer[M, V])
	if !ok {
		return nil, fmt.Errorf("%s: its matches cannot be restored from a snapshot; replay them", h.rules.Info().Name)
	}
	return h.startLive(s, func(setup engine.Setup) (engine.Match[M, V], error) {
		return rs.Restore(setup, snapshot)
	})
}
