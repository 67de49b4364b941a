package territories

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/internal/celltest"
	"github.com/arbiter-games/arbiter/internal/wrap"
)

func TestBoardLinesUpNamesInAnyScript(t *testing.T) {
	// A refereed game's nations and players may be named in any script:
	// the board fits 78 cells (a report indents it by two), each nation's
	// colour begins at the same cell and what it holds after it, its
	// continuation lines under it, and a name too long is cut between
	// grapheme clusters.
	names := []string{"太郎の国", "Jose\u0301land", "🎲🎲🎲", "花子のとても長い名前の国ですよ本当に長い", "Amber", "한국"}
	b := Board{Turn: 12}
	for i, n := range names {
		player := celltest.Names[len(celltest.Names)-1-i]
		b.Nations = append(b.Nations, BoardNation{Name: n, Player: player, Color: "#e6194b", Territories: 6, Armies: 40 + i})
		if i == 4 {
			b.Nations[i].Out = 31
			continue
		}
		for k := range 6 {
			b.Holdings = append(b.Holdings, holdingJSON{Territory: fmt.Sprintf("T%d%d", i, k), Nation: n, Armies: 100 * k})
		}
	}
	text := b.String()
	celltest.Fits(t, text, boardWidth)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")[1:]
	colour, held := -1, -1
	for _, l := range lines {
		i := strings.Index(l, "#e6194b")
		if i < 0 { // a continuation line
			if !celltest.Begins(l, held) {
				t.Errorf("%q does not begin at cell %d\n%s", l, held, text)
			}
			continue
		}
		if colour < 0 {
			colour, held = celltest.Cell(l, i), celltest.Cell(l, i)+len("#e6194b  ")
		}
		if celltest.Cell(l, i) != colour || !celltest.Begins(l, held) {
			t.Errorf("%q: its colour at cell %d, what it holds at %d; want %d and %d\n%s", l, celltest.Cell(l, i), held, colour, held, text)
		}
		end := celltest.At(l, 16) // the names' column is 16 cells at most
		if end < 0 {
			t.Errorf("%q: no character begins at cell 16\n%s", l, text)
			continue
		}
		if name := strings.TrimSpace(l[:end]); !celltest.CutBetweenClusters(name) || wrap.Cells(name) > 16 {
			t.Errorf("%q shows the nation as %q", l, name)
		}
	}
}

func TestViewLinesUpPlayersInAnyScript(t *testing.T) {
	// Players named in any script: each seat's view fits 80 cells, the
	// nations' holdings begin at one cell, and the map's columns line up.
	m, err := Game{}.NewMatch(engine.Setup{Seed: 3, Players: celltest.Names[:MaxSeats]})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 60 {
		if m.Over() {
			break
		}
		for _, r := range m.Pending() {
			v := m.View(r.Seat)
			text := v.String()
			celltest.Fits(t, text, 80)
			lines := strings.Split(text, "\n")
			section := ""
			var heldBy, armies int
			for _, l := range lines {
				switch {
				case !strings.HasPrefix(l, "  "):
					section = l
					if l == "Map:" {
						continue
					}
				case section == "Nations:":
					// "  Amber  seat 1 太郎           2 territories, ...",
					// what it holds (or when it went out) at cell 32 on
					// its lines.
					if !celltest.Begins(l, 2+6+1+22+1) {
						t.Errorf("%q: what it holds does not begin at cell 32\n%s", l, text)
					}
				case section == "Map:" && strings.HasPrefix(l, "  territory"):
					heldBy = celltest.Cell(l, strings.Index(l, "held by"))
					armies = celltest.Cell(l, strings.Index(l, "armies")) + len("armies")
				case section == "Map:":
					if !celltest.Begins(l, heldBy) {
						t.Errorf("%q: its holder does not begin at cell %d\n%s", l, heldBy, text)
					}
					if !strings.Contains(l, " -  ") && !celltest.Ends(l, armies) {
						t.Errorf("%q: its armies do not end at cell %d\n%s", l, armies, text)
					}
				}
			}
			legal := v.Legal()
			if err := m.Apply(r.Seat, legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}
