package reaj

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/engine"
)

// TestBoardFitsEightyColumns plays whole games of 2 to 16 societies with
// long player names, and checks that every line a person or a report reads
// fits a terminal of 80 columns (a report indents the state by two).
func TestBoardFitsEightyColumns(t *testing.T) {
	for _, n := range []int{2, 7, MaxSocieties} {
		players := make([]string, n)
		for i := range players {
			players[i] = fmt.Sprintf("exec:python3 /home/someone/bots/a-very-long-bot-name-%d.py", i)
		}
		m, err := Game{}.NewMatch(engine.Setup{Seed: uint64(n), Players: players})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		for !m.Over() {
			for _, r := range m.Pending() {
				checkWidth(t, m.View(r.Seat).String(), 80)
				if err := m.Apply(r.Seat, r.Choices[rng.IntN(len(r.Choices))]); err != nil {
					t.Fatal(err)
				}
			}
			checkWidth(t, m.State().String(), 78)
		}
	}
}

func checkWidth(t *testing.T, text string, width int) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		if utf8.RuneCountInString(line) > width {
			t.Fatalf("a line of %d columns (at most %d):\n%s\nin\n%s", utf8.RuneCountInString(line), width, line, text)
		}
	}
}

func TestBoardShowsPlayersAndLastTurn(t *testing.T) {
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: []string{"repl", "steward", "conquer"}})
	if err != nil {
		t.Fatal(err)
	}
	chose := []Value{Consent, Expand, Conquer}
	for _, r := range m.Pending() {
		if err := m.Apply(r.Seat, chose[r.Seat]); err != nil {
			t.Fatal(err)
		}
	}
	board := m.View(0).String()
	for _, want := range []string{"player", "last turn", "you→", "→you", "steward", "Turn 2 of 100", "adp adapt"} {
		if !strings.Contains(board, want) {
			t.Errorf("the board lacks %q:\n%s", want, board)
		}
	}
	for seat, v := range chose {
		line := strings.Split(board, "\n")[3+seat]
		if !strings.HasSuffix(line, " "+v.String()) {
			t.Errorf("seat %d chose %v; its row says %q", seat+1, v, line)
		}
	}
	if !strings.Contains(m.View(0).Help(), "Score at the end") {
		t.Errorf("help:\n%s", m.View(0).Help())
	}
	// The help is read at a terminal of 80 columns, as the board is.
	for _, line := range strings.Split(m.View(0).Help(), "\n") {
		if n := len([]rune(line)); n > 80 {
			t.Errorf("help: a line of %d columns: %q", n, line)
		}
	}
}
