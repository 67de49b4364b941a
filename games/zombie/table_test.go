package zombie

import "testing"

// The interaction table T of the rules page, one test per row. "X is the
// first player named. Counts not mentioned do not change. In every row, a
// and v are the values before the interaction, before any cost is paid."

// row checks one interaction: x and y meet with modifiers mx and my, and
// become wx and wy.
func tableRow(t *testing.T, x, y Player, mx, my string, wx, wy Player) {
	t.Helper()
	gx, gy, err := meet(t, x, y, mx, my)
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if gx != wx || gy != wy {
		t.Errorf("%s%s %s%s: got %+v %+v; want %+v %+v", x.Name, mx, y.Name, my, gx, gy, wx, wy)
	}
}

func TestT1HumanHuman(t *testing.T) {
	// T1. "H(X)–H(Y) | none | H, a+1 | H, a+1"
	tableRow(t, H("X", 2), H("Y", 0), "", "", H("X", 3), H("Y", 1))
}

func TestT2HumanHumanOnePrecaution(t *testing.T) {
	// T2. "H–H | P by X | H, a (−1 then +1) | H, a+1"
	tableRow(t, H("X", 2), H("Y", 0), "/p", "", H("X", 2), H("Y", 1))
}

func TestT3HumanHumanBothPrecaution(t *testing.T) {
	// T3. "H–H | P by both | H, a | H, a"
	tableRow(t, H("X", 2), H("Y", 1), "/p", "/p", H("X", 2), H("Y", 1))
}

func TestT4HumanInfected(t *testing.T) {
	// T4. "H(X)–I(Y) | none | I, a | I, a+1"
	tableRow(t, H("X", 2), I("Y", 0), "", "", I("X", 2), I("Y", 1))
}

func TestT5HumanPrecautionInfected(t *testing.T) {
	// T5. "H–I | P by X | H, a−1 | I, a+1"
	tableRow(t, H("X", 2), I("Y", 3), "/p", "", H("X", 1), I("Y", 4))
}

func TestT6HumanInfectedPrecaution(t *testing.T) {
	// T6. "H–I | P by Y | I, a | I, a (−1 then +1)"
	tableRow(t, H("X", 2), I("Y", 3), "", "/p", I("X", 2), I("Y", 3))
}

func TestT7HumanInfectedBothPrecaution(t *testing.T) {
	// T7. "H–I | P by both | H, a−1 | I, a (−1 then +1)"
	tableRow(t, H("X", 2), I("Y", 1), "/p", "/p", H("X", 1), I("Y", 1))
}

func TestT8HumanZombie(t *testing.T) {
	// T8. "H(X)–Z(Y) | none | I, a | Z, v"
	tableRow(t, H("X", 2), Z("Y", 3), "", "", I("X", 2), Z("Y", 3))
}

func TestT9HumanPrecautionZombie(t *testing.T) {
	// T9. "H–Z | P by X | H, a−1 | Z, v"
	tableRow(t, H("X", 2), Z("Y", 3), "/p", "", H("X", 1), Z("Y", 3))
}

func TestT10HumanZombieViruses(t *testing.T) {
	// T10. "H–Z | Y applies k | I, max(0, a−k) | Z, v−k"
	tableRow(t, H("X", 5), Z("Y", 3), "", "/v2", I("X", 3), Z("Y", 1))
	tableRow(t, H("X", 1), Z("Y", 3), "", "/v3", I("X", 0), Z("Y", 0))
}

func TestT11HumanPrecautionZombieViruses(t *testing.T) {
	// T11. "H–Z | P by X, Y applies k | if k < a−1: H, a−1−k; else I, 0 |
	// Z, v−k"
	tableRow(t, H("X", 5), Z("Y", 3), "/p", "/v3", H("X", 1), Z("Y", 0))
	tableRow(t, H("X", 4), Z("Y", 3), "/p", "/v3", I("X", 0), Z("Y", 0))
	tableRow(t, H("X", 1), Z("Y", 1), "/p", "/v1", I("X", 0), Z("Y", 0))
}

func TestT12InfectedInfected(t *testing.T) {
	// T12. "I(X)–I(Y) | none | I, a | I, a"
	tableRow(t, I("X", 2), I("Y", 0), "", "", I("X", 2), I("Y", 0))
}

func TestT13InfectedInfectedPrecaution(t *testing.T) {
	// T13. "I–I | P by X (and/or Y) | I, a−1 | I, a (or a−1 if Y also
	// applied P)"
	tableRow(t, I("X", 2), I("Y", 2), "/p", "", I("X", 1), I("Y", 2))
	tableRow(t, I("X", 2), I("Y", 2), "/p", "/p", I("X", 1), I("Y", 1))
}

func TestT14InfectedZombie(t *testing.T) {
	// T14. "I(X)–Z(Y) | none | I, max(0, a−1) | Z, v"
	tableRow(t, I("X", 2), Z("Y", 1), "", "", I("X", 1), Z("Y", 1))
	tableRow(t, I("X", 0), Z("Y", 1), "", "", I("X", 0), Z("Y", 1))
}

func TestT15InfectedPrecautionZombie(t *testing.T) {
	// T15. "I–Z | P by X | I, max(0, a−2) | Z, v"
	tableRow(t, I("X", 3), Z("Y", 1), "/p", "", I("X", 1), Z("Y", 1))
	tableRow(t, I("X", 1), Z("Y", 1), "/p", "", I("X", 0), Z("Y", 1))
}

func TestT16InfectedZombieViruses(t *testing.T) {
	// T16. "I–Z | Y applies k | I, max(0, a−1−k) | Z, v−k"
	tableRow(t, I("X", 5), Z("Y", 3), "", "/v2", I("X", 2), Z("Y", 1))
	tableRow(t, I("X", 2), Z("Y", 3), "", "/v3", I("X", 0), Z("Y", 0))
}

func TestT17InfectedPrecautionZombieViruses(t *testing.T) {
	// T17. "I–Z | P by X, Y applies k | I, max(0, a−2−k) | Z, v−k"
	tableRow(t, I("X", 6), Z("Y", 3), "/p", "/v2", I("X", 2), Z("Y", 1))
	tableRow(t, I("X", 2), Z("Y", 3), "/p", "/v1", I("X", 0), Z("Y", 2))
}

func TestT18ZombieZombie(t *testing.T) {
	// T18. "Z(X)–Z(Y) | none | Z, v+1 | Z, v+1"
	tableRow(t, Z("X", 0), Z("Y", 4), "", "", Z("X", 1), Z("Y", 5))
}

func TestT19ZombieVirusesZombie(t *testing.T) {
	// T19. "Z–Z | X applies k | Z, v−k | Z, v+k"
	tableRow(t, Z("X", 3), Z("Y", 1), "/v2", "", Z("X", 1), Z("Y", 3))
}

func TestT20ZombieVirusesBoth(t *testing.T) {
	// T20. "Z–Z | X applies j, Y applies k | Z, v−j+k | Z, v−k+j"
	tableRow(t, Z("X", 3), Z("Y", 4), "/v1", "/v4", Z("X", 6), Z("Y", 1))
}

func TestTableRefusals(t *testing.T) {
	// "any | P by a zombie | rejected, E_ZOMBIE_ACTION; any | viruses from H
	// or I | rejected, E_NOT_ZOMBIE; any | P with a = 0 | rejected,
	// E_NO_ANTIBODY; any | k > the zombie's v | rejected,
	// E_NOT_ENOUGH_VIRUS"
	for _, c := range []struct {
		x, y   Player
		mx, my string
		code   Code
	}{
		{Z("X", 1), H("Y", 1), "/p", "", CodeZombieAction},
		{H("X", 1), Z("Y", 1), "/v1", "", CodeNotZombie},
		{I("X", 1), Z("Y", 1), "/v1", "", CodeNotZombie},
		{I("X", 0), Z("Y", 1), "/p", "", CodeNoAntibody},
		{H("X", 1), Z("Y", 1), "", "/v2", CodeNotEnoughVirus},
	} {
		gx, gy, err := meet(t, c.x, c.y, c.mx, c.my)
		if !refused(err, c.code) || gx != c.x || gy != c.y {
			t.Errorf("%v%s %v%s: %v, %v %v; want %s and no change", c.x, c.mx, c.y, c.my, err, gx, gy, c.code)
		}
	}
}
