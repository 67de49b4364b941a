package catalog

import (
	"bytes"
	"errors"

	"github.com/arbiter-games/arbiter/engine"
)

// Replayed is what a replay found.
type Replayed struct {
	Ruleset string         `json:"ruleset"`
	Variant string         `json:"variant,omitempty"`
	Seed    uint64         `json:"seed"`
	Players []string       `json:"players"`
	Moves   int            `json:"moves"`
	Faults  int            `json:"faults"`
	Result  *engine.Result `json:"result,omitempty"`
	Hash    string         `json:"hash,omitempty"`
	Aborted string         `json:"aborted,omitempty"`
	// Lines is the digest of the record's lines, when it has one.
	Lines string `json:"lines,omitempty"`
}

// Replay re-runs a record: an edited record, or one the rules do not
// reproduce, is an error the rules' way (engine.ErrEdited, an
// *engine.ReplayError); a record that does not parse, or is of another
// world, is an InputError.
func (h *hosted[M, V]) Replay(data []byte) (Replayed, error) {
	// A record of another of the game's rulesets (a live mode's) is that
	// ruleset's to replay.
	if hd, err := engine.ReadHeader(bytes.NewReader(data)); err == nil && hd.Variant != h.rules.Info().Variant {
		for _, m := range h.modes {
			if m.game != nil && m.game.Info().Variant == hd.Variant {
				return m.game.Replay(data)
			}
		}
	}
	rec, err := engine.ReadRecord[M](bytes.NewReader(data))
	if errors.Is(err, engine.ErrEdited) {
		return Replayed{}, err
	}
	if err != nil {
		return Replayed{}, Invalid(err)
	}
	out := Replayed{
		Ruleset: rec.Header.Ruleset, Variant: rec.Header.Variant, Seed: rec.Header.Setup.Seed,
		Players: rec.Header.Setup.Players, Moves: len(rec.Steps), Faults: len(rec.Faults()),
	}
	if rec.End != nil {
		out.Result, out.Hash, out.Aborted, out.Lines = rec.End.Result, rec.End.Hash, rec.End.Aborted, rec.End.Lines
	}
	if v := h.rules.Info().Variant; rec.Header.Variant != v {
		return out, Invalidf("the record was played in the %q world, which this Arbiter does not have built in (it has %q); replay it with the program that defines that world", rec.Header.Variant, v)
	}
	if _, err := engine.Replay(h.rules, rec, nil); err != nil {
		var re *engine.ReplayError
		if errors.As(err, &re) {
			return out, err
		}
		return out, Invalid(err)
	}
	return out, nil
}
