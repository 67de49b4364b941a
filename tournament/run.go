package tournament

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/report"
)

// GameResult is how one game of a tournament ended: one line of a results
// file.
type GameResult struct {
	// Game is the game's number in the schedule, from 1.
	Game int    `json:"game"`
	Seed uint64 `json:"seed"`
	// Seats names the player in each seat.
	Seats   []string `json:"seats"`
	Scores  []int64  `json:"scores"`
	Ranks   []int    `json:"ranks"`
	Winners []int    `json:"winners"`
	// Faults counts, per seat, the decisions that got the default move: late
	// answers, errors, crashes, illegal moves.
	Faults []int `json:"faults"`
	// Status holds the game's word for a seat whose state matters ("dead").
	Status []string `json:"status,omitempty"`
	// FaultKinds holds, per seat, its faults kind by kind, the first of
	// each with what it said; none when no seat faulted.
	FaultKinds [][]FaultCount `json:"fault_kinds,omitempty"`
	// Names holds, per seat, the name the seat's program gave itself in
	// its ready ("" for a seat that gave none, as a built-in player's);
	// none when no seat's did. Standings call a program by the first name
	// it gave in the schedule's order (Table.ReadyNames), so that a run
	// that goes on from a results file, and a merge of shards, call it as
	// one run does.
	Names []string `json:"names,omitempty"`
}

// readyNamer is a player that may have named itself in the match it
// played last: a program, in its ready (player.Remote).
type readyNamer interface {
	ReadyName() string
}

// FaultCount is how many faults of one kind a seat committed, and what the
// first of them said; reports count a series' faults alike.
type FaultCount = report.FaultCount

// Tournament plays the games of a schedule, or of one shard of it, among
// entrants, several at once.
type Tournament[M, V any] struct {
	Ruleset  engine.Ruleset[M, V]
	Schedule *Schedule
	// Entrants holds the entrant of each of the schedule's players, in the
	// same order. A person cannot play: games are played at once. Each of
	// the games played at once makes its own player of an entrant (New is
	// called from several goroutines at once) and seats it again in the
	// games it plays next, one at a time: a player that keeps memory
	// resets it when it starts (engine.Starter, a bot's Init). A player
	// that overran a deadline or was given up is not seated again: a new
	// one is made.
	Entrants []engine.Entrant[M, V]
	// Deadline bounds each decision; zero means no limit.
	Deadline time.Duration
	// Bank, StartDeadline and ReplyDeadline are every seat's time bank,
	// start-up deadline and deadline for answers owed to another seat's
	// move (see engine.Seat).
	Bank, StartDeadline, ReplyDeadline time.Duration
	// Parallel is how many games are played at once; zero means one per
	// core (GOMAXPROCS).
	Parallel int
	// Shard is the part of the schedule to play; the zero value plays all.
	Shard Shard
	// From is how many of the shard's games were played before (a results
	// file that goes on holds them): play starts with the next one.
	From int
	// Played, if not nil, is called with each game's result, in schedule
	// order, from one goroutine; an error stops the tournament.
	Played func(GameResult) error
	// Training, if not nil, is called after Played with each game's
	// decisions as training lines (see report.WriteTraining).
	Training func(lines []byte) error
	// KeepGoing plays on when a player never answers in its first game;
	// without it, Run stops there with an *AbsentError.
	KeepGoing bool
}

// window bounds, per worker, how many games may be played ahead of the
// first one not yet reported.
const window = 64

// MaxParallel bounds the games played at once: each holds its players (a
// program's process, for each seat of a program), and the runner keeps a
// window of games for each. --parallel 100000000 made a window of 6.4
// billion games, and the machine ran out of memory.
const MaxParallel = 10_000

// ErrStop, returned by Played (or a duel's Pair), ends play early: the
// games under way are dropped, every game reported so far (the one Played
// was given included, with its training lines) is kept, and Run returns
// without an error.
var ErrStop = errors.New("tournament: enough games")

// Run plays the games and reports each through Played. It returns how many
// games were reported. When ctx is cancelled, the games under way are
// dropped, and Run returns the count so far (every game before them was
// reported) and an error wrapping ctx's error.
func (t *Tournament[M, V]) Run(ctx context.Context) (int, error) {
	s := t.Schedule
	if len(t.Entrants) != len(s.Players) {
		return 0, fmt.Errorf("tournament: %d entrants for %d players", len(t.Entrants), len(s.Players))
	}
	for i, e := range t.Entrants {
		if e.Person {
			return 0, fmt.Errorf("tournament: %s is a person; a tournament plays many games at once, so only bots can sit in it", s.Players[i])
		}
	}
	if t.Shard.Count > 0 && (t.Shard.Index < 0 || t.Shard.Index >= t.Shard.Count) {
		return 0, fmt.Errorf("tournament: shard %d/%d does not exist", t.Shard.Index, t.Shard.Count)
	}
	all := t.Shard.Games(s.Len())
	if t.From < 0 || t.From > all {
		return 0, fmt.Errorf("tournament: from game %d of %d", t.From, all)
	}
	if t.From == all {
		return 0, nil // every game was played before
	}
	p := &pool[M, V]{
		ruleset: t.Ruleset, entrants: t.Entrants, names: s.Players, options: s.Options,
		deadline: t.Deadline, bank: t.Bank, startDeadline: t.StartDeadline, replyDeadline: t.ReplyDeadline, parallel: t.Parallel,
		n: all - t.From,
		deal: func(k int) (int, []int, uint64) {
			g := t.Shard.Index + (t.From+k)*t.Shard.count()
			return g, s.Game(g), s.GameSeed(g)
		},
		played: t.Played, training: t.Training, keepGoing: t.KeepGoing,
	}
	reported, err := p.run(ctx)
	switch {
	case err == nil, errors.Is(err, ErrStop):
		return reported, nil
	case errors.Is(err, errAbandoned):
		return reported, fmt.Errorf("tournament stopped after %d of %d games: %w", reported, p.n, errors.Unwrap(err))
	}
	return reported, err
}

// pool plays n games among entrants, several at once, and reports them in
// order.
type pool[M, V any] struct {
	ruleset  engine.Ruleset[M, V]
	entrants []engine.Entrant[M, V]
	names    []string // the entrants' names
	options  map[string]string

	deadline, bank, startDeadline, replyDeadline time.Duration
	parallel                                     int

	n int
	// deal says what the k-th game to play is: its game number (from 0),
	// the entrants in its seats, its seed.
	deal func(k int) (game int, lineup []int, seed uint64)

	played   func(GameResult) error
	training func(lines []byte) error

	// keepGoing plays on when a player never answers in its first game.
	keepGoing bool
	// tried holds the players (by name) whose first game was reported.
	tried map[string]bool
}

// AbsentError stops a tournament or a duel whose player never answered in
// the first game it sat in: it failed to start, or every decision it was
// asked got the default move. Such a player would lose every game, and the
// results would tell nothing of its strength.
type AbsentError struct {
	// Player is the player's name, as the schedule or the duel has it.
	Player string
	// Game is the game's number, from 1, and Seat its seat, from 0.
	Game, Seat int
	// Fault is the first of its faults: its kind, and what it said.
	Fault FaultCount
}

func (e *AbsentError) Error() string {
	return fmt.Sprintf("%s never answered in its first game (game %d, seat %d), so play stopped: its every game would be a loss, which measures nothing. Its first fault (%s): %s",
		e.Player, e.Game, e.Seat+1, e.Fault.Kind, e.Fault.First)
}

// absentFirst returns an *AbsentError when a player sits for the first
// time in g and never answered there.
func (p *pool[M, V]) absentFirst(g *GameResult) error {
	if p.keepGoing {
		return nil
	}
	if p.tried == nil {
		p.tried = map[string]bool{}
	}
	var err error
	for s, name := range g.Seats {
		if p.tried[name] {
			continue
		}
		if err == nil && s < len(g.Status) && g.Status[s] == engine.StatusAbsent && s < len(g.FaultKinds) && len(g.FaultKinds[s]) > 0 {
			err = &AbsentError{Player: name, Game: g.Game, Seat: s, Fault: g.FaultKinds[s][0]}
		}
	}
	for _, name := range g.Seats {
		p.tried[name] = true
	}
	return err
}

// errAbandoned wraps the cause of a run that stopped before its last game
// because ctx was done.
var errAbandoned = errors.New("abandoned")

// run plays the games and reports each, in order. It returns how many were
// reported, and: nil when all were; ErrStop when a report asked to stop;
// the first error of a game or a report; or, when ctx was done first, an
// error that wraps ctx's cause (errors.Unwrap gives it) and errAbandoned.
func (p *pool[M, V]) run(ctx context.Context) (int, error) {
	n := p.n
	workers := p.parallel
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, n, MaxParallel))

	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	size := window * workers
	var (
		next  atomic.Int64                // the next game to take
		slots = make(chan struct{}, size) // a game taken and not yet reported holds one
		done  = make(chan *played, size)
		wg    sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.work(ctx, stop, &next, slots, done)
		}()
	}
	go func() { wg.Wait(); close(done) }()

	// Report the games in order: a game played early waits in ring until
	// every game before it is reported.
	ring := make([]*played, size)
	reported := 0
	var failed error
	for g := range done {
		if failed != nil {
			continue
		}
		if g.err != nil {
			if !errors.Is(g.err, errStopped) {
				failed = g.err
				stop(failed)
			}
			continue
		}
		ring[g.k%size] = g
		for ring[reported%size] != nil {
			q := ring[reported%size]
			ring[reported%size] = nil
			err := p.report(q)
			var absent *AbsentError
			// An absent player's game is kept, and so is the game whose
			// report asked to stop.
			if err == nil || errors.As(err, &absent) || errors.Is(err, ErrStop) {
				reported++
				<-slots
			}
			if err != nil {
				failed = err
				stop(err)
				break
			}
		}
	}
	if failed != nil {
		return reported, failed
	}
	if reported < n {
		return reported, &abandoned{context.Cause(ctx)}
	}
	return reported, nil
}

// abandoned is a run stopped by its context before its last game.
type abandoned struct{ cause error }

func (a *abandoned) Error() string        { return a.cause.Error() }
func (a *abandoned) Unwrap() error        { return a.cause }
func (a *abandoned) Is(target error) bool { return target == errAbandoned }

// errStopped marks a game dropped because the tournament was stopped.
var errStopped = errors.New("stopped")

// played is a game as a worker hands it over.
type played struct {
	k        int // the game's place within the shard
	result   GameResult
	training []byte
	err      error
}

// report reports a game; it stops the run, once the game is reported,
// when a player never answered in its first game (AbsentError), or when
// Played returned ErrStop: that game is kept, so its training lines are
// written too.
func (p *pool[M, V]) report(g *played) error {
	var stop error
	if p.played != nil {
		if err := p.played(g.result); errors.Is(err, ErrStop) {
			stop = err
		} else if err != nil {
			return err
		}
	}
	if p.training != nil {
		if err := p.training(g.training); err != nil {
			return err
		}
	}
	if err := p.absentFirst(&g.result); err != nil {
		return err
	}
	return stop
}

// work plays games until none is left or ctx is done. Each worker has its
// own runner, record and players, reused from game to game.
func (p *pool[M, V]) work(ctx context.Context, stop context.CancelCauseFunc, next *atomic.Int64, slots chan struct{}, done chan<- *played) {
	info := p.ruleset.Info()
	var (
		runner  engine.Runner[M, V]
		rec     engine.Record[M]
		players = make([]engine.Player[M, V], len(p.entrants))
		seats   []engine.Seat[M, V]
		options = maps.Clone(p.options)
		buf     bytes.Buffer
	)
	for {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			return
		}
		k := int(next.Add(1) - 1)
		if k >= p.n {
			<-slots
			return
		}
		g, lineup, seed := p.deal(k)
		setup := engine.Setup{Seed: seed, Options: options, Players: make([]string, len(lineup))}
		seats = seats[:0]
		for i, e := range lineup {
			if players[e] == nil {
				players[e] = p.entrants[e].New()
			}
			setup.Players[i] = p.names[e]
			seats = append(seats, engine.Seat[M, V]{Name: p.names[e], Player: players[e], Deadline: p.deadline,
				Bank: p.bank, StartDeadline: p.startDeadline, ReplyDeadline: p.replyDeadline})
		}
		pl := &played{k: k}
		pl.result, pl.training, pl.err = p.play(ctx, &runner, &rec, &buf, info, g, setup, seats)
		for i, e := range lineup {
			if leftBehind(pl.result, i) {
				// Its call may run on: the next game seats a new one.
				players[e] = nil
			}
		}
		if pl.err != nil && ctx.Err() != nil {
			pl.err = errStopped
		}
		done <- pl
		if pl.err != nil {
			stop(pl.err)
			return
		}
	}
}

// leftBehind reports whether seat's player in the game of res overran a
// deadline or was given up: a call of an in-process player that overran
// is abandoned and may still run, and Decide is never to be called while
// another call of the same player runs.
func leftBehind(res GameResult, seat int) bool {
	if seat >= len(res.FaultKinds) {
		return false
	}
	for _, f := range res.FaultKinds[seat] {
		if f.Kind == engine.FaultTimeout || f.Kind == engine.FaultAbandoned {
			return true
		}
	}
	return false
}

// play plays game g.
func (p *pool[M, V]) play(ctx context.Context, runner *engine.Runner[M, V], rec *engine.Record[M], buf *bytes.Buffer,
	info engine.Info, g int, setup engine.Setup, seats []engine.Seat[M, V]) (GameResult, []byte, error) {
	m, err := p.ruleset.New(setup)
	if err != nil {
		return GameResult{}, nil, fmt.Errorf("game %d: %w", g+1, err)
	}
	rec.Reset(info, setup)
	runner.Game = g + 1
	if err := runner.Run(ctx, m, seats, rec); err != nil {
		return GameResult{}, nil, fmt.Errorf("game %d: %w", g+1, err)
	}
	// A seat that never answered cannot win (engine.Result.Adjudicated).
	res := m.Result().Adjudicated(rec.Absent())
	out := GameResult{
		Game: g + 1, Seed: setup.Seed, Seats: setup.Players,
		Scores: res.Scores, Ranks: res.Ranks, Winners: res.Winners, Status: res.Status,
		Faults: make([]int, len(seats)),
	}
	if out.Winners == nil {
		out.Winners = []int{}
	}
	for i, s := range seats {
		if p, ok := s.Player.(readyNamer); ok {
			if name := p.ReadyName(); name != "" {
				if out.Names == nil {
					out.Names = make([]string, len(seats))
				}
				out.Names[i] = name
			}
		}
	}
	for _, st := range rec.Steps {
		if st.Fault != nil && st.Seat >= 0 && st.Seat < len(out.Faults) {
			out.Faults[st.Seat]++
			if out.FaultKinds == nil {
				out.FaultKinds = make([][]FaultCount, len(seats))
			}
			out.FaultKinds[st.Seat] = report.AddFaults(out.FaultKinds[st.Seat], FaultCount{Kind: st.Fault.Kind, Count: 1, First: st.Fault.Detail})
		}
	}
	if p.training == nil {
		return out, nil, nil
	}
	buf.Reset()
	if err := report.WriteTraining(buf, p.ruleset, rec, g+1); err != nil {
		return out, nil, fmt.Errorf("game %d: training lines: %w", g+1, err)
	}
	return out, bytes.Clone(buf.Bytes()), nil
}
