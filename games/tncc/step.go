package tncc

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/arbiter-games/arbiter/engine"
)

// StepMove is one step of the pure rules on a world: a country's action
// with its answer, or production.
//
//	{"seat": 0, "action": {"type": "recruit", "n": 50}}
//	{"seat": 0, "action": {"type": "trade", ...}, "answer": {"accept": true}}
//	{"seat": 0, "action": {"type": "war", ...}, "answer": {"flanks": [5, 5, 5]}}
//	{"production": true}
type StepMove struct {
	Seat       int
	Action     Move
	Answer     Move
	Production bool
}

type stepJSON struct {
	Seat       *int            `json:"seat"`
	Action     json.RawMessage `json:"action"`
	Answer     json.RawMessage `json:"answer"`
	Production bool            `json:"production"`
}

// ParseStepMove reads a step's JSON, checking its shape (not its legality:
// that is Step's).
func ParseStepMove(data []byte) (StepMove, error) {
	var j stepJSON
	if err := engine.DecodeJSON(data, &j); err != nil {
		return StepMove{}, err
	}
	if j.Production {
		if j.Seat != nil || j.Action != nil || j.Answer != nil {
			return StepMove{}, errors.New(`production is {"production": true}, with nothing else`)
		}
		return StepMove{Production: true}, nil
	}
	if j.Seat == nil || j.Action == nil {
		return StepMove{}, errors.New(`a step is {"seat": N, "action": {...}} (with "answer" for a trade or war), or {"production": true}`)
	}
	s := StepMove{Seat: *j.Seat}
	if err := s.Action.UnmarshalKind(TurnKind, j.Action); err != nil {
		return StepMove{}, fmt.Errorf("action: %w", err)
	}
	if !s.Action.Type.IsAction() {
		return StepMove{}, errors.New(`action: want {"type": "wait" | "recruit" | "trade" | "war", ...}`)
	}
	needs := s.Action.Type == Trade || s.Action.Type == War
	switch {
	case needs && j.Answer == nil:
		if s.Action.Type == Trade {
			return StepMove{}, errors.New(`a trade needs its answer: "answer": {"accept": true} or {"accept": false}`)
		}
		return StepMove{}, errors.New(`a war needs its answer: "answer": {"flanks": [LEFT, FRONT, RIGHT]}`)
	case !needs && j.Answer != nil:
		return StepMove{}, fmt.Errorf("%v takes no answer", s.Action.Type)
	case needs:
		kind := TradeAnswerKind
		if s.Action.Type == War {
			kind = WarAnswerKind
		}
		if err := s.Answer.UnmarshalKind(kind, j.Answer); err != nil {
			return StepMove{}, fmt.Errorf("answer: %w", err)
		}
	}
	return s, nil
}

// Step applies one step of the rules to w and returns the world after it;
// w is not changed. An illegal action or answer is a *engine.RuleError.
// Step does not decide whether the game is over.
func Step(w World, s StepMove) (World, error) {
	next := w.Clone()
	if s.Production {
		next.Produce()
		return next, nil
	}
	if err := next.Check(s.Seat, s.Action); err != nil {
		return w, err
	}
	switch s.Action.Type {
	case Recruit:
		next.Recruit(s.Seat, s.Action.N)
	case Trade:
		if s.Answer.Type != Accept && s.Answer.Type != Decline {
			return w, engine.Refuse("answer", "a trade's answer is {\"accept\": true} or {\"accept\": false}")
		}
		next.Trade(s.Seat, s.Action, s.Answer.Type == Accept)
	case War:
		if s.Answer.Type != Defend {
			return w, engine.Refuse("answer", "a war's answer is {\"flanks\": [LEFT, FRONT, RIGHT]}")
		}
		if err := next.CheckDefence(s.Action.Target, s.Answer.Flanks); err != nil {
			return w, err
		}
		next.War(s.Seat, s.Action, s.Answer.Flanks)
	}
	next.bury() // "After any step every country with no citizens is dead."
	return next, nil
}
