package engine

// Result is how a match ended.
type Result struct {
	// Scores holds one score per seat.
	Scores []int64 `json:"scores"`
	// Ranks holds one rank per seat, 1 for the best, with competition
	// ranking for ties (1, 2, 2, 4).
	Ranks []int `json:"ranks"`
	// Winners lists the winning seats in seat order; empty when nobody wins.
	Winners []int `json:"winners"`
	// Status holds one word per seat for seats whose state matters to the
	// result ("dead"), and "" for the others. Nil when no seat has one.
	Status []string `json:"status,omitempty"`
	// Reason says why the match ended, e.g. "turns" or "all dead".
	Reason string `json:"reason,omitempty"`
}

// Won reports whether seat is among the winners.
func (r Result) Won(seat int) bool {
	for _, w := range r.Winners {
		if w == seat {
			return true
		}
	}
	return false
}

// CompetitionRanks ranks n seats, where better(i, j) reports that seat i
// places ahead of seat j: a seat's rank is one more than the number of seats
// ahead of it, so ties share a rank and the next rank is skipped (1, 2, 2, 4).
func CompetitionRanks(n int, better func(i, j int) bool) []int {
	ranks := make([]int, n)
	for i := range ranks {
		ranks[i] = 1
		for j := 0; j < n; j++ {
			if j != i && better(j, i) {
				ranks[i]++
			}
		}
	}
	return ranks
}
