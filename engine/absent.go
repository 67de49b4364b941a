package engine

// Absent reports, per seat, whether the seat never once answered: it was
// asked at least once, and every move made for it was a default played for
// a fault (it did not start, it was unreachable, it crashed at once). Such
// a seat cannot win (see Result.Adjudicated).
func (r *Record[M]) Absent() []bool {
	n := r.Header.Setup.Seats()
	asked := make([]bool, n)
	answered := make([]bool, n)
	for i := range r.Steps {
		s := &r.Steps[i]
		if uint(s.Seat) >= uint(n) {
			continue
		}
		asked[s.Seat] = true
		if s.Fault == nil {
			answered[s.Seat] = true
		}
	}
	absent := make([]bool, n)
	for i := range absent {
		absent[i] = asked[i] && !answered[i]
	}
	return absent
}

// StatusAbsent is the status of a seat that never answered.
const StatusAbsent = "absent"

// Adjudicated returns the result as reports and standings count it, given
// which seats never answered (Record.Absent): such a seat cannot win. It
// gets the status "absent" and ranks after every seat that answered; the
// seats that answered keep their order among themselves, and when the rules
// named winners, the winners are the answering seats ranked first. Scores
// and the reason stay the rules'. Without an absent seat, r is returned as
// it is.
func (r Result) Adjudicated(absent []bool) Result {
	n := len(r.Ranks)
	present := 0
	for s := range n {
		if s >= len(absent) || !absent[s] {
			present++
		}
	}
	if present == n {
		return r
	}
	away := func(s int) bool { return s < len(absent) && absent[s] }
	out := r
	out.Ranks = make([]int, n)
	out.Status = make([]string, n)
	copy(out.Status, r.Status)
	out.Winners = nil
	for s := range n {
		if away(s) {
			out.Ranks[s] = present + 1
			out.Status[s] = StatusAbsent
			continue
		}
		out.Ranks[s] = 1
		for o := range n {
			if !away(o) && r.Ranks[o] < r.Ranks[s] {
				out.Ranks[s]++
			}
		}
	}
	if len(r.Winners) > 0 {
		for s := range n {
			if !away(s) && out.Ranks[s] == 1 {
				out.Winners = append(out.Winners, s)
			}
		}
	}
	if out.Winners == nil {
		out.Winners = []int{}
	}
	return out
}
