package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/catalog"
	"github.com/arbiter-games/arbiter/internal/wrap"
)

// TestAITables: "The ai tables in the README come from one command that
// anyone can re-run": arbiter ai plays each row's tournament, seeded, and
// the same flags print the same table.
func TestAITables(t *testing.T) {
	args := []string{"ai", "reaj", "--games", "4", "--markdown"}
	code, out, errOut := arbiter(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"reaj (`arbiter ai reaj --games 4 --seed 1`):",
		"| player | match-up | seats | games | wins | win % | mean rank | lead: mean (least) | target |",
		"| steward | against adapt | 2 | 4 | 4 | 100.0 | 1.00 | 1.0 (1) | 100% |",
		"| mcts | the search AI against steward | 2 | 4 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if _, again, _ := arbiter(t, "", args...); again != out {
		t.Errorf("the same tables twice differ:\n%s\n%s", out, again)
	}
}

func TestAITablesRefuseBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"ai", "chess"}, `unknown game "chess"`},
		{[]string{"ai", "reaj", "--games", "0"}, "--games 0"},
		// A negative --parallel was taken as one game per core, and a game
		// named twice played its tables twice.
		{[]string{"ai", "reaj", "--parallel", "-1"}, "--parallel -1: give the number of games to play at once, from 1 to 10000"},
		{[]string{"ai", "reaj", "--parallel", "100000000"}, "--parallel 100000000: give the number of games to play at once, from 1 to 10000"},
		{[]string{"ai", "reaj", "tncc", "reaj"}, `reaj is named twice`},
	} {
		code, out, errOut := arbiter(t, "", c.args...)
		if code != 2 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") > 0 || !strings.Contains(errOut, c.says) {
			t.Errorf("%v: exit %d, out %q, err %q; want exit 2 and one line saying %q", c.args, code, out, errOut, c.says)
		}
	}
}

// The text table keeps its columns: a row whose wins were shared with
// another seat ("8 (3 shared)") ran into the games column and pushed the
// rest of its row to the right. And it fits a terminal of 80 columns: its
// rows were 162 wide, the match-up a column of 52; each row's player and
// match-up now stand on a line above its numbers.
func TestAITablesTextColumnsLineUp(t *testing.T) {
	code, out, errOut := arbiter(t, "", "ai", "tncc", "--games", "8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var head string
	rows, shared := 0, 0
	for _, line := range strings.Split(out, "\n") {
		if n := wrap.Cells(line); n > helpWidth {
			t.Errorf("a line of %d columns: %q", n, line)
		}
		switch {
		case strings.HasPrefix(line, "  seats"):
			head = line
		case head != "" && strings.HasPrefix(line, "  marshal: "), head != "" && strings.HasPrefix(line, "  mcts: "):
			// the row's player and match-up
		case head != "" && strings.HasPrefix(line, "   ") && strings.TrimSpace(line) != "":
			rows++
			if strings.Contains(line, " shared)") {
				shared++
			}
			// Every cell ends where its column's name does.
			for _, col := range []string{"games", "wins", "win %", "mean rank", "target"} {
				end := strings.Index(head, col) + len(col)
				if len(line) < end || line[end-1] == ' ' || (end < len(line) && line[end] != ' ') {
					t.Errorf("the %q column does not line up:\n%s\n%s", col, head, line)
				}
			}
			if games := strings.Fields(line[strings.Index(head, "seats")+len("seats"):])[0]; games != "8" {
				t.Errorf("the games column holds %q:\n%s\n%s", games, head, line)
			}
		}
	}
	if rows == 0 || shared == 0 {
		t.Fatalf("%d rows, %d with shared wins; the test needs both:\n%s", rows, shared, out)
	}
}

func TestAIHelpSaysTheSearchRowsCap(t *testing.T) {
	// "Each row is a tournament of at least --games games": the search
	// AI's rows play at most their own number (Trial.Most), whatever
	// --games says, and the help says so.
	trials, err := catalog.Trials()
	if err != nil {
		t.Fatal(err)
	}
	_, help, _ := arbiter(t, "", "ai", "--help")
	for _, tr := range trials {
		if tr.Most > 0 && !strings.Contains(help, fmt.Sprintf("the search AI's rows, at most %d", tr.Most)) {
			t.Errorf("%s %s plays at most %d games; the help does not say it:\n%s", tr.Game, tr.Title, tr.Most, help)
		}
	}
}
