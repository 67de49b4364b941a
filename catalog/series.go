package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/mcts"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/report"
	"github.com/arbiter-games/arbiter/store"
)

// hosted is a game of move type M and view type V.
type hosted[M, V any] struct {
	rules engine.Ruleset[M, V]
	bots  func(name string) ([]engine.Entrant[M, V], error)
	step  func(state, moves []byte, seed uint64) ([]byte, error)
	// modes are the game's ways of being played live, the default first;
	// a mode without a ruleset of its own plays rules.
	modes []mode
	// joiner and asPlayer, when set, make the game's players named (see
	// Named).
	joiner   func(M) (string, bool)
	asPlayer func(name string, m M) (M, error)
	// judged says the ruleset takes the judge's moves (engine.Judge).
	judged bool
	// project, when set, is the projection of a live match's move: the
	// game's own tables, written in the move's transaction (projection.go).
	project func(id string, m engine.Match[M, V], mv *store.Move) func(context.Context, *sql.Tx) error
}

// mode is a way of playing a game live, and the ruleset it plays when it is
// not the game's own.
type mode struct {
	Mode
	game liveRules
}

// liveRules is a ruleset that plays live: a hosted game of any types.
type liveRules interface {
	Info() engine.Info
	newLive(ctx context.Context, s LiveSetup) (Live, error)
	restoreLive(s LiveSetup, snapshot []byte) (Live, error)
	Replay(data []byte) (Replayed, error)
}

// Info describes the game; its players include the search AI (mcts) when
// its rules offer what the search needs.
func (h *hosted[M, V]) Info() engine.Info {
	info := h.rules.Info()
	if _, ok := h.rules.(engine.Sampler[M, V]); ok {
		info.Players = append(info.Players[:len(info.Players):len(info.Players)], mcts.Name, "mcts:level=easy", "mcts:level=medium", "mcts:level=hard", "mcts:ms=<n>", "mcts:playouts=<n>")
	}
	return info
}

// roster returns the players one name stands for: the game's bots, or the
// search AI (mcts, with its settings) when the game's rules offer what it
// needs.
func (h *hosted[M, V]) roster(name string) ([]engine.Entrant[M, V], error) {
	_, searchable := h.rules.(engine.Sampler[M, V])
	if !searchable || !mcts.Is(name) {
		es, err := h.bots(name)
		if err != nil && searchable && !player.HasSettings(name) {
			if engine.Nearest(name, []string{mcts.Name}) == mcts.Name {
				return nil, player.SuggestPlayer(err, name, mcts.Name+", the search AI (mcts:ms=N, mcts:playouts=N, mcts:level=easy|medium|hard)")
			}
			err = fmt.Errorf("%w; or mcts, the search AI (mcts:ms=N, mcts:playouts=N, mcts:level=easy|medium|hard)", err)
		}
		return es, err
	}
	cfg, err := mcts.Parse(name)
	if err != nil {
		return nil, err
	}
	var rollout func() engine.Player[M, V]
	if cfg.Rollout != "" {
		es, err := h.bots(cfg.Rollout)
		if err != nil {
			return nil, fmt.Errorf("player %q: rollout: %w", name, err)
		}
		if len(es) != 1 {
			return nil, fmt.Errorf("player %q: rollout=%s stands for %d players; name one", name, cfg.Rollout, len(es))
		}
		rollout = es[0].New
	}
	if _, err := mcts.New(h.rules, cfg, rollout); err != nil {
		return nil, err
	}
	return []engine.Entrant[M, V]{{Name: name, New: func() engine.Player[M, V] {
		p, _ := mcts.New(h.rules, cfg, rollout)
		return p
	}}}, nil
}

// Untimed reports whether time limits (a decision's deadline, a reply's)
// change nothing for the players specs name: every one is a built-in bot
// whose decisions return at once (engine.Bounded), so that the runner
// plays their matches with no watchdog, and none reads its deadline. The
// search AI (mcts) does, as its time budget; people, programs and bots
// behind a URL have their time kept. A spec that names no player is not
// untimed: play refuses it in its own words.
func (h *hosted[M, V]) Untimed(specs []string) bool {
	for _, spec := range specs {
		if spec == player.Person || player.IsExternal(spec) || mcts.Is(spec) {
			return false
		}
		es, err := h.roster(spec)
		if err != nil || len(es) == 0 {
			return false
		}
		for _, e := range es {
			if b, ok := e.New().(engine.Bounded); !ok || !b.Bounded() {
				return false
			}
		}
	}
	return true
}

func (h *hosted[M, V]) Step(state, moves []byte, seed uint64) ([]byte, error) {
	return h.step(state, moves, seed)
}

// SeriesOptions says what series to play and among whom.
type SeriesOptions struct {
	// Players are the players by spec, in seat order: built-in names (one
	// may stand for several seats), repl for a person at the terminal,
	// exec:COMMAND and URLs for external players.
	Players []string
	// External says how external players run.
	External player.External
	// Interrupt stops play, for a person who presses Ctrl-C at a prompt.
	Interrupt func()
	// Options are the game's options, the same for every match.
	Options map[string]string
	// Seed is the first match's seed; match k (from 0) plays with Seed+k.
	Seed uint64
	// Games is how many matches to play.
	Games int
	// Deadline bounds each decision of a bot; people get it only when
	// DeadlineForPeople is set.
	Deadline          time.Duration
	DeadlineForPeople bool
	// Bank, Startup and Reply are every seat's time bank, start-up
	// deadline and reply deadline (see engine.Seat).
	Bank, Startup, Reply time.Duration
	// Timings records each decision's wall time.
	Timings bool
	// Ready, if not nil, is called once the players and the options are
	// checked, before the first match, with whether a person plays; an
	// error stops the series before it starts.
	Ready func(people bool) error
	// Played is called with each match as it ends; an error stops the
	// series.
	Played func(Played) error
}

// Played is a match of a series, as it ended. Its functions are valid only
// during the call to SeriesOptions.Played.
type Played struct {
	// Number is the match's number in the series, from 1.
	Number int
	// Faults counts the decisions that got the default for a fault.
	Faults int
	// Outcome is the match's part of a report without replaying it: its
	// setup, faults and result (see report.Outcome).
	Outcome func() report.Game
	// Report replays the match into its part of a report.
	Report func() (report.Game, error)
	// Brief is its part of a text report, without the history between the
	// first and the last world, made from the match as play left it (see
	// report.BriefGame).
	Brief func() (report.Game, error)
	// WriteRecord writes the match record, JSON Lines.
	WriteRecord func(io.Writer) error
	// WriteTraining writes one line per decision for training bots (see
	// report.WriteTraining).
	WriteTraining func(io.Writer) error
}

func (h *hosted[M, V]) Series(ctx context.Context, o SeriesOptions) error {
	info := h.rules.Info()
	entrants, err := player.Resolve(o.Players, h.roster, func() engine.Player[M, V] {
		return &player.Terminal[M, V]{Interrupt: o.Interrupt}
	}, o.External)
	if err != nil {
		return Invalid(err)
	}
	if n := len(entrants); n < info.MinSeats || n > info.MaxSeats {
		names := make([]string, len(entrants))
		for i, e := range entrants {
			names[i] = e.Name
		}
		return Invalidf("%s takes %d to %d players; %d given (%s): %s", info.Name, info.MinSeats, info.MaxSeats, n, strings.Join(names, ", "), seatsToChange(n, info.MinSeats, info.MaxSeats))
	}
	// Check the options once, before anything is played.
	if _, err := h.rules.New(engine.Setup{Seed: o.Seed, Players: make([]string, len(entrants)), Options: o.Options}); err != nil {
		return Invalid(err)
	}
	if o.Ready != nil {
		if err := o.Ready(hasPerson(entrants)); err != nil {
			return err
		}
	}
	// Each match's seats are made just before it is played, and each
	// record is forgotten once told: a long series holds one at a time.
	s := &engine.Series[M, V]{Ruleset: h.rules, Seed: o.Seed, Options: o.Options, Timings: o.Timings, Matches: o.Games, Forget: true, Unsealed: true}
	s.Lineup = func(int) []engine.Seat[M, V] {
		seats := make([]engine.Seat[M, V], len(entrants))
		for i, e := range entrants {
			seats[i] = engine.Seat[M, V]{Name: e.Name, Player: e.New(), Bank: o.Bank, StartDeadline: o.Startup, ReplyDeadline: o.Reply}
			if !e.Person || o.DeadlineForPeople {
				seats[i].Deadline = o.Deadline
			}
		}
		return seats
	}
	s.Played = func(k int, rec *engine.Record[M], m engine.Match[M, V]) error {
		if o.Played == nil {
			return nil
		}
		return o.Played(Played{
			Number:  k + 1,
			Faults:  len(rec.Faults()),
			Outcome: func() report.Game { return report.Outcome(rec, k+1) },
			Report: func() (report.Game, error) {
				if err := engine.SealOnce(rec, m); err != nil {
					return report.Game{}, err
				}
				return report.BuildGame(h.rules, rec, k+1)
			},
			Brief: func() (report.Game, error) { return report.BriefGame(h.rules, rec, m, k+1) },
			WriteRecord: func(w io.Writer) error {
				if err := engine.SealOnce(rec, m); err != nil {
					return err
				}
				_, err := rec.WriteTo(w)
				return err
			},
			WriteTraining: func(w io.Writer) error {
				if err := engine.SealOnce(rec, m); err != nil {
					return err
				}
				return report.WriteTraining(w, h.rules, rec, k+1)
			},
		})
	}
	_, err = s.Play(ctx)
	return err
}

func hasPerson[M, V any](entrants []engine.Entrant[M, V]) bool {
	for _, e := range entrants {
		if e.Person {
			return true
		}
	}
	return false
}

// seatsToChange says what to do with n players where a game seats least
// to most: name the players missing, or leave out the ones too many.
func seatsToChange(n, least, most int) string {
	if n < least {
		if least-n == 1 {
			return "name 1 more"
		}
		return fmt.Sprintf("name %d more", least-n)
	}
	return fmt.Sprintf("leave out %d", n-most)
}
