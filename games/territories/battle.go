package territories

// Die is the number of faces of the battle's die: a roll is 1 to 20.
const Die = 20

// Battle is the outcome of one attack, before anyone's armies are touched:
// a armies attack b, the die shows x.
type Battle struct {
	Attackers int `json:"attackers"` // a: the armies in FROM
	Defenders int `json:"defenders"` // b: the armies in TO
	Roll      int `json:"roll"`      // x: 1 to 20
	// Threshold is (b − a)·2 + 10: the attack succeeds when the roll is
	// above it (and always on 19 or 20, never on 1).
	Threshold int  `json:"threshold"`
	Success   bool `json:"success"`
	// Y is ⌊0.5·x + a − b − 5⌋, the rules' losses: positive for defending
	// armies destroyed, negative for attacking ones.
	Y              int `json:"y"`
	AttackerLosses int `json:"attacker_losses"`
	DefenderLosses int `json:"defender_losses"`
}

// Fight resolves a battle of a attacking armies against b defending ones
// with the die showing x (1 to 20), by the rules:
//
//   - The attack succeeds when x > (b − a)·2 + 10; a roll of 19 or 20
//     always succeeds; a roll of 1 always fails.
//   - y = ⌊0.5·x + a − b − 5⌋.
//   - On a success the defender loses max(1, y) armies and the attacker
//     none.
//   - On a failure the attacker loses −y armies when y < 0, at least 1 when
//     x = 1, and otherwise none; the defender loses none.
//   - Losses never exceed the armies present.
func Fight(a, b, x int) Battle {
	t := (b-a)*2 + 10
	bt := Battle{Attackers: a, Defenders: b, Roll: x, Threshold: t}
	bt.Success = x >= 19 || (x != 1 && x > t)
	// 0.5·x + a − b − 5 = (x + 2(a − b − 5)) / 2, floored.
	bt.Y = floorHalf(x + 2*(a-b-5))
	if bt.Success {
		bt.DefenderLosses = min(max(1, bt.Y), b)
		return bt
	}
	loss := 0
	if bt.Y < 0 {
		loss = -bt.Y
	}
	if x == 1 {
		loss = max(loss, 1)
	}
	bt.AttackerLosses = min(loss, a)
	return bt
}

// floorHalf returns ⌊n / 2⌋ for any n.
func floorHalf(n int) int {
	if n >= 0 {
		return n / 2
	}
	return -((-n + 1) / 2)
}

// Chance returns the probability that a armies beat b, over the die's 20
// faces.
func Chance(a, b int) float64 {
	wins := 0
	for x := 1; x <= Die; x++ {
		if Fight(a, b, x).Success {
			wins++
		}
	}
	return float64(wins) / Die
}
