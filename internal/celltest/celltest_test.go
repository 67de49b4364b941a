package celltest

import "testing"

func TestColumns(t *testing.T) {
	line := " 1  太郎    12  e\u0301t\u0301e"
	// cells: " 1  " 0-3, 太郎 4-7, spaces 8-11, "12" 12-13, "  " 14-15,
	// then é, t́ and e 16-18
	for _, tc := range []struct {
		cell         int
		at           int
		ends, begins bool
	}{
		{0, 0, false, false},
		{1, 1, false, true},
		{2, 2, true, false},
		{4, 4, false, true},
		{5, -1, false, false}, // inside 太
		{8, 10, true, false},
		{12, 14, false, true},
		{14, 16, true, false},
		{16, 18, false, true},
		{19, len(line), true, false},
	} {
		if got := At(line, tc.cell); got != tc.at {
			t.Errorf("At(%d) = %d, want %d", tc.cell, got, tc.at)
		}
		if got := Ends(line, tc.cell); got != tc.ends {
			t.Errorf("Ends(%d) = %v, want %v", tc.cell, got, tc.ends)
		}
		if got := Begins(line, tc.cell); got != tc.begins {
			t.Errorf("Begins(%d) = %v, want %v", tc.cell, got, tc.begins)
		}
	}
	for s, want := range map[string]bool{"ab…cd": true, "ab…\u0301cd": false, "👩\u200d…x": false, "太…郎": true, "no cut": true} {
		if got := CutBetweenClusters(s); got != want {
			t.Errorf("CutBetweenClusters(%q) = %v", s, got)
		}
	}
}
