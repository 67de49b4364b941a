package enginetest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arbiter-games/arbiter/engine"
)

// ReadOptions say how CheckReadViews plays a match.
type ReadOptions[M, V any] struct {
	// Players make each seat's player, by seat: the match is played by
	// their decisions. Each seat has a twin of its player besides, made by
	// the same function and started the same way, that is asked every
	// decision again with the view and the request read back from their
	// JSON; it must decide the same.
	Players []func() engine.Player[M, V]
	// Steps bounds the decisions asked; 0 means 300.
	Steps int
	// Same, if set, compares a view in process with the same view read
	// back, beyond their JSON (their methods, their text), and says what
	// differs, or "".
	Same func(in, read V) string
	// SameSample, if set, compares the match sampled from a view in
	// process with the one sampled from the view read back, drawn with the
	// same dice, and says what differs, or "": for a game whose samples
	// hold what no view shows and no play reads. Without it they must
	// show the same, byte for byte.
	SameSample func(in, read engine.Match[M, V]) string
	// Seed seeds the dice of the samples compared.
	Seed uint64
}

func (o *ReadOptions[M, V]) steps() int {
	if o.Steps <= 0 {
		return 300
	}
	return o.Steps
}

// CheckReadViews plays a match of rules (an engine.ViewReader) from setup
// with o.Players, and checks at every decision that what a program is sent
// reads back into what the player is given in process:
//
//   - the view's JSON reads back (with a reader per seat, made from the
//     seat's MatchInfo, fed its views in order) into a view that writes the
//     same JSON, byte for byte, and that o.Same finds the same;
//   - the request's choices and default read back from their JSON into
//     moves that write the same JSON;
//   - the player's twin, asked with the request and the view read back,
//     decides the same move as the player (or fails the same way);
//   - when the rules are an engine.Sampler, the match sampled from the
//     view read back shows what the one sampled from the view in process
//     shows, drawn with the same dice: a search AI searches the same.
//
// A decision that fails, or a move the rules refuse, is played by its
// request's default.
func CheckReadViews[M, V any](t testing.TB, rules engine.Ruleset[M, V], setup engine.Setup, o ReadOptions[M, V]) {
	t.Helper()
	checkReadViews(t, rules, setup, o)
}

func checkReadViews[M, V any](t reporter, rules engine.Ruleset[M, V], setup engine.Setup, o ReadOptions[M, V]) {
	t.Helper()
	vr, ok := rules.(engine.ViewReader[V])
	if !ok {
		t.Fatalf("%T is not an engine.ViewReader", rules)
	}
	if len(o.Players) != setup.Seats() {
		t.Fatalf("%d players for %d seats", len(o.Players), setup.Seats())
	}
	m, err := rules.New(setup)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	sampler, _ := rules.(engine.Sampler[M, V])
	info := rules.Info()
	n := setup.Seats()
	players := make([]engine.Player[M, V], n)
	twins := make([]engine.Player[M, V], n)
	readers := make([]func(int64, []byte) (V, error), n)
	ctx := context.Background()
	for s := range n {
		mi := engine.MatchInfo{Ruleset: info.Name, Variant: info.Variant, RulesVersion: info.Version, Game: 1, Seat: s,
			Players: setup.Players, Options: setup.Options, Seed: engine.SeatSeed(setup.Seed, s)}
		if readers[s], err = vr.ReadViews(mi); err != nil {
			t.Fatalf("ReadViews for seat %d: %v", s, err)
		}
		players[s], twins[s] = o.Players[s](), o.Players[s]()
		for _, p := range []engine.Player[M, V]{players[s], twins[s]} {
			if st, ok := p.(engine.Starter); ok {
				if err := st.Start(ctx, mi); err != nil {
					t.Fatalf("Start seat %d: %v", s, err)
				}
			}
		}
	}
	dice := rand.NewPCG(o.Seed, 0x5245_4144)
	blind := engine.Setup{Players: setup.Players, Options: setup.Options}
	type decided struct {
		seat int
		move M
		def  M
	}
	steps := 0
	for !m.Over() && steps < o.steps() {
		reqs := append([]engine.Request[M](nil), m.Pending()...)
		if len(reqs) == 0 {
			break
		}
		var moves []decided
		for _, req := range reqs {
			steps++
			seat := req.Seat
			view := m.View(seat)
			data, err := json.Marshal(view)
			if err != nil {
				t.Fatalf("step %d: seat %d's view: %v", steps, seat, err)
			}
			read, err := readers[seat](req.ID, data)
			if err != nil {
				t.Fatalf("step %d: seat %d's view does not read back: %v\n%.600s", steps, seat, err, data)
			}
			if again := marshal(read); string(again) != string(data) {
				t.Fatalf("step %d: seat %d's view read back writes other JSON:\n got %.600s\nwant %.600s", steps, seat, again, data)
			}
			if o.Same != nil {
				if what := o.Same(view, read); what != "" {
					t.Fatalf("step %d: seat %d's view read back differs: %s", steps, seat, what)
				}
			}
			twinReq := readRequest(t, req, steps)
			if sampler != nil && len(req.Choices) != 1 {
				a, b := dice.Uint64(), dice.Uint64()
				s1, err1 := sampler.Sample(blind, seat, view, rand.NewPCG(a, b))
				s2, err2 := sampler.Sample(blind, seat, read, rand.NewPCG(a, b))
				switch {
				case errText(err1) != errText(err2):
					t.Fatalf("step %d: seat %d's samples: in process %v, read back %v", steps, seat, err1, err2)
				case err1 == nil && o.SameSample != nil:
					if what := o.SameSample(s1, s2); what != "" {
						t.Fatalf("step %d: the match sampled from seat %d's view read back differs: %s", steps, seat, what)
					}
				case err1 == nil:
					if what, got, want := faceOf(s1, n, false).differs(faceOf(s2, n, false)); what != "" {
						t.Fatalf("step %d: the match sampled from seat %d's view read back differs in %s:\n got %.600s\nwant %.600s", steps, seat, what, got, want)
					}
				}
			}
			in := req
			mv, err1 := players[seat].Decide(ctx, &in, view)
			mv2, err2 := twins[seat].Decide(ctx, &twinReq, read)
			if errText(err1) != errText(err2) || text(mv) != text(mv2) {
				t.Fatalf("step %d: seat %d's %s: in process %s (%v), on the view read back %s (%v)", steps, seat, req.Kind, text(mv), err1, text(mv2), err2)
			}
			if err1 != nil {
				mv = req.Default
			}
			moves = append(moves, decided{seat, mv, req.Default})
		}
		for _, d := range moves {
			if err := m.Apply(d.seat, d.move); err != nil {
				if err := m.Apply(d.seat, d.def); err != nil {
					t.Fatalf("step %d: seat %d's default %s is refused: %v", steps, d.seat, text(d.def), err)
				}
			}
		}
	}
}

// readRequest returns req as a program reads it: its choices and default
// read back from their JSON, its deadline kept.
func readRequest[M any](t reporter, req engine.Request[M], step int) engine.Request[M] {
	t.Helper()
	back := engine.Request[M]{ID: req.ID, Seat: req.Seat, Kind: req.Kind, Class: req.Class, Deadline: req.Deadline}
	read := func(mv M, what string) M {
		var out M
		b := marshal(mv)
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("step %d: seat %d's %s %s does not read back: %v", step, req.Seat, what, b, err)
		}
		if again := marshal(out); string(again) != string(b) {
			t.Fatalf("step %d: seat %d's %s %s reads back as %s", step, req.Seat, what, b, again)
		}
		return out
	}
	for i, c := range req.Choices {
		back.Choices = append(back.Choices, read(c, fmt.Sprintf("choice %d", i)))
	}
	back.Default = read(req.Default, "default")
	return back
}

// ReadBack reads data as the view of request id with read (a game's
// engine.ViewReader), for a fuzz test of the reading: ok is false when the
// view is refused, which is always allowed. A view read is held to writing
// JSON that reads back, and that reads back into a view writing the same
// JSON again; any other outcome fails t.
func ReadBack[V any](t testing.TB, read func(int64, []byte) (V, error), id int64, data []byte) (v V, ok bool) {
	t.Helper()
	v, err := read(id, data)
	if err != nil {
		return v, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("a view read back does not write: %v", err)
	}
	again, err := read(id, b)
	if err != nil {
		t.Fatalf("a view read back writes JSON that does not read back: %v\n%s", err, b)
	}
	if b2, _ := json.Marshal(again); string(b2) != string(b) {
		t.Fatalf("read twice, a view writes other JSON:\n%s\n%s", b, b2)
	}
	return v, true
}
