package engine

import (
	"reflect"
	"testing"
)

func TestAbsentSeatsCannotWin(t *testing.T) {
	// "A seat that never once answered is reported as such and cannot win."
	rec := &Record[int]{Header: Header{Setup: Setup{Players: []string{"a", "ghost", "c"}}}}
	fault := &Fault{Kind: FaultError, Detail: "connection refused"}
	rec.Steps = []Step[int]{
		{Seat: 0, Move: 1}, {Seat: 1, Move: 1, Fault: fault}, {Seat: 2, Move: 1, Fault: fault},
		{Seat: 0, Move: 1}, {Seat: 1, Move: 1, Fault: fault}, {Seat: 2, Move: 2},
	}
	absent := rec.Absent()
	if want := []bool{false, true, false}; !reflect.DeepEqual(absent, want) {
		t.Fatalf("absent %v; want %v (seat 2 answered once)", absent, want)
	}
	res := Result{Scores: []int64{5, 9, 7}, Ranks: []int{3, 1, 2}, Winners: []int{1}}
	got := res.Adjudicated(absent)
	want := Result{Scores: []int64{5, 9, 7}, Ranks: []int{2, 3, 1}, Winners: []int{2}, Status: []string{"", "absent", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("adjudicated %+v; want %+v", got, want)
	}
	if res.Ranks[1] != 1 || res.Winners[0] != 1 {
		t.Error("Adjudicated changed the rules' result")
	}
	// Nobody absent: the rules' result as it is.
	if got := res.Adjudicated([]bool{false, false, false}); !reflect.DeepEqual(got, res) {
		t.Errorf("with nobody absent: %+v", got)
	}
	// Nobody wins by the rules: nobody wins.
	draw := Result{Scores: []int64{0, 0, 0}, Ranks: []int{1, 1, 1}, Winners: []int{}}
	if got := draw.Adjudicated(absent); len(got.Winners) != 0 {
		t.Errorf("winners %v of a game nobody wins", got.Winners)
	}
	// A seat never asked (dead before its first decision) is not absent.
	quiet := &Record[int]{Header: Header{Setup: Setup{Players: []string{"a", "b"}}}, Steps: []Step[int]{{Seat: 0, Move: 1}}}
	if a := quiet.Absent(); a[1] {
		t.Error("a seat never asked is absent")
	}
}
