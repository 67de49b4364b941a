package catalog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/tournament"
)

// Trial is one match-up of the AI tables: a seeded tournament whose games
// say how one player, the trial's focus, fares against the others, each
// game's default options unchanged unless the trial names some.
type Trial struct {
	// Game is the game's name.
	Game string
	// Title says what the trial measures, for its table's row.
	Title string
	// Players are the tournament's players, the focus first.
	Players []string
	// Seats is the seats per game; every group of players of that size
	// plays in every seat order (tournament.Rotation).
	Seats int
	// Options are the game's options.
	Options map[string]string
	// Target is the share of games the focus aims to win, from 0 to 1; 0
	// means none.
	Target float64
	// Most, when set, bounds the games of the trial, whatever the games
	// asked: the search AI thinks for a while at every decision.
	Most int
}

// Focus returns the player the trial measures.
func (t Trial) Focus() string { return t.Players[0] }

// TrialResult is how the focus of a trial fared.
type TrialResult struct {
	Trial
	// Games is the games the focus played; Wins those it won, alone or
	// with others, and Shared those it won with others.
	Games, Wins, Shared int
	// RankSum adds its rank in every game it played.
	RankSum int
	// LeadSum adds, over its games, its score less the best score of the
	// others; LeastLead is the smallest of those.
	LeadSum, LeastLead int64
	// Faults counts the decisions of any seat that got a default.
	Faults int
	// Took holds the time of every decision of the focus, by the clock,
	// when RunTrial was asked to time them, in no order.
	Took []time.Duration
}

// MeanTook and P99Took are the mean and 99th percentile of the focus's
// decision times, when timed.
func (r TrialResult) MeanTook() time.Duration {
	if len(r.Took) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range r.Took {
		sum += d
	}
	return sum / time.Duration(len(r.Took))
}

// P99Took is the 99th percentile of the focus's decision times.
func (r TrialResult) P99Took() time.Duration {
	if len(r.Took) == 0 {
		return 0
	}
	s := slices.Clone(r.Took)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*99/100)]
}

// WinRate is the share of its games the focus won.
func (r TrialResult) WinRate() float64 {
	if r.Games == 0 {
		return 0
	}
	return float64(r.Wins) / float64(r.Games)
}

// MeanRank is the focus's mean rank.
func (r TrialResult) MeanRank() float64 {
	if r.Games == 0 {
		return 0
	}
	return float64(r.RankSum) / float64(r.Games)
}

// MeanLead is the focus's mean lead over the best of the others.
func (r TrialResult) MeanLead() float64 {
	if r.Games == 0 {
		return 0
	}
	return float64(r.LeadSum) / float64(r.Games)
}

// Met reports whether the focus reached the trial's target.
func (r TrialResult) Met() bool { return r.Target == 0 || r.WinRate() >= r.Target }

// Trials returns the trials of the AI tables of the named games, or of
// every game when none is named, in the order the README shows them: for
// each game its best AI against the opponents it must beat, and the
// search AI (mcts) against the best.
func Trials(names ...string) ([]Trial, error) {
	all := aiTrials()
	if len(names) == 0 {
		return all, nil
	}
	var out []Trial
	for i, name := range names {
		if _, err := Find(name); err != nil {
			return nil, err
		}
		if slices.Contains(names[:i], name) {
			return nil, fmt.Errorf("%s is named twice; name each game once", name)
		}
		for _, t := range all {
			if t.Game == name {
				out = append(out, t)
			}
		}
	}
	return out, nil
}

// aiTrials lists every game's trials.
func aiTrials() []Trial {
	var ts []Trial
	versus := func(game, ai string, target float64, opponents ...string) {
		for _, o := range opponents {
			ts = append(ts, Trial{Game: game, Title: "against " + o, Players: []string{ai, o}, Seats: 2, Target: target})
		}
	}
	search := func(game, best string) {
		ts = append(ts, Trial{Game: game, Title: "the search AI against " + best, Players: []string{"mcts", best}, Seats: 2, Most: SearchGames})
	}
	field := func(game, title string, seats int, options map[string]string, target float64, players ...string) {
		ts = append(ts, Trial{Game: game, Title: title, Players: players, Seats: seats, Options: options, Target: target})
	}

	// AjveCiv: head to head against every rule-of-thumb AI, then the
	// six-seat field of them.
	var basics []string
	for _, kind := range []string{"basic", "basic2", "basic3"} {
		es, _ := catalogBots("ajveciv", kind)
		basics = append(basics, es...)
	}
	versus("ajveciv", ajvecivBest, 0.90, basics...)
	field("ajveciv", "six seats, the field of the six basic AIs", 6, nil, 0.85, append([]string{ajvecivBest}, basics[:6]...)...)
	field("ajveciv", "six seats, the field of the six basic AIs", 6, nil, 0, append([]string{"planner"}, basics[:6]...)...)
	search("ajveciv", ajvecivBest)

	// Reaj: the field of the fixed AIs and adapt.
	field("reaj", "six seats, the field of the fixed AIs and adapt", 6, nil, 1, "steward", "conquer", "exchange", "expand", "develop", "consent", "adapt")
	versus("reaj", "steward", 1, "adapt")
	search("reaj", "steward")

	// TNCC: every preset's four-seat fields.
	for _, preset := range tnccPresets() {
		opts := map[string]string{"preset": preset}
		field("tncc", preset+": with blitz, turtle, war", 4, opts, 0.95, tnccBest, "blitz", "turtle", "war")
		field("tncc", preset+": with trader, nothing, blitz", 4, opts, 0.95, tnccBest, "trader", "nothing", "blitz")
	}
	search("tncc", tnccBest)

	// Territories: head to head and three seats against greedy.
	versus("territories", territoriesBest, 0.75, "greedy")
	field("territories", "three seats, with greedy and random", 3, nil, 0.75, territoriesBest, "greedy", "random")
	search("territories", territoriesBest)

	// Zombie: five seats, every seat order, the roles drawn by the game.
	field("zombie", "five seats: sensible, cautious, spreader, random", 5, nil, 0, zombieBest, "sensible", "cautious", "spreader", "random")
	ts = append(ts, Trial{Game: "zombie", Title: "five seats: searcher, sensible, cautious, spreader", Players: []string{"mcts", zombieBest, "sensible", "cautious", "spreader"}, Seats: 5, Most: SearchGames})
	return ts
}

// SearchGames is the most games of a trial of the search AI (Trial.Most):
// it thinks at every decision.
const SearchGames = 40

// The best AI of each game, as the tables measure it.
const (
	ajvecivBest     = "guide"
	tnccBest        = "marshal"
	territoriesBest = "general"
	zombieBest      = "searcher"
)

// catalogBots returns the names one player name of game stands for.
func catalogBots(game, name string) ([]string, error) {
	g, err := Find(game)
	if err != nil {
		return nil, err
	}
	return g.(interface {
		botNames(string) ([]string, error)
	}).botNames(name)
}

func (h *hosted[M, V]) botNames(name string) ([]string, error) {
	es, err := h.roster(name)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Name
	}
	return out, nil
}

// tnccPresets returns TNCC's presets.
func tnccPresets() []string {
	g, _ := Find("tncc")
	return g.Info().Presets
}

// RunTrial plays trial t: games games in all (at least one round of its
// schedule), from seed, parallel at once (0: one per core). With timed, it
// times every decision of the focus.
func RunTrial(ctx context.Context, t Trial, games int, seed uint64, parallel int, timed bool) (TrialResult, error) {
	g, err := Find(t.Game)
	if err != nil {
		return TrialResult{}, err
	}
	params := tournament.Params{Options: t.Options, Seed: seed, Seats: t.Seats, Repeat: 1}
	// Deal the schedule once to learn its length, then play enough rounds.
	var per int
	o := TournamentOptions{Players: t.Players, Params: params, Parallel: parallel,
		Ready: func(s *tournament.Schedule) (int, error) { per = s.Len(); return 0, errDealt }}
	if _, err := g.Tournament(ctx, o); !errors.Is(err, errDealt) {
		return TrialResult{}, fmt.Errorf("%s %s: %w", t.Game, t.Title, err)
	}
	if t.Most > 0 {
		games = min(games, t.Most)
	}
	o.Params.Repeat = max(1, (games+per-1)/per)
	o.Ready = nil
	r := TrialResult{Trial: t}
	focus := t.Focus()
	if timed {
		var mu sync.Mutex
		o.Timed = []string{focus}
		o.Decided = func(_ string, took time.Duration) {
			mu.Lock()
			r.Took = append(r.Took, took)
			mu.Unlock()
		}
	}
	o.Played = func(gr tournament.GameResult) error {
		for _, f := range gr.Faults {
			r.Faults += f
		}
		seat := slices.Index(gr.Seats, focus)
		if seat < 0 {
			return nil
		}
		r.Games++
		r.RankSum += gr.Ranks[seat]
		best := int64(math.MinInt64)
		for i, sc := range gr.Scores {
			if i != seat {
				best = max(best, sc)
			}
		}
		lead := gr.Scores[seat] - best
		if r.Games == 1 || lead < r.LeastLead {
			r.LeastLead = lead
		}
		r.LeadSum += lead
		if slices.Contains(gr.Winners, seat) {
			r.Wins++
			if len(gr.Winners) > 1 {
				r.Shared++
			}
		}
		return nil
	}
	if _, err := g.Tournament(ctx, o); err != nil {
		return r, fmt.Errorf("%s %s: %w", t.Game, t.Title, err)
	}
	return r, nil
}

// errDealt stops a tournament once its schedule is dealt.
var errDealt = errors.New("dealt")

// String is the trial as a command that plays it alone.
func (t Trial) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "arbiter tournament %s --players %s --seats %d", t.Game, strings.Join(t.Players, ","), t.Seats)
	for _, k := range slices.Sorted(maps.Keys(t.Options)) {
		fmt.Fprintf(&b, " --%s %s", k, t.Options[k])
	}
	return b.String()
}
