package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/games/ajveciv"
	"github.com/arbiter-games/arbiter/games/reaj"
	"github.com/arbiter-games/arbiter/games/territories"
	"github.com/arbiter-games/arbiter/games/tncc"
	"github.com/arbiter-games/arbiter/games/zombie"
	"github.com/arbiter-games/arbiter/player"
	"github.com/arbiter-games/arbiter/report"
)

// catalog lists every game the CLI hosts. This is the one place where games
// are named; nothing registers itself.
func catalog() []game {
	return []game{
		hosted[ajveciv.Value, ajveciv.View]{
			rules:  ajveciv.Original(),
			bots:   ajveciv.Bots,
			stepFn: ajvecivStep,
		},
		hosted[reaj.Value, reaj.View]{
			rules:  reaj.Game{},
			bots:   reaj.Bots,
			stepFn: reajStep,
		},
		hosted[tncc.Move, tncc.View]{
			rules:  tncc.Game{},
			bots:   tncc.Bots,
			stepFn: tnccStep,
		},
		hosted[zombie.Plan, zombie.View]{
			rules:  zombie.Game{},
			bots:   zombie.Bots,
			stepFn: zombieStep,
		},
		hosted[territories.Action, territories.View]{
			rules:  territories.Game{},
			bots:   territories.Bots,
			stepFn: territoriesStep,
		},
	}
}

func findGame(name string) (game, error) {
	var names []string
	for _, g := range catalog() {
		if g.info().Name == name {
			return g, nil
		}
		names = append(names, g.info().Name)
	}
	return nil, usagef("unknown game %q; games: %s", name, strings.Join(names, ", "))
}

func gameNames() []string {
	var names []string
	for _, g := range catalog() {
		names = append(names, g.info().Name)
	}
	return names
}

// game is a ruleset as the CLI drives it, with its move and view types
// hidden behind the operations the commands need.
type game interface {
	info() engine.Info
	// play plays a series and writes its records and report.
	play(ctx context.Context, o playOptions) error
	// replay re-runs a record and checks it.
	replay(data []byte) (replayed, error)
	// step applies the pure rules to the game's world JSON.
	step(state, moves []byte, seed uint64) ([]byte, error)
	// tournament plays a tournament and writes its results and standings.
	tournament(ctx context.Context, o tournamentOptions) error
}

// hosted is a game of move type M and view type V.
type hosted[M, V any] struct {
	rules  engine.Ruleset[M, V]
	bots   func(name string) ([]engine.Entrant[M, V], error)
	stepFn func(state, moves []byte, seed uint64) ([]byte, error)
}

func (h hosted[M, V]) info() engine.Info { return h.rules.Info() }

func (h hosted[M, V]) step(state, moves []byte, seed uint64) ([]byte, error) {
	return h.stepFn(state, moves, seed)
}

// playOptions is what play was asked to do.
type playOptions struct {
	specs       []string
	options     map[string]string
	seed        uint64
	games       int
	deadline    time.Duration
	deadlineSet bool // people get the deadline only when it is given
	timings     bool
	report      reportTarget
	recordDir   string
	training    string // --export-training FILE
	verbose     bool   // the world at every turn in the text report
	external    player.External
	bank        time.Duration
	startup     time.Duration
	reply       time.Duration
	strict      bool // any fault fails the run
	force       bool // replace files that exist
	stdout      io.Writer
	stderr      io.Writer
	interrupt   func() // stops play, for a person pressing Ctrl-C at a prompt
}

func (h hosted[M, V]) play(ctx context.Context, o playOptions) error {
	info := h.rules.Info()
	entrants, err := player.Resolve(o.specs, h.bots, func() engine.Player[M, V] {
		return &player.Terminal[M, V]{Interrupt: o.interrupt}
	}, o.external)
	if err != nil {
		return usageError(err)
	}
	if n := len(entrants); n < info.MinSeats || n > info.MaxSeats {
		var names []string
		for _, e := range entrants {
			names = append(names, e.Name)
		}
		return usagef("%s takes %d to %d players; %d given (%s)", info.Name, info.MinSeats, info.MaxSeats, n, strings.Join(names, ", "))
	}
	// Check the options once, before anything is played.
	if _, err := h.rules.New(engine.Setup{Seed: o.seed, Players: make([]string, len(entrants)), Options: o.options}); err != nil {
		return usageError(err)
	}
	for _, c := range []error{checkOutput("report", o.report.path, o.force), checkOutput("export-training", o.training, o.force),
		checkRecordDir(o.recordDir, o.games, o.force)} {
		if c != nil {
			return c
		}
	}

	// Each game's seats are made just before it is played.
	s := &engine.Series[M, V]{Ruleset: h.rules, Seed: o.seed, Options: o.options, Timings: o.timings, Matches: o.games}
	s.Lineup = func(int) []engine.Seat[M, V] {
		seats := make([]engine.Seat[M, V], len(entrants))
		for i, e := range entrants {
			seats[i] = engine.Seat[M, V]{Name: e.Name, Player: e.New(), Bank: o.bank, StartDeadline: o.startup, ReplyDeadline: o.reply}
			if !e.Person || o.deadlineSet {
				seats[i].Deadline = o.deadline
			}
		}
		return seats
	}
	// A bar of the games played, unless a person is playing at this terminal
	// or the report scrolls by on it.
	var bar *progress
	if !hasPerson(entrants) && !o.report.scrolls(o.stdout) {
		bar = newProgress(o.stderr, o.games)
	}
	var training *bufio.Writer
	if o.training != "" {
		f, err := os.Create(o.training)
		if err != nil {
			return usagef("--export-training %s: %v", o.training, pathCause(err))
		}
		defer f.Close()
		training = bufio.NewWriterSize(f, 1<<16)
		defer training.Flush()
	}
	// Each game is written to the report, and to its file, as soon as it is
	// played; nothing keeps the records or the games of a long series.
	rep, err := o.report.open(o.stdout, o.verbose)
	if err != nil {
		return err
	}
	defer rep.discard()
	s.Forget = true
	faults := 0
	s.Played = func(k int, rec *engine.Record[M], _ engine.Match[M, V]) error {
		bar.game()
		faults += len(rec.Faults())
		g, err := reportGame(h.rules, rec, k+1, o.report.form)
		if err != nil {
			return err
		}
		if err := rep.write(&g); err != nil {
			return err
		}
		if training != nil {
			if err := report.WriteTraining(training, h.rules, rec, k+1); err != nil {
				return err
			}
		}
		if o.recordDir == "" {
			return nil
		}
		path := filepath.Join(o.recordDir, fmt.Sprintf("game-%04d.jsonl", k+1))
		return writeFile(path, func(w io.Writer) error { _, err := rec.WriteTo(w); return err })
	}
	_, playErr := s.Play(ctx)
	bar.close()
	if err := rep.finish(o.stderr); err != nil {
		return classify(err)
	}
	noteCuts(o.stderr, o.external.Logs)
	if playErr != nil {
		if errors.Is(playErr, context.Canceled) {
			return &exitError{exitInternal, errors.New("interrupted; the records and report hold the games so far")}
		}
		return classify(playErr)
	}
	return strictly(o.strict, faults)
}

// strictly is the end of a run under --strict: any fault fails it.
func strictly(strict bool, faults int) error {
	if strict && faults > 0 {
		return &exitError{exitRefused, fmt.Errorf("--strict: the players committed %d faults; the report lists them", faults)}
	}
	return nil
}

// noteCuts says which seats' logs were cut, or could not be written.
func noteCuts(w io.Writer, logs *player.Logs) {
	for _, c := range logs.Cuts() {
		fmt.Fprintf(w, "bot logs: %s\n", c)
	}
}

func hasPerson[M, V any](entrants []engine.Entrant[M, V]) bool {
	for _, e := range entrants {
		if e.Person {
			return true
		}
	}
	return false
}

// replayed is what a replay found.
type replayed struct {
	Ruleset string         `json:"ruleset"`
	Variant string         `json:"variant,omitempty"`
	Seed    uint64         `json:"seed"`
	Players []string       `json:"players"`
	Moves   int            `json:"moves"`
	Faults  int            `json:"faults"`
	Result  *engine.Result `json:"result,omitempty"`
	Hash    string         `json:"hash,omitempty"`
	Aborted string         `json:"aborted,omitempty"`
	// Lines is the digest of the record's lines, when it has one.
	Lines string `json:"lines,omitempty"`
}

func (h hosted[M, V]) replay(data []byte) (replayed, error) {
	rec, err := engine.ReadRecord[M](strings.NewReader(string(data)))
	if errors.Is(err, engine.ErrEdited) {
		return replayed{}, &exitError{exitRefused, err}
	}
	if err != nil {
		return replayed{}, usageError(err)
	}
	out := replayed{
		Ruleset: rec.Header.Ruleset, Variant: rec.Header.Variant, Seed: rec.Header.Setup.Seed,
		Players: rec.Header.Setup.Players, Moves: len(rec.Steps), Faults: len(rec.Faults()),
	}
	if rec.End != nil {
		out.Result, out.Hash, out.Aborted, out.Lines = rec.End.Result, rec.End.Hash, rec.End.Aborted, rec.End.Lines
	}
	if rec.Header.Variant != h.rules.Info().Variant {
		return out, usagef("the record was played in the %q world, which this Arbiter does not have built in (it has %q); replay it with the program that defines that world", rec.Header.Variant, h.rules.Info().Variant)
	}
	if _, err := engine.Replay(h.rules, rec, nil); err != nil {
		var re *engine.ReplayError
		if errors.As(err, &re) {
			return out, err
		}
		return out, usageError(err)
	}
	return out, nil
}

// reportTarget is where --report sends the report: text, the summary or
// JSON to standard output, or a file whose extension names its form.
type reportTarget struct {
	form string // "text", "summary", "json" or "html"
	path string // "" for standard output
}

func parseReportTarget(s string) (reportTarget, error) {
	switch s {
	case "", "text":
		return reportTarget{form: "text"}, nil
	case "summary", "json":
		return reportTarget{form: s}, nil
	}
	switch strings.ToLower(filepath.Ext(s)) {
	case ".json":
		return reportTarget{form: "json", path: s}, nil
	case ".html", ".htm":
		return reportTarget{form: "html", path: s}, nil
	case ".txt":
		return reportTarget{form: "text", path: s}, nil
	}
	return reportTarget{}, usagef("--report %q: want text, json, summary, or a file ending in .json, .html or .txt", s)
}

// writeFile writes a file whole or not at all: into a temporary file beside
// it, renamed into place when complete.
func writeFile(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ajvecivStep is arbiter step ajveciv: one turn or inflection of the
// original rules on a world in the seed's JSON shape.
func ajvecivStep(state, moves []byte, seed uint64) ([]byte, error) {
	return pureStep(state, moves, ajveciv.ParseWorld, ajveciv.ParseMoves,
		func(w ajveciv.World, m ajveciv.Moves) (ajveciv.World, error) { return ajveciv.Step(w, m, seed) })
}

// reajStep is arbiter step reaj: one turn of the rules on a state in its
// JSON shape.
func reajStep(state, moves []byte, seed uint64) ([]byte, error) {
	return pureStep(state, moves, reaj.ParseState, reaj.ParseMoves,
		func(s reaj.State, m reaj.Moves) (reaj.State, error) { return reaj.Step(s, m, seed) })
}

// pureStep is a game's pure step as arbiter step runs it: a --state or
// --moves that does not parse, or that the step finds invalid, is invalid
// input; a move the rules refuse is the rules' error; the world after the
// step is printed as one JSON line.
func pureStep[S, M, W any](state, moves []byte, parseState func([]byte) (S, error), parseMoves func([]byte) (M, error), step func(S, M) (W, error)) ([]byte, error) {
	s, err := parseState(state)
	if err != nil {
		return nil, usageError(fmt.Errorf("--state: %w", err))
	}
	m, err := parseMoves(moves)
	if err != nil {
		return nil, usageError(fmt.Errorf("--moves: %w", err))
	}
	next, err := step(s, m)
	if err != nil {
		if engine.IsRuleError(err) {
			return nil, err
		}
		return nil, usageError(err)
	}
	b, err := json.Marshal(next)
	return append(b, '\n'), err
}

// playersHelp describes the --players names a game takes.
func playersHelp(info engine.Info) string {
	names := slices.Clone(info.Players)
	names = append(names, player.Person+" (a person at this terminal)")
	return strings.Join(names, ", ")
}

// tnccStep is arbiter step tncc: one action (with its answer) or one
// production step on a world in the rules' world JSON.
func tnccStep(state, moves []byte, _ uint64) ([]byte, error) {
	return pureStep(state, moves, func(b []byte) (tncc.World, error) {
		var w tncc.World
		err := w.UnmarshalJSON(b)
		return w, err
	}, tncc.ParseStepMove, tncc.Step)
}
