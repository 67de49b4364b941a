package reaj

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/celltest"
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
				celltest.Fits(t, m.View(r.Seat).String(), 80)
				if err := m.Apply(r.Seat, r.Choices[rng.IntN(len(r.Choices))]); err != nil {
					t.Fatal(err)
				}
			}
			celltest.Fits(t, m.State().String(), 78)
		}
	}
}

func TestBoardLinesUpNamesInAnyScript(t *testing.T) {
	// Players named in Japanese, Korean, with a combining accent or an
	// emoji, among long names: each column of numbers ends, and the
	// last turn's column begins, at its heading's cell on every row, a
	// name too long is cut between characters, and no line is wider than
	// 80 cells (78 for the world a report indents).
	players := append([]string{"repl"}, celltest.Names...)
	m, err := Game{}.NewMatch(engine.Setup{Seed: 1, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Pending() {
		if err := m.Apply(r.Seat, r.Choices[1]); err != nil {
			t.Fatal(err)
		}
	}
	celltest.Fits(t, m.State().String(), 78)
	for _, seat := range []int{0, 3} {
		board := m.View(seat).String()
		celltest.Fits(t, board, 80)
		celltest.Board(t, board, players, seat)
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
