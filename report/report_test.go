package report

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// stubborn always answers develop, offered or not.
type stubborn struct{}

func (stubborn) Turn(ajveciv.View) (ajveciv.Value, error)       { return ajveciv.Develop, nil }
func (stubborn) Inflection(ajveciv.View) (ajveciv.Value, error) { return ajveciv.Develop, nil }

// failing returns an error at the start of every decision.
type failing struct{}

func (failing) Turn(ajveciv.View) (ajveciv.Value, error) {
	return ajveciv.None, errors.New("no idea")
}
func (failing) Inflection(ajveciv.View) (ajveciv.Value, error) {
	return ajveciv.None, errors.New("no idea")
}

func series(t *testing.T) *Report {
	t.Helper()
	s := ajveciv.NewSeries(ajveciv.Original(), 42)
	s.Options = map[string]string{"turns": "12"}
	s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Conquer), ajveciv.Priority(ajveciv.Develop), stubborn{})...)
	s.Game(ajveciv.Seats(ajveciv.Priority(ajveciv.Conquer), failing{}, ajveciv.Priority(ajveciv.Consent), ajveciv.Priority(ajveciv.Expand))...)
	recs, err := s.Play(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(s.Ruleset, recs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run go test ./report -update and review the diff:\n%s", name, got)
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := series(t).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "series.txt", b.Bytes())
	for _, want := range []string{"seed 42", "seed 43", "WINNER", "final scores (score: yield plus population)", "ended: turns", "illegal", "13 error (first at move 2: no idea)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the text report lacks %q", want)
		}
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := series(t).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "series.json", b.Bytes())
}

func TestHTML(t *testing.T) {
	var b bytes.Buffer
	if err := series(t).WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	golden(t, "series.html", b.Bytes())
	page := b.String()
	for _, bad := range []string{"<script src", "http://", "https://", "ZgotmplZ"} {
		if bad == "http://" {
			page = strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, "")
		}
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q: it must be self-contained and clean", bad)
		}
	}
	if n := strings.Count(page, "<svg"); n != 7 {
		t.Errorf("%d charts; want 3 per game (yield, population, world yield) and the series' distribution of scores", n)
	}
}

func TestDeterministic(t *testing.T) {
	// "Reports, no wall-clock timings in them (the same seed gives the same bytes)".
	var a, b bytes.Buffer
	if err := series(t).WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	if err := series(t).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two reports of the same series differ")
	}
}

func TestAbortedGame(t *testing.T) {
	rec := engine.NewRecord[ajveciv.Value](ajveciv.Original().Info(), engine.Setup{Seed: 1, Players: []string{"a", "b"}})
	rec.End = &engine.End{Aborted: "interrupted"}
	r, err := Build[ajveciv.Value, ajveciv.View](ajveciv.Original(), []*engine.Record[ajveciv.Value]{rec})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "not finished: interrupted") {
		t.Errorf("text report of an interrupted game:\n%s", b.String())
	}
}
