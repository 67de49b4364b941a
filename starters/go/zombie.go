package main

import "encoding/json"

// The zombie game: a human touches one player a turn, one that proved
// human when it can, with precaution when it may be anyone else, cures when
// its antibodies say it was infected, and ends its turn to be touched no
// more; a zombie touches everyone it can.
//
// A plan: {"touch": [{"with": SEAT, "precaution": true}, {"with": SEAT,
// "viruses": K}], "guard": {"precaution": true}, "cure_first": false,
// "cure_last": true, "end": true}. Only "touch" is required. Nobody is told
// they are infected: an infected player loses an antibody at the end of
// every turn, and turns zombie at none.

type zombieView struct {
	You, Seats, Turn int
	Me               struct {
		Identity   string
		Antibodies int
	}
}

type contact struct {
	With       int  `json:"with"`
	Precaution bool `json:"precaution,omitempty"`
}

// zombieMemory is what a seat keeps from one turn to the next.
type zombieMemory struct {
	partner, antibodies, spent int
	asked                      bool
	trusted, doubted           map[int]bool
}

func (m *zombieMemory) decide(r *request) (any, error) {
	var v zombieView
	if err := json.Unmarshal(r.View, &v); err != nil {
		return nil, err
	}
	var others, fresh []int
	for s := range v.Seats {
		if s != v.You {
			others = append(others, s)
		}
	}
	var touch []contact
	if v.Me.Identity == "zombie" {
		start := v.Turn % len(others)
		for _, s := range append(others[start:], others[:start]...) {
			touch = append(touch, contact{With: s})
		}
		return map[string]any{"touch": touch}, nil
	}
	if m.trusted == nil {
		m.trusted, m.doubted = map[int]bool{}, map[int]bool{}
	}
	antibodies, infected, partner := v.Me.Antibodies, false, -1
	if m.asked {
		// Read last turn: a human partner gives an antibody, whatever the
		// precaution; an infection takes one at the end of the turn.
		change := antibodies - m.antibodies + m.spent
		m.trusted[m.partner] = m.trusted[m.partner] || change >= 1
		m.doubted[m.partner] = m.doubted[m.partner] || change < 1
		infected = change < 0
	}
	for _, s := range others {
		if !m.doubted[s] {
			fresh = append(fresh, s)
			if m.trusted[s] && partner < 0 {
				partner = s
			}
		}
	}
	careful := partner < 0
	if careful && len(fresh) == 0 {
		fresh = others
	}
	if careful {
		partner = fresh[v.Turn%len(fresh)]
	}
	cure := infected && antibodies >= 1
	m.partner, m.spent, m.asked, m.antibodies = partner, 0, true, antibodies
	if cure {
		m.spent++
	}
	touch = []contact{{With: partner, Precaution: careful && antibodies-m.spent >= 1}}
	if touch[0].Precaution {
		m.spent++
	}
	return map[string]any{"touch": touch, "cure_first": cure, "end": true}, nil
}
