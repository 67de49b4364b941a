package zombie

// touch resolves one accepted interaction between x and y, whose modifiers
// are mx and my: all costs are paid first, then the pair effect of
// table T applies to each side, from both players' states as they were at
// the start of the interaction. The effect on a side depends only on
// its own counts and on the other side's state and viruses, so the result
// does not depend on which player is named first.
func touch(x, y *Player, mx, my Modifier) {
	sx, sy := x.State, y.State
	pay(x, mx)
	pay(y, my)
	affect(x, sx, mx, sy, my)
	affect(y, sy, my, sx, mx)
}

// pay takes a side's costs: 1 antibody for precaution, k viruses for k
// viruses applied.
func pay(p *Player, m Modifier) {
	if m.Precaution {
		p.Antibodies--
	}
	p.Viruses -= m.Viruses
}

// affect applies to p, whose state was sp and modifier mp, what touching a
// player of state so with modifier mo does to it.
func affect(p *Player, sp State, mp Modifier, so State, mo Modifier) {
	k := mo.Viruses
	switch sp {
	case Human:
		switch so {
		case Human:
			p.Antibodies++ // T1–T3: both gain 1, precaution or not (A10)
		case Infected:
			if !mp.Precaution {
				p.State = Infected // T4, T6; no gain from an infected player (A11)
			}
		case Zombie:
			switch {
			case k == 0 && mp.Precaution:
				// T9: precaution protects without reinforced infection.
			case k == 0:
				p.State = Infected // T8
			case mp.Precaution:
				// T11, R16: precaution holds while k < the antibodies left.
				if k >= p.Antibodies {
					p.State, p.Antibodies = Infected, 0
				} else {
					p.Antibodies -= k
				}
			default:
				// T10, R17: infected, and k antibodies neutralised.
				p.State, p.Antibodies = Infected, max(0, p.Antibodies-k)
			}
		}
	case Infected:
		switch so {
		case Human:
			p.Antibodies++ // T4–T7: the infected player gains 1 from a human
		case Zombie:
			p.Antibodies = max(0, p.Antibodies-1-k) // T14–T17, A1, A13
		}
		// T12, T13: nothing between infected players.
	case Zombie:
		if so == Zombie {
			if mp.Viruses == 0 && k == 0 {
				p.Viruses++ // T18
			} else {
				p.Viruses += k // T19, T20: only the transfers (A19)
			}
		}
		// R19, A20: a zombie gains nothing from infecting.
	}
}
