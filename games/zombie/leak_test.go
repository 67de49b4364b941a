package zombie

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPrivateNeverLeaks judges many random scripts and checks every
// player's private view, as text and as JSON: it holds exactly the lines a
// player may see (GAME START, their own PRIVATE lines, PUBLIC, TURN END,
// GAME OVER, FINAL), in the judge's order, never another player's PRIVATE
// or STATE line, never an ERROR line, and never the word infected.
func TestPrivateNeverLeaks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for k := range 400 {
		tr := judged(t, randomScript(rng, 120))
		full := strings.Split(strings.TrimSuffix(output(t, tr), "\n"), "\n")
		for i, p := range tr.Players {
			got := privately(t, tr, p.Name)
			var want strings.Builder
			for _, l := range full {
				switch {
				case strings.HasPrefix(l, "PRIVATE "+p.Name+" "),
					strings.HasPrefix(l, "GAME START"), strings.HasPrefix(l, "PUBLIC "),
					strings.HasPrefix(l, "TURN "), strings.HasPrefix(l, "GAME OVER"), strings.HasPrefix(l, "FINAL "):
					want.WriteString(l + "\n")
				}
			}
			if got != want.String() {
				t.Fatalf("script %d, %s sees\n%s\nwant\n%s", k, p.Name, got, want.String())
			}
			for _, bad := range []string{"infected", "ERROR", "STATE"} {
				if strings.Contains(got, bad) {
					t.Fatalf("script %d: %s's view says %s:\n%s", k, p.Name, bad, got)
				}
			}
			for _, other := range tr.Players {
				if other.Name != p.Name && strings.Contains(got, "PRIVATE "+other.Name+" ") {
					t.Fatalf("script %d: %s sees %s's message", k, p.Name, other.Name)
				}
			}
			var b bytes.Buffer
			if err := tr.WritePrivateJSON(&b, i); err != nil {
				t.Fatal(err)
			}
			if s := b.String(); strings.Contains(s, "infected") || strings.Contains(s, `"errors"`) || strings.Contains(s, `"final"`) {
				t.Fatalf("script %d: %s's JSON view leaks:\n%s", k, p.Name, s)
			}
			var doc struct {
				Player  string
				Private []struct{ Name string }
			}
			if err := json.Unmarshal(b.Bytes(), &doc); err != nil || doc.Player != p.Name || len(doc.Private) != 1 || doc.Private[0].Name != p.Name {
				t.Fatalf("script %d: %s's JSON view: %v %+v", k, p.Name, err, doc)
			}
		}
	}
}

// TestVisible is the redaction point's own table.
func TestVisible(t *testing.T) {
	for _, c := range []struct {
		e    Event
		who  int
		want bool
	}{
		{Event{Kind: Told, Player: 1}, 1, true},
		{Event{Kind: Told, Player: 1}, 2, false},
		{Event{Kind: Refused}, 0, false},
		{Event{Kind: Refused}, -1, true},
		{Event{Kind: Announced}, 3, true},
		{Event{Kind: Started}, 3, true},
		{Event{Kind: TurnEnded}, 3, true},
		{Event{Kind: Ended}, 3, true},
		{Event{Kind: 99}, 3, false},
	} {
		if got := Visible(&c.e, c.who); got != c.want {
			t.Errorf("Visible(%+v, %d) = %v", c.e, c.who, got)
		}
	}
}
